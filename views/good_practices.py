"""Good Practices (Kuration): Warteschlange, bewerten, bearbeiten, befördern, ausmustern, Dubletten, Qualität."""

import uuid
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from core.curation import service as cur
from core.materials.service import FAECHER
from core.uploads import service as uploads
from views import ui
from views.widgets import safe

persona = ui.page_setup("good_practices")
ME = persona.teacher_id
st.title("Good Practices")
st.caption("Bewährte Aufgaben prüfen, bewerten, verbessern, für alle freigeben – jede Änderung wird protokolliert.")
if flash := st.session_state.pop("gp_flash", None):
    st.success(flash)


def keep_open(entry_id: uuid.UUID | str) -> None:
    """The entry stays open after an action, even when it leaves the list (rated, retired, other page)."""
    st.session_state["gp_focus"] = st.session_state["gp_pinned"] = str(entry_id)


def act(label: str, action: Callable[..., Any], *, key: str, entry_id: uuid.UUID, **kwargs: Any) -> None:
    """One button, one core call; on success the message survives the rerun that shows the new state."""
    if st.button(label, key=key):
        result = ui.run(action, curator_id=ME, **kwargs)
        if result is not None:
            st.session_state["gp_flash"] = getattr(result, "message", result)
            keep_open(result.new_id if isinstance(result, cur.Promoted) else entry_id)
            st.rerun()


