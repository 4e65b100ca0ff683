"""Good Practices (Kuration): Warteschlange, bewerten, bearbeiten, befördern, ausmustern, Dubletten, Qualität."""

import uuid
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from core.curation import service as cur
from core.materials.service import FAECHER
from pages import ui
from pages.widgets import safe

persona = ui.page_setup("good_practices")
ME = persona.teacher_id
st.title("Good Practices")
st.caption("Bewährte Aufgaben prüfen, bewerten, verbessern, für alle freigeben – jede Änderung wird protokolliert.")
if flash := st.session_state.pop("gp_flash", None):
    st.success(flash)


def act(label: str, action: Callable[..., Any], *, key: str, **kwargs: Any) -> None:
    """One button, one core call; on success the message survives the rerun that shows the new state."""
    if st.button(label, key=key):
        result = ui.run(action, curator_id=ME, **kwargs)
        if result is not None:
            st.session_state["gp_flash"] = getattr(result, "message", result)
            if isinstance(result, cur.Promoted):  # open the new copy, and keep it listed while it is open
                st.session_state["gp_focus"] = st.session_state["gp_pinned"] = str(result.new_id)
            st.rerun()


def edit_form(v: cur.EntryView, entry_id: uuid.UUID) -> None:
    base = f"gp_{entry_id}"
    if f"{base}_rev" not in st.session_state:  # the form edits the version it was opened with
        st.session_state[f"{base}_rev"], st.session_state[f"{base}_snap"] = v.revision, v.edit
    rev, snap = st.session_state[f"{base}_rev"], st.session_state[f"{base}_snap"]
    k, values = f"{base}_{rev}", {}
    with st.form(k):
        thema = st.text_input("Thema", snap.thema, key=f"{k}_thema")
        description = st.text_input("Kurzbeschreibung", snap.description, key=f"{k}_desc")
        if snap.is_task:
            ops, (c1, c2, c3) = v.operator_options, st.columns(3)
            values["operator"] = c1.selectbox("Operator", ops, index=ops.index(snap.operator) if snap.operator in ops
                                              else None, format_func=v.operator_label, key=f"{k}_op")
            values["afb"] = c2.selectbox("AFB", cur.AFB_STUFEN, key=f"{k}_afb",
                                         index=cur.AFB_STUFEN.index(snap.afb) if snap.afb in cur.AFB_STUFEN else None)
            values["punkte"] = c3.number_input("Punkte", value=snap.punkte, step=1, key=f"{k}_punkte")
            values["aufgabe"] = st.text_area("Aufgabe", snap.aufgabe, height=140, key=f"{k}_aufgabe")
            st.caption("Erwartungshorizont – die Punkte der Kriterien ergeben zusammen die Punktzahl der Aufgabe.")
            criteria = st.data_editor(
                pd.DataFrame(snap.erwartung, columns=["kriterium", "punkte"]), num_rows="dynamic", hide_index=True,
                key=f"{k}_crit", column_config={
                    "kriterium": st.column_config.TextColumn("Kriterium", width="large"),
                    "punkte": st.column_config.NumberColumn("Punkte", min_value=0, step=1, format="%d")})
            values["erwartung"] = criteria.to_dict("records")
            values["material"] = st.text_area("Material", snap.material, key=f"{k}_material")
            c4, c5 = st.columns(2)
            values["themenfeld"] = c4.text_input("Themenfeld", snap.themenfeld, key=f"{k}_feld")
            values["klassenstufe"] = c5.number_input("Klassenstufe", value=snap.klassenstufe, step=1, key=f"{k}_ks")
        kontext = st.text_area("Kontext", snap.kontext, key=f"{k}_kontext")
        submitted = st.form_submit_button("Speichern", type="primary", key=f"{k}_save")
    saved = None
    if submitted:
        edit = cur.EntryEdit(thema=thema, description=description, kontext=kontext, **values)
        saved = ui.run(cur.save_entry, curator_id=ME, knowledge_id=entry_id, expected_revision=rev, edit=edit)
        if saved is not None:
            st.session_state["gp_flash"] = saved.message
    if saved is not None or st.button("Verwerfen und neu laden", key=f"{base}_reload"):
        del st.session_state[f"{base}_rev"], st.session_state[f"{base}_snap"]
        st.rerun()


