"""Hochladen: an own exam/worksheet becomes an example the specialists use; a Lehrplan becomes searchable."""

import streamlit as st

from core.materials.service import FAECHER
from core.uploads.service import import_file, my_reviews
from views import ui
from views.widgets import safe

persona = ui.page_setup("hochladen")
st.title("Beispiele & Lehrplan hochladen")
st.caption("DOCX, PDF oder TXT bis 20 MB. Beispiele sehen nur Sie; einen Lehrplan können Sie auch für Ihre Schule "
           "freigeben. Bitte keine Dokumente mit Schülernamen hochladen.")

kind = st.radio("Was ist die Datei?", ["example", "curriculum"], horizontal=True, key="upload_kind",
                format_func={"example": "Eigene Klausur / eigenes Arbeitsblatt",
                             "curriculum": "Lehrplan (oder Auszug)"}.get)
faecher = [None, *FAECHER] if kind == "example" else list(FAECHER)
fach = st.selectbox("Fach", faecher, key="upload_fach",
                    format_func=lambda f: "aus dem Dokument erkennen" if f is None else FAECHER[f])
agent_type, scope = "klausur", "teacher"
if kind == "example":
    agent_type = st.radio("Art", ["klausur", "differenzierung"], horizontal=True, key="upload_agent",
                          format_func={"klausur": "Klausur", "differenzierung": "Arbeitsblatt"}.get)
else:
    scope = st.radio("Sichtbar für", ["teacher", "school"], horizontal=True, key="upload_scope",
                     format_func={"teacher": "nur mich", "school": "meine Schule"}.get)
upload = st.file_uploader("Datei", type=["docx", "pdf", "txt", "md"], key="upload_file")
keep = st.checkbox("Auch speichern, wenn keine Aufgaben erkannt werden (als Text)", key="upload_keep",
                   disabled=kind != "example")
if st.button("Übernehmen", type="primary", disabled=upload is None, key="upload_go") and upload is not None:
    with st.spinner("Datei wird gelesen …"):
        result = ui.run(import_file, teacher_id=persona.teacher_id, filename=upload.name, data=upload.getvalue(),
                        kind=kind, fach=fach, agent_type=agent_type, scope=scope, keep_unstructured=keep,
                        mime=upload.type or "application/octet-stream")
    if result is not None:
        st.success(result.message)
        for hint in result.hinweise:
            (st.warning if hint.startswith(("In Prüfung:", "Hinweis: „")) else st.info)(hint)

held = ui.run(my_reviews, teacher_id=persona.teacher_id)
if held:
    st.subheader("Zurückgehaltene Dateien")
    st.caption("Diese Dateien enthalten Text, der wie eine Anweisung an die KI aussieht oder für Lesende unsichtbar "
               "ist. Bis zur Prüfung sieht sie niemand außer Ihnen.")
    for r in held:
        st.markdown(f"- **{safe(r.filename)}** ({r.fach}, {r.created_at:%d.%m.%Y}) – {r.status_label}. "
                    f"Grund: {r.reason}.")
