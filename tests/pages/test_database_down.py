"""The database goes away under a running app: every page shows a German message (never a traceback) and the
embedded server is started again, so the next click works."""

from __future__ import annotations

import sqlalchemy as sa

from core.app.config import get_settings
from core.ops.recovery import database_down
from db.server import stop_embedded
from db.session import Identity, unit_of_work
from tests.pages.conftest import APP, app_as


def test_a_connection_error_counts_as_database_down_and_a_bug_does_not() -> None:
    refused = sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))
    assert database_down(refused)
    try:
        try:
            raise refused
        except sa.exc.OperationalError as inner:
            raise RuntimeError("while loading") from inner
    except RuntimeError as outer:
        assert database_down(outer)
    assert not database_down(KeyError("x"))


def test_pages_survive_the_database_going_away_and_it_is_restarted(teacher_id) -> None:  # noqa: ANN001
    from streamlit.testing.v1 import AppTest

    stop_embedded(get_settings().werkbank_data_dir)  # the engine and its pool still point at the dead server
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["persona_id"] = str(teacher_id)
    at.run()
    assert not at.exception
    shown = " ".join(e.value for e in [*at.error, *at.info, *at.warning])
    assert "Datenbank" in shown and "Traceback" not in shown and "OperationalError" not in shown
    with unit_of_work(Identity.system()) as db:  # the frame started the server again
        assert db.scalar(sa.text("SELECT 1")) == 1
    again = app_as(teacher_id, "views/chat.py")
    assert not again.exception and again.title and again.title[0].value == "Chat"
