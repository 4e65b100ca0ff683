"""Streamlit pages: read widgets, call one core function per action, render. No SQL, no agents here."""
