"""Near-duplicate pairs across the whole Fach (cosine similarity, same agent type), side by side with the fields a
curator compares (text, operator, AFB, points, criteria), and their merge: one entry keeps the ratings and uses,
the other is retired and points to it."""

from __future__ import annotations

import math
import uuid
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.curation.queue import agent_types, check_filter
from core.curation.rows import require_entry, require_global
from core.curation.views import DuplicatePage, DuplicatePair, QueueFilter, card_of, compare_rows, task_text
from core.safety.service import personal_data_in_fields, personal_data_refusal
from db.models import Teacher
from db.repos import curation as repo

DUPLICATE_SIMILARITY = 0.92  # cosine similarity from which two tasks count as near-duplicates
PAIRS_PER_PAGE = 10


def similar_pairs(vectors: list[tuple[uuid.UUID, str, Any]], threshold: float) -> list[tuple[float, uuid.UUID,
                                                                                                 uuid.UUID]]:
    """Every unordered pair of the same agent type with cosine similarity >= threshold, most similar first.

    One matrix product per agent type: a Fach's pool is a few thousand entries at most (the bank has ~700 per Fach),
    so comparing all pairs exactly is milliseconds — and never misses a pair the way a per-page window did."""
    out: list[tuple[float, uuid.UUID, uuid.UUID]] = []
    for agent in sorted({a for _, a, _ in vectors}):
        ids = [i for i, a, _ in vectors if a == agent]
        if len(ids) < 2:
            continue
        m = np.asarray([np.asarray(v, dtype=np.float32) for i, a, v in vectors if a == agent])
        m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
        sims = m @ m.T
        rows, cols = np.nonzero(np.triu(sims, k=1) >= threshold)
        out += [(float(sims[r, c]), ids[r], ids[c]) for r, c in zip(rows, cols, strict=True)]
    out.sort(key=lambda t: (-t[0], str(t[1]), str(t[2])))
    return out


def duplicates(*, db: Session, filters: QueueFilter, page: int = 1) -> DuplicatePage:
    """Near-duplicate pairs among all active pool entries of the Fach (and type); with a search text, the pairs
    where at least one side matches it. Paged, most similar first."""
    check_filter(filters)
    agents = agent_types(filters.agent_type)
    pairs = similar_pairs(repo.pool_vectors(db=db, fach=filters.fach, agent_types=agents), DUPLICATE_SIMILARITY)
    if text := filters.text.strip():
        hits = repo.matching_ids(db=db, fach=filters.fach, agent_types=agents, text=text)
        pairs = [p for p in pairs if p[1] in hits or p[2] in hits]
    pages = max(1, math.ceil(len(pairs) / PAIRS_PER_PAGE))
    page = min(max(1, page), pages)
    shown = pairs[(page - 1) * PAIRS_PER_PAGE: page * PAIRS_PER_PAGE]
    full = repo.entries_by_ids(db=db, ids=list({i for _, a, b in shown for i in (a, b)}))
    out = []
    for sim, ia, ib in shown:
        a, b = full.get(ia), full.get(ib)
        if a is None or b is None:
            continue
        ca, cb = dict(a.content or {}), dict(b.content or {})
        out.append(DuplicatePair(a=card_of(a), b=card_of(b), text_a=task_text(ca), text_b=task_text(cb),
                                 similarity=round(sim, 3), mergeable=a.scope_type == b.scope_type == "global",
                                 compare=compare_rows(ca, cb)))
    return DuplicatePage(pairs=out, total=len(pairs), page=page, pages=pages)


def merge(*, db: Session, curator: Teacher, keep_id: uuid.UUID, drop_id: uuid.UUID) -> str:
    """Keep one entry, fold the other's ratings (rating-weighted quality) and uses into it, retire the other with a
    note pointing to the kept one."""
    if keep_id == drop_id:
        raise UserError("Ein Eintrag lässt sich nicht mit sich selbst zusammenführen.")
    first, second = sorted((keep_id, drop_id), key=str)  # lock in a fixed order: two merges never deadlock
    rows = {i: repo.get_entry(db=db, knowledge_id=i, lock=True) for i in (first, second)}
    keep, drop = require_entry(rows[keep_id]), require_entry(rows[drop_id])
    for row in (keep, drop):
        require_global(row, "zusammenführen")
        if row.status != "active":
            raise UserError("Einer der beiden Einträge ist inzwischen ausgemustert. Bitte die Liste neu laden.")
    if (keep.fach, keep.agent_type) != (drop.fach, drop.agent_type):
        raise UserError("Zusammenführen lassen sich nur Einträge desselben Fachs und Typs.")
    personal = personal_data_in_fields({"Aufgabe": task_text(dict(keep.content or {})),
                                        "Kurzbeschreibung": keep.description or ""})
    if personal:  # the kept text goes on to every teacher: refuse, the curator edits it first
        raise UserError(personal_data_refusal(personal, what="Nicht zusammengeführt – der bleibende Eintrag",
                                              then="(Eintrag bearbeiten) und erneut zusammenführen"))
    n_keep, n_drop = keep.rating_count, drop.rating_count
    before = {"quality_score": keep.quality_score, "rating_count": n_keep, "times_used": keep.times_used}
    if n_keep + n_drop:
        keep.quality_score = round((keep.quality_score * n_keep + drop.quality_score * n_drop) / (n_keep + n_drop), 3)
    else:
        keep.quality_score = round((keep.quality_score + drop.quality_score) / 2, 3)
    keep.rating_count = n_keep + n_drop
    keep.times_used += drop.times_used
    keep.revision += 1
    drop.status = "retired"
    drop.content = {**(drop.content or {}), "zusammengefuehrt_in": str(keep.id)}
    drop.revision += 1
    repo.add_change(db=db, knowledge_id=keep.id, actor_id=curator.id, action="curate.merge", before=before,
                    after={"quality_score": keep.quality_score, "rating_count": keep.rating_count,
                           "times_used": keep.times_used, "merged_from": str(drop.id)})
    repo.add_change(db=db, knowledge_id=drop.id, actor_id=curator.id, action="curate.merge",
                    before={"status": "active"}, after={"status": "retired", "merged_into": str(keep.id)})
    return (f"Zusammengeführt: „{keep.thema}“ ({str(keep.id)[:8]}) bleibt, der andere Eintrag ({str(drop.id)[:8]}) "
            f"ist ausgemustert und verweist darauf.")
