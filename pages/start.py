"""Start page: what the workbench is, and whether its database is reachable."""

import streamlit as st

from core.maintenance import system_status
from pages import ui

ui.page_setup("system")
st.title("System")
st.caption("Die Werkbank für Lehrkräfte: Klausuren, differenzierte Arbeitsblätter und H5P-Übungen.")

info = system_status()
st.success(
    f"Datenbank erreichbar · PostgreSQL {info['server']} · pgvector {info['pgvector']} · "
    f"Schema {info['migration']}"
)
rows = info["rows"]
c1, c2, c3 = st.columns(3)
c1.metric("Wissenseinträge", f"{rows['agent_knowledge']:,}".replace(",", "."))
c2.metric("Lehrplanauszüge", f"{rows['curriculum_chunks']:,}".replace(",", "."))
c3.metric("Lehrkräfte", rows["teachers"])
st.caption(f"Embedder: {info['embedder']}")
