"""SQLAlchemy 2 models: the whole schema of the workbench, designed as one piece.

Tables and columns follow DESIGN §3 and the design document (`agent_knowledge` with scope_type/scope_id/owner_id).
The schema itself is created by Alembic migrations; these classes are the ORM view of it.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Computed,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR, UUID
from sqlalchemy.orm import Mapped, mapped_column

from db.base import Base, created, in_check, uuid_pk
from db.ops_models import AppMeta, EvalRun, LlmCall, PromptVersion  # noqa: F401 (the whole schema imports from here)

EMBEDDING_DIM = 384

SCOPE_TYPES = ("teacher", "class", "school", "global")
KNOWLEDGE_TYPES = ("generic", "example", "good_practice", "preference", "operator_list", "note", "coverage")
SOURCES = ("system", "upload", "generated", "conversation", "curator", "import")
ROLES = ("teacher", "curator", "product")


# --- people and organisation -------------------------------------------------------------------------------------


class School(Base):
    __tablename__ = "schools"
    id: Mapped[uuid.UUID] = uuid_pk()
    name: Mapped[str] = mapped_column(String(200))
    bundesland: Mapped[str] = mapped_column(String(60))
    schulform: Mapped[str] = mapped_column(String(60), default="Gymnasium")
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default=text("'{}'::jsonb"))
    created_at: Mapped[datetime] = created()


class Teacher(Base):
    __tablename__ = "teachers"
    __table_args__ = (CheckConstraint(in_check("role", ROLES), name="ck_teachers_role"),)
    id: Mapped[uuid.UUID] = uuid_pk()
    school_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("schools.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(320), unique=True)
    bundesland: Mapped[str] = mapped_column(String(60))
    faecher: Mapped[list[str]] = mapped_column(ARRAY(String(40)), default=list)
    role: Mapped[str] = mapped_column(String(20), default="teacher", server_default="teacher")
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default=text("'{}'::jsonb"))
    created_at: Mapped[datetime] = created()


class SchoolClass(Base):
    __tablename__ = "classes"
    __table_args__ = (UniqueConstraint("school_id", "name", "schuljahr", name="uq_classes_name"),)
    id: Mapped[uuid.UUID] = uuid_pk()
    school_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("schools.id"), index=True)
    name: Mapped[str] = mapped_column(String(20))
    klassenstufe: Mapped[int] = mapped_column(Integer)
    schuljahr: Mapped[str] = mapped_column(String(9))
    created_at: Mapped[datetime] = created()


class TeacherClass(Base):
    __tablename__ = "teacher_classes"
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), primary_key=True)
    class_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), primary_key=True)
    fach: Mapped[str] = mapped_column(String(40), primary_key=True)


# --- knowledge ---------------------------------------------------------------------------------------------------

_AK_FTS = (
    "setweight(to_tsvector('german', coalesce(thema, '')), 'A') || "
    "setweight(to_tsvector('german', coalesce(description, '')), 'B') || "
    "setweight(to_tsvector('german', coalesce(search_text, '')), 'C')"
)


class AgentKnowledge(Base):
    """Everything an agent knows: subject profiles, examples, good practices, preferences — scoped."""

    __tablename__ = "agent_knowledge"
    __table_args__ = (
        CheckConstraint(in_check("scope_type", SCOPE_TYPES), name="ck_ak_scope_type"),
        CheckConstraint("(scope_type = 'global') = (scope_id IS NULL)", name="ck_ak_scope_id"),
        CheckConstraint(in_check("knowledge_type", KNOWLEDGE_TYPES), name="ck_ak_knowledge_type"),
        CheckConstraint(in_check("source", SOURCES), name="ck_ak_source"),
        CheckConstraint("quality_score >= 0 AND quality_score <= 1", name="ck_ak_quality"),
        CheckConstraint("status IN ('active', 'retired')", name="ck_ak_status"),
        # The Wissenskarte aggregates over exactly these columns: an index-only count per scope and type.
        Index("ix_ak_map", "agent_type", "fach", "scope_type", "scope_id", "knowledge_type", "status",
              postgresql_include=["shared_for_curation"]),
        Index("ix_ak_owner", "owner_id"),
        Index("ix_ak_external", "external_id"),
        Index(
            "ix_ak_embedding",
            "embedding",
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 64},
            postgresql_ops={"embedding": "vector_cosine_ops"},
        ),
        # The full-text and vector indexes of each Fach's global slice: migration 0006 (partial, per Fach).
    )
    id: Mapped[uuid.UUID] = uuid_pk()
    agent_type: Mapped[str] = mapped_column(String(40))
    scope_type: Mapped[str] = mapped_column(String(10))
    scope_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    owner_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("teachers.id", ondelete="SET NULL"))
    fach: Mapped[str] = mapped_column(String(40))
    thema: Mapped[str | None] = mapped_column(String(200))
    knowledge_type: Mapped[str] = mapped_column(String(20))
    content: Mapped[dict[str, Any]]
    description: Mapped[str | None] = mapped_column(Text)
    quality_score: Mapped[float] = mapped_column(Float, default=0.5, server_default="0.5")
    times_used: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    source: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(10), default="active", server_default="active")
    shared_for_curation: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    rating_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    external_id: Mapped[str | None] = mapped_column(String(200))
    search_text: Mapped[str | None] = mapped_column(Text)
    embedding: Mapped[list[float] | None] = mapped_column(Vector(EMBEDDING_DIM))
    embedding_model: Mapped[str | None] = mapped_column(String(120))
    seed_hash: Mapped[str | None] = mapped_column(String(32))  # what the seed wrote; differs once someone edited
    held_upload: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))  # on hold for review (migration 0011)
    fts: Mapped[Any] = mapped_column(TSVECTOR, Computed(_AK_FTS, persisted=True))
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    created_at: Mapped[datetime] = created()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class KnowledgeChange(Base):
    """Audit trail of curator and teacher edits to knowledge rows (who, when, before/after)."""

    __tablename__ = "knowledge_changes"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    knowledge_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), index=True)
    actor_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("teachers.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(30))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = created()


_CC_FTS = (
    "setweight(to_tsvector('german', coalesce(themenfeld, '') || ' ' || coalesce(thema, '')), 'A') || "
    "setweight(to_tsvector('german', coalesce(kompetenz, '')), 'B')"
)


class CurriculumChunk(Base):
    """A Lehrplan excerpt (seeded examples or a teacher's uploaded curriculum document)."""

    __tablename__ = "curriculum_chunks"
    __table_args__ = (
        CheckConstraint(in_check("scope_type", SCOPE_TYPES), name="ck_cc_scope_type"),
        CheckConstraint("(scope_type = 'global') = (scope_id IS NULL)", name="ck_cc_scope_id"),
        Index("ix_cc_fach", "fach", "scope_type", "scope_id"),
        Index(
            "ix_cc_embedding",
            "embedding",
            postgresql_using="hnsw",
            postgresql_with={"m": 16, "ef_construction": 64},
            postgresql_ops={"embedding": "vector_cosine_ops"},
        ),
        Index("ix_cc_fts", "fts", postgresql_using="gin"),
    )
    id: Mapped[uuid.UUID] = uuid_pk()
    scope_type: Mapped[str] = mapped_column(String(10), default="global", server_default="global")
    scope_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    owner_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("teachers.id", ondelete="SET NULL"))
    bundesland: Mapped[str] = mapped_column(String(60))
    schulform: Mapped[str] = mapped_column(String(60))
    fach: Mapped[str] = mapped_column(String(40))
    klassenstufen: Mapped[list[int]] = mapped_column(ARRAY(Integer))
    themenfeld: Mapped[str | None] = mapped_column(String(200))
    thema: Mapped[str] = mapped_column(String(200))
    kompetenz: Mapped[str] = mapped_column(Text)
    quelle: Mapped[str] = mapped_column(Text)
    abschnitt: Mapped[str | None] = mapped_column(Text)
    external_id: Mapped[str | None] = mapped_column(String(200), index=True)
    embedding: Mapped[list[float] | None] = mapped_column(Vector(EMBEDDING_DIM))
    embedding_model: Mapped[str | None] = mapped_column(String(120))
    fts: Mapped[Any] = mapped_column(TSVECTOR, Computed(_CC_FTS, persisted=True))
    held_upload: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))  # on hold for review (migration 0011)
    created_at: Mapped[datetime] = created()


