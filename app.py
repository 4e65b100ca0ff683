"""Werkbank — router and frame only: page config, navigation by role, shared sidebar."""

import streamlit as st

from pages import ui

st.set_page_config(page_title="Werkbank", page_icon="🛠️", layout="wide")

persona = ui.page_setup()
ui.sidebar(persona)

PAGES = [  # section, key, file, title, icon, url path
    ("Unterricht", "chat", "pages/chat.py", "Chat", "💬", "chat"),
    ("Unterricht", "materialien", "pages/materialien.py", "Meine Materialien", "📁", "materialien"),
    ("Unterricht", "bewerten", "pages/bewerten.py", "Schülerantwort prüfen", "✅", "bewerten"),
    ("Wissen", "wissenskarte", "pages/wissenskarte.py", "Wissenskarte", "🗺️", "wissenskarte"),
    ("Wissen", "good_practices", "pages/good_practices.py", "Good Practices", "⭐", "good-practices"),
    ("Wissen", "praeferenzen", "pages/praeferenzen.py", "Präferenzen", "⚙️", "praeferenzen"),
    ("Wissen", "notizen", "pages/notizen.py", "Klassen & Schule", "🏫", "klassen-schule"),
    ("Wissen", "hochladen", "pages/hochladen.py", "Hochladen", "📤", "hochladen"),
    ("Produkt", "prompt_labor", "pages/prompt_labor.py", "Prompt-Labor", "🧪", "prompt-labor"),
    ("Produkt", "sitzungen", "pages/sitzungen.py", "Sitzungen & Traces", "🔎", "sitzungen"),
    ("Produkt", "system", "pages/start.py", "System", "🩺", "system"),
    ("Konto", "datenschutz", "pages/datenschutz.py", "Meine Daten & Datenschutz", "🔐", "datenschutz"),
]
LANDING = {"teacher": "chat", "curator": "good_practices", "product": "prompt_labor"}

nav: dict[str, list[st.Page]] = {}
for section, key, path, title, icon, url in PAGES:
    if persona.role in ui.PAGE_ROLES[key]:
        nav.setdefault(section, []).append(
            st.Page(path, title=title, icon=icon, url_path=url, default=key == LANDING.get(persona.role))
        )
st.navigation(nav).run()
