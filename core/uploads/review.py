"""Uploads held for review: a document with instruction-like or hidden text is imported, but its rows stay out of
colleagues' search and the Wissenskarte until a curator approves it (decision 028). The teacher is told why; the
curator sees the flagged passage only (personal data removed), decides, and the decision is kept (who, when)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.materials.faecher import fach_name
from core.uploads.store import StoredUpload
from db.models import Teacher, UploadReview
from db.repos import curation as curation_repo
from db.repos import uploads as repo
from db.session import Identity, act_as

STATUS_LABELS = {"held": "wartet auf Prüfung", "approved": "freigegeben", "rejected": "abgelehnt (bleibt privat)"}


@dataclass(frozen=True)
class ReviewView:
    id: uuid.UUID
    filename: str
    fach: str
    scope: str
    reason: str
    passage: str
    status: str
    created_at: datetime
    decided_at: datetime | None

    @property
    def status_label(self) -> str:
        return STATUS_LABELS.get(self.status, self.status)


def _view(r: UploadReview) -> ReviewView:
    return ReviewView(id=r.id, filename=r.filename, fach=fach_name(r.fach) if r.fach else "–",
                      scope="Schule" if r.scope == "school" else "nur die Lehrkraft", reason=r.reason,
                      passage=r.passage, status=r.status, created_at=r.created_at, decided_at=r.decided_at)


def hold_notice(filename: str, reason: str) -> str:
    return (f"In Prüfung: „{filename}“ enthält {reason}. Die Datei ist übernommen, aber bis eine Kuratorin oder ein "
            "Kurator sie geprüft hat, erscheint sie weder in der Suche Ihrer Kolleginnen und Kollegen noch auf deren "
            "Wissenskarte. Die Kuratorinnen sehen nur die markierte Stelle. Den Stand sehen Sie unter „Hochladen“. "
            "Ist die Stelle ein Versehen, entfernen Sie sie und laden die Datei neu hoch.")


def private_notice(filename: str, reason: str) -> str:
    return (f"Hinweis: „{filename}“ enthält {reason}. Die Datei ist nur für Sie gespeichert; die Assistenten lesen "
            "ihren Text ausschließlich als Daten, nie als Anweisung. Ist die Stelle ein Versehen, entfernen Sie sie "
            "und laden die Datei neu hoch.")


def hold_upload(*, db: Session, teacher: Teacher, stored: StoredUpload, fach: str | None, scope: str,
                knowledge_ids: list[uuid.UUID], chunk_ids: list[uuid.UUID]) -> str | None:
    """Hold the rows of a flagged upload for the school (same transaction as the import); the German notice, or
    None. A private upload is only flagged to its teacher: nobody else sees it, and staff may read a teacher's
    private data only with her consent — so no curator is shown its passage."""
    if stored.flag is None:
        return None
    if scope == "teacher":
        return private_notice(stored.filename, stored.flag.reason)
    repo.hold(db=db, upload_id=stored.id, knowledge_ids=knowledge_ids, chunk_ids=chunk_ids, teacher_id=teacher.id,
              filename=stored.filename, fach=fach, scope=scope, reason=stored.flag.reason[:300],
              passage=stored.flag.passage)
    return hold_notice(stored.filename, stored.flag.reason)


def my_reviews(*, teacher_id: uuid.UUID) -> list[ReviewView]:
    """The teacher's own uploads that were held, with their state."""
    with acting(teacher_id) as (db, teacher, _):
        return [_view(r) for r in repo.reviews(db=db) if r.teacher_id == teacher.id]


def _curator(teacher: Teacher) -> None:
    if teacher.role != "curator":
        raise UserError("Zurückgehaltene Uploads prüfen dürfen nur Kuratorinnen und Kuratoren.")


def held_uploads(*, curator_id: uuid.UUID, status: str = "held") -> list[ReviewView]:
    """The curators' queue: uploads held for review (or decided ones: status "approved" / "rejected")."""
    with acting(curator_id) as (db, curator, _):
        _curator(curator)
        return [_view(r) for r in repo.reviews(db=db, status=status)]


def decide_upload(*, curator_id: uuid.UUID, review_id: uuid.UUID, approve: bool) -> str:
    """Approve (the rows become visible as their scope allows) or reject (they stay private to the teacher). The
    decision is recorded on the entry and, per released knowledge row, in the change history."""
    with acting(curator_id) as (db, curator, _):
        _curator(curator)
        review = repo.get_review(db=db, review_id=review_id, lock=True)
        if review is None:
            raise NotFoundError("Diesen Prüfauftrag gibt es nicht (mehr). Bitte die Liste neu laden.")
        if review.status != "held":
            raise UserError(f"Über „{review.filename}“ ist schon entschieden ({STATUS_LABELS[review.status]}).")
        review.status, review.reviewer_id, review.decided_at = ("approved" if approve else "rejected", curator.id,
                                                                datetime.now(UTC))
        db.flush()
        act_as(db, Identity.system())  # the rows are the teacher's: released by the system, on the curator's word
        knowledge_ids, _ = repo.held_rows(db=db, upload_id=review.upload_id)
        if approve:
            repo.release(db=db, upload_id=review.upload_id)
        for kid in knowledge_ids:
            curation_repo.add_change(db=db, knowledge_id=kid, actor_id=curator.id, action="curate.upload_review",
                                     before={"held_upload": str(review.upload_id)},
                                     after={"entscheidung": review.status})
        if approve:
            return f"Freigegeben: „{review.filename}“ ist jetzt für alle sichtbar, für die es bestimmt war."
        return f"Abgelehnt: „{review.filename}“ bleibt zurückgehalten und nur für die Lehrkraft selbst sichtbar."