# --- conversations and paused specialist runs --------------------------------------------------------------------


class Conversation(Base):
    """The main chat: the pydantic-ai Conversation as JSON, saved with an optimistic revision check."""

    __tablename__ = "conversations"
    __table_args__ = (Index("ix_conv_teacher", "teacher_id", "updated_at"),)
    id: Mapped[uuid.UUID] = uuid_pk()
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(200), default="Neues Gespräch")
    state: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default=text("'{}'::jsonb"))
    history: Mapped[list[Any]] = mapped_column(default=list, server_default=text("'[]'::jsonb"))
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    created_at: Mapped[datetime] = created()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class ConversationMessage(Base):
    """The readable message log of a conversation (what the chat page shows, in order)."""

    __tablename__ = "conversation_messages"
    __table_args__ = (Index("ix_cm_conv", "conversation_id", "id"),)
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    conversation_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))
    content: Mapped[str] = mapped_column(Text)
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default=text("'{}'::jsonb"))
    created_at: Mapped[datetime] = created()


class AgentSession(Base):
    """A paused specialist run waiting for the teacher's answer to a Rückfrage."""

    __tablename__ = "agent_sessions"
    __table_args__ = (
        CheckConstraint("status IN ('waiting', 'running', 'completed', 'expired', 'failed')", name="ck_as_status"),
        Index("ix_as_teacher_status", "teacher_id", "status"),
        Index("ix_as_expiry", "status", "expires_at"),
    )
    id: Mapped[uuid.UUID] = uuid_pk()
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    conversation_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    agent_type: Mapped[str] = mapped_column(String(40))
    message_history: Mapped[list[Any]] = mapped_column(default=list)
    request: Mapped[dict[str, Any]] = mapped_column(default=dict)
    deps: Mapped[dict[str, Any]] = mapped_column(default=dict)
    question: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(12), default="waiting", server_default="waiting")
    clarification_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    schema_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    last_answer_hash: Mapped[str | None] = mapped_column(String(64))
    result_material_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = created()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


