"""Wissenskarte inspector: the exact text a specialist sees, the graph behind it, tables and entries per month."""

import uuid
from functools import partial

import pandas as pd
import streamlit as st

from core.curation.service import share_for_curation
from core.knowledge import service as inspector
from core.knowledge.service import AGENT_TYPES, FAECHER
from views import ui
from views.widgets import safe

persona = ui.page_setup("wissenskarte")
st.title("Wissenskarte")
st.caption("Was ein Fach-Agent über eine Lehrkraft weiß: genau der Text in seinen Anweisungen und woraus er entsteht.")
if flash := st.session_state.pop("wk_flash", None):
    st.success(flash)

people = ui.run(inspector.inspectable_teachers, viewer_id=persona.teacher_id)
if not people:
    if people is not None:
        st.info("Es sind noch keine Lehrkräfte angelegt.")
    st.stop()
names = {str(p.teacher_id): p.label for p in people}
if st.session_state.get("wk_teacher") not in names:  # another persona was chosen in the sidebar
    st.session_state.pop("wk_teacher", None)
c1, c2, c3 = st.columns(3)
target = c1.selectbox("Lehrkraft", list(names), format_func=names.get, key="wk_teacher", disabled=len(names) == 1,
                      help="Kuratorinnen und das Produktteam können jede Lehrkraft wählen; Lehrkräfte sehen sich.")
agent = c2.selectbox("Fach-Agent", list(AGENT_TYPES), format_func=AGENT_TYPES.get, key="wk_agent")
own = next((p.faecher for p in people if str(p.teacher_id) == target), ())
if st.session_state.get("wk_fach_of") != target:  # a newly chosen teacher starts with her own first Fach
    st.session_state.pop("wk_fach", None)
    st.session_state["wk_fach_of"] = target
faecher = list(FAECHER)
fach = c3.selectbox("Fach", faecher, index=faecher.index(own[0]) if own and own[0] in faecher else 0,
                    format_func=FAECHER.get, key="wk_fach")
ctx = f"{target}:{agent}:{fach}"

ins = ui.run(inspector.inspect_wissenskarte, viewer_id=persona.teacher_id, target_id=uuid.UUID(target),
             agent_type=agent, fach=fach,
             pages={kt: st.session_state.get(f"wk_page_{ctx}_{kt}", 1) for kt in inspector.TYPES})
if ins is None:
    st.stop()
st.session_state["wk_ids"] = {"ctx": ctx, "graph": ins.node_entries, **{t.knowledge_type: t.ids for t in ins.tables}}


def _open(entry_id: str | None) -> None:
    if entry_id:
        st.session_state["wk_open"] = {"ctx": st.session_state["wk_ids"]["ctx"], "id": entry_id}


def _clicked(widget_key: str, ids_key: str) -> None:
    """Graph node or table row selected: open the entry behind it (centre, scope and type nodes open nothing)."""
    ids = st.session_state["wk_ids"].get(ids_key) or []
    selection = st.session_state[widget_key]["selection"]
    indices = selection.get("rows") if "rows" in selection else [
        i for group in selection.get("selected", []) if group.get("data_type") in ("node", "main")
        for i in group.get("data_indices", [])]
    for i in indices or []:
        if 0 <= i < len(ids):
            _open(ids[i])


st.subheader("Text für den Fach-Agenten")
totals = " · ".join(f"{inspector.SCOPES[s]} {n:,}".replace(",", ".") for s, n in ins.scope_totals.items())
st.caption(f"{ins.wissenskarte.tokens} Tokens (geschätzt) · {ins.teacher_name} · sichtbare Einträge: {totals}")
st.code(ins.wissenskarte.text, language=None, wrap_lines=True)

