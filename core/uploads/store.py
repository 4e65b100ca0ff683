"""Uploads as stored rows: a file parsed in the sandbox, its text and blocks with pupils' personal data removed (the
specialists read the text through `get_upload`), the raw file only as long as retention allows; and the teacher's
own upload looked up again for an import."""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from core.app.config import get_settings
from core.app.errors import NotFoundError
from core.safety.service import Flag, instruction_flag, redact_pieces, removed_notice
from core.uploads.blocks import Block
from core.uploads.files import safe_filename
from core.uploads.sandbox import Parsed, parse
from db.models import Teacher, Upload
from db.repos import uploads as upload_repo


@dataclass(frozen=True)
class StoredUpload:
    id: uuid.UUID
    filename: str
    kind: str
    chars: int
    notice: str | None = None  # what personal data was removed (German), if any
    flag: Flag | None = None  # instruction-like or hidden text: the upload is held for review (passage redacted)


def redacted(parsed: Parsed) -> tuple[Parsed, dict[str, int]]:
    """The parsed file without personal data (text and every block), and how much of each kind was removed."""
    pieces, removed = redact_pieces([parsed.text, *(b.text for b in parsed.blocks)])
    blocks = [replace(b, text=t) for b, t in zip(parsed.blocks, pieces[1:], strict=True)]
    return Parsed(kind=parsed.kind, text=pieces[0], blocks=blocks, hidden=parsed.hidden), dict(removed)


def flagged(parsed: Parsed, clean_text: str) -> Flag | None:
    """Why the upload must be held (instruction-like or hidden text), with the passage's personal data removed."""
    flag = instruction_flag(clean_text, parsed.hidden)
    if flag is None:
        return None
    (passage,), _ = redact_pieces([flag.passage])
    return replace(flag, passage=passage)


def store_upload(*, db: Session, teacher_id: uuid.UUID, conversation_id: uuid.UUID | None, filename: str, mime: str,
                 data: bytes) -> StoredUpload:
    """A chat attachment: parsed in the sandbox, redacted, stored."""
    parsed = parse(filename, data, mode="attachment")
    return add_upload(db=db, teacher_id=teacher_id, conversation_id=conversation_id, filename=filename, mime=mime,
                      data=data, parsed=parsed)


def add_upload(*, db: Session, teacher_id: uuid.UUID, conversation_id: uuid.UUID | None, filename: str, mime: str,
               data: bytes, parsed: Parsed) -> StoredUpload:
    """The upload row for a parsed file: personal data removed from text and blocks before anything is written; the
    raw file kept only when WERKBANK_UPLOAD_KEEP_DAYS > 0 (retention deletes it later)."""
    clean, removed = redacted(parsed)
    spaced = safe_filename(filename).replace("_", " ")
    (clean_name,), named = redact_pieces([spaced])
    filename = clean_name if named else filename
    removed = {k: removed.get(k, 0) + named.get(k, 0) for k in {*removed, *named}}
    keep = get_settings().werkbank_upload_keep_days > 0 and not removed
    row = upload_repo.add_upload(db=db, teacher_id=teacher_id, conversation_id=conversation_id,
                                 filename=safe_filename(filename), mime=(mime or "application/octet-stream")[:120],
                                 size_bytes=len(data), data=data if keep else None, kind=clean.kind,
                                 extracted_text=clean.text or None, blocks=[asdict(b) for b in clean.blocks],
                                 removed=removed, data_deleted_at=None if keep else datetime.now(UTC))
    return StoredUpload(id=row.id, filename=row.filename, kind=clean.kind, chars=len(clean.text),
                        notice=removed_notice(removed, f"Aus „{row.filename}“"), flag=flagged(parsed, clean.text))


def attachment_notices(stored: StoredUpload) -> list[str]:
    """What a chat attachment's checks tell the teacher: personal data removed, instruction-like or hidden text
    (read by the assistants only as data — an attachment is private to her conversation, so nobody reviews it)."""
    flagged_notice = [] if stored.flag is None else [
        f"Hinweis: „{stored.filename}“ enthält {stored.flag.reason}. Die Assistenten lesen den Text des Anhangs "
        "ausschließlich als Daten, nie als Anweisung. Ist die Stelle ein Versehen, entfernen Sie sie und hängen die "
        "Datei neu an."]
    return [*([stored.notice] if stored.notice else []), *flagged_notice]


def upload_blocks(upload: Upload) -> list[Block]:
    """The stored, redacted blocks of an upload."""
    return [Block(**b) for b in upload.blocks or []]


def own_upload(db: Session, teacher: Teacher, upload_id: uuid.UUID) -> Upload:
    row = upload_repo.get_upload(db=db, upload_id=upload_id)
    if row is None or row.teacher_id != teacher.id:
        raise NotFoundError("Diese Datei gibt es nicht (oder sie gehört einer anderen Lehrkraft).")
    return row
