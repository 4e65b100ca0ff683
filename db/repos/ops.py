"""Operator queries: server facts, open Rückfragen and model-call outcomes for the health report, the retention
deletes, and the advisory lock and fingerprint that serialise seeding across processes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentSession, AppMeta, Conversation, ConversationMessage, LlmCall


def server_versions(*, db: Session) -> tuple[str, str | None]:
    """(PostgreSQL server version, pgvector extension version or None)."""
    facts = db.execute(sa.text("SELECT current_setting('server_version') AS v, (SELECT extversion FROM "
                               "pg_extension WHERE extname = 'vector') AS pgv")).one()
    return facts.v, facts.pgv


def waiting_sessions(*, db: Session, now: datetime) -> tuple[int, int]:
    """(waiting and not yet expired, waiting but overdue) Rückfrage sessions."""
    waiting = db.scalar(sa.select(sa.func.count()).select_from(AgentSession)
                        .where(AgentSession.status == "waiting", AgentSession.expires_at > now))
    overdue = db.scalar(sa.select(sa.func.count()).select_from(AgentSession)
                        .where(AgentSession.status == "waiting", AgentSession.expires_at <= now))
    return int(waiting or 0), int(overdue or 0)


def call_outcomes_since(*, db: Session, since: datetime, evaluation: bool = False) -> list[tuple[str, int]]:
    """Model calls since `since`, counted per outcome ('ok', 'retry', or the kind of error): the teachers' calls, or
    with `evaluation` those of evaluation runs (eval_run_id set)."""
    of_runs = LlmCall.eval_run_id.is_not(None) if evaluation else LlmCall.eval_run_id.is_(None)
    rows = db.execute(sa.select(LlmCall.outcome, sa.func.count()).where(LlmCall.created_at > since, of_runs)
                      .group_by(LlmCall.outcome)).all()
    return [(outcome, n) for outcome, n in rows]


def expire_overdue_sessions(*, db: Session, now: datetime) -> int:
    return db.execute(sa.update(AgentSession).where(AgentSession.status == "waiting", AgentSession.expires_at <= now)
                      .values(status="expired")).rowcount


def delete_finished_sessions(*, db: Session, before: datetime) -> int:
    return db.execute(sa.delete(AgentSession).where(AgentSession.status.in_(("expired", "completed", "failed")),
                                                    AgentSession.updated_at < before)).rowcount


def delete_calls(*, db: Session, before: datetime) -> int:
    return db.execute(sa.delete(LlmCall).where(LlmCall.created_at < before)).rowcount


def delete_conversations(*, db: Session, before: datetime, now: datetime) -> int:
    """Conversations not updated since `before`, with their messages. A conversation's sessions go with it (ON
    DELETE CASCADE), so one whose Rückfrage still waits is kept, even when the session TTL is longer."""
    waits = sa.exists().where(AgentSession.conversation_id == Conversation.id,
                              AgentSession.status == "waiting", AgentSession.expires_at > now)
    old = sa.select(Conversation.id).where(Conversation.updated_at < before, ~waits)
    db.execute(sa.delete(ConversationMessage).where(ConversationMessage.conversation_id.in_(old)))
    return db.execute(sa.delete(Conversation).where(Conversation.id.in_(old))).rowcount


@contextlib.contextmanager
def advisory_lock(conn: sa.Connection, key: int) -> Iterator[None]:
    """A session-level advisory lock on `conn`, committed at once so other processes see it; released on exit."""
    conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": key})
    conn.commit()
    try:
        yield
    finally:
        conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": key})
        conn.commit()


def get_meta(*, db: Session, key: str) -> AppMeta | None:
    return db.get(AppMeta, key)


def set_meta(*, db: Session, key: str, value: str) -> None:
    row = db.get(AppMeta, key)
    if row is None:
        db.add(AppMeta(key=key, value=value))
    else:
        row.value = value
