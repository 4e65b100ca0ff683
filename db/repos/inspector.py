"""Read queries for the Wissenskarte inspector: counts, best entries, pages of a table, entries per month.

Everything filters by the identity's visibility in SQL (on top of RLS) and is bounded — counts and aggregates
run in the database, lists are LIMITed; nothing here loads all of a teacher's rows.
"""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge
from db.repos.knowledge import SUBJECT_WIDE, visible
from db.session import Identity

AK = AgentKnowledge


def _where(identity: Identity, agent_type: str, fach: str) -> list[sa.ColumnElement[bool]]:
    """What a specialist of `agent_type` may draw on for `fach`: its own rows plus the subject-wide ones."""
    return [
        AK.agent_type.in_((agent_type, SUBJECT_WIDE)),
        AK.fach == fach,
        AK.status == "active",
        visible(AK, identity),
    ]


def _room_to_sort(db: Session) -> None:
    # Sorting ~100 000 narrow rows needs a few MB; the default 4 MB work_mem would spill to disk. Transaction-local.
    db.execute(sa.text("SELECT set_config('work_mem', '32MB', true)"))


def overview(*, db: Session, identity: Identity, agent_type: str, fach: str, since: datetime
             ) -> tuple[list[tuple[str, str, int]], list[tuple[datetime, str, int]]]:
    """In one scan: (scope_type, knowledge_type, n) for everything visible, and (month, knowledge_type, n) for the
    entries added since `since` (GROUPING SETS)."""
    _room_to_sort(db)
    month = sa.case((AK.created_at >= since, sa.func.date_trunc("month", AK.created_at)))
    rows = db.execute(
        sa.select(AK.scope_type, month.label("month"), AK.knowledge_type, sa.func.count(),
                  sa.func.grouping(AK.scope_type).label("by_month"))
        .where(*_where(identity, agent_type, fach))
        .group_by(sa.func.grouping_sets(sa.tuple_(AK.scope_type, AK.knowledge_type),
                                        sa.tuple_(month, AK.knowledge_type)))
    ).all()
    counts = [(s, k, int(n)) for s, _, k, n, by_month in rows if not by_month]
    monthly = sorted((m, k, int(n)) for _, m, k, n, by_month in rows if by_month and m is not None)
    return counts, monthly


def best_entries(*, db: Session, identity: Identity, agent_type: str, fach: str, groups: list[tuple[str, str]],
                 per_group: int, limit: int) -> list[sa.Row]:
    """The best entries (quality, then most used): at most `per_group` of each (scope_type, knowledge_type) group,
    `limit` in all. One top-N per group along ix_ak_map — no sort over all of a teacher's rows."""
    if not groups:
        return []
    cols = (AK.id, AK.scope_type, AK.knowledge_type, AK.thema, AK.description, AK.quality_score, AK.times_used)
    order = (AK.quality_score.desc(), AK.times_used.desc(), AK.id)
    parts = [
        sa.select(*cols).where(*_where(identity, agent_type, fach), AK.scope_type == scope,
                               AK.knowledge_type == kind).order_by(*order).limit(per_group).subquery().select()
        for scope, kind in groups
    ]
    best = sa.union_all(*parts).subquery("best")
    return list(db.execute(
        sa.select(best).order_by(best.c.quality_score.desc(), best.c.times_used.desc(), best.c.id).limit(limit)
    ).all())


def knowledge_page(*, db: Session, identity: Identity, agent_type: str, fach: str, knowledge_type: str,
                   offset: int, limit: int) -> list[sa.Row]:
    """One page of one knowledge type, best first (stable order, so pages do not overlap)."""
    _room_to_sort(db)
    return list(db.execute(
        sa.select(AK.id, AK.scope_type, AK.thema, AK.description, AK.quality_score, AK.times_used, AK.source,
                  AK.created_at, AK.shared_for_curation)
        .where(*_where(identity, agent_type, fach), AK.knowledge_type == knowledge_type)
        .order_by(AK.quality_score.desc(), AK.times_used.desc(), AK.id)
        .offset(offset)
        .limit(limit)
    ).all())


def visible_entry(*, db: Session, identity: Identity, knowledge_id: uuid.UUID) -> AgentKnowledge | None:
    return db.scalar(sa.select(AK).where(AK.id == knowledge_id, visible(AK, identity)))