# --- results, feedback, memory -----------------------------------------------------------------------------------


class GeneratedMaterial(Base):
    __tablename__ = "generated_materials"
    __table_args__ = (
        CheckConstraint("rating IS NULL OR rating BETWEEN 1 AND 5", name="ck_gm_rating"),
        Index("ix_gm_teacher", "teacher_id", "created_at"),
    )
    id: Mapped[uuid.UUID] = uuid_pk()
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    conversation_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("conversations.id", ondelete="SET NULL"))
    material_type: Mapped[str] = mapped_column(String(20))
    fach: Mapped[str] = mapped_column(String(40))
    klassenstufe: Mapped[int | None] = mapped_column(Integer)
    thema: Mapped[str | None] = mapped_column(String(200))
    titel: Mapped[str] = mapped_column(String(300))
    content: Mapped[dict[str, Any]]
    request: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default=text("'{}'::jsonb"))
    validation: Mapped[list[Any]] = mapped_column(default=list, server_default=text("'[]'::jsonb"))
    model_name: Mapped[str | None] = mapped_column(String(120))
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    parent_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("generated_materials.id", ondelete="SET NULL"))
    rating: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = created()


class MaterialFile(Base):
    __tablename__ = "material_files"
    id: Mapped[uuid.UUID] = uuid_pk()
    material_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("generated_materials.id", ondelete="CASCADE"), index=True)
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(30))
    filename: Mapped[str] = mapped_column(String(300))
    mime: Mapped[str] = mapped_column(String(120))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = created()


class Rating(Base):
    __tablename__ = "ratings"
    __table_args__ = (CheckConstraint("stars BETWEEN 1 AND 5", name="ck_ratings_stars"),)
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), index=True)
    material_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("generated_materials.id", ondelete="CASCADE"), index=True)
    task_ref: Mapped[str | None] = mapped_column(String(20))
    stars: Mapped[int] = mapped_column(Integer)
    comment: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created()


class UserMemory(Base):
    __tablename__ = "user_memories"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), index=True)
    fach: Mapped[str | None] = mapped_column(String(40))
    content: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(20), default="conversation")
    created_at: Mapped[datetime] = created()


class SessionLog(Base):
    """Short summaries of past conversations, for the main agent's instructions."""

    __tablename__ = "session_logs"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), index=True)
    conversation_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    summary: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = created()


class Upload(Base):
    __tablename__ = "uploads"
    id: Mapped[uuid.UUID] = uuid_pk()
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), index=True)
    conversation_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("conversations.id", ondelete="SET NULL"))
    filename: Mapped[str] = mapped_column(String(300))
    mime: Mapped[str] = mapped_column(String(120))
    size_bytes: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes | None] = mapped_column(LargeBinary)  # the raw file; dropped after parsing (retention)
    kind: Mapped[str] = mapped_column(String(30), default="attachment")
    extracted_text: Mapped[str | None] = mapped_column(Text)  # personal data already removed
    blocks: Mapped[list[Any] | None] = mapped_column(JSONB)  # the parsed, redacted blocks (imports read these)
    removed: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default=text("'{}'::jsonb"))  # kind -> n
    data_deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = created()



class UploadReview(Base):
    """An upload held for a curator's review: instruction-like or hidden text was found (the passage, personal data
    removed). Its knowledge rows carry `held_upload` and only their owner sees them until it is approved."""

    __tablename__ = "upload_reviews"
    __table_args__ = (CheckConstraint("status IN ('held', 'approved', 'rejected')", name="ck_ur_status"),
                      Index("ix_ur_status", "status", "created_at"), Index("ix_ur_teacher", "teacher_id"))
    id: Mapped[uuid.UUID] = uuid_pk()
    upload_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("uploads.id", ondelete="CASCADE"), unique=True)
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    filename: Mapped[str] = mapped_column(String(300))
    fach: Mapped[str | None] = mapped_column(String(40))
    scope: Mapped[str] = mapped_column(String(10))
    reason: Mapped[str] = mapped_column(String(300))
    passage: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10), default="held", server_default="held")
    reviewer_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("teachers.id", ondelete="SET NULL"))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = created()

# Tables whose rows belong to one teacher: RLS lets a teacher see only their own (DESIGN §3 "Visibility").
TEACHER_OWNED = (
    "conversations",
    "conversation_messages",
    "agent_sessions",
    "generated_materials",
    "material_files",
    "ratings",
    "user_memories",
    "session_logs",
    "uploads",
    "llm_calls",
)
# Tables whose rows carry a scope (teacher | class | school | global).
SCOPED = ("agent_knowledge", "curriculum_chunks")
