"""Queries of the curation desk: the review queue, optimistic edits, the audit trail, near-duplicates, histogram.

The curation pool is the global rows plus the rows teachers shared for curation; every query says so in SQL (on
top of RLS). All list queries page in SQL and run on the `ix_ak_map` prefix (agent_type, fach) — never load all rows.
"""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, load_only

from db.models import AgentKnowledge, KnowledgeChange, School, SchoolClass, Teacher, TeacherClass

AK = AgentKnowledge

# Audit actions that count as "a curator has looked at it": such entries leave the queue. An edit alone does not —
# a fixed typo is not a verdict on the task.
REVIEW_ACTIONS = ("curate.rate", "curate.review", "curate.promote", "curate.merge", "curate.retire")

LIST_COLUMNS = (AK.id, AK.agent_type, AK.scope_type, AK.fach, AK.thema, AK.description, AK.quality_score,
                AK.times_used, AK.status, AK.shared_for_curation, AK.rating_count, AK.revision, AK.created_at,
                AK.updated_at, AK.source)


def in_pool() -> sa.ColumnElement[bool]:
    """What curators work on: global rows and rows a teacher shared for curation."""
    return sa.or_(AK.scope_type == "global", AK.shared_for_curation.is_(True))


def reviewed() -> sa.ColumnElement[bool]:
    return (
        sa.select(KnowledgeChange.id)
        .where(KnowledgeChange.knowledge_id == AK.id, KnowledgeChange.action.in_(REVIEW_ACTIONS))
        .exists()
    )


def _where(*, fach: str, agent_types: list[str], view: str, text: str | None) -> list[sa.ColumnElement[bool]]:
    """The pool slice of one Fach for a view (queue, active, retired) and an optional text search."""
    where = [AK.agent_type.in_(agent_types), AK.fach == fach, AK.knowledge_type == "good_practice", in_pool()]
    if view == "retired":
        where.append(AK.status == "retired")
    else:
        where.append(AK.status == "active")
    if view == "queue":
        where += [sa.or_(AK.rating_count == 0, AK.shared_for_curation.is_(True)), ~reviewed()]
    if text:
        query = sa.func.websearch_to_tsquery("german", text)
        where.append(sa.or_(AK.fts.op("@@")(query), AK.thema.ilike(f"%{_escape_like(text)}%", escape="\\")))
    return where


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def count_entries(*, db: Session, fach: str, agent_types: list[str], view: str, text: str | None) -> int:
    where = _where(fach=fach, agent_types=agent_types, view=view, text=text)
    return int(db.scalar(sa.select(sa.func.count()).select_from(AK).where(*where)) or 0)


def _order(order: str) -> list[sa.ColumnElement[Any]]:
    """`newest` first; `used`: most often in generated materials first (usage analytics, with their rating); or by
    `priority`: shared by teachers first, then never reviewed, then most used, then lowest rated (unrated count as
    the middle), newest last as the tie-break."""
    if order == "priority":
        return [AK.shared_for_curation.desc(), reviewed().asc(), AK.times_used.desc(),
                sa.case((AK.rating_count == 0, 0.5), else_=AK.quality_score).asc(), AK.created_at.desc(), AK.id]
    if order == "used":
        return [AK.times_used.desc(), AK.quality_score.asc(), AK.created_at.desc(), AK.id]
    return [AK.created_at.desc(), AK.id]


def list_entries(*, db: Session, fach: str, agent_types: list[str], view: str, text: str | None, limit: int,
                 offset: int, order: str = "newest") -> list[AgentKnowledge]:
    """One page of the pool (an index range on ix_ak_map, then a sort of that Fach's slice)."""
    where = _where(fach=fach, agent_types=agent_types, view=view, text=text)
    return list(db.scalars(
        sa.select(AK).options(load_only(*LIST_COLUMNS)).where(*where)
        .order_by(*_order(order)).limit(limit).offset(offset)
        .execution_options(populate_existing=True)
    ))


def matching_ids(*, db: Session, fach: str, agent_types: list[str], text: str) -> set[uuid.UUID]:
    """Ids of the active pool entries of a Fach that match a text search (any number: for the duplicate search)."""
    where = _where(fach=fach, agent_types=agent_types, view="active", text=text)
    return set(db.scalars(sa.select(AK.id).where(*where)))


def pool_vectors(*, db: Session, fach: str, agent_types: list[str]) -> list[tuple[uuid.UUID, str, Any]]:
    """(id, agent type, embedding) of every active, embedded pool entry of a Fach — a few thousand at most."""
    where = _where(fach=fach, agent_types=agent_types, view="active", text=None)
    return [(i, a, e) for i, a, e in db.execute(
        sa.select(AK.id, AK.agent_type, AK.embedding).where(*where, AK.embedding.is_not(None)).order_by(AK.id))]


def get_entry(*, db: Session, knowledge_id: uuid.UUID, lock: bool = False) -> AgentKnowledge | None:
    """One pool entry (None when it is not in the pool or not visible); `lock` takes the row lock for counters."""
    stmt = sa.select(AK).where(AK.id == knowledge_id, AK.knowledge_type == "good_practice", in_pool())
    if lock:
        stmt = stmt.with_for_update()
    return db.scalar(stmt.execution_options(populate_existing=True))


