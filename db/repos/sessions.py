"""Paused specialist runs (Rückfrage sessions): create, claim atomically, finish, expire."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentSession


def create_session(*, db: Session, **fields: Any) -> AgentSession:
    row = AgentSession(**fields)
    db.add(row)
    db.flush()
    return row


def get_session(*, db: Session, session_id: uuid.UUID) -> AgentSession | None:
    return db.get(AgentSession, session_id, populate_existing=True)


def claim_session(*, db: Session, session_id: uuid.UUID, teacher_id: uuid.UUID, now: datetime) -> AgentSession | None:
    """Move a waiting, unexpired session of this teacher to `running`. Only one caller can win this UPDATE; a
    concurrent caller waits at most a few seconds for the row lock and then loses (None)."""
    db.execute(sa.text("SET LOCAL lock_timeout = '3s'"))
    try:
        with db.begin_nested():
            row = _claim(db, session_id, teacher_id, now)
    except sa.exc.OperationalError as exc:
        if getattr(exc.orig, "sqlstate", None) == "55P03":
            return None
        raise
    return get_session(db=db, session_id=row) if row else None


def _claim(db: Session, session_id: uuid.UUID, teacher_id: uuid.UUID, now: datetime) -> uuid.UUID | None:
    return db.execute(
        sa.update(AgentSession)
        .where(AgentSession.id == session_id, AgentSession.teacher_id == teacher_id,
               AgentSession.status == "waiting", AgentSession.expires_at > now)
        .values(status="running", revision=AgentSession.revision + 1, updated_at=sa.func.now())
        .returning(AgentSession.id)
        .execution_options(synchronize_session=False)
    ).scalar()


def update_session(*, db: Session, session_id: uuid.UUID, **values: Any) -> None:
    values.setdefault("updated_at", sa.func.now())
    db.execute(sa.update(AgentSession).where(AgentSession.id == session_id).values(**values)
               .execution_options(synchronize_session=False))


def waiting_session_for(*, db: Session, conversation_id: uuid.UUID) -> AgentSession | None:
    return db.scalar(
        sa.select(AgentSession).where(AgentSession.conversation_id == conversation_id,
                                      AgentSession.status == "waiting", AgentSession.expires_at > sa.func.now())
        .order_by(AgentSession.created_at.desc()).limit(1)
    )


def list_sessions(*, db: Session, teacher_id: uuid.UUID | None = None, status: str | None = None,
                  limit: int = 100) -> list[AgentSession]:
    stmt = sa.select(AgentSession).order_by(AgentSession.created_at.desc()).limit(limit)
    if teacher_id:
        stmt = stmt.where(AgentSession.teacher_id == teacher_id)
    if status:
        stmt = stmt.where(AgentSession.status == status)
    return list(db.scalars(stmt))


def expire_overdue(*, db: Session, now: datetime) -> int:
    """Mark waiting sessions past their expiry as expired (never touches running or unexpired ones)."""
    return db.execute(
        sa.update(AgentSession).where(AgentSession.status == "waiting", AgentSession.expires_at <= now)
        .values(status="expired", updated_at=sa.func.now()).execution_options(synchronize_session=False)
    ).rowcount
