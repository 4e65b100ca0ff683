"""Schülerantwort prüfen: a pupil's answer against a sub-task's Erwartungshorizont — a suggestion, never a grade."""

import re

import streamlit as st

from core.assessment.service import DATENSCHUTZ, HINWEIS, UPLOAD_TYPES, answer_from_upload, assess, exam_choices
from views import ui

persona = ui.page_setup("bewerten")
st.title("Schülerantwort prüfen")
st.info(f"**{HINWEIS}** Die Checkliste zeigt, welche Punkte des Erwartungshorizonts sich in der Antwort finden, "
        "mit Beleg aus dem Text und einer Punktespanne. Sie vergibt keine Note.", icon="⚖️")
st.caption(f"🔒 {DATENSCHUTZ}")

MET = {"yes": "✅ erfüllt", "partly": "🟡 teilweise", "no": "⚪ nicht gefunden"}


def md(text: str) -> str:
    """Pupil and model texts are shown literally, not as markdown."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:])", r"\\\1", text)


def load_upload() -> None:
    upload = st.session_state.get("bw_file")
    if upload is not None:
        text = ui.run(answer_from_upload, filename=upload.name, data=upload.getvalue())
        if text is not None:
            st.session_state["bw_answer"] = text


def clear() -> None:
    st.session_state["bw_answer"] = ""


exams = ui.run(exam_choices, teacher_id=persona.teacher_id)
if exams is None:
    st.stop()
if not exams:
    st.info("Hier prüfen Sie Schülerantworten gegen den Erwartungshorizont Ihrer Klausuren. Sie haben noch keine "
            "Klausur — erstellen Sie eine im **Chat**, z. B. „Klausur Physik 10a zu Stromkreisen, 45 Minuten“.",
            icon="👋")
    st.stop()

by_id = {str(e.id): e for e in exams}
exam = by_id[st.selectbox("Klausur (neueste zuerst)", list(by_id), format_func=lambda i: by_id[i].label,
                          key="bw_exam")]
tasks = {t.ref: t for t in exam.tasks}
task = tasks[st.selectbox("Teilaufgabe", list(tasks), format_func=lambda r: tasks[r].label, key=f"bw_task_{exam.id}")]
with st.expander("Aufgabe und Erwartungshorizont"):
    st.text(task.text)
    st.text("\n".join(f"✓ {e}" for e in task.erwartung))

st.text_area("Antwort der Schülerin / des Schülers", key="bw_answer", height=220,
             placeholder="Antwort hier einfügen …")
st.file_uploader("… oder als Datei (TXT, DOCX) – der Text erscheint dann oben", type=list(UPLOAD_TYPES),
                 key="bw_file", on_change=load_upload)
go, reset = st.columns([1, 4])
check = go.button("Antwort prüfen", type="primary")
reset.button("Eingabe leeren", on_click=clear)

if check:
    result = ui.run(assess, teacher_id=persona.teacher_id, material_id=exam.id, task_ref=task.ref,
                    pupil_answer=st.session_state.get("bw_answer", ""))
    if result is not None:
        st.subheader(f"Vorschlag: {result.spanne}")
        st.caption(f"{HINWEIS} Prüfung {result.assessor}: Begriffe, Werte mit Einheiten und Formeln werden gesucht; "
                   "andere Formulierungen und die Qualität einer Begründung erkennt sie nicht.")
        for note in result.notes:
            st.warning(note, icon="🔎")
        for c in result.checks:
            with st.container(border=True):
                head, points = st.columns([5, 1])
                label = MET[c.met] if c.automatisch else "✍️ bitte selbst beurteilen"
                head.markdown(f"**{label}** — {md(c.kriterium)}")
                spanne = f"{c.punkte_min}" if c.punkte_min == c.punkte_max else f"{c.punkte_min}–{c.punkte_max}"
                points.markdown(f"**{spanne}** / {c.punkte} P.")
                for quote in c.evidence:
                    st.markdown(f"> {md(quote)}")
                details = ([f"gefunden: {', '.join(c.gefunden)}"] if c.gefunden else []) + (
                    [f"nicht gefunden: {', '.join(c.fehlt)}"] if c.fehlt else [])
                if details:
                    st.caption(md(" · ".join(details)))
