"""The embedded server stops and starts again — between two turns and in the middle of one.

These tests stop the test session's own server, so they run after every other test (`server_restart` marker, see
conftest) and always leave it running. The app keeps its engine: pool_pre_ping replaces the dead pooled connections.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from agents.models.registry import override_models, rules_model
from core.app.config import get_settings
from db.server import cluster_dir, embedded_uri, stop_embedded
from db.session import get_engine, reset_engines
from tests.reliability.conftest import (
    ASK,
    FaultyKlausurModel,
    Person,
    assert_apology,
    committed_turn,
    row_counts,
    session_row,
)

pytestmark = pytest.mark.server_restart


def _stop() -> None:
    assert stop_embedded(get_settings().werkbank_data_dir)
    assert not (cluster_dir(get_settings().werkbank_data_dir) / "postmaster.pid").exists()


def _start() -> None:
    embedded_uri(get_settings().werkbank_data_dir)


@pytest.fixture(autouse=True)
def _server_left_running(database: sa.Engine) -> Iterator[None]:
    yield
    _start()  # whatever a test did, the server runs again afterwards
    with get_engine().connect() as c:
        assert c.execute(sa.text("SELECT 1")).scalar() == 1


def test_rueckfrage_survives_a_server_restart_and_the_app_reconnects(person: Person, chat_page) -> None:  # noqa: ANN001
    asked = committed_turn(person, ASK)
    before = row_counts()
    _stop()
    result, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30", conversation_id=asked.conversation_id)
    assert_apology(result, shown)  # the database is down: an apology, no traceback
    # Restarted (here in-process; `python -m core db-stop` and any later start from another process are the same).
    # Same engine, stale pooled connections: pool_pre_ping notices and reconnects.
    _start()
    assert row_counts() == before
    answered, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                conversation_id=asked.conversation_id)
    assert not shown and answered.material_id, answered.reply
    assert session_row(asked.session_id)["status"] == "completed"


def test_server_stopped_during_a_turn_writes_nothing_and_the_next_turn_works(person: Person, chat_page) -> None:  # noqa: ANN001
    asked = committed_turn(person, ASK)
    before = row_counts()
    with override_models(klausur=rules_model(FaultyKlausurModel({1: _stop}))):
        result, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                  conversation_id=asked.conversation_id)
    assert_apology(result, shown)
    _start()
    reset_engines()  # this time as if the app process restarted as well: new engines, new pools
    assert row_counts() == before
    assert session_row(asked.session_id)["status"] == "waiting"
    answered, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                conversation_id=asked.conversation_id)
    assert not shown and answered.material_id, answered.reply
