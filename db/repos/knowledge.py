"""Repository for `agent_knowledge` and `curriculum_chunks`: inserts, lookups, notes, preferences, topics.

Every read filters by the identity's visibility in SQL (defence in depth) on top of the RLS policies.
"""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge, CurriculumChunk, SchoolClass, Teacher
from db.session import Identity

SUBJECT_WIDE = "alle"  # agent_type of knowledge every specialist of a subject shares (profile, operators)


def visible(model: type[AgentKnowledge] | type[CurriculumChunk], identity: Identity, *,
            include_global: bool = True) -> sa.ColumnElement[bool]:
    """Visibility of DESIGN §3 as a WHERE clause: own, taught classes', own school's and global rows (without the
    global ones when the caller searches those separately)."""
    if identity.role == "system":
        return sa.true()
    conds: list[sa.ColumnElement[bool]] = [model.scope_type == "global"] if include_global else []
    if identity.teacher_id:
        conds.append(sa.and_(model.scope_type == "teacher", model.scope_id == identity.teacher_id))
    if identity.class_ids:
        conds.append(sa.and_(model.scope_type == "class", model.scope_id.in_(identity.class_ids)))
    if identity.school_id:
        conds.append(sa.and_(model.scope_type == "school", model.scope_id == identity.school_id))
    if identity.role == "curator" and model is AgentKnowledge:
        conds.append(AgentKnowledge.shared_for_curation.is_(True))
    return sa.or_(*conds) if conds else sa.false()


def add_knowledge(*, db: Session, **fields: Any) -> AgentKnowledge:
    row = AgentKnowledge(**fields)
    db.add(row)
    db.flush()
    return row


def add_curriculum(*, db: Session, **fields: Any) -> CurriculumChunk:
    row = CurriculumChunk(**fields)
    db.add(row)
    db.flush()
    return row


def find_by_external_id(*, db: Session, external_id: str) -> AgentKnowledge | None:
    return db.scalar(sa.select(AgentKnowledge).where(AgentKnowledge.external_id == external_id).limit(1))


def knowledge_by_external_prefix(*, db: Session, prefix: str) -> dict[str, AgentKnowledge]:
    """Rows whose external_id starts with prefix, by external_id (the seed's batch lookup)."""
    rows = db.scalars(sa.select(AgentKnowledge).where(AgentKnowledge.external_id.startswith(prefix, autoescape=True)))
    return {r.external_id: r for r in rows if r.external_id}


def add_knowledge_rows(*, db: Session, rows: list[dict[str, Any]]) -> None:
    """Insert many rows in one flush."""
    db.add_all([AgentKnowledge(**fields) for fields in rows])
    db.flush()


def curriculum_by_external_id(*, db: Session, external_id: str) -> CurriculumChunk | None:
    return db.scalar(sa.select(CurriculumChunk).where(CurriculumChunk.external_id == external_id).limit(1))


def known_faecher(*, db: Session) -> list[str]:
    """Subjects that have a profile (the seeded ones plus any added later)."""
    return list(
        db.scalars(
            sa.select(AgentKnowledge.fach)
            .where(AgentKnowledge.knowledge_type == "generic", AgentKnowledge.scope_type == "global")
            .distinct()
            .order_by(AgentKnowledge.fach)
        )
    )


def subject_vocabulary(*, db: Session) -> dict[str, dict[str, list[str]]]:
    """fach -> themenfeld -> terms, from the subject profiles (the retrieval's subject vocabulary)."""
    rows = db.execute(
        sa.select(AgentKnowledge.fach, AgentKnowledge.content["themenfelder"])
        .where(
            AgentKnowledge.knowledge_type == "generic",
            AgentKnowledge.scope_type == "global",
            AgentKnowledge.status == "active",
        )
        .order_by(AgentKnowledge.updated_at)
    ).all()
    return {fach: dict(fields or {}) for fach, fields in rows}


def preference_row(*, db: Session, teacher_id: uuid.UUID, agent_type: str, fach: str) -> AgentKnowledge | None:
    return db.scalar(
        sa.select(AgentKnowledge)
        .where(
            AgentKnowledge.knowledge_type == "preference",
            AgentKnowledge.scope_type == "teacher",
            AgentKnowledge.scope_id == teacher_id,
            AgentKnowledge.agent_type == agent_type,
            AgentKnowledge.fach == fach,
        )
        .order_by(AgentKnowledge.updated_at.desc())
        .limit(1)
    )


