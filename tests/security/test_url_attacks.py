"""Attack round (issue #13), the browser surface: every query parameter a page reads, with another school's ids,
malformed, huge and SQL-ish values — nothing of the other teacher shows, never a traceback, a German message."""

from __future__ import annotations

import secrets
import uuid

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from core.app.accounts import account_active, create_account
from tests.pages.conftest import APP
from tests.security.conftest import Victim

CRAFTED = ["x' OR 1=1 --", "'; DROP TABLE generated_materials; --", "0" * 40, "%00", "\x00", "9" * 20_000,
           "../../etc/passwd", "<script>alert(1)</script>", "00000000-0000-0000-0000-000000000000"]


def _shown(at: AppTest) -> str:
    return " ".join(str(getattr(e, "value", "")) for e in (*at.main, *at.sidebar))


def _page(person: uuid.UUID, page: str, **params: str) -> AppTest:
    """The page inside the app's navigation (its links resolve), opened with these URL parameters."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["persona_id"] = str(person)
    at.run()
    for key, value in params.items():
        at.query_params[key] = value
    return at.switch_page(page).run()


@pytest.mark.parametrize("value", ["victim", "victim-upper", *CRAFTED],
                         ids=["foreign", "foreign-upper", *(f"crafted{i}" for i in range(len(CRAFTED)))])
def test_material_in_the_url_shows_nothing_foreign_and_says_so_in_german(victim: Victim, attacker: uuid.UUID,
                                                                         value: str) -> None:
    value = {"victim": str(victim.material), "victim-upper": str(victim.material).upper()}.get(value, value)
    at = _page(attacker, "views/materialien.py", material=value)
    assert not at.exception, at.exception
    shown = _shown(at)
    assert victim.token not in shown and str(victim.file) not in shown
    assert len(at.error) == 1 and at.error[0].value.startswith("Dieses Material gibt es nicht"), at.error
    assert at.title[0].value == "Meine Materialien"  # the page itself still works


@pytest.mark.parametrize("value", ["victim", "9" * 20_000, "\x00", "{%s}"])
def test_conversation_in_the_url_shows_nothing_foreign(victim: Victim, attacker: uuid.UUID, value: str) -> None:
    value = str(victim.conversation) if value == "victim" else value.replace("%s", str(victim.conversation))
    at = _page(attacker, "views/chat.py", gespraech=value)
    assert not at.exception, at.exception
    assert victim.token not in _shown(at)


@pytest.mark.parametrize("value", ["victim-id", "victim-mail", "' OR 1=1 --", "9" * 20_000])
def test_persona_of_another_school_in_a_page_link_is_ignored_outside_the_demo(
        victim: Victim, attacker: uuid.UUID, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With sign-in (local accounts), `?persona=` names nobody: a stranger gets the sign-in form, a signed-in
    teacher stays herself."""
    from core.app.config import get_settings

    monkeypatch.setenv("WERKBANK_AUTH", "local")
    get_settings.cache_clear()
    st.cache_data.clear()  # the frame caches the sign-in mode for 30 s
    try:
        value = {"victim-id": str(victim.teacher), "victim-mail": None}.get(value, value) or _mail(victim.teacher)
        at = AppTest.from_file(APP, default_timeout=90)
        at.query_params["persona"] = value
        at.run()
        assert not at.exception
        assert [t.value for t in at.title] == ["Werkbank · Anmeldung"] and victim.token not in _shown(at)
        if not account_active(attacker):
            create_account(email=_mail(attacker), password=secrets.token_urlsafe(16))
        at = AppTest.from_file(APP, default_timeout=90)
        at.session_state["auth_teacher_id"] = str(attacker)  # signed in (the form sets this)
        at.query_params["persona"] = value
        at.run()
        at.query_params["material"] = str(victim.material)
        at.switch_page("views/materialien.py").run()
        assert not at.exception
        assert victim.token not in _shown(at)
        assert [t.value for t in at.title] == ["Meine Materialien"]
        assert any(c.value.startswith("Angemeldet: Test Angreifer") for c in at.sidebar.caption)
        assert at.error[0].value.startswith("Dieses Material gibt es nicht")
    finally:
        get_settings.cache_clear()
        st.cache_data.clear()


def _mail(teacher: uuid.UUID) -> str:
    from db import models as m
    from db.session import Identity, unit_of_work

    with unit_of_work(Identity.system()) as db:
        return db.get(m.Teacher, teacher).email


@pytest.mark.parametrize("role", ["teacher", "curator", "product"])
def test_the_demo_banner_is_on_every_page_a_person_may_open(role: str, database) -> None:  # noqa: ANN001
    """Demo mode says so on every page — also on a page opened directly (its own URL)."""
    from core.app.service import DEMO_BANNER
    from tests.pages.conftest import app_as, fresh_person
    from views.ui import PAGE_ROLES

    person = fresh_person(role=role, name=f"Test {role}", faecher=() if role == "product" else ("physik",))
    at = app_as(person)
    pages = {"chat": "chat", "materialien": "materialien", "bewerten": "bewerten", "wissenskarte": "wissenskarte",
             "good_practices": "good_practices", "praeferenzen": "praeferenzen", "notizen": "notizen",
             "hochladen": "hochladen", "prompt_labor": "prompt_labor", "sitzungen": "sitzungen", "system": "start",
             "datenschutz": "datenschutz"}
    assert set(pages) == set(PAGE_ROLES)
    for key, file in pages.items():
        if role not in PAGE_ROLES[key]:
            continue
        at.switch_page(f"views/{file}.py").run()
        assert not at.exception, (key, at.exception)
        assert DEMO_BANNER in [w.value for w in at.warning], key
