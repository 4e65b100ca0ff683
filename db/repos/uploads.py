"""Uploaded files (chat attachments and imported documents) with their extracted text."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.orm import Session

from db.models import Upload


def add_upload(*, db: Session, **fields: Any) -> Upload:
    row = Upload(**fields)
    db.add(row)
    db.flush()
    return row


def get_upload(*, db: Session, upload_id: uuid.UUID) -> Upload | None:
    return db.get(Upload, upload_id)
