"""Conversations (the main chat, revision-checked) and their readable message log."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import Conversation, ConversationMessage, GeneratedMaterial


def create_conversation(*, db: Session, teacher_id: uuid.UUID, title: str = "Neues Gespräch") -> Conversation:
    conv = Conversation(teacher_id=teacher_id, title=title[:200], history=[], state={}, revision=1)
    db.add(conv)
    db.flush()
    return conv


def get_conversation(*, db: Session, conversation_id: uuid.UUID) -> Conversation | None:
    return db.get(Conversation, conversation_id, populate_existing=True)


def lock_conversation(*, db: Session, conversation_id: uuid.UUID, wait_seconds: int = 3) -> Conversation | None:
    """Lock the conversation row for this turn; None if another turn holds it longer than `wait_seconds`."""
    db.execute(sa.text(f"SET LOCAL lock_timeout = '{int(wait_seconds)}s'"))
    try:
        with db.begin_nested():
            return db.scalar(sa.select(Conversation).where(Conversation.id == conversation_id)
                             .with_for_update().execution_options(populate_existing=True))
    except sa.exc.OperationalError as exc:
        if getattr(exc.orig, "sqlstate", None) == "55P03":  # lock_not_available
            return None
        raise


def save_conversation(
    *, db: Session, conversation_id: uuid.UUID, expected_revision: int, history: list[Any], state: dict[str, Any],
    title: str | None = None,
) -> int | None:
    """Store the new history if nobody saved in between; returns the new revision, or None on conflict."""
    values: dict[str, Any] = {"history": history, "state": state, "revision": expected_revision + 1,
                              "updated_at": sa.func.now()}
    if title:
        values["title"] = title[:200]
    result = db.execute(
        sa.update(Conversation)
        .where(Conversation.id == conversation_id, Conversation.revision == expected_revision)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return expected_revision + 1 if result.rowcount == 1 else None


def add_message(*, db: Session, conversation_id: uuid.UUID, teacher_id: uuid.UUID, role: str, content: str,
                meta: dict[str, Any] | None = None) -> ConversationMessage:
    msg = ConversationMessage(conversation_id=conversation_id, teacher_id=teacher_id, role=role, content=content,
                              meta=meta or {})
    db.add(msg)
    db.flush()
    return msg


def list_messages(*, db: Session, conversation_id: uuid.UUID) -> list[ConversationMessage]:
    return list(db.scalars(
        sa.select(ConversationMessage).where(ConversationMessage.conversation_id == conversation_id)
        .order_by(ConversationMessage.id)
    ))


def list_conversations(*, db: Session, teacher_id: uuid.UUID, limit: int = 50) -> list[Conversation]:
    return list(db.scalars(
        sa.select(Conversation).where(Conversation.teacher_id == teacher_id)
        .order_by(Conversation.updated_at.desc()).limit(limit)
    ))


def materials_in(*, db: Session, conversation_id: uuid.UUID) -> list[uuid.UUID]:
    """Ids of the materials made in this conversation (newest first)."""
    return list(db.scalars(sa.select(GeneratedMaterial.id).where(GeneratedMaterial.conversation_id == conversation_id)
                           .order_by(GeneratedMaterial.created_at.desc()).limit(50)))
