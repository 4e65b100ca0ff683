"""Shared page frame: every page calls `page_setup()` first, so it also runs alone (AppTest.switch_page).

It makes sure the database is ready, knows who is acting (demo persona or OIDC login), refuses pages the persona
may not use, and turns errors into German messages (with an id for unexpected ones) — never a traceback.
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
    persona_by_email,
    personas,
    report_unexpected,
)
from core.ops.service import ensure_ready

T = TypeVar("T")

# Which roles may use which page (app.py offers only these; a page opened directly checks again).
PAGE_ROLES: dict[str, set[str]] = {
    "chat": {"teacher", "curator", "product"},
    "materialien": {"teacher", "curator", "product"},
    "wissenskarte": {"teacher", "curator", "product"},
    "good_practices": {"curator"},
    "praeferenzen": {"teacher"},
    "prompt_labor": {"product"},
    "sitzungen": {"product", "teacher"},
    "system": {"product"},
    "notizen": {"teacher"},
    "bewerten": {"teacher"},
    "hochladen": {"teacher"},
}


@st.cache_resource(show_spinner="Datenbank wird vorbereitet …")
def _ready() -> bool:
    configure_logging()
    ensure_ready()
    return True


@st.cache_data(ttl=30, show_spinner=False)
def _personas() -> list[Persona]:
    return personas()


def oidc_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # no secrets.toml at all
        return False


def current_persona() -> Persona:
    """Who acts: the OIDC user (mapped by e-mail) when login is configured, else the chosen demo persona."""
    if oidc_configured():
        if not st.user.is_logged_in:
            st.info("Bitte melden Sie sich an.")
            st.button("Anmelden", on_click=st.login)
            st.stop()
        persona = persona_by_email(str(st.user.email or ""))
        if persona is None:
            st.error("Für Ihre Anmeldung ist noch kein Konto in der Werkbank angelegt. Bitte wenden Sie sich an die "
                     "Schulverwaltung.")
            st.stop()
        return persona
    people = _personas()
    if not people:
        st.error("Es sind noch keine Personen angelegt. Bitte `python -m core seed` ausführen.")
        st.stop()
    link = st.query_params.get("persona")
    if link:  # demo deep link: ?persona=<e-mail> (only without OIDC login)
        chosen = persona_by_email(link)
        if chosen is not None:
            st.session_state["persona_id"] = str(chosen.teacher_id)
        del st.query_params["persona"]
    wanted = st.session_state.get("persona_id")
    if wanted and all(str(p.teacher_id) != wanted for p in people):
        _personas.clear()  # someone was added since the list was cached
        people = _personas()
    return next((p for p in people if str(p.teacher_id) == wanted), people_default(people))


def people_default(people: list[Persona]) -> Persona:
    return next((p for p in people if p.role == "teacher"), people[0])


def _under_apptest() -> bool:
    from unittest.mock import NonCallableMock

    from streamlit.runtime import Runtime

    return isinstance(Runtime._instance, NonCallableMock)  # AppTest runs scripts on a mock runtime


def _route_through_frame(page: str | None) -> None:
    """With a `pages/` folder Streamlit starts in its legacy multipage mode and may serve e.g. /chat by running
    pages/chat.py alone — without the frame (persona, role check, navigation). Switch that mode off exactly as
    st.navigation does and rerun, so app.py routes the request. (AppTest runs pages alone on purpose and resets
    the mode on every run; there the page simply stands alone.)"""
    from streamlit.runtime.pages_manager import PagesManager

    if page is None or not PagesManager.uses_pages_directory or _under_apptest():
        return
    PagesManager.uses_pages_directory = False
    st.rerun()


def page_setup(page: str | None = None) -> Persona:
    """Database ready, persona known and allowed on this page. Returns the persona.

    `page` is the page's key (see PAGE_ROLES); app.py calls it without one.
    """
    _route_through_frame(page)
    try:
        _ready()
    except Exception as exc:  # the UI never shows a traceback
        st.error(str(exc) if isinstance(exc, EmbeddedServerError) else apology(report_unexpected(exc, context="start")))
        st.stop()
    persona = current_persona()
    if page and persona.role not in PAGE_ROLES.get(page, set()):
        st.warning(f"Diese Seite ist für {persona.label} nicht freigegeben. Bitte links eine passende Person wählen.")
        st.stop()
    return persona


def run(action: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """Call a core function; show a German message instead of failing. Returns None when it failed."""
    try:
        return action(*args, **kwargs)
    except UserError as exc:
        st.error(exc.message)
    except Exception as exc:
        st.error(apology(report_unexpected(exc, context=getattr(action, "__name__", "action"))))
    return None


def sidebar(persona: Persona) -> None:
    """Who is acting and which model answers (shown on every page by app.py)."""
    with st.sidebar:
        if oidc_configured():
            st.caption(f"Angemeldet: {persona.label}")
            st.button("Abmelden", on_click=st.logout)
        else:
            people = _personas()
            ids = [str(p.teacher_id) for p in people]
            labels = {str(p.teacher_id): p.label for p in people}
            if st.session_state.get("persona_id") not in ids:
                st.session_state["persona_id"] = str(persona.teacher_id)
            st.selectbox("Handelnde Person (Demo)", ids, format_func=labels.get, key="persona_id")
        model = main_model_name()
        if model == "offline":
            st.badge("Offline-Modus (regelbasiert)", icon="🔌", color="gray")
        else:
            st.badge(f"Modell: {model}", icon="🤖", color="green")
