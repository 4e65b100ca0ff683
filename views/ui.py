"""Shared page frame: every page calls `page_setup()` first, so it also runs alone (AppTest.switch_page).

It makes sure the database is ready (and says so in German when it is not), knows who is acting (OIDC, a local
account, or a demo person on this computer only — views/signin.py), refuses pages the persona may not use, and turns
errors into German messages (with an id for unexpected ones) — never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from core.app.service import (
    EmbeddedServerError,
    Persona,
    UserError,
    apology,
    configure_logging,
    main_model_name,
    report_unexpected,
)
from core.ops.service import database_down, ensure_ready, recover_database
from views import signin

T = TypeVar("T")

# Which roles may use which page (app.py offers only these; a page opened directly checks again).
PAGE_ROLES: dict[str, set[str]] = {
    "chat": {"teacher", "curator", "product"},
    "materialien": {"teacher", "curator", "product"},
    "wissenskarte": {"teacher", "curator", "product"},
    "good_practices": {"curator"},
    "praeferenzen": {"teacher"},
    "prompt_labor": {"product"},
    "sitzungen": {"product", "teacher", "curator"},
    "system": {"product"},
    "notizen": {"teacher"},
    "bewerten": {"teacher"},
    "hochladen": {"teacher"},
    "datenschutz": {"teacher", "curator", "product"},
}
DB_DOWN = ("Die Datenbank ist kurz nicht erreichbar. Sie wird neu gestartet – bitte in ein paar Sekunden auf "
           "„Erneut versuchen“ klicken. Ihre gespeicherten Daten sind nicht verloren.")


@st.cache_resource(show_spinner="Datenbank wird vorbereitet …")
def _ready() -> bool:
    configure_logging()
    ensure_ready()
    return True


def _database_down_page(exc: BaseException) -> None:
    report_unexpected(exc, context="database unreachable")
    _ready.clear()
    with st.spinner("Datenbank wird neu gestartet …"):
        back = recover_database()
    if back:
        st.info("Die Datenbank war kurz nicht erreichbar und läuft wieder.")
        st.button("Weiter", type="primary", on_click=lambda: None, key="db_back")
    else:
        st.error(DB_DOWN, icon="🛠️")
        st.button("Erneut versuchen", type="primary", key="db_retry")
    st.stop()


def page_setup(page: str | None = None) -> Persona:
    """Database ready, persona known and allowed on this page. Returns the persona.

    `page` is the page's key (see PAGE_ROLES); app.py calls it without one. Every database call of the frame runs
    inside this boundary: a database that is down gives a German page (and a restart), never a traceback.
    """
    try:
        _ready()
        persona = signin.current_persona(banner=page is not None)
    except Exception as exc:  # the UI never shows a traceback
        if database_down(exc):
            _database_down_page(exc)
        st.error(str(exc) if isinstance(exc, EmbeddedServerError) else apology(report_unexpected(exc, context="start")))
        st.stop()
    if page and persona.role not in PAGE_ROLES.get(page, set()):
        st.warning(f"Diese Seite ist für {persona.label} nicht freigegeben.")
        st.stop()
    return persona


def run(action: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """Call a core function; show a German message instead of failing. Returns None when it failed."""
    try:
        return action(*args, **kwargs)
    except UserError as exc:
        st.error(exc.message)
    except Exception as exc:
        if database_down(exc):
            _database_down_page(exc)
        st.error(apology(report_unexpected(exc, context=getattr(action, "__name__", "action"))))
    return None


def sidebar(persona: Persona) -> None:
    """Who is acting and which model answers (shown on every page by app.py)."""
    with st.sidebar:
        if signin.mode() == "demo":
            signin.choose_demo_person(persona)
        else:
            signin.account_box(persona)
        model = main_model_name()
        if model == "offline":
            st.badge("Offline-Modus (regelbasiert)", icon="🔌", color="gray")
        else:
            st.badge(f"Modell: {model}", icon="🤖", color="green")
