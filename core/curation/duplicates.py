"""Near-duplicate pairs among the listed entries (cosine similarity, same Fach and agent) and their merge:
one entry keeps the ratings and uses, the other is retired and points to it."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.curation.queue import list_entries
from core.curation.rows import require_entry, require_global
from core.curation.views import DuplicatePair, QueueFilter, card_of, task_text
from db.models import Teacher
from db.repos import curation as repo

DUPLICATE_SIMILARITY = 0.92  # cosine similarity from which two tasks count as near-duplicates
DUPLICATE_WINDOW = 5  # nearest neighbours looked at per listed entry


def duplicates(*, db: Session, filters: QueueFilter, page: int = 1) -> list[DuplicatePair]:
    """Near-duplicate pairs (cosine similarity >= DUPLICATE_SIMILARITY, same Fach and agent) among each listed
    entry's DUPLICATE_WINDOW nearest pool entries."""
    _, rows = list_entries(db=db, filters=filters, page=page)
    pairs = repo.near_duplicates(db=db, ids=[r.id for r in rows], max_distance=1 - DUPLICATE_SIMILARITY,
                                 per_entry=DUPLICATE_WINDOW)
    full = repo.entries_by_ids(db=db, ids=list({i for p in pairs for i in (p.a, p.b)}))
    out = []
    for p in pairs:
        a, b = full.get(p.a), full.get(p.b)
        if a is None or b is None:
            continue
        out.append(DuplicatePair(a=card_of(a), b=card_of(b), text_a=task_text(a.content or {}),
                                 text_b=task_text(b.content or {}), similarity=round(1 - p.distance, 3),
                                 mergeable=a.scope_type == b.scope_type == "global"))
    return out


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
