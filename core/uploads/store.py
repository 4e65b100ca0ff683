"""Uploads as stored rows: a checked file with its extracted text (the specialists read it through `get_upload`),
and the teacher's own upload looked up again for an import."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.orm import Session

from core.app.errors import NotFoundError
from core.uploads.files import extract_text, safe_filename
from db.models import Teacher, Upload
from db.repos import uploads as upload_repo


@dataclass(frozen=True)
class StoredUpload:
    id: uuid.UUID
    filename: str
    kind: str
    chars: int


def store_upload(*, db: Session, teacher_id: uuid.UUID, conversation_id: uuid.UUID | None, filename: str, mime: str,
                 data: bytes) -> StoredUpload:
    kind, text = extract_text(filename, data)
    return add_upload(db=db, teacher_id=teacher_id, conversation_id=conversation_id, filename=filename, mime=mime,
                      data=data, kind=kind, text=text)


def add_upload(*, db: Session, teacher_id: uuid.UUID, conversation_id: uuid.UUID | None, filename: str, mime: str,
               data: bytes, kind: str, text: str) -> StoredUpload:
    """The upload row for a file whose checks and text extraction the caller has already done (`extract_text`)."""
    row = upload_repo.add_upload(db=db, teacher_id=teacher_id, conversation_id=conversation_id,
                                 filename=safe_filename(filename), mime=(mime or "application/octet-stream")[:120],
                                 size_bytes=len(data), data=data, kind=kind, extracted_text=text or None)
    return StoredUpload(id=row.id, filename=row.filename, kind=kind, chars=len(text))


def own_upload(db: Session, teacher: Teacher, upload_id: uuid.UUID) -> Upload:
    row = upload_repo.get_upload(db=db, upload_id=upload_id)
    if row is None or row.teacher_id != teacher.id:
        raise NotFoundError("Diese Datei gibt es nicht (oder sie gehört einer anderen Lehrkraft).")
    return row
