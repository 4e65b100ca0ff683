"""Werkbank — router and frame only: page config, navigation, shared sidebar."""

import streamlit as st

st.set_page_config(page_title="Werkbank", page_icon="🛠️", layout="wide")

pg = st.navigation({"Werkbank": [st.Page("pages/start.py", title="Start", icon="🏠", default=True)]})
pg.run()
