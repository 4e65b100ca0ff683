"""Hybrid search over visible rows: top-k by cosine distance and top-k by German full-text rank, joined by id.

Fusion (reciprocal rank) happens in core.knowledge.retrieval; this module only ranks, always filtered by visibility.

A teacher's visible knowledge is two very different sets: her own, her classes' and her school's rows — small at
any installation size — and the global rows of the Fach, which grow with the installation and have indexes of their
own (db.repos.search_global). Both are ranked exactly and merged here.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge, CurriculumChunk
from db.repos.knowledge import visible
from db.repos.search_global import SLICE_FAECHER, global_parts, text_rank
from db.session import Identity


@dataclass(frozen=True)
class Ranked:
    id: uuid.UUID
    vector_rank: int | None
    text_rank: int | None
    distance: float | None
    scope_type: str = "global"
    quality_score: float = 0.5


def _ranked(db: Session, model: Any, where: list[sa.ColumnElement[bool]], qvec: list[float], tsquery: str | None,
            k: int, literal: str | None = None) -> list[Ranked]:
    """Top-k by cosine distance and top-k by full-text rank among the visible candidates, joined by id.

    Filter first: visibility × Fach × agent type leaves a few thousand rows for any teacher (the map index serves
    each scope), and ranking those exactly is faster than making HNSW wade through everyone else's rows — and exact
    (recall 1.0). The HNSW index still serves unfiltered searches such as curators' duplicate detection.
    """
    quality_col = model.quality_score if hasattr(model, "quality_score") else sa.literal(0.5)
    cand = (sa.select(model.id, model.embedding, model.fts, model.scope_type, quality_col.label("quality"))
            .where(*where).cte("cand").prefix_with("MATERIALIZED"))
    dist = cand.c.embedding.cosine_distance(qvec)
    vec = (
        sa.select(cand.c.id, dist.label("d")).where(cand.c.embedding.is_not(None)).order_by(dist).limit(k).cte("v")
    )
    vec_ranked = sa.select(
        vec.c.id, vec.c.d, sa.func.row_number().over(order_by=vec.c.d).label("r")
    ).subquery("vr")
    if tsquery:
        q = sa.func.to_tsquery("german", tsquery)
        rank = text_rank(cand.c.fts, tsquery, literal)
        txt = (
            sa.select(cand.c.id, rank.label("s")).where(cand.c.fts.op("@@")(q)).order_by(rank.desc()).limit(k)
        ).cte("t")
        txt_ranked = sa.select(
            txt.c.id, sa.func.row_number().over(order_by=txt.c.s.desc()).label("r")
        ).subquery("tr")
        both = sa.select(
            sa.func.coalesce(vec_ranked.c.id, txt_ranked.c.id).label("id"),
            vec_ranked.c.r.label("vr"),
            txt_ranked.c.r.label("tr"),
            vec_ranked.c.d.label("d"),
        ).select_from(vec_ranked.join(txt_ranked, vec_ranked.c.id == txt_ranked.c.id, full=True)).subquery("b")
    else:
        both = sa.select(vec_ranked.c.id.label("id"), vec_ranked.c.r.label("vr"), sa.null().label("tr"),
                         vec_ranked.c.d.label("d")).subquery("b")
    # Scope and quality come from the small candidate set; joining the table here made the planner scan it all.
    info = sa.select(cand.c.id, cand.c.scope_type, cand.c.quality).subquery("info")
    stmt = sa.select(both.c.id, both.c.vr, both.c.tr, both.c.d, info.c.scope_type, info.c.quality).join(
        info, info.c.id == both.c.id
    )
    return [Ranked(*row) for row in db.execute(stmt).all()]


def rank_knowledge(
    *,
    db: Session,
    identity: Identity,
    qvec: list[float],
    tsquery: str | None,
    fach: str | None,
    agent_type: str | None,
    knowledge_type: str,
    k: int = 40,
    external_prefix: str | None = None,
    path: str = "auto",
    literal: str | None = None,
) -> list[Ranked]:
    """`path`: "auto" (personal rows and the global slice each through their own indexes), or "exact" (every
    visible candidate gathered first and ranked in one statement — the path before migration 0006, which the
    benchmark measures side by side). `literal`: the query's own words as a tsquery; their matches weigh more
    in the text rank than those of expansion terms (db.repos.search_global.text_rank). `external_prefix` (one
    imported collection, e.g. an evaluation set) is always ranked on the exact path."""
    split = path == "auto" and not external_prefix and fach in SLICE_FAECHER and agent_type
    if split and identity.role in ("teacher", "product"):
        return _ranked_split(db, identity, qvec, tsquery, fach, agent_type, knowledge_type, k, literal)
    where = [
        visible(AgentKnowledge, identity),
        AgentKnowledge.knowledge_type == knowledge_type,
        AgentKnowledge.status == "active",
    ]
    if external_prefix:  # one imported collection only (an evaluation set measured on its own items)
        where.append(AgentKnowledge.external_id.startswith(external_prefix, autoescape=True))
    if fach:
        where.append(AgentKnowledge.fach == fach)
    if agent_type:
        where.append(AgentKnowledge.agent_type == agent_type)
    return _ranked(db, AgentKnowledge, where, qvec, tsquery, k, literal)


def rank_curriculum(
    *, db: Session, identity: Identity, qvec: list[float], tsquery: str | None, fach: str | None, k: int = 40,
    literal: str | None = None,
) -> list[Ranked]:
    where = [visible(CurriculumChunk, identity)]
    if fach:
        where.append(CurriculumChunk.fach == fach)
    return _ranked(db, CurriculumChunk, where, qvec, tsquery, k, literal)


def exact_vector_ids(
    *, db: Session, identity: Identity, qvec: list[float], fach: str | None, agent_type: str | None,
    knowledge_type: str, limit: int
) -> list[uuid.UUID]:
    """Exact nearest neighbours (no index) — the reference for measuring the HNSW path's recall."""
    db.execute(sa.text("SELECT set_config('enable_indexscan', 'off', true)"))
    where = [visible(AgentKnowledge, identity), AgentKnowledge.knowledge_type == knowledge_type,
             AgentKnowledge.status == "active", AgentKnowledge.embedding.is_not(None)]
    if fach:
        where.append(AgentKnowledge.fach == fach)
    if agent_type:
        where.append(AgentKnowledge.agent_type == agent_type)
    ids = db.scalars(
        sa.select(AgentKnowledge.id).where(*where).order_by(AgentKnowledge.embedding.cosine_distance(qvec)).limit(limit)
    ).all()
    db.execute(sa.text("SELECT set_config('enable_indexscan', 'on', true)"))
    return list(ids)


