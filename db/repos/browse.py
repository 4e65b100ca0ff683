"""Read-only projections for the browsing pages (Meine Materialien, Sitzungen & Traces).

Only the columns a list shows are selected — never content JSON, file bytes or histories — and counting and
paging happen in SQL, so a page stays fast however much a teacher has stored. RLS applies on top of the filters.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, aliased

from db.models import AgentSession, Conversation, ConversationMessage, GeneratedMaterial

# --- materials ------------------------------------------------------------------------------------------------------


def _material_filters(*, teacher_id: uuid.UUID, fach: str | None, material_type: str | None,
                      created_from: datetime | None, created_before: datetime | None) -> list[sa.ColumnElement[bool]]:
    edited = aliased(GeneratedMaterial)
    where: list[sa.ColumnElement[bool]] = [  # a material's versions are one card: the newest version stands for them
        GeneratedMaterial.teacher_id == teacher_id,
        ~sa.exists().where(edited.parent_id == GeneratedMaterial.id, edited.teacher_id == teacher_id),
    ]
    if fach:
        where.append(GeneratedMaterial.fach == fach)
    if material_type:
        where.append(GeneratedMaterial.material_type == material_type)
    if created_from is not None:
        where.append(GeneratedMaterial.created_at >= created_from)
    if created_before is not None:
        where.append(GeneratedMaterial.created_at < created_before)
    return where


def count_materials(*, db: Session, teacher_id: uuid.UUID, fach: str | None = None, material_type: str | None = None,
                    created_from: datetime | None = None, created_before: datetime | None = None) -> int:
    where = _material_filters(teacher_id=teacher_id, fach=fach, material_type=material_type,
                              created_from=created_from, created_before=created_before)
    return int(db.scalar(sa.select(sa.func.count()).select_from(GeneratedMaterial).where(*where)) or 0)


def material_cards(*, db: Session, teacher_id: uuid.UUID, fach: str | None = None, material_type: str | None = None,
                   created_from: datetime | None = None, created_before: datetime | None = None, limit: int = 20,
                   offset: int = 0) -> list[sa.Row[Any]]:
    """One page of materials, newest first: the list columns plus the Klasse from content or request."""
    where = _material_filters(teacher_id=teacher_id, fach=fach, material_type=material_type,
                              created_from=created_from, created_before=created_before)
    klasse = sa.func.coalesce(GeneratedMaterial.content["klasse"].astext,
                              GeneratedMaterial.request["klasse"].astext).label("klasse")
    faults = sa.func.jsonb_array_length(GeneratedMaterial.validation).label("faults")
    stmt = (sa.select(GeneratedMaterial.id, GeneratedMaterial.titel, GeneratedMaterial.material_type,
                      GeneratedMaterial.fach, GeneratedMaterial.klassenstufe, GeneratedMaterial.thema, klasse,
                      GeneratedMaterial.created_at, GeneratedMaterial.rating, GeneratedMaterial.model_name, faults,
                      GeneratedMaterial.version)
            .where(*where)
            .order_by(GeneratedMaterial.created_at.desc(), GeneratedMaterial.id.desc())
            .limit(limit).offset(offset))
    return list(db.execute(stmt))


# --- Rückfrage sessions ----------------------------------------------------------------------------------------------


def _effective_status(now: datetime) -> sa.ColumnElement[str]:
    """A waiting session past its expiry counts as expired, even before the maintenance job marks it."""
    return sa.case(
        (sa.and_(AgentSession.status == "waiting", AgentSession.expires_at <= now), sa.literal("expired")),
        else_=AgentSession.status,
    )


def session_status_counts(*, db: Session, teacher_id: uuid.UUID, now: datetime) -> dict[str, int]:
    status = _effective_status(now).label("status")
    rows = db.execute(sa.select(status, sa.func.count()).where(AgentSession.teacher_id == teacher_id)
                      .group_by(status))
    return {s: int(n) for s, n in rows}


def session_rows(*, db: Session, teacher_id: uuid.UUID, status: str, now: datetime, limit: int = 100
                 ) -> list[sa.Row[Any]]:
    """Sessions with this (effective) status, newest first, with the title of the material they produced."""
    eff = _effective_status(now)
    stmt = (sa.select(AgentSession.id, AgentSession.agent_type, AgentSession.question, eff.label("status"),
                      AgentSession.clarification_count, AgentSession.created_at, AgentSession.expires_at,
                      AgentSession.conversation_id, AgentSession.result_material_id,
                      GeneratedMaterial.titel.label("material_titel"))
            .outerjoin(GeneratedMaterial, GeneratedMaterial.id == AgentSession.result_material_id)
            .where(AgentSession.teacher_id == teacher_id, eff == status)
            .order_by(AgentSession.created_at.desc()).limit(limit))
    return list(db.execute(stmt))


# --- conversations ---------------------------------------------------------------------------------------------------


def conversation_heads(*, db: Session, teacher_id: uuid.UUID, limit: int = 200) -> list[sa.Row[Any]]:
    """The person's conversations, newest first: id, title, dates and message count (no history JSON)."""
    n_messages = (sa.select(sa.func.count()).where(ConversationMessage.conversation_id == Conversation.id)
                  .correlate(Conversation).scalar_subquery().label("messages"))
    return list(db.execute(
        sa.select(Conversation.id, Conversation.title, Conversation.created_at, Conversation.updated_at, n_messages)
        .where(Conversation.teacher_id == teacher_id)
        .order_by(Conversation.updated_at.desc(), Conversation.id.desc()).limit(limit)
    ))


def session_histories(*, db: Session, conversation_id: uuid.UUID) -> list[sa.Row[Any]]:
    """The specialists' stored message histories of a conversation's Rückfrage sessions, oldest first."""
    return list(db.execute(
        sa.select(AgentSession.id, AgentSession.agent_type, AgentSession.status, AgentSession.created_at,
                  AgentSession.message_history)
        .where(AgentSession.conversation_id == conversation_id).order_by(AgentSession.created_at)
    ))
