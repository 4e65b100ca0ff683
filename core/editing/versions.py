"""The versions of a material: this one and the ones it was made from (parent chain), newest first, with files.

Every edit is a new version; the edited one stays as it was, with its own files and its list of changes.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.orm import Session

from core.app.errors import NotFoundError
from core.materials.dates import local_time
from core.materials.downloads import StoredFile, stored_files
from db.models import Teacher
from db.repos import materials as material_repo


@dataclass(frozen=True)
class VersionEntry:
    id: uuid.UUID
    version: int
    titel: str
    datum: str
    aenderungen: list[str]
    faults: int
    files: list[StoredFile]


def material_versions(*, db: Session, teacher: Teacher, material_id: uuid.UUID) -> list[VersionEntry]:
    """This material and the versions it was made from (parent chain), newest first, with their files."""
    out: list[VersionEntry] = []
    seen: set[uuid.UUID] = set()
    current: uuid.UUID | None = material_id
    while current is not None and current not in seen and len(out) < 100:
        seen.add(current)
        row = material_repo.get_material(db=db, material_id=current)
        if row is None or row.teacher_id != teacher.id:
            if not out:
                raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
            break
        bearbeitung = (row.request or {}).get("bearbeitung") or {}
        out.append(VersionEntry(id=row.id, version=row.version, titel=row.titel, datum=local_time(row.created_at),
                                aenderungen=[str(c) for c in bearbeitung.get("aenderungen") or []],
                                faults=len(row.validation or []), files=stored_files(db=db, material_id=row.id)))
        current = row.parent_id
    return out