def _ranked_split(db: Session, identity: Identity, qvec: list[float], tsquery: str | None, fach: str,
                  agent_type: str, knowledge_type: str, k: int, literal: str | None = None) -> list[Ranked]:
    """One statement: personal rows (own, classes', school's) and the Fach's global slice (through its own indexes),
    each as vector top-k and text top-k; merged here into one top-k by distance and one by text rank."""
    AK = AgentKnowledge
    own = (sa.select(AK.id, AK.embedding, AK.fts, AK.scope_type, AK.quality_score.label("quality"))
           .where(visible(AK, identity, include_global=False), AK.fach == fach, AK.agent_type == agent_type,
                  AK.knowledge_type == knowledge_type, AK.status == "active")
           .cte("own").prefix_with("MATERIALIZED"))
    dist = own.c.embedding.cosine_distance(qvec)
    parts = [sa.select(sa.literal("v").label("kind"), own.c.id, dist.label("value"), own.c.scope_type, own.c.quality)
             .where(own.c.embedding.is_not(None)).order_by(dist).limit(k)]
    if tsquery:
        q = sa.func.to_tsquery("german", tsquery)
        rank = text_rank(own.c.fts, tsquery, literal)
        parts.append(sa.select(sa.literal("t"), own.c.id, rank, own.c.scope_type, own.c.quality)
                     .where(own.c.fts.op("@@")(q)).order_by(rank.desc()).limit(k))
    parts += global_parts(qvec=qvec, tsquery=tsquery, fach=fach, agent_type=agent_type,
                          knowledge_type=knowledge_type, k=k, literal=literal)
    rows = db.execute(sa.union_all(*parts)).all()
    vec = sorted([(r.id, r.value, r.scope_type, r.quality) for r in rows if r.kind == "v"],
                 key=lambda t: (t[1], str(t[0])))[:k]
    txt = sorted([(r.id, r.value, r.scope_type, r.quality) for r in rows if r.kind == "t"],
                 key=lambda t: (-t[1], str(t[0])))[:k]
    out: dict[uuid.UUID, Ranked] = {}
    for i, (rid, d, scope, quality) in enumerate(vec, 1):
        out[rid] = Ranked(rid, i, None, float(d), scope, float(quality))
    for i, (rid, _, scope, quality) in enumerate(txt, 1):
        old = out.get(rid)
        out[rid] = (Ranked(rid, old.vector_rank, i, old.distance, scope, float(quality)) if old
                    else Ranked(rid, None, i, None, scope, float(quality)))
    return list(out.values())


def word_frequencies(*, db: Session, fach: str | None, agent_type: str | None, knowledge_type: str,
                     tsqueries: list[str]) -> tuple[int, list[int]]:
    """(active global rows of the Fach/agent/type, how many of them match each one-word tsquery): how specific a
    query word is. Global rows only, so the figures are the same for every teacher and say nothing about anyone's
    own rows (predicates as literals, so the slice's own index serves them; see db.repos.search_global)."""
    AK = AgentKnowledge

    def lit(value: str) -> sa.BindParameter[Any]:
        return sa.literal(value, literal_execute=True)

    where = [AK.scope_type == lit("global"), AK.status == lit("active"), AK.knowledge_type == lit(knowledge_type)]
    if fach:
        where.append(AK.fach == lit(fach))
    if agent_type:
        where.append(AK.agent_type == lit(agent_type))
    # One pass over the slice (its index lists the rows) and one plan: a subquery per word cost more to plan
    # than to run.
    counts = [sa.func.count()] + [sa.func.count().filter(AK.fts.op("@@")(sa.func.to_tsquery("german", q)))
                                  for q in tsqueries]
    row = db.execute(sa.select(*counts).where(*where)).one()
    return int(row[0]), [int(n) for n in row[1:]]
