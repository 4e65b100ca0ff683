"""Klassen & Schule: notes about a taught class or from the Fachschaft that the specialists take into account."""

import streamlit as st

from core.knowledge.service import FAECHER, add_note, delete_note, my_scopes, visible_notes
from views import ui
from views.widgets import safe

persona = ui.page_setup("notizen")
tid = persona.teacher_id
st.title("Klassen & Schule")
st.caption("Hinweise, die die Fach-Assistenten bei Ihren Materialien berücksichtigen — sichtbar für alle, die die "
           "Klasse unterrichten bzw. an Ihrer Schule arbeiten, für niemanden sonst. Bitte keine Schülernamen.")

scopes = ui.run(my_scopes, teacher_id=tid) or {"class": [], "school": []}
options = [("class", sid, f"Klasse {name}") for sid, name in scopes["class"]]
options += [("school", sid, name) for sid, name in scopes["school"]]
with st.form("note_form", clear_on_submit=True):
    st.subheader("Neuer Hinweis")
    if not options:
        st.info("Ihnen sind noch keine Klassen oder keine Schule zugeordnet.")
    choice = st.selectbox("Für", range(len(options)), format_func=lambda i: options[i][2], key="note_scope")
    fach = st.selectbox("Fach", list(FAECHER), format_func=FAECHER.get, key="note_fach",
                        index=list(FAECHER).index(persona.faecher[0]) if persona.faecher else 0)
    text = st.text_area("Hinweis", max_chars=500, key="note_text",
                        placeholder="z. B. „Viele haben noch Probleme mit dem Umrechnen von Einheiten.“")
    if st.form_submit_button("Speichern", disabled=not options) and options:
        scope, sid, label = options[choice]
        note = ui.run(add_note, teacher_id=tid, scope=scope, scope_id=sid, fach=fach, text=text)
        if note is not None:
            st.success(f"Gespeichert für {label}.")

st.subheader("Sichtbare Hinweise")
notes = ui.run(visible_notes, teacher_id=tid) or []
if not notes:
    st.caption("Noch keine Hinweise.")
for n in notes:
    cols = st.columns([6, 1])
    cols[0].markdown(f"**{n.scope_label}** · {FAECHER.get(n.fach, n.fach)} — {safe(n.text)}")
    if n.mine and cols[1].button("Löschen", key=f"del_{n.id}"):
        ui.run(delete_note, teacher_id=tid, note_id=n.id)
        st.rerun()
