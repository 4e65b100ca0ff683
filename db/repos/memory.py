"""Teacher memories, session summaries and the model call log."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import LlmCall, SessionLog, UserMemory


def add_memory(*, db: Session, teacher_id: uuid.UUID, content: str, fach: str | None = None,
               source: str = "conversation") -> UserMemory:
    row = UserMemory(teacher_id=teacher_id, content=content[:1000], fach=fach, source=source)
    db.add(row)
    db.flush()
    return row


def memories_of(*, db: Session, teacher_id: uuid.UUID, limit: int = 10) -> list[UserMemory]:
    return list(db.scalars(sa.select(UserMemory).where(UserMemory.teacher_id == teacher_id)
                           .order_by(UserMemory.created_at.desc()).limit(limit)))


def add_session_log(*, db: Session, teacher_id: uuid.UUID, conversation_id: uuid.UUID | None, summary: str) -> None:
    db.add(SessionLog(teacher_id=teacher_id, conversation_id=conversation_id, summary=summary[:500]))
    db.flush()


def recent_session_logs(*, db: Session, teacher_id: uuid.UUID, limit: int = 3) -> list[SessionLog]:
    return list(db.scalars(sa.select(SessionLog).where(SessionLog.teacher_id == teacher_id)
                           .order_by(SessionLog.created_at.desc()).limit(limit)))


def add_llm_calls(*, db: Session, rows: list[dict[str, Any]]) -> None:
    if rows:
        db.add_all([LlmCall(**r) for r in rows])
        db.flush()


def calls_of_conversation(*, db: Session, conversation_id: uuid.UUID) -> list[LlmCall]:
    return list(db.scalars(sa.select(LlmCall).where(LlmCall.conversation_id == conversation_id)
                           .order_by(LlmCall.id)))
