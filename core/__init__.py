"""Werkbank core: domain logic without streamlit."""
