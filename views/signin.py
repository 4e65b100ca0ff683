"""Who acts, per sign-in mode: the demo person from the URL (`?persona=`), a local account's session, or the OIDC
user (`st.login`). Used by the page frame (views/ui.py) only."""

from __future__ import annotations

import streamlit as st

from core.app.service import (
    DEMO_BANNER,
    DEMO_REFUSED,
    Mode,
    Persona,
    Request,
    UserError,
    account_active,
    auth_mode,
    demo_allowed,
    email_from_claims,
    persona_by_id,
    persona_for_sign_in,
    personas,
    role_from_claims,
    sign_in,
)

SIGNED_IN = "auth_teacher_id"


def oidc_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # no secrets.toml at all
        return False


@st.cache_data(ttl=30, show_spinner=False)
def _mode(oidc: bool) -> Mode:
    return auth_mode(oidc_configured=oidc)


def mode() -> Mode:
    return _mode(oidc_configured())


@st.cache_data(ttl=30, show_spinner=False)
def demo_people() -> list[Persona]:
    return personas()


def under_apptest() -> bool:
    from unittest.mock import NonCallableMock

    from streamlit.runtime import Runtime

    return isinstance(Runtime._instance, NonCallableMock)  # AppTest runs scripts on a mock runtime


def this_request() -> Request:
    """Where the app listens and where this request comes from. AppTest has no server and no socket: it counts as
    this computer."""
    if under_apptest():
        return Request(server_address="127.0.0.1", client_ip=None, headers={})
    return Request(server_address=st.get_option("server.address"), client_ip=st.context.ip_address,
                   headers=dict(st.context.headers))


def _demo() -> Persona:
    if not demo_allowed(this_request()):
        st.error(DEMO_REFUSED, icon="🔒")
        st.stop()
    people = demo_people()
    if not people:
        st.error("Es sind noch keine Personen angelegt. Bitte `python -m core seed` ausführen.")
        st.stop()
    # The URL names the acting person (a deep link, a bookmark, F5, the sidebar, a demo sandbox switch write it);
    # a session without one keeps its choice and writes it back into the URL.
    ref = str(st.query_params.get("persona") or "").strip().lower()
    chosen = next((p for p in people if ref and ref in (p.email.lower(), str(p.teacher_id))), None)
    if chosen is None and ref:
        demo_people.clear()  # someone was added since the list was cached (e.g. a demo sandbox teacher)
        people = demo_people()
        chosen = next((p for p in people if ref in (p.email.lower(), str(p.teacher_id))), None)
    if chosen is None:
        wanted = st.session_state.get("persona_id")
        if wanted and all(str(p.teacher_id) != wanted for p in people):
            demo_people.clear()  # someone was added since the list was cached
            people = demo_people()
        chosen = next((p for p in people if str(p.teacher_id) == wanted), None) or next(
            (p for p in people if p.role == "teacher"), people[0])
    # The acting person lives in the URL: F5, bookmarks and deep links keep it.
    if st.session_state.get("persona_id") != str(chosen.teacher_id):  # app.py's pass set it already for the page
        st.session_state["persona_id"] = str(chosen.teacher_id)
    if st.query_params.get("persona") != chosen.email:
        st.query_params["persona"] = chosen.email
    return chosen


def _login_form() -> None:
    st.title("Werkbank · Anmeldung")
    with st.form("login", enter_to_submit=True):
        email = st.text_input("E-Mail-Adresse", key="login_email", autocomplete="username")
        password = st.text_input("Passwort", type="password", key="login_password", autocomplete="current-password")
        submitted = st.form_submit_button("Anmelden", type="primary")
    if submitted:
        try:
            st.session_state[SIGNED_IN] = str(sign_in(email=email, password=password,
                                                      client=this_request().client_ip or "lokal"))
        except UserError as exc:
            st.error(exc.message)
        else:
            st.rerun()
    st.caption("Kein Konto oder Passwort vergessen? Die Schulverwaltung legt Konten an und setzt Passwörter neu.")
    st.stop()


def _local() -> Persona:
    signed = st.session_state.get(SIGNED_IN)
    persona = persona_by_id(signed) if signed and account_active(signed) else None
    if persona is None:
        st.session_state.pop(SIGNED_IN, None)
        _login_form()
    return persona


def _oidc() -> Persona:
    if not st.user.is_logged_in:
        st.title("Werkbank · Anmeldung")
        st.info("Bitte melden Sie sich mit dem Konto Ihrer Schule an.")
        st.button("Anmelden", on_click=st.login, type="primary")
        st.stop()
    claims = st.user.to_dict()
    email = email_from_claims(claims)
    if email is None:
        st.error("Ihr Anmeldedienst hat keine bestätigte E-Mail-Adresse übermittelt. Bitte die Adresse dort "
                 "bestätigen oder sich an die Schulverwaltung wenden.")
        st.button("Abmelden", on_click=st.logout)
        st.stop()
    persona = persona_for_sign_in(email, role_from_claims(claims))
    if persona is None:
        st.error("Für Ihre Anmeldung ist noch kein Konto in der Werkbank angelegt. Bitte wenden Sie sich an die "
                 "Schulverwaltung.")
        st.button("Abmelden", on_click=st.logout)
        st.stop()
    return persona


def current_persona(*, banner: bool) -> Persona:
    """Who acts in this request, by the sign-in mode in force; stops the page with a form or refusal otherwise."""
    current = mode()
    if current == "oidc":
        return _oidc()
    if current == "local":
        return _local()
    persona = _demo()
    if banner:
        st.warning(DEMO_BANNER, icon="🧪")
    return persona


def sign_out() -> None:
    st.session_state.pop(SIGNED_IN, None)
    st.session_state.pop("persona_id", None)


def choose_demo_person(persona: Persona) -> None:
    """The sidebar's person picker (demo only); the choice goes into the URL."""
    people = demo_people()
    ids = [str(p.teacher_id) for p in people]
    labels = {str(p.teacher_id): p.label for p in people}
    emails = {str(p.teacher_id): p.email for p in people}
    if st.session_state.get("persona_id") not in ids:
        st.session_state["persona_id"] = str(persona.teacher_id)

    def moved() -> None:
        st.query_params["persona"] = emails.get(st.session_state["persona_id"], "")

    st.selectbox("Handelnde Person (Demo)", ids, format_func=labels.get, key="persona_id", on_change=moved)
    st.badge("Demo-Modus · ohne Anmeldung", icon="🧪", color="orange")


def account_box(persona: Persona) -> None:
    st.caption(f"Angemeldet: {persona.label}")
    if mode() == "oidc":
        st.button("Abmelden", on_click=st.logout, key="logout")
    else:
        st.button("Abmelden", on_click=sign_out, key="logout")