def task_fields(v: cur.EntryView, d: cur.EntryEdit, k: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    ops, (c1, c2, c3) = v.operator_options, st.columns(3)
    values["operator"] = c1.selectbox("Operator", ops, index=ops.index(d.operator) if d.operator in ops else None,
                                      format_func=v.operator_label, key=f"{k}_op")
    values["afb"] = c2.selectbox("AFB", cur.AFB_STUFEN, key=f"{k}_afb",
                                 index=cur.AFB_STUFEN.index(d.afb) if d.afb in cur.AFB_STUFEN else None)
    values["punkte"] = c3.number_input("Punkte", value=d.punkte, step=1, key=f"{k}_punkte")
    values["aufgabe"] = st.text_area("Aufgabe", d.aufgabe, height=140, key=f"{k}_aufgabe")
    st.caption("Erwartungshorizont – die Punkte der Kriterien ergeben zusammen die Punktzahl der Aufgabe.")
    criteria = st.data_editor(
        pd.DataFrame(d.erwartung, columns=["kriterium", "punkte"]), num_rows="dynamic", hide_index=True,
        key=f"{k}_crit", column_config={
            "kriterium": st.column_config.TextColumn("Kriterium", width="large"),
            "punkte": st.column_config.NumberColumn("Punkte", min_value=0, step=1, format="%d")})
    values["erwartung"] = criteria.to_dict("records")
    values["material"] = st.text_area("Material", d.material, key=f"{k}_material")
    c4, c5 = st.columns(2)
    values["themenfeld"] = c4.text_input("Themenfeld", d.themenfeld, key=f"{k}_feld")
    values["klassenstufe"] = c5.number_input("Klassenstufe", value=d.klassenstufe, step=1, key=f"{k}_ks")
    return values


CONFLICT_COLUMNS = ("Ausgangsstand (als Sie das Formular öffneten)", "Jetzt gespeichert (von der anderen Person)",
                    "Ihre Fassung (steht im Formular)")


def conflict_panel(entry_id: uuid.UUID, state: str, v: cur.EntryView) -> None:
    """After a refused save: merge my changes onto the stored version; then show which fields both changed."""
    snap, mine = st.session_state[f"{state}_snap"], st.session_state.get(f"{state}_mine")
    stale = mine is not None and v.revision != st.session_state[f"{state}_rev"]
    if stale and st.button("Mit der aktuellen Version zusammenführen", key=f"{state}_rebase", type="primary"):
        rebased = ui.run(cur.rebase_edit, curator_id=ME, knowledge_id=entry_id, base=snap, mine=mine)
        if rebased is not None:
            view, merged, conflicts = rebased
            st.session_state.update({f"{state}_rev": view.revision, f"{state}_snap": view.edit,
                                     f"{state}_draft": merged, f"{state}_conflicts": conflicts})
            st.session_state.pop(f"{state}_mine", None)
            st.rerun()
    if conflicts := st.session_state.get(f"{state}_conflicts"):
        st.warning("Zusammengeführt: Die Änderungen der anderen Person sind übernommen. Diese Felder haben beide "
                   "geändert – im Formular steht Ihre Fassung; bitte prüfen und speichern.")
        for c in conflicts:  # side by side and wrapped: long task texts stay readable without scrolling sideways
            with st.container(border=True, key=f"{state}_conflict_{c.feld}"):
                st.markdown(f"**{c.feld}**")
                for col, label, text in zip(st.columns(3), CONFLICT_COLUMNS, (c.gespeichert, c.aktuell, c.ihre),
                                            strict=True):
                    col.caption(label)
                    col.markdown(safe(text) or "—")


def edit_form(v: cur.EntryView, entry_id: uuid.UUID) -> None:
    state = f"gp_{entry_id}"
    if f"{state}_rev" not in st.session_state:  # the form edits the version it was opened with
        st.session_state.update({f"{state}_rev": v.revision, f"{state}_snap": v.edit, f"{state}_draft": v.edit})
    rev, snap, draft = (st.session_state[f"{state}_{n}"] for n in ("rev", "snap", "draft"))
    k, values = f"{state}_{rev}", {}
    with st.form(k):
        thema = st.text_input("Thema", draft.thema, key=f"{k}_thema")
        description = st.text_input("Kurzbeschreibung", draft.description, key=f"{k}_desc")
        if draft.is_task:
            values = task_fields(v, draft, k)
        kontext = st.text_area("Kontext", draft.kontext, key=f"{k}_kontext")
        submitted = st.form_submit_button("Speichern", type="primary", key=f"{k}_save")
    saved = None
    if submitted:
        edit = cur.EntryEdit(thema=thema, description=description, kontext=kontext, **values)
        saved = ui.run(cur.save_entry, curator_id=ME, knowledge_id=entry_id, expected_revision=rev, edit=edit,
                       base=snap)
        if saved is not None:
            st.session_state["gp_flash"] = saved.message
            keep_open(entry_id)
        else:
            st.session_state[f"{state}_mine"] = edit
    conflict_panel(entry_id, state, v)
    if saved is not None or st.button("Verwerfen und neu laden", key=f"{state}_reload"):
        for name in ("rev", "snap", "draft", "mine", "conflicts"):
            st.session_state.pop(f"{state}_{name}", None)
        st.rerun()


def quiz_fields(c: dict[str, Any], k: str) -> dict[str, Any]:
    typ = c.get("typ")
    gaps = typ in ("blanks", "dragtext")
    frage = st.text_area("Lückentext" if gaps else "Frage", c.get("frage") or "", key=f"{k}_frage",
                         help="Lücken in Sternchen: *Wort*" if gaps else None)
    out: dict[str, Any] = {"frage": frage}
    if typ == "multichoice":
        answers = st.data_editor(
            pd.DataFrame(c.get("antworten") or [], columns=["text", "korrekt", "feedback"]), num_rows="dynamic",
            hide_index=True, key=f"{k}_antworten", column_config={
                "text": st.column_config.TextColumn("Antwort", width="medium"),
                "korrekt": st.column_config.CheckboxColumn("richtig", default=False),
                "feedback": st.column_config.TextColumn("Rückmeldung", width="large")})
        out["antworten"] = answers.to_dict("records")
    elif typ == "truefalse":
        out["wahr"] = st.radio("Die Aussage ist", [True, False], index=0 if c.get("wahr") else 1, horizontal=True,
                               format_func=lambda b: "richtig" if b else "falsch", key=f"{k}_wahr")
    out["erklaerung"] = st.text_area("Erklärung", c.get("erklaerung") or "", key=f"{k}_erkl")
    return out


def level_fields(c: dict[str, Any], k: str) -> dict[str, Any]:
    out: dict[str, Any] = {"lernziel": st.text_area("Lernziel", c.get("lernziel") or "", key=f"{k}_ziel")}
    for level in cur.LEVELS:
        st.markdown(f"**Niveau {level}** – eine Zeile je Eintrag")
        parts = c.get(level) or {}
        cols = st.columns(len(cur.LEVEL_PARTS))
        out[level] = {part: [x for x in col.text_area(f"{label} ({level})", "\n".join(parts.get(part) or []),
                                                      height=150, key=f"{k}_{level}_{part}").splitlines()]
                      for col, (part, label) in zip(cols, cur.LEVEL_PARTS.items(), strict=True)}
    return out


def content_form(v: cur.EntryView, entry_id: uuid.UUID) -> None:
    """What a quiz question or a three-level task is made of: every field editable, validated on save."""
    k = f"gp_{entry_id}_content_{v.revision}"
    with st.form(k):
        st.markdown("**Inhalt**")
        values = quiz_fields(v.content, k) if v.agent_type == "h5p" else level_fields(v.content, k)
        submitted = st.form_submit_button("Inhalt speichern", type="primary")
    if submitted:
        saved = ui.run(cur.save_entry_content, curator_id=ME, knowledge_id=entry_id, expected_revision=v.revision,
                       content=values)
        if saved is not None:
            st.session_state["gp_flash"] = saved.message
            keep_open(entry_id)
            for name in ("rev", "snap", "draft"):  # the upper form reads the new version too
                st.session_state.pop(f"gp_{entry_id}_{name}", None)
            st.rerun()


def retire_controls(v: cur.EntryView, entry_id: uuid.UUID) -> None:
    if v.retired:
        act("Wieder aktivieren", cur.retire_entry, key=f"gp_retire_{entry_id}", entry_id=entry_id,
            knowledge_id=entry_id, retired=False)
        if v.merged_into and st.button(f"Zum Eintrag {str(v.merged_into)[:8]} (zusammengeführt)",
                                       key=f"gp_goto_{entry_id}"):
            keep_open(v.merged_into)
            st.rerun()
        return
    with st.popover("Ausmustern …"):
        reason = st.text_input("Grund (Pflicht)", key=f"gp_reason_{entry_id}",
                               placeholder="z. B. fachlich falsch, veraltet, doppelt")
        act("Ausmustern bestätigen", cur.retire_entry, key=f"gp_retire_{entry_id}", entry_id=entry_id,
            knowledge_id=entry_id, retired=True, reason=reason)


def history_panel(v: cur.EntryView, entry_id: uuid.UUID) -> None:
    with st.expander(f"Änderungsverlauf ({len(v.history)})"):
        if not v.history:
            st.caption("Noch keine Änderungen.")
            return
        for h in v.history:  # one block per change, before/after wrapped side by side: long texts stay readable
            with st.container(border=True, key=f"gp_change_{h.id}"):
                st.markdown(f"**{h.label}**")
                for f in h.felder:
                    name, before, after = st.columns([1, 3, 3])
                    name.markdown(f"*{f.feld}*")
                    before.markdown(f"Vorher: {safe(f.vorher)}")
                    after.markdown(f"Nachher: {safe(f.nachher)}")
        edits = {h.id: h for h in v.history if h.restorable}
        if edits and v.editable and not v.retired:
            chosen = st.selectbox("Fassung vor dieser Änderung wiederherstellen", list(edits),
                                  format_func=lambda i: edits[i].label, key=f"gp_restore_pick_{entry_id}")
            act("Wiederherstellen", cur.restore_entry_version, key=f"gp_restore_{entry_id}", entry_id=entry_id,
                knowledge_id=entry_id, change_id=chosen, expected_revision=v.revision)


def show_entry(entry_id: uuid.UUID) -> None:
    v = ui.run(cur.entry_detail, curator_id=ME, knowledge_id=entry_id)
    if v is None:
        return
    st.session_state["gp_open_label"] = v.card.label
    st.subheader(safe(v.card.thema))  # a teacher's title: no remote images, no markup
    st.caption(safe(v.summary))
    a1, a2, a3 = st.columns(3)
    with a1:
        stars = st.feedback("stars", key=f"gp_stars_{entry_id}_{v.card.bewertungen}")
        if stars is not None:
            act("Bewertung speichern", cur.rate_entry, key=f"gp_rate_{entry_id}", entry_id=entry_id,
                knowledge_id=entry_id, stars=stars + 1)
    with a2:
        act("Als geprüft markieren", cur.review_entry, key=f"gp_review_{entry_id}", entry_id=entry_id,
            knowledge_id=entry_id)
    with a3:
        if v.shared and v.promoted_to:
            st.caption(f"Bereits befördert als allgemeiner Eintrag {str(v.promoted_to)[:8]}.")
        elif v.shared:
            act("Befördern (anonymisierte allgemeine Kopie)", cur.promote_entry, key=f"gp_promote_{entry_id}",
                entry_id=entry_id, knowledge_id=entry_id)
        else:
            retire_controls(v, entry_id)
    if v.editable and not v.retired:
        edit_form(v, entry_id)
        if not v.edit.is_task and v.agent_type in ("h5p", "differenzierung"):
            content_form(v, entry_id)
    else:
        st.info(v.hint)
    if not (v.editable and not v.retired):
        st.dataframe(pd.DataFrame(v.content_rows(), columns=["Feld", "Inhalt"]), hide_index=True)
    history_panel(v, entry_id)


def entries_tab(filters: cur.QueueFilter, page_key: str) -> None:
    result = ui.run(cur.queue_page, curator_id=ME, filters=filters, page=st.session_state.get(page_key, 1))
    if result is None:
        return
    st.caption(result.caption)
    if result.pages > 1:
        st.pagination(result.pages, default=result.page, key=page_key)
    labels = {str(e.id): e.label for e in result.entries}
    if pinned := st.session_state.get("gp_pinned"):
        labels.setdefault(pinned, st.session_state.get("gp_open_label") or "Geöffneter Eintrag")
    if focus := st.session_state.pop("gp_focus", None):
        st.session_state["gp_entry"] = focus
    if result.entries:
        st.dataframe(pd.DataFrame([e.row() for e in result.entries]), hide_index=True)
    else:
        st.info("Keine Einträge für diese Auswahl.")
    if labels:
        chosen = st.selectbox("Eintrag öffnen", list(labels), format_func=labels.get, key="gp_entry")
        if pinned and chosen != pinned:
            st.session_state.pop("gp_pinned", None)  # another entry chosen: the pinned one may leave the list
        show_entry(uuid.UUID(chosen))


def duplicates_tab(filters: cur.QueueFilter) -> None:
    dup_key = f"gp_dup_page_{filters.fach}_{filters.agent_type}_{filters.text}"
    result = ui.run(cur.near_duplicates, curator_id=ME, filters=filters, page=st.session_state.get(dup_key, 1))
    if result is None:
        return
    if not result.pairs:
        st.info(f"Keine Dubletten (Ähnlichkeit ab {cur.DUPLICATE_SIMILARITY:.2f}) in {FAECHER[filters.fach]}."
                .replace("0.", "0,"))
        return
    st.caption(result.caption)
    if result.pages > 1:
        st.pagination(result.pages, default=result.page, key=dup_key)
    for p in result.pairs:
        with st.container(border=True):
            st.markdown(p.heading)
            for col, card, task in zip(st.columns(2), (p.a, p.b), (p.text_a, p.text_b), strict=True):
                col.markdown(safe(card.summary))
                col.markdown(safe(task))  # a teacher's text: no remote images, no markup
            st.dataframe(pd.DataFrame(p.compare_table()), hide_index=True, column_config={  # room for the texts
                "Feld": st.column_config.TextColumn(width="small"), "": st.column_config.TextColumn(width=40)})
            if p.mergeable:
                choices = {i: safe(p.choice_label(i)) for i in (p.a.id, p.b.id)}  # a teacher's title: no markup
                keep = st.radio("Behalten", list(choices), horizontal=True, format_func=choices.get,
                                key=f"gp_keep_{p.key}")
                act("Zusammenführen", cur.merge_entries, key=f"gp_merge_{p.key}", entry_id=keep, keep_id=keep,
                    drop_id=p.other(keep))
            else:
                st.caption("Eine Aufgabe gehört einer Lehrkraft und wird nicht ausgemustert – ist sie schon allgemein "
                           "vorhanden, bitte nicht befördern, sondern als geprüft markieren.")


def operators_tab(fach: str) -> None:
    ops = ui.run(cur.subject_operators, curator_id=ME, fach=fach)
    if ops is None:
        return
    st.caption(f"Operatorenliste {FAECHER[fach]} (Version {ops.revision}) – gilt für Klausuren, Prüfungen und die "
               f"Kuration ab der nächsten Anfrage. Zeilen hinzufügen oder löschen, dann speichern.")
    edited = st.data_editor(
        pd.DataFrame(ops.rows, columns=["operator", "afb", "beschreibung"]), num_rows="dynamic", hide_index=True,
        key=f"gp_ops_{fach}_{ops.revision}", column_config={
            "operator": st.column_config.TextColumn("Operator", required=True),
            "afb": st.column_config.SelectboxColumn("AFB", options=list(cur.AFB_STUFEN), required=True),
            "beschreibung": st.column_config.TextColumn("Beschreibung", width="large")})
    if st.button("Operatorenliste speichern", key=f"gp_ops_save_{fach}", type="primary"):
        message = ui.run(cur.save_subject_operators, curator_id=ME, fach=fach, rows=edited.to_dict("records"),
                         expected_revision=ops.revision)
        if message is not None:
            st.session_state["gp_flash"] = message
            st.rerun()


def held_tab() -> None:
    """Uploads held for review: the flagged passage only (pupils' data removed); approve or reject, recorded."""
    state = st.segmented_control("Stand", ["held", "approved", "rejected"], default="held", key="gp_held_state",
                                 format_func=uploads.STATUS_LABELS.get) or "held"
    entries = ui.run(uploads.held_uploads, curator_id=ME, status=state)
    if not entries:
        if entries == []:
            st.info("Keine hochgeladenen Dateien in diesem Stand.")
        return
    for r in entries:
        with st.container(border=True):
            st.markdown(f"**{safe(r.filename)}** · {r.fach} · für {r.scope} · {r.created_at:%d.%m.%Y %H:%M}")
            st.caption(f"Grund: {r.reason}. Markierte Stelle (nur Daten, personenbezogene Angaben entfernt):")
            st.code(r.passage, language=None, wrap_lines=True)
            if r.status != "held":
                st.caption(f"{r.status_label} am {r.decided_at:%d.%m.%Y %H:%M}")
                continue
            c1, c2 = st.columns(2)
            for col, approve, label in ((c1, True, "Freigeben"), (c2, False, "Ablehnen (bleibt privat)")):
                if col.button(label, key=f"gp_held_{r.id}_{approve}"):
                    message = ui.run(uploads.decide_upload, curator_id=ME, review_id=r.id, approve=approve)
                    if message is not None:
                        st.session_state["gp_flash"] = message
                        st.rerun()


c1, c2, c3, c4, c5 = st.columns([1, 1, 1.3, 1.3, 2])
fach = c1.selectbox("Fach", list(FAECHER), index=list(FAECHER).index(cur.default_fach(persona.faecher)),
                    format_func=FAECHER.get, key="gp_fach")
agent = c2.selectbox("Typ", list(cur.AGENT_FILTER), format_func=cur.AGENT_FILTER.get, key="gp_agent")
view = c3.selectbox("Ansicht", list(cur.VIEWS), format_func=cur.VIEWS.get, key="gp_view")
order = c4.selectbox("Sortierung", list(cur.ORDERS), format_func=cur.ORDERS.get, key="gp_order")
text = c5.text_input("Suche (Thema, Aufgabentext)", key="gp_text")
filters = cur.QueueFilter(fach=fach, agent_type=agent or None, view=view, text=text, order=order)
tab_list, tab_dup, tab_hist, tab_ops, tab_held = st.tabs(
    ["Einträge", "Dubletten", "Qualität", "Operatoren", "Uploads in Prüfung"], key="gp_tab", on_change="rerun")

with tab_list:
    if tab_list.open:
        entries_tab(filters, f"gp_page_{fach}_{agent}_{view}_{order}_{text}")  # a new filter starts on page 1

with tab_dup:
    if tab_dup.open:
        duplicates_tab(filters)

with tab_hist:
    bars = (ui.run(cur.quality_histogram, curator_id=ME, agent_type=agent or None, fach=fach) if tab_hist.open
            else None)
    if bars == []:
        st.info(f"Noch keine aktiven Good Practices in {FAECHER[fach]}.")
    if bars:
        st.caption(cur.histogram_caption(bars))
        st.vega_lite_chart(pd.DataFrame([vars(b) for b in bars]), cur.HISTOGRAM_SPEC)

with tab_ops:
    if tab_ops.open:
        operators_tab(fach)

with tab_held:
    if tab_held.open:
        held_tab()
