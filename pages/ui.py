"""Shared page frame: every page calls `page_setup()` first, so it also runs alone (AppTest.switch_page)."""

from __future__ import annotations

import streamlit as st

from core.observability import apology, configure_logging, report_unexpected


@st.cache_resource(show_spinner="Datenbank wird vorbereitet …")
def _ready() -> bool:
    from core.bootstrap import ensure_ready

    configure_logging()
    ensure_ready()
    return True


def page_setup() -> None:
    """Make sure the database is migrated and seeded; show a German message instead of a traceback if not."""
    try:
        _ready()
    except Exception as exc:  # the UI never shows a traceback
        from db.server import EmbeddedServerError

        st.error(str(exc) if isinstance(exc, EmbeddedServerError) else apology(report_unexpected(exc, context="start")))
        st.stop()
