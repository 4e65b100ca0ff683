"""An uploaded Lehrplan as curriculum chunks for the teacher or their school, embedded and stored in one
unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from pathlib import PurePath
from typing import Literal

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.materials.faecher import normalize_fach
from core.uploads.blocks import Block
from core.uploads.curriculum import parse_curriculum
from core.uploads.documents import stored_blocks
from core.uploads.store import own_upload
from db.models import CurriculumChunk, School, Teacher, Upload
from db.repos import knowledge as knowledge_repo


def curriculum_rows(*, db: Session, teacher: Teacher, upload: Upload, blocks: list[Block], fach: str,
                     scope: str, bundesland: str | None, schulform: str | None,
                     klassenstufen: Iterable[int]) -> list[CurriculumChunk]:
    fach_key = normalize_fach(fach)
    if scope not in ("teacher", "school"):
        raise UserError("Ein Lehrplan kann nur für Sie selbst oder für Ihre Schule gespeichert werden.")
    if scope == "school" and teacher.school_id is None:
        raise UserError("Sie sind keiner Schule zugeordnet. Bitte den Lehrplan nur für sich selbst speichern.")
    school = db.get(School, teacher.school_id) if teacher.school_id else None
    pieces = parse_curriculum(blocks, fallback_thema=PurePath(upload.filename).stem[:200],
                              klassenstufen=klassenstufen)
    if not pieces:
        raise UserError("Im Dokument wurden keine Lehrplan-Abschnitte mit Text gefunden. Es wurde nichts gespeichert.")
    scope_id = teacher.id if scope == "teacher" else teacher.school_id
    texts = [" ".join([p.themenfeld or "", p.thema, p.kompetenz]) for p in pieces]
    vectors = embed_documents(texts)
    model = embedding_model_name()
    rows = []
    for i, (piece, vec) in enumerate(zip(pieces, vectors, strict=True), start=1):
        rows.append(knowledge_repo.add_curriculum(
            db=db, scope_type=scope, scope_id=scope_id, owner_id=teacher.id,
            bundesland=(bundesland or teacher.bundesland or "nicht angegeben")[:60],
            schulform=(schulform or (school.schulform if school else None) or "nicht angegeben")[:60],
            fach=fach_key, klassenstufen=list(piece.klassenstufen), themenfeld=piece.themenfeld, thema=piece.thema,
            kompetenz=piece.kompetenz, quelle=upload.filename, abschnitt=piece.abschnitt,
            external_id=f"upload:{upload.id}:{i}", embedding=vec, embedding_model=model,
        ))
    return rows


def import_curriculum(*, db: Session, teacher: Teacher, upload_id: uuid.UUID, fach: str,
                      scope: Literal["teacher", "school"] = "teacher", bundesland: str | None = None,
                      schulform: str | None = None, klassenstufen: Iterable[int] = ()) -> list[CurriculumChunk]:
    """An uploaded Lehrplan as section-aware curriculum chunks (teacher or school scope); all or nothing."""
    upload = own_upload(db, teacher, upload_id)
    blocks = stored_blocks(upload)
    with db.begin_nested():
        return curriculum_rows(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach, scope=scope,
                                bundesland=bundesland, schulform=schulform, klassenstufen=klassenstufen)