def update_if_revision(*, db: Session, knowledge_id: uuid.UUID, expected_revision: int,
                       values: dict[str, Any]) -> int | None:
    """Optimistic update: applies `values` only if the row still has `expected_revision`; returns the new revision,
    or None when someone else changed it first (or it is gone)."""
    new_revision = db.scalar(
        sa.update(AK)
        .where(AK.id == knowledge_id, AK.revision == expected_revision)
        .values(**values, revision=AK.revision + 1, updated_at=sa.func.now())
        .returning(AK.revision)
        .execution_options(synchronize_session=False)
    )
    return new_revision


def add_change(*, db: Session, knowledge_id: uuid.UUID, actor_id: uuid.UUID | None, action: str,
               before: dict[str, Any] | None, after: dict[str, Any] | None) -> KnowledgeChange:
    row = KnowledgeChange(knowledge_id=knowledge_id, actor_id=actor_id, action=action, before=before, after=after)
    db.add(row)
    db.flush()
    return row


def changes_of(*, db: Session, knowledge_id: uuid.UUID, limit: int = 50) -> list[KnowledgeChange]:
    return list(db.scalars(
        sa.select(KnowledgeChange).where(KnowledgeChange.knowledge_id == knowledge_id)
        .order_by(KnowledgeChange.created_at.desc(), KnowledgeChange.id.desc()).limit(limit)
    ))


def last_change(*, db: Session, knowledge_id: uuid.UUID) -> KnowledgeChange | None:
    changes = changes_of(db=db, knowledge_id=knowledge_id, limit=1)
    return changes[0] if changes else None


def promoted_copy(*, db: Session, knowledge_id: uuid.UUID) -> uuid.UUID | None:
    """The global copy an entry was promoted to (from the audit trail), if any."""
    value = db.scalar(
        sa.select(KnowledgeChange.after["promoted_to"].astext)
        .where(KnowledgeChange.knowledge_id == knowledge_id, KnowledgeChange.action == "curate.promote")
        .order_by(KnowledgeChange.id.desc()).limit(1)
    )
    return uuid.UUID(value) if value else None


def subject_row(*, db: Session, fach: str, knowledge_type: str, lock: bool = False) -> AgentKnowledge | None:
    """The active global subject-wide row of a Fach (operator list, subject profile)."""
    stmt = (sa.select(AK).where(AK.fach == fach, AK.knowledge_type == knowledge_type, AK.scope_type == "global",
                                AK.status == "active").order_by(AK.updated_at.desc()).limit(1))
    if lock:
        stmt = stmt.with_for_update()
    return db.scalar(stmt.execution_options(populate_existing=True))


def retire_reason(*, db: Session, knowledge_id: uuid.UUID) -> str | None:
    """The reason given when the entry was last retired (or what it was merged into), if any."""
    return db.scalar(
        sa.select(KnowledgeChange.after["reason"].astext)
        .where(KnowledgeChange.knowledge_id == knowledge_id, KnowledgeChange.action == "curate.retire")
        .order_by(KnowledgeChange.id.desc()).limit(1)
    )


# --- near-duplicates (the pairs are found in core.curation.duplicates from pool_vectors) ---------------------


def entries_by_ids(*, db: Session, ids: list[uuid.UUID]) -> dict[uuid.UUID, AgentKnowledge]:
    if not ids:
        return {}
    rows = db.scalars(sa.select(AK).where(AK.id.in_(ids), in_pool()).execution_options(populate_existing=True))
    return {r.id: r for r in rows}


# --- quality histogram -------------------------------------------------------------------------------------------


def quality_histogram(*, db: Session, agent_types: list[str], bins: int = 10) -> list[tuple[str, int, int]]:
    """(fach, bin 0..bins-1, count) over the active pool's good practices; a score of 1.0 falls into the last bin."""
    bucket = sa.func.least(sa.cast(sa.func.floor(AK.quality_score * bins), sa.Integer), bins - 1).label("bin")
    rows = db.execute(
        sa.select(AK.fach, bucket, sa.func.count().label("n"))
        .where(AK.agent_type.in_(agent_types), AK.knowledge_type == "good_practice", AK.status == "active",
               in_pool())
        .group_by(AK.fach, bucket).order_by(AK.fach, bucket)
    ).all()
    return [(fach, int(b), int(n)) for fach, b, n in rows]


# --- people named in the audit trail or removed from a promoted copy (the caller reads them as the system) ---------


def teacher_names(*, db: Session, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    return {i: name for i, name in db.execute(sa.select(Teacher.id, Teacher.name).where(Teacher.id.in_(ids)))}


def school_name(*, db: Session, school_id: uuid.UUID) -> str | None:
    return db.scalar(sa.select(School.name).where(School.id == school_id))


def classes_of(*, db: Session, teacher_id: uuid.UUID) -> list[tuple[str, int]]:
    """(class name, Klassenstufe) of every class the teacher teaches."""
    rows = db.execute(
        sa.select(SchoolClass.name, SchoolClass.klassenstufe)
        .join(TeacherClass, TeacherClass.class_id == SchoolClass.id)
        .where(TeacherClass.teacher_id == teacher_id).distinct()
    ).all()
    return [(n, k) for n, k in rows]