def knowledge_by_ids(*, db: Session, identity: Identity, ids: list[uuid.UUID]) -> dict[uuid.UUID, AgentKnowledge]:
    if not ids:
        return {}
    rows = db.scalars(sa.select(AgentKnowledge).where(AgentKnowledge.id.in_(ids), visible(AgentKnowledge, identity)))
    return {r.id: r for r in rows}


def curriculum_by_ids(*, db: Session, identity: Identity, ids: list[uuid.UUID]) -> dict[uuid.UUID, CurriculumChunk]:
    if not ids:
        return {}
    rows = db.scalars(sa.select(CurriculumChunk).where(CurriculumChunk.id.in_(ids), visible(CurriculumChunk, identity)))
    return {r.id: r for r in rows}


def count_rows(*, db: Session) -> dict[str, int]:
    """Row counts of the main tables (for `db-info`)."""
    tables = ["schools", "teachers", "classes", "agent_knowledge", "curriculum_chunks", "conversations",
              "agent_sessions", "generated_materials", "prompt_versions", "llm_calls"]
    sql = " UNION ALL ".join(f"SELECT '{t}', count(*) FROM {t}" for t in tables)
    return {name: n for name, n in db.execute(sa.text(sql)).all()}


def stale_embeddings(*, db: Session, model_name: str, limit: int) -> list[AgentKnowledge | CurriculumChunk]:
    """Rows whose embedding was made by another embedder (or none): what `reembed` works through."""
    rows: list[AgentKnowledge | CurriculumChunk] = []
    for model in (AgentKnowledge, CurriculumChunk):
        rows += db.scalars(
            sa.select(model)
            .where(sa.or_(model.embedding_model.is_(None), model.embedding_model != model_name))
            .limit(limit - len(rows))
        ).all()
        if len(rows) >= limit:
            break
    return rows


def server_facts(*, db: Session) -> dict[str, Any]:
    row = db.execute(
        sa.text(
            "SELECT current_setting('server_version') AS server, "
            "(SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector, current_user AS role, "
            "current_database() AS database"
        )
    ).one()
    return dict(row._mapping)


def operator_list(*, db: Session, fach: str) -> list[dict[str, Any]]:
    content = db.scalar(
        sa.select(AgentKnowledge.content).where(
            AgentKnowledge.fach == fach, AgentKnowledge.knowledge_type == "operator_list",
            AgentKnowledge.scope_type == "global", AgentKnowledge.status == "active",
        ).order_by(AgentKnowledge.updated_at.desc()).limit(1)
    )
    return list((content or {}).get("operatoren", []))


def teacher_examples(*, db: Session, identity: Identity, fach: str, limit: int = 3) -> list[AgentKnowledge]:
    return list(db.scalars(
        sa.select(AgentKnowledge).where(
            visible(AgentKnowledge, identity), AgentKnowledge.knowledge_type == "example",
            AgentKnowledge.fach == fach, AgentKnowledge.status == "active",
        ).order_by(AgentKnowledge.updated_at.desc()).limit(limit)
    ))


def mark_used(*, db: Session, ids: list[uuid.UUID]) -> None:
    if ids:
        db.execute(sa.update(AgentKnowledge).where(AgentKnowledge.id.in_(ids))
                   .values(times_used=AgentKnowledge.times_used + 1).execution_options(synchronize_session=False))


def notes_for(*, db: Session, identity: Identity, fach: str | None, limit: int = 50,
              klasse: str | None = None, klassenstufe: int | None = None) -> list[AgentKnowledge]:
    """Class and school notes this identity may see (taught classes, own school). With klasse/klassenstufe, class
    notes only of that class (by name) or, without a name, of classes of that grade: a note on the 10a does not
    shape a test for a Klasse 8."""
    stmt = (sa.select(AgentKnowledge)
            .where(visible(AgentKnowledge, identity), AgentKnowledge.knowledge_type == "note",
                   AgentKnowledge.scope_type.in_(("class", "school")), AgentKnowledge.status == "active")
            .order_by(AgentKnowledge.created_at.desc()).limit(limit))
    # only notes whose author teaches their Fach (a colleague cannot steer another Fach's specialists)
    stmt = stmt.where(sa.exists(sa.select(Teacher.id).where(Teacher.id == AgentKnowledge.owner_id,
                                                            AgentKnowledge.fach == sa.any_(Teacher.faecher))))
    if fach:
        stmt = stmt.where(AgentKnowledge.fach == fach)
    if klasse or klassenstufe:
        wanted = SchoolClass.name == klasse if klasse else SchoolClass.klassenstufe == klassenstufe
        classes = sa.select(SchoolClass.id).where(wanted)
        stmt = stmt.where(sa.or_(AgentKnowledge.scope_type == "school", AgentKnowledge.scope_id.in_(classes)))
    return list(db.scalars(stmt))


