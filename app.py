"""Werkbank — router and frame only: page config, navigation by role, shared sidebar."""

import streamlit as st

from views import ui

st.set_page_config(page_title="Werkbank", page_icon="🛠️", layout="wide")

persona = ui.page_setup()
ui.sidebar(persona)

PAGES = [  # section, key, file, title, icon, url path
    ("Unterricht", "chat", "views/chat.py", "Chat", "💬", "chat"),
    ("Unterricht", "materialien", "views/materialien.py", "Meine Materialien", "📁", "materialien"),
    ("Unterricht", "bewerten", "views/bewerten.py", "Schülerantwort prüfen", "✅", "bewerten"),
    ("Wissen", "wissenskarte", "views/wissenskarte.py", "Wissenskarte", "🗺️", "wissenskarte"),
    ("Wissen", "good_practices", "views/good_practices.py", "Good Practices", "⭐", "good-practices"),
    ("Wissen", "praeferenzen", "views/praeferenzen.py", "Präferenzen", "⚙️", "praeferenzen"),
    ("Wissen", "notizen", "views/notizen.py", "Klassen & Schule", "🏫", "klassen-schule"),
    ("Wissen", "hochladen", "views/hochladen.py", "Hochladen", "📤", "hochladen"),
    ("Produkt", "prompt_labor", "views/prompt_labor.py", "Prompt-Labor", "🧪", "prompt-labor"),
    ("Produkt", "sitzungen", "views/sitzungen.py", "Sitzungen & Traces", "🔎", "sitzungen"),
    ("Produkt", "system", "views/start.py", "System", "🩺", "system"),
    ("Konto", "datenschutz", "views/datenschutz.py", "Meine Daten & Datenschutz", "🔐", "datenschutz"),
]
LANDING = {"teacher": "chat", "curator": "good_practices", "product": "prompt_labor"}

pages: dict[str, st.Page] = {}
nav: dict[str, list[st.Page]] = {"": []}
for section, key, path, title, icon, url in PAGES:
    allowed = persona.role in ui.PAGE_ROLES[key]
    # A page this role may not use stays reachable by its URL but hidden: it explains itself in German
    # (ui.page_setup) instead of Streamlit's English "Page not found".
    pages[key] = st.Page(path, title=title, icon=icon, url_path=url, visibility="visible" if allowed else "hidden")
    nav.setdefault(section if allowed else "", []).append(pages[key])


def landing() -> None:
    """The root URL opens the role's landing page. The landing page itself is not the default page: Streamlit
    serves a default page only at "/", so /chat or /good-practices would show "Page not found"."""
    st.switch_page(pages[LANDING.get(persona.role, "chat")], query_params=st.query_params.to_dict())  # keeps ?gespraech


nav[""].insert(0, st.Page(landing, title="Start", url_path="start", default=True, visibility="hidden"))
st.navigation(nav).run()
