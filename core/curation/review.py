"""A curator's verdict on an entry: 1..5 stars (running mean), marked reviewed, retired or brought back —
each recorded in the audit trail."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.curation.rows import require_entry, require_global
from core.knowledge.entries import quality_from_stars
from core.materials.wording import anzahl
from db.models import Teacher
from db.repos import curation as repo


def rate(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, stars: int) -> str:
    """1..5 stars -> quality_score as the running mean over all ratings (seed priors are replaced by the first)."""
    if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= 5:
        raise UserError("Bitte 1 bis 5 Sterne vergeben.")
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id, lock=True))
    before = {"quality_score": row.quality_score, "rating_count": row.rating_count}
    row.quality_score = quality_from_stars(stars, previous=row.quality_score if row.rating_count else None,
                                           count=row.rating_count)
    row.rating_count += 1
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.rate", before=before,
                    after={"quality_score": row.quality_score, "rating_count": row.rating_count, "stars": stars})
    quality = f"{row.quality_score:.2f}".replace(".", ",")
    return (f"Bewertung gespeichert: {anzahl(stars, 'Stern')} · Qualität jetzt {quality} "
            f"aus {row.rating_count} Bewertung(en).")


def mark_reviewed(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID) -> str:
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id))
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.review", before=None,
                    after={"reviewed": True})
    return "Als geprüft markiert – der Eintrag verlässt die Warteschlange."


def set_retired(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, retired: bool, reason: str = "") -> str:
    """Retire (drops out of retrieval and the Wissenskarte, which read only active rows) or bring back. Retiring
    needs a reason; it is kept in the audit trail and shown with the retired entry."""
    reason = " ".join(reason.split())
    if retired and len(reason) < 3:
        raise UserError("Bitte einen Grund für das Ausmustern angeben (z. B. „fachlich falsch“ oder „veraltet“).")
    if len(reason) > 300:
        raise UserError("Der Grund ist zu lang (höchstens 300 Zeichen). Bitte kürzen.")
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id, lock=True))
    require_global(row, "ausmustern" if retired else "reaktivieren")
    target = "retired" if retired else "active"
    if row.status == target:
        return "Der Eintrag ist bereits ausgemustert." if retired else "Der Eintrag ist bereits aktiv."
    before = {"status": row.status}
    row.status = target
    row.revision += 1
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id,
                    action="curate.retire" if retired else "curate.restore", before=before,
                    after={"status": target, **({"reason": reason} if reason else {})})
    return (f"Ausgemustert („{reason}“) – der Eintrag erscheint nicht mehr in Suche und Wissenskarte." if retired
            else "Wieder aktiv – der Eintrag wird wieder gefunden.")
