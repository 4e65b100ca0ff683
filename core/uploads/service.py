"""What the Hochladen page, the chat and the CLI call: import a teacher's document in one unit of work (all or
nothing), store a chat attachment, import knowledge from a JSON file."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Literal

from core.app.acting import acting
from core.app.errors import UserError
from core.materials.faecher import FAECHER, fach_name, normalize_fach
from core.uploads.curriculum_import import curriculum_rows
from core.uploads.examples import check_agent, example_message, example_row
from core.uploads.files import MAX_UPLOAD_BYTES, read_named_file
from core.uploads.json_import import ImportItem, import_knowledge, parse_import_file
from core.uploads.review import STATUS_LABELS, ReviewView, decide_upload, held_uploads, hold_upload, my_reviews
from core.uploads.sandbox import parse
from core.uploads.store import StoredUpload, add_upload, attachment_notices, store_upload, upload_blocks
from db.repos import uploads as upload_repo
from db.session import Identity, unit_of_work

__all__ = ["FAECHER", "MAX_UPLOAD_BYTES", "STATUS_LABELS", "ImportItem", "ImportKind", "ImportResult", "ReviewView",
           "StoredUpload", "attachment_notices", "decide_upload", "held_uploads", "import_file", "import_knowledge",
           "import_knowledge_items", "my_reviews", "parse_import_file", "read_named_file", "store_upload"]

ImportKind = Literal["example", "curriculum"]


@dataclass(frozen=True)
class ImportResult:
    kind: ImportKind
    upload_id: uuid.UUID
    filename: str
    message: str
    knowledge_id: uuid.UUID | None = None
    chunk_ids: tuple[uuid.UUID, ...] = ()
    hinweise: tuple[str, ...] = ()
    held: bool = False  # instruction-like or hidden text: kept from colleagues until a curator reviewed it


def import_file(*, teacher_id: uuid.UUID, filename: str, data: bytes, kind: ImportKind, fach: str | None = None,
                agent_type: str = "klausur", scope: Literal["teacher", "school"] = "teacher",
                bundesland: str | None = None, keep_unstructured: bool = False,
                mime: str = "application/octet-stream") -> ImportResult:
    """Check, store, parse and import a teacher's document in one unit of work: all or nothing.

    kind "example": an exam/worksheet -> the teacher's `example` (agent klausur|differenzierung);
    kind "curriculum": a Lehrplan -> curriculum chunks for the teacher or their school (`fach` required)."""
    if kind not in ("example", "curriculum"):
        raise UserError("Bitte wählen, ob die Datei ein Beispiel oder ein Lehrplan ist.")
    if kind == "example":
        check_agent(agent_type)
    elif not fach:
        raise UserError("Bitte das Fach des Lehrplans angeben.")
    if fach:
        normalize_fach(fach)
    parsed = parse(filename, data, mode="document")  # in the sandbox: limited CPU, time, memory and pages
    with acting(teacher_id) as (db, teacher, _):
        stored = add_upload(db=db, teacher_id=teacher.id, conversation_id=None, filename=filename, mime=mime,
                            data=data, parsed=parsed)
        upload = upload_repo.get_upload(db=db, upload_id=stored.id)
        assert upload is not None
        blocks = upload_blocks(upload)
        privacy = (stored.notice,) if stored.notice else ()
        if kind == "example":
            row, notes = example_row(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach,
                                      agent_type=agent_type, keep_unstructured=keep_unstructured)
            held = hold_upload(db=db, teacher=teacher, stored=stored, fach=row.fach, scope="teacher",
                               knowledge_ids=[row.id], chunk_ids=[])
            return ImportResult(kind="example", upload_id=stored.id, filename=stored.filename,
                                message=example_message(row, agent_type), knowledge_id=row.id,
                                hinweise=(*((held,) if held else ()), *privacy, *notes), held=False)
        rows = curriculum_rows(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach or "",
                                scope=scope, bundesland=bundesland, schulform=None, klassenstufen=())
        held = hold_upload(db=db, teacher=teacher, stored=stored, fach=rows[0].fach, scope=scope, knowledge_ids=[],
                           chunk_ids=[r.id for r in rows])
        privacy = (held, *privacy) if held else privacy
        sections = len({(r.abschnitt, r.thema) for r in rows})
        wem = "für Ihre Schule" if scope == "school" else "nur für Sie"
        return ImportResult(
            kind="curriculum", upload_id=stored.id, filename=stored.filename, chunk_ids=tuple(r.id for r in rows),
            hinweise=privacy, held=held is not None and scope == "school",
            message=(f"Lehrplan „{stored.filename}“ übernommen ({fach_name(rows[0].fach)}, {wem}): {sections} "
                     f"Abschnitt{'e' if sections != 1 else ''} in {len(rows)} "
                     f"{'Auszügen' if len(rows) != 1 else 'Auszug'}."),
        )


def import_knowledge_items(items: list[ImportItem]) -> dict[str, int]:
    """Knowledge items read from a JSON file (`parse_import_file`), written as the system in one unit of work — all
    or nothing. Returns the counts of inserted and updated rows (the CLI's `import-knowledge`)."""
    with unit_of_work(Identity.system()) as db:
        return import_knowledge(db=db, items=items)
