"""Sitzungen & Traces: Rückfrage sessions by status and the full trace of one conversation with its model calls."""

import streamlit as st

from core.chat.service import (
    SESSION_STATUS,
    TraceStep,
    conversation_trace,
    my_conversations,
    my_sessions,
    shared_conversations,
)
from views import ui
from views.widgets import safe

persona = ui.page_setup("sitzungen")
st.title("Sitzungen & Traces")
st.caption("Sie sehen Ihre eigenen Rückfragen, Gespräche und Modellaufrufe: Die Datenbank (Row-Level Security) gibt "
           "Daten, die einer Lehrkraft gehören, nur dieser Person heraus. Kuration und Produktteam nur ein Gespräch, "
           "das die Lehrkraft unter „Meine Daten & Datenschutz“ freigegeben hat – und jedes Lesen steht in ihrem "
           "Protokoll.")


def number(value: int) -> str:
    return f"{value:,}".replace(",", ".")


def show_steps(steps: list[TraceStep]) -> None:
    for step in steps:
        with st.expander(f"{step.nummer}. {step.label}", expanded=step.kind in ("user", "text"), type="step"):
            if step.is_json:
                st.code(step.body, language="json", wrap_lines=True)
            else:
                st.text(step.body)


staff = persona.role in ("curator", "product")
source = "mine"
if staff:  # curators and the product team: the conversations teachers released to them, and their own
    shared = ui.run(shared_conversations, teacher_id=persona.teacher_id) or []
    source = st.radio("Ansicht", ["shared", "mine"], key="trace_source", horizontal=True,
                      format_func={"shared": f"Von Lehrkräften freigegeben ({len(shared)})",
                                   "mine": "Meine eigenen Gespräche"}.get)

if source == "shared":
    st.subheader("Von Lehrkräften freigegebene Gespräche")
    st.caption("Nur Gespräche, die eine Lehrkraft unter „Meine Daten & Datenschutz“ ausdrücklich freigegeben hat. "
               "Jedes Öffnen steht mit Ihrem Namen im Protokoll der Lehrkraft; zieht sie die Freigabe zurück, "
               "verschwindet das Gespräch hier.")
    if not shared:
        st.info("Zurzeit hat keine Lehrkraft ein Gespräch freigegeben.")
        st.stop()
    st.dataframe([{"Freigabe": c.label} for c in shared], hide_index=True)
    conversations, conv_key = shared, "trace_shared"
else:
    st.subheader("Rückfragen der Fach-Assistenten")
    overview = ui.run(my_sessions, teacher_id=persona.teacher_id,
                      status=st.session_state.get("ses_status", "waiting"))
    if overview is not None:
        st.radio("Status", list(SESSION_STATUS), key="ses_status", horizontal=True, label_visibility="collapsed",
                 format_func=lambda s: f"{SESSION_STATUS[s]} ({overview.counts.get(s, 0)})")
        if overview.rows:
            st.dataframe(overview.rows, hide_index=True)
        else:
            st.info(f"Keine Rückfragen mit dem Status „{SESSION_STATUS[overview.status]}“.")
    st.subheader("Gesprächsverlauf")
    conversations, conv_key = ui.run(my_conversations, teacher_id=persona.teacher_id) or [], "trace_conv"
    if not conversations:
        st.info("Noch keine Gespräche. Sobald Sie im Chat etwas anfragen, lässt sich hier jeder Schritt "
                "nachvollziehen.")
        st.stop()
labels = {c.id: c.label for c in conversations}
chosen = st.selectbox("Gespräch (neueste zuerst)", list(labels), format_func=labels.get, key=conv_key)
if source == "shared":
    st.caption("Dieses Öffnen wird im Protokoll der Lehrkraft vermerkt.")
trace = ui.run(conversation_trace, teacher_id=persona.teacher_id, conversation_id=chosen)
if trace is None:
    st.stop()

t = trace.totals
st.markdown("**Modellaufrufe**")
c1, c2, c3, c4 = st.columns(4)
c1.metric("Aufrufe", t.calls)
c2.metric("Tokens ein / aus" + (" (geschätzt)" if t.estimated else ""),
          f"{number(t.input_tokens)} / {number(t.output_tokens)}")
c3.metric("Kosten (USD)", f"{t.cost_usd:.4f}".replace(".", ",") + (" +?" if t.cost_unknown else ""),
          help="„+?“: Für mindestens ein Modell ist kein Preis hinterlegt." if t.cost_unknown else None)
c4.metric("Dauer gesamt", f"{number(t.latency_ms)} ms")
if trace.calls:
    st.dataframe(trace.calls, hide_index=True, column_config={
        "Kosten (USD)": st.column_config.NumberColumn(format="%.4f"),
        "Zählung": st.column_config.TextColumn(help="geschätzt: Tokens selbst gezählt; gemeldet: vom Anbieter")})
else:
    st.caption("Zu diesem Gespräch sind keine Modellaufrufe gespeichert.")

if trace.turns:
    st.markdown(f"**Ablauf je Anfrage** · {len(trace.turns)} Anfragen")
    for n, turn in enumerate(trace.turns, start=1):
        title = f"{n}. {turn.zeit} · {safe(turn.anfrage[:80])} → {turn.model}" + (  # the teacher's words: no markup
            " · ⚠ Hinweis" if turn.notices else "")
        with st.expander(title, expanded=bool(turn.notices)):
            for notice in turn.notices:
                st.warning(notice)
            st.text("\n".join(turn.steps) or "(keine Schritte gespeichert)")

st.markdown(f"**Nachrichten** · {len(trace.steps)} Schritte")
if not trace.steps:
    st.caption("Der gespeicherte Verlauf ist leer.")
show_steps(trace.steps)
for heading, steps in trace.specialists:
    st.markdown(f"**{heading}** · {len(steps)} Schritte")
    show_steps(steps)
for n, turn in enumerate(trace.turns, start=1):
    for heading, steps in turn.specialists:
        st.markdown(f"**{heading}** (Anfrage {n}) · {len(steps)} Schritte")
        show_steps(steps)