def show_entry(entry_id: uuid.UUID) -> None:
    v = ui.run(cur.entry_detail, curator_id=ME, knowledge_id=entry_id)
    if v is None:
        return
    st.subheader(v.card.thema)
    st.caption(v.summary)
    a1, a2, a3 = st.columns(3)
    with a1:
        stars = st.feedback("stars", key=f"gp_stars_{entry_id}_{v.card.bewertungen}")
        if stars is not None:
            act("Bewertung speichern", cur.rate_entry, key=f"gp_rate_{entry_id}", knowledge_id=entry_id,
                stars=stars + 1)
    with a2:
        act("Als geprüft markieren", cur.review_entry, key=f"gp_review_{entry_id}", knowledge_id=entry_id)
    with a3:
        if v.shared and v.promoted_to:
            st.caption(f"Bereits befördert als allgemeiner Eintrag {str(v.promoted_to)[:8]}.")
        elif v.shared:
            act("Befördern (anonymisierte allgemeine Kopie)", cur.promote_entry, key=f"gp_promote_{entry_id}",
                knowledge_id=entry_id)
        else:
            act("Wieder aktivieren" if v.retired else "Ausmustern", cur.retire_entry, key=f"gp_retire_{entry_id}",
                knowledge_id=entry_id, retired=not v.retired)
    if v.editable and not v.retired:
        edit_form(v, entry_id)
    else:
        st.info(v.hint)
        st.json(v.content, expanded=False)
    with st.expander(f"Änderungsverlauf ({len(v.history)})"):
        if v.history:
            st.dataframe(pd.DataFrame([h.row() for h in v.history]), hide_index=True)
        else:
            st.caption("Noch keine Änderungen.")


c1, c2, c3, c4 = st.columns([1, 1, 1.4, 2])
fach = c1.selectbox("Fach", list(FAECHER), index=list(FAECHER).index(cur.default_fach(persona.faecher)),
                    format_func=FAECHER.get, key="gp_fach")
agent = c2.selectbox("Typ", list(cur.AGENT_FILTER), format_func=cur.AGENT_FILTER.get, key="gp_agent")
view = c3.selectbox("Ansicht", list(cur.VIEWS), format_func=cur.VIEWS.get, key="gp_view")
text = c4.text_input("Suche (Thema, Aufgabentext)", key="gp_text")
filters = cur.QueueFilter(fach=fach, agent_type=agent or None, view=view, text=text)
page_key = f"gp_page_{fach}_{agent}_{view}_{text}"  # a new filter starts on page 1
page_no = st.session_state.get(page_key, 1)
tab_list, tab_dup, tab_hist = st.tabs(["Einträge", "Dubletten", "Qualität"], key="gp_tab", on_change="rerun")

with tab_list:
    result = ui.run(cur.queue_page, curator_id=ME, filters=filters, page=page_no) if tab_list.open else None
    if result is not None:
        st.caption(result.caption)
        if result.pages > 1:
            st.pagination(result.pages, default=result.page, key=page_key)
        labels = {str(e.id): e.label for e in result.entries}
        if pinned := st.session_state.get("gp_pinned"):
            labels.setdefault(pinned, "Zuletzt befördert (allgemeine Kopie)")
        if focus := st.session_state.pop("gp_focus", None):
            st.session_state["gp_entry"] = focus
        if result.entries:
            st.dataframe(pd.DataFrame([e.row() for e in result.entries]), hide_index=True)
        else:
            st.info("Keine Einträge für diese Auswahl.")
        if labels:
            chosen = st.selectbox("Eintrag öffnen", list(labels), format_func=labels.get, key="gp_entry")
            show_entry(uuid.UUID(chosen))

with tab_dup:
    pairs = ui.run(cur.near_duplicates, curator_id=ME, filters=filters, page=page_no) if tab_dup.open else None
    if pairs == []:
        st.info(f"Keine Dubletten (Ähnlichkeit ab {cur.DUPLICATE_SIMILARITY:.2f}) unter den Einträgen dieser Seite."
                .replace("0.", "0,"))
    for p in pairs or []:
        with st.container(border=True):
            st.markdown(p.heading)
            for col, card, task in zip(st.columns(2), (p.a, p.b), (p.text_a, p.text_b), strict=True):
                col.markdown(card.summary)
                col.markdown(safe(task))  # a teacher's text: no remote images, no markup
            if p.mergeable:
                keep = st.radio("Behalten", [p.a.id, p.b.id], horizontal=True, format_func=p.choice_label,
                                key=f"gp_keep_{p.key}")
                act("Zusammenführen", cur.merge_entries, key=f"gp_merge_{p.key}", keep_id=keep, drop_id=p.other(keep))
            else:
                st.caption("Eine Aufgabe gehört einer Lehrkraft und wird nicht ausgemustert – ist sie schon allgemein "
                           "vorhanden, bitte nicht befördern, sondern als geprüft markieren.")

with tab_hist:
    bars = ui.run(cur.quality_histogram, curator_id=ME, agent_type=agent or None) if tab_hist.open else None
    if bars == []:
        st.info("Noch keine aktiven Good Practices.")
    if bars:
        st.caption(cur.histogram_caption(bars))
        st.vega_lite_chart(pd.DataFrame([vars(b) for b in bars]), cur.HISTOGRAM_SPEC)
