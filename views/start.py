"""System: the operators' health page — database, migrations, pgvector, embedder, models, open Rückfragen."""

import pandas as pd
import streamlit as st

from core.ops.service import health, system_status
from views import ui

ui.page_setup("system")
st.title("System")
st.caption("Die Werkbank für Lehrkräfte: Klausuren, differenzierte Arbeitsblätter und H5P-Übungen.")

info = ui.run(system_status)
if info is not None:
    st.success(
        f"Datenbank erreichbar · PostgreSQL {info['server']} · pgvector {info['pgvector']} · "
        f"Schema {info['migration']}"
    )
    rows = info["rows"]
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Wissenseinträge", f"{rows['agent_knowledge']:,}".replace(",", "."))
    c2.metric("Lehrplanauszüge", f"{rows['curriculum_chunks']:,}".replace(",", "."))
    c3.metric("Lehrkräfte", rows["teachers"])
    c4.metric("Materialien", f"{rows['generated_materials']:,}".replace(",", "."))

report = ui.run(health)
if report is not None:
    st.subheader("Zustand" + (" — alles in Ordnung" if report.ok else " — bitte prüfen"))
    st.dataframe(pd.DataFrame(report.checks), hide_index=True, width="stretch")
st.caption("Aufräumen: `python -m core retention` · Sicherung: siehe README (Betrieb).")
