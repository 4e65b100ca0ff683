"""Uploaded files (chat attachments and imported documents) with their extracted text."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge, CurriculumChunk, Upload, UploadReview


def add_upload(*, db: Session, **fields: Any) -> Upload:
    row = Upload(**fields)
    db.add(row)
    db.flush()
    return row


def get_upload(*, db: Session, upload_id: uuid.UUID) -> Upload | None:
    return db.get(Upload, upload_id)


# --- uploads held for review (migration 0011) ----------------------------------------------------------------------


def hold(*, db: Session, upload_id: uuid.UUID, knowledge_ids: list[uuid.UUID], chunk_ids: list[uuid.UUID],
         **review: Any) -> UploadReview:
    """Mark the upload's knowledge rows as held and put it in the curators' queue (in the caller's transaction)."""
    if knowledge_ids:
        db.execute(sa.update(AgentKnowledge).where(AgentKnowledge.id.in_(knowledge_ids))
                   .values(held_upload=upload_id))
    if chunk_ids:
        db.execute(sa.update(CurriculumChunk).where(CurriculumChunk.id.in_(chunk_ids)).values(held_upload=upload_id))
    row = UploadReview(upload_id=upload_id, **review)
    db.add(row)
    db.flush()
    return row


def reviews(*, db: Session, status: str | None = None, limit: int = 200) -> list[UploadReview]:
    """Review entries the acting person may read (a teacher: her own; a curator: all), newest first."""
    q = sa.select(UploadReview).order_by(UploadReview.created_at.desc()).limit(limit)
    if status:
        q = q.where(UploadReview.status == status)
    return list(db.scalars(q))


def get_review(*, db: Session, review_id: uuid.UUID, lock: bool = False) -> UploadReview | None:
    q = sa.select(UploadReview).where(UploadReview.id == review_id)
    return db.scalar(q.with_for_update() if lock else q)


def held_rows(*, db: Session, upload_id: uuid.UUID) -> tuple[list[uuid.UUID], list[uuid.UUID]]:
    """(knowledge ids, chunk ids) held for this upload (as the system: they belong to the teacher)."""
    return (list(db.scalars(sa.select(AgentKnowledge.id).where(AgentKnowledge.held_upload == upload_id))),
            list(db.scalars(sa.select(CurriculumChunk.id).where(CurriculumChunk.held_upload == upload_id))))


def release(*, db: Session, upload_id: uuid.UUID) -> None:
    """Approved: the upload's rows become visible to whoever their scope allows (as the system)."""
    db.execute(sa.update(AgentKnowledge).where(AgentKnowledge.held_upload == upload_id).values(held_upload=None))
    db.execute(sa.update(CurriculumChunk).where(CurriculumChunk.held_upload == upload_id).values(held_upload=None))
