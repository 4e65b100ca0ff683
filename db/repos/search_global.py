"""The global slice of one Fach in a teacher's search, ranked exactly through indexes that hold only that slice.

A teacher sees her own, her classes' and her school's rows (small at any installation size) and the global rows of
the Fach, which grow with the installation. Migration 0006 gives the global slice two indexes of its own:
`ix_ak_global_vec` (Fach, agent, type → id, quality, embedding; index-only, no heap or TOAST visits) for the exact
vector top-k, and per Fach a partial GIN index over its global tsvectors (`ix_ak_gfts_<fach>`), so a common word
no longer walks the posting lists of every teacher's rows. Predicates are rendered as literals: a bound parameter
cannot prove a partial index applies in a generic plan. docs/decisions/ explains why not HNSW (measured recall).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge

AK = AgentKnowledge
SLICE_FAECHER = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")
Row = tuple[uuid.UUID, float, str, float]  # (id, distance or text rank, scope_type, quality)


@contextlib.contextmanager
def planner(db: Session, **settings: str) -> Iterator[None]:
    """Planner settings for one statement (transaction-local, restored afterwards).

    The planner underestimates a slice filtered on correlated columns (Fach, agent, type) and would pick a bitmap
    heap scan, reading every embedding from TOAST, over the index-only scan of the covering index."""
    names = list(settings)
    before = db.execute(sa.text("SELECT " + ", ".join(f"current_setting('{n}')" for n in names))).one()
    _set(db, settings)
    try:
        yield
    finally:
        _set(db, dict(zip(names, before, strict=True)))


def _set(db: Session, settings: dict[str, str]) -> None:
    params = {f"v{i}": v for i, v in enumerate(settings.values())}
    sql = ", ".join(f"set_config('{n}', :v{i}, true)" for i, n in enumerate(settings))
    db.execute(sa.text(f"SELECT {sql}"), params)


def _lit(value: str) -> sa.BindParameter[Any]:
    return sa.literal(value, literal_execute=True)


def global_ranked(db: Session, *, qvec: list[float], tsquery: str | None, fach: str, agent_type: str,
                  knowledge_type: str, k: int) -> tuple[list[Row], list[Row]]:
    """(vector top-k, text top-k) of the Fach's active global rows, both exact."""
    where = [AK.scope_type == _lit("global"), AK.status == _lit("active"), AK.fach == _lit(fach),
             AK.agent_type == _lit(agent_type), AK.knowledge_type == _lit(knowledge_type)]
    # "+ 0": an order no HNSW index can deliver, so the table-wide one (filtered, it would come back short) is never
    # walked; the covering index is read index-only and its few thousand distances sorted exactly.
    dist = AK.embedding.cosine_distance(qvec) + 0
    vec_stmt = (sa.select(AK.id, dist.label("d"), AK.quality_score).where(*where, AK.embedding.is_not(None))
                .order_by(dist).limit(k))
    with planner(db, enable_bitmapscan="off", enable_seqscan="off"):
        vec = [(i, float(d), "global", float(q)) for i, d, q in db.execute(vec_stmt).all()]
    if not tsquery:
        return vec, []
    q = sa.func.to_tsquery("german", tsquery)
    rank = sa.func.ts_rank_cd(AK.fts, q, 32)
    txt_stmt = (sa.select(AK.id, rank.label("s"), AK.quality_score).where(*where, AK.fts.op("@@")(q))
                .order_by(rank.desc()).limit(k))
    txt = [(i, float(s), "global", float(qs)) for i, s, qs in db.execute(txt_stmt).all()]
    return vec, txt
