"""A Rückfrage expires after its TTL — it says so, for every process — and cleanup never deletes one that waits.

Extends tests/core/generation/test_rueckfrage_sessions.py (expiry inside one transaction) and
tests/core/ops/test_operations.py (retention's basic keep/expire/delete).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from core.chat.service import conversation_log
from core.ops.retention import retention
from db import models as m
from db.session import Identity, unit_of_work
from tests.reliability.conftest import ASK, Person, committed_turn, materials_of, session_row


def _set(model: type, row_id: uuid.UUID | str, **values: object) -> None:
    with unit_of_work(Identity.system()) as db:
        db.execute(sa.update(model).where(model.id == uuid.UUID(str(row_id))).values(**values))


def test_expired_rueckfrage_names_its_ttl_is_marked_for_everyone_and_the_next_request_works(
        person: Person, settings_env) -> None:  # noqa: ANN001
    settings_env(WERKBANK_SESSION_TTL_MINUTES="5")
    asked = committed_turn(person, ASK)
    row = session_row(asked.session_id)
    assert timedelta(minutes=4.5) < row["expires_at"] - row["created_at"] < timedelta(minutes=5.5)
    _set(m.AgentSession, asked.session_id, expires_at=datetime.now(UTC) - timedelta(seconds=1))

    late = committed_turn(person, "30/40/30", asked.conversation_id)
    assert late.reply == ("Diese Rückfrage ist abgelaufen (sie gilt 5 Minuten). Bitte stellen Sie die Anfrage neu — "
                          "ich beginne sofort.")
    assert late.material_id is None and materials_of(person.teacher_id) == []
    assert session_row(asked.session_id)["status"] == "expired"  # committed with the turn: every process sees it

    again = committed_turn(person, ASK, asked.conversation_id)
    assert again.session_id and again.session_id != asked.session_id, again.reply


def test_chat_page_no_longer_offers_an_overdue_rueckfrage(person: Person) -> None:
    asked = committed_turn(person, ASK)
    assert conversation_log(teacher_id=person.teacher_id, conversation_id=asked.conversation_id)["open_question"]
    _set(m.AgentSession, asked.session_id, expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert conversation_log(teacher_id=person.teacher_id, conversation_id=asked.conversation_id)[
        "open_question"] is None


def test_retention_never_deletes_a_waiting_rueckfrage_not_even_with_its_old_conversation(person: Person) -> None:
    now = datetime.now(UTC)
    ancient = now - timedelta(days=20 * 365)
    # A real Rückfrage whose conversation and session look ancient but which still waits (a TTL longer than the
    # conversation retention): its conversation must survive, or ON DELETE CASCADE takes the session with it.
    waiting = committed_turn(person, ASK)
    _set(m.Conversation, waiting.conversation_id, updated_at=ancient)
    _set(m.AgentSession, waiting.session_id, updated_at=ancient, expires_at=now + timedelta(days=7))
    with unit_of_work(Identity.system()) as db:
        done_conv = m.Conversation(teacher_id=person.teacher_id, title="Alt und erledigt", updated_at=ancient)
        db.add(done_conv)
        db.flush()

        def session(status: str, expires: datetime, conversation_id: uuid.UUID | None = None) -> uuid.UUID:
            row = m.AgentSession(teacher_id=person.teacher_id, conversation_id=conversation_id, agent_type="klausur",
                                 status=status, expires_at=expires)
            db.add(row)
            db.flush()
            db.execute(sa.update(m.AgentSession).where(m.AgentSession.id == row.id).values(updated_at=ancient))
            return row.id

        done = session("completed", ancient, done_conv.id)
        lonely = session("waiting", now + timedelta(minutes=30))
        overdue = session("waiting", now - timedelta(minutes=1))
        done_conv_id = done_conv.id

    report = retention(session_days=30, trace_days=36_500, conversation_days=3650, now=now)
    assert report.conversations_deleted >= 1 and report.sessions_deleted >= 1 and report.sessions_expired >= 1

    with unit_of_work(Identity.system()) as db:
        status = dict(db.execute(sa.select(m.AgentSession.id, m.AgentSession.status).where(
            m.AgentSession.teacher_id == person.teacher_id)).all())
        conversations = set(db.scalars(sa.select(m.Conversation.id).where(
            m.Conversation.teacher_id == person.teacher_id)))
    assert status.get(uuid.UUID(waiting.session_id)) == "waiting" and waiting.conversation_id in conversations
    assert status.get(lonely) == "waiting"
    assert status.get(overdue) == "expired"  # marked now, deleted only after session_days
    assert done not in status and done_conv_id not in conversations

    # Still waiting means still answerable.
    answered = committed_turn(person, "30/40/30", waiting.conversation_id)
    assert answered.material_id, answered.reply