def delete_own_note(*, db: Session, note_id: uuid.UUID, owner_id: uuid.UUID) -> bool:
    return delete_own_entry(db=db, entry_id=note_id, owner_id=owner_id, knowledge_type="note")


def delete_own_entry(*, db: Session, entry_id: uuid.UUID, owner_id: uuid.UUID, knowledge_type: str) -> bool:
    """Delete one of the owner's own (non-global) entries of this type; False when there is none."""
    return db.execute(sa.delete(AgentKnowledge).where(
        AgentKnowledge.id == entry_id, AgentKnowledge.owner_id == owner_id, AgentKnowledge.scope_type != "global",
        AgentKnowledge.knowledge_type == knowledge_type,
    ).execution_options(synchronize_session=False)).rowcount == 1


def coverage_for(*, db: Session, fach: str) -> dict[str, Any] | None:
    """The Fach's coverage map (topics with grades, sub-topics, key words), newest active version."""
    return db.scalar(
        sa.select(AgentKnowledge.content).where(
            AgentKnowledge.fach == fach, AgentKnowledge.knowledge_type == "coverage",
            AgentKnowledge.scope_type == "global", AgentKnowledge.status == "active",
        ).order_by(AgentKnowledge.updated_at.desc()).limit(1)
    )


def composer_rows(*, db: Session, identity: Identity, fach: str, agent_type: str, topics: list[str],
                  ids: list[uuid.UUID], limit: int = 400) -> list[AgentKnowledge]:
    """Active good practices of one Fach and agent the teacher may see: those of the given coverage topics plus the
    given ids (search hits, the teacher's own)."""
    conds: list[sa.ColumnElement[bool]] = []
    if topics:
        conds.append(AgentKnowledge.content["topic"].astext.in_(topics))
    if ids:
        conds.append(AgentKnowledge.id.in_(ids))
    if not conds:
        return []
    return list(db.scalars(
        sa.select(AgentKnowledge).where(
            visible(AgentKnowledge, identity), AgentKnowledge.fach == fach, AgentKnowledge.agent_type == agent_type,
            AgentKnowledge.knowledge_type.in_(("good_practice", "example")), AgentKnowledge.status == "active",
            sa.or_(*conds),
        ).order_by(AgentKnowledge.quality_score.desc(), AgentKnowledge.id).limit(limit)
    ))


def topic_counts(*, db: Session, identity: Identity, fach: str, stufen: tuple[int, int] | None = None
                 ) -> dict[tuple[str, str], int]:
    """(topic id, agent_type) -> number of active good practices the teacher may see (the coverage table); with
    `stufen` only those for a Klassenstufe in that range (or for none in particular)."""
    topic = AgentKnowledge.content["topic"].astext
    stufe = sa.case((sa.func.jsonb_typeof(AgentKnowledge.content["klassenstufe"]) == "number",
                     AgentKnowledge.content["klassenstufe"].astext.cast(sa.Integer)), else_=None)
    where = [visible(AgentKnowledge, identity), AgentKnowledge.fach == fach,
             AgentKnowledge.knowledge_type == "good_practice", AgentKnowledge.status == "active", topic.is_not(None)]
    if stufen is not None:
        where.append(sa.or_(stufe.is_(None), stufe.between(*stufen)))
    rows = db.execute(sa.select(topic, AgentKnowledge.agent_type, sa.func.count()).where(*where)
                      .group_by(topic, AgentKnowledge.agent_type))
    return {(t, a): n for t, a, n in rows}


def topics_of(*, db: Session, identity: Identity, ids: list[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The coverage topic each visible knowledge row is filed under (rows without one are left out)."""
    if not ids:
        return {}
    topic = AgentKnowledge.content["topic"].astext
    rows = db.execute(sa.select(AgentKnowledge.id, topic).where(
        AgentKnowledge.id.in_(ids), visible(AgentKnowledge, identity), topic.is_not(None)))
    return {i: t for i, t in rows}