left, right = st.columns([3, 2])
with left:
    st.subheader("Karte")
    st.echarts_chart(ins.graph, key=f"wk_graph_{ctx}", on_select=partial(_clicked, f"wk_graph_{ctx}", "graph"),
                     height=520)
    st.caption(f"Die besten {inspector.GRAPH_ENTRIES} Einträge nach Qualität · Größe = wie oft verwendet · rot "
               f"umrandet = Qualität höchstens {inspector.LOW_QUALITY:.1f} · Farbe = Art. Anklicken öffnet, "
               f"Mausrad zoomt.".replace("0.", "0,"))
with right:
    st.subheader("Eintrag")
    st.selectbox("Eintrag öffnen", list(ins.entries), index=None, format_func=ins.entries.get, key=f"wk_pick_{ctx}",
                 placeholder="In der Karte anklicken oder hier wählen …",
                 on_change=lambda: _open(st.session_state.get(f"wk_pick_{ctx}")))
    opened = st.session_state.get("wk_open") or {}
    d = None
    if opened.get("ctx") == ctx:
        d = ui.run(inspector.entry_detail, viewer_id=persona.teacher_id, target_id=uuid.UUID(target),
                   knowledge_id=opened["id"])
    if d is None:
        st.info("Noch kein Eintrag geöffnet.")
    else:
        with st.container(border=True):
            st.markdown(f"**{safe(d.title)}**")
            quality = f"{d.quality:.2f}".replace(".", ",")
            st.caption(f"{d.art} · {d.bereich} · Quelle: {d.quelle} · Qualität {quality} · {d.times_used}× verwendet"
                       f" · angelegt am {d.created}")
            if d.thema:
                st.markdown(f"**Thema:** {safe(d.thema)}")
            if d.description and len(d.description) > len(d.title):
                st.markdown(f"**Beschreibung:** {safe(d.description)}")
            for label, text in d.fields:
                st.markdown(f"**{label}:** {safe(text)}")
            if d.erwartung:
                st.markdown("**Erwartung:**\n" + "\n".join(
                    f"- {safe(text)}" + (f" ({p} P.)" if p else "") for text, p in d.erwartung))
            if d.shared:
                st.caption("Diese Aufgabe ist zur Kuration geteilt.")
            if d.can_share and st.button("Zur Kuration teilen", key="wk_share"):
                message = ui.run(share_for_curation, teacher_id=persona.teacher_id, knowledge_id=d.id)
                if message:
                    st.session_state["wk_flash"] = message
                    st.rerun()
            if d.can_delete and st.button("Aus meinen bewährten Aufgaben löschen", key="wk_forget"):
                message = ui.run(inspector.forget_good_practice, teacher_id=persona.teacher_id, knowledge_id=d.id)
                if message:
                    st.session_state.pop("wk_open", None)
                    st.session_state["wk_flash"] = message
                    st.rerun()

st.subheader("Einträge nach Art")
if not ins.tables:
    st.info("Für diese Auswahl gibt es noch keine Einträge.")
else:
    tabs = st.tabs([f"{t.label} ({t.total:,})".replace(",", ".") for t in ins.tables])
    for tab, t in zip(tabs, ins.tables, strict=True):
        with tab:
            table_key = f"wk_table_{ctx}_{t.knowledge_type}_{t.page}"
            st.dataframe(pd.DataFrame(t.rows), hide_index=True, selection_mode="single-row", key=table_key,
                         on_select=partial(_clicked, table_key, t.knowledge_type))
            if t.pages > 1:
                st.pagination(t.pages, key=f"wk_page_{ctx}_{t.knowledge_type}", max_visible_pages=7)
                st.caption(f"Seite {t.page} von {t.pages:,} · {inspector.PAGE_SIZE} je Seite".replace(",", "."))

st.subheader("Neue Einträge pro Monat")
if any(ins.monthly.values()):
    st.bar_chart(pd.DataFrame.from_dict(ins.monthly, orient="index").fillna(0).sort_index(), height=220)
else:
    st.caption(f"In den letzten {inspector.MONTHS} Monaten kamen keine Einträge hinzu.")
