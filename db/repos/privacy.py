"""A teacher's own data, all of it: deleted on request (the teacher's "delete all my data"), and the access log and
consents they see. Deletion runs as the system identity, restricted to the teacher's own rows by every WHERE."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Session

from db import models as m
from db.access_models import AccessLog, StaffConsent


def delete_teacher_data(*, db: Session, teacher_id: uuid.UUID) -> dict[str, int]:
    """Delete conversations (with messages, Rückfragen, summaries), materials (files, ratings), uploads, memories,
    model-call records, own knowledge and curriculum chunks (not global ones), consents, the access log and her
    settings.
    The person and their account stay (the administrator removes those). Returns {table: rows deleted}."""
    t = teacher_id
    own_knowledge = sa.select(m.AgentKnowledge.id).where(m.AgentKnowledge.owner_id == t,
                                                         m.AgentKnowledge.scope_type != "global")
    steps = [
        ("knowledge_changes", sa.delete(m.KnowledgeChange).where(m.KnowledgeChange.knowledge_id.in_(own_knowledge))),
        ("agent_knowledge", sa.delete(m.AgentKnowledge).where(m.AgentKnowledge.owner_id == t,
                                                              m.AgentKnowledge.scope_type != "global")),
        ("curriculum_chunks", sa.delete(m.CurriculumChunk).where(m.CurriculumChunk.owner_id == t,
                                                                 m.CurriculumChunk.scope_type != "global")),
        ("ratings", sa.delete(m.Rating).where(m.Rating.teacher_id == t)),
        ("uploads", sa.delete(m.Upload).where(m.Upload.teacher_id == t)),
        ("generated_materials", sa.delete(m.GeneratedMaterial).where(m.GeneratedMaterial.teacher_id == t)),
        ("agent_sessions", sa.delete(m.AgentSession).where(m.AgentSession.teacher_id == t)),
        ("session_logs", sa.delete(m.SessionLog).where(m.SessionLog.teacher_id == t)),
        ("conversations", sa.delete(m.Conversation).where(m.Conversation.teacher_id == t)),
        ("user_memories", sa.delete(m.UserMemory).where(m.UserMemory.teacher_id == t)),
        ("llm_calls", sa.delete(m.LlmCall).where(m.LlmCall.teacher_id == t)),
        ("staff_consents", sa.delete(StaffConsent).where(StaffConsent.teacher_id == t)),
        ("access_log", sa.delete(AccessLog).where(AccessLog.teacher_id == t)),
        # Her own settings (today: her Sek-I Notenschlüssel) are preferences like the ones deleted above.
        ("teacher_settings", sa.update(m.Teacher).where(m.Teacher.id == t, m.Teacher.settings != sa.literal({}, JSONB))
         .values(settings={})),
    ]
    return {table: db.execute(stmt).rowcount or 0 for table, stmt in steps}


def record_deletion(*, db: Session, teacher_id: uuid.UUID, by: str, what: str) -> None:
    """The one row that stays: that (and by whom) all of her data was deleted, with counts only, in her log."""
    db.add(AccessLog(teacher_id=teacher_id, viewer_id=None, viewer_label=by[:300], object_type="deletion",
                     object_id=teacher_id, what=what[:300]))
    db.flush()


def access_log_of(*, db: Session, teacher_id: uuid.UUID, limit: int = 200) -> list[AccessLog]:
    return list(db.scalars(sa.select(AccessLog).where(AccessLog.teacher_id == teacher_id)
                           .order_by(AccessLog.created_at.desc()).limit(limit)))


def consents_of(*, db: Session, teacher_id: uuid.UUID) -> list[StaffConsent]:
    return list(db.scalars(sa.select(StaffConsent).where(StaffConsent.teacher_id == teacher_id,
                                                           StaffConsent.revoked_at.is_(None))
                           .order_by(StaffConsent.created_at.desc())))


def log_access(*, db: Session, teacher_id: uuid.UUID, viewer_id: uuid.UUID, viewer_label: str, object_type: str,
               object_id: uuid.UUID, what: str) -> None:
    """A staff member read a teacher's private row (with consent); written as the staff member (RLS checks it)."""
    db.add(AccessLog(teacher_id=teacher_id, viewer_id=viewer_id, viewer_label=viewer_label[:300],
                       object_type=object_type, object_id=object_id, what=what[:300]))
    db.flush()


def consented_conversations(*, db: Session, limit: int = 200) -> list[sa.Row]:
    """Conversations the acting staff member may read because their teacher consented (RLS checks role and
    consent): id, the consent's label, since when, and the teacher's id."""
    return list(db.execute(
        sa.select(StaffConsent.object_id, StaffConsent.label, StaffConsent.created_at, StaffConsent.teacher_id)
        .join(m.Conversation, m.Conversation.id == StaffConsent.object_id)
        .where(StaffConsent.object_type == "conversation", StaffConsent.revoked_at.is_(None))
        .order_by(StaffConsent.created_at.desc()).limit(limit)))
