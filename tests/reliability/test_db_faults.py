"""Database faults during a chat turn: the turn fails with a German message, writes nothing, and the next turn works.

A fault the teacher did not cause reaches the chat page as core.app.observability's apology with an error id (ADR 006:
"bugs propagate to the UI's apology") — never a traceback. A fault inside a tool that leaves the connection usable
(a statement timeout) is contained by the tool's savepoint: the model is told the tool failed, nothing of the
tool's half-written work remains.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from agents.models.registry import override_models, rules_model
from core.app.config import get_settings
from db.session import admin_engine, unit_of_work
from tests.reliability.conftest import (
    APOLOGY,
    ASK,
    FaultyKlausurModel,
    Person,
    assert_apology,
    committed_turn,
    materials_of,
    row_counts,
    run_cli,
    session_row,
)

ASK_WITH_AFB = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def terminate_turn_backend() -> None:
    """From a second (admin) connection: end the backend of the turn's connection, which sits idle in its open
    transaction while the model is asked — like a server-side kill, a network cut or an OOM-killed backend."""
    with admin_engine().connect() as admin:
        pid = admin.scalar(sa.text(  # the turn has written (it has an xid) and began last
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND usename = :role "
            "AND state = 'idle in transaction' AND backend_xid IS NOT NULL ORDER BY xact_start DESC LIMIT 1"),
            {"role": get_settings().werkbank_app_role})
        assert pid is not None, "the turn's connection was not found"
        assert admin.scalar(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        admin.commit()


def test_connection_dropped_mid_turn_writes_nothing_and_the_next_turn_works(person: Person,
                                                                           chat_page) -> None:  # noqa: ANN001
    before = row_counts()
    model = FaultyKlausurModel({1: terminate_turn_backend})
    with override_models(klausur=rules_model(model)):
        result, shown = chat_page(teacher_id=person.teacher_id, message=ASK, conversation_id=None)
    assert_apology(result, shown)
    # The specialist is not asked again on a dead connection: the next database access ends the turn.
    assert model.calls == 1
    assert row_counts() == before

    after, shown = chat_page(teacher_id=person.teacher_id, message=ASK, conversation_id=None)
    assert not shown and after.session_id, after.reply


def test_connection_dropped_while_answering_a_rueckfrage_leaves_it_waiting(person: Person, chat_page) -> None:  # noqa: ANN001
    asked = committed_turn(person, ASK)
    waiting = session_row(asked.session_id)
    before = row_counts()
    with override_models(klausur=rules_model(FaultyKlausurModel({1: terminate_turn_backend}))):
        result, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                  conversation_id=asked.conversation_id)
    assert_apology(result, shown)
    assert row_counts() == before
    now = session_row(asked.session_id)
    # The claim (status 'running') was part of the rolled-back turn: the Rückfrage waits, unchanged.
    assert (now["status"], now["revision"], now["message_history"]) == ("waiting", waiting["revision"],
                                                                        waiting["message_history"])

    answered, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                conversation_id=asked.conversation_id)
    assert not shown and answered.material_id, answered.reply
    assert session_row(asked.session_id)["status"] == "completed"


def test_statement_timeout_at_commit_writes_nothing_and_the_next_turn_works(person: Person, chat_page,
                                                                            settings_env) -> None:  # noqa: ANN001
    settings_env(WERKBANK_STATEMENT_TIMEOUT_MS="1500")
    with unit_of_work(person.identity) as db:
        assert db.scalar(sa.text("SHOW statement_timeout")) == "1500ms"  # the setting reaches every connection
    asked = committed_turn(person, ASK)
    before = row_counts()
    # Another transaction blocks writes to the readable log: the turn's INSERT waits until its timeout cancels it.
    with admin_engine().connect() as blocker:
        blocker.execute(sa.text("LOCK TABLE conversation_messages IN SHARE MODE"))
        result, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                  conversation_id=asked.conversation_id)
        blocker.rollback()
    assert_apology(result, shown)
    assert row_counts() == before
    assert session_row(asked.session_id)["status"] == "waiting"

    answered, shown = chat_page(teacher_id=person.teacher_id, message="30/40/30",
                                conversation_id=asked.conversation_id)
    assert not shown and answered.material_id, answered.reply


def test_statement_timeout_inside_a_tool_is_contained_by_its_savepoint(person: Person, chat_page,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    import db.repos.materials as material_repo

    real_add_file = material_repo.add_file
    calls = {"n": 0}

    def add_file_times_out_the_second_time(**kwargs):  # noqa: ANN003, ANN202
        calls["n"] += 1
        if calls["n"] == 2:  # the material row and its first file are written already
            kwargs["db"].execute(sa.text("SET LOCAL statement_timeout = '100ms'"))
            kwargs["db"].execute(sa.text("SELECT pg_sleep(2)"))
        return real_add_file(**kwargs)

    monkeypatch.setattr(material_repo, "add_file", add_file_times_out_the_second_time)
    before = row_counts()
    result, shown = chat_page(teacher_id=person.teacher_id, message=ASK_WITH_AFB, conversation_id=None)
    assert not shown
    # The main agent learns that its tool failed (offline: it says so); the teacher gets German text with an id.
    assert result.reply.startswith("Das Werkzeug generate_material ist fehlgeschlagen (OperationalError, Fehler-ID "), \
        result.reply
    assert result.material_id is None and result.session_id is None
    after = row_counts()
    # The turn itself is stored completely; nothing of the failed tool (material row, first file) is.
    assert {t: after[t] - before[t] for t in after if after[t] != before[t]}.keys() <= {
        "conversations", "conversation_messages", "llm_calls"}
    assert after["conversations"] - before["conversations"] == 1
    assert after["conversation_messages"] - before["conversation_messages"] == 2
    assert materials_of(person.teacher_id) == []

    again, shown = chat_page(teacher_id=person.teacher_id, message=ASK_WITH_AFB, conversation_id=None)
    assert not shown and again.material_id, again.reply
    assert len(again.files) == 4 and len(materials_of(person.teacher_id)) == 1


def test_cli_without_a_reachable_database_apologises_without_a_traceback(person: Person) -> None:
    proc = run_cli("chat", "--teacher", person.email, "--json", "Hallo",
                   env={"DATABASE_URL": "postgresql://werkbank_app@127.0.0.1:1/werkbank"})  # nothing listens there
    assert proc.returncode == 1 and proc.stdout == ""
    assert APOLOGY.fullmatch(proc.stderr.strip()), proc.stderr
