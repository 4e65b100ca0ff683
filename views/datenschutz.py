"""Meine Daten & Datenschutz: who on the staff read my data (with my consent), my consents, delete all my data."""

import uuid

import streamlit as st

from core.app.service import delete_my_data, grant_consent, my_access_log, my_consents, revoke_consent
from core.chat.service import list_conversations
from views import ui

persona = ui.page_setup("datenschutz")
tid = persona.teacher_id
st.title("Meine Daten & Datenschutz")
st.markdown(
    "Ihre Gespräche, Materialien, Uploads und Notizen sieht nur Sie selbst. Kuratorinnen und das Produktteam sehen "
    "globale und von Ihnen zur Kuratierung geteilte Einträge; einen privaten Eintrag oder ein Gespräch nur, wenn "
    "Sie es hier bzw. beim Eintrag freigeben – und jeder solche Zugriff steht unten im Protokoll. Personenbezogene "
    "Angaben über Schülerinnen und Schüler werden vor dem Speichern entfernt."
)

st.subheader("Freigaben für Kuratorinnen und Produktteam")
consents = ui.run(my_consents, tid) or []
if not consents:
    st.caption("Keine Freigaben.")
for c in consents:
    left, right = st.columns([5, 1])
    left.write(f"{c.label} · seit {c.since:%d.%m.%Y %H:%M}")
    if right.button("Zurückziehen", key=f"revoke_{c.id}"):
        ui.run(revoke_consent, tid, c.id)
        st.rerun()

conversations = (ui.run(list_conversations, teacher_id=tid) or []) if persona.role == "teacher" else []
if conversations:
    with st.form("consent"):
        labels = {str(c["id"]): f"{c['updated_at']:%d.%m. %H:%M} · {c['title']}" for c in conversations}
        chosen = st.selectbox("Ein Gespräch (mit seinem Protokoll) zur Prüfung freigeben", list(labels),
                              format_func=labels.get)
        if st.form_submit_button("Freigeben"):
            ui.run(grant_consent, tid, "conversation", uuid.UUID(chosen))
            st.rerun()

st.subheader("Wer hat Ihre Daten gelesen?")
log = ui.run(my_access_log, tid) or []
if log:
    st.dataframe([{"Wann": e.when.strftime("%d.%m.%Y %H:%M"), "Wer": e.viewer, "Was": e.what} for e in log],
                 hide_index=True)
else:
    st.caption("Niemand aus Kuratierung oder Produktteam hat private Daten von Ihnen gelesen.")

st.subheader("Alle meine Daten löschen")
st.write("Löscht Gespräche, Materialien, hochgeladene Dateien, eigenes Wissen (Notizen, Beispiele, Vorlieben), "
         "Lehrplanauszüge, Bewertungen und Protokolle – endgültig. Ihr Zugang bleibt bestehen.")
confirm = st.text_input("Zur Bestätigung „löschen“ eingeben", key="delete_confirm")
if st.button("Endgültig löschen", type="primary", disabled=confirm.strip() != "löschen", key="delete_all"):
    counts = ui.run(delete_my_data, tid)
    if counts is not None:
        st.session_state.pop("conv_id", None)
        st.success("Gelöscht: " + (", ".join(f"{n} {what}" for what, n in counts.items()) or "es gab nichts."))
