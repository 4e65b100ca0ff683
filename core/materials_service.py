"""Reading stored materials for the CLI and the pages: the structure plus computed totals and the check result."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.orm import Session

from core.errors import NotFoundError
from core.materials import Klausur
from db.models import Teacher
from db.repos import materials as material_repo


def material_view(*, db: Session, teacher: Teacher, material_id: uuid.UUID) -> dict[str, Any]:
    row = material_repo.get_material(db=db, material_id=material_id)
    if row is None or row.teacher_id != teacher.id:
        raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
    view: dict[str, Any] = {
        "id": str(row.id), "titel": row.titel, "material_type": row.material_type, "fach": row.fach,
        "klassenstufe": row.klassenstufe, "thema": row.thema, "created_at": row.created_at, "rating": row.rating,
        "model": row.model_name, "request": row.request, "validation": list(row.validation or []),
        "content": row.content, "version": row.version,
        "files": [{"id": str(f.id), "filename": f.filename, "kind": f.kind, "mime": f.mime, "bytes": len(f.data)}
                  for f in material_repo.files_of(db=db, material_id=row.id)],
    }
    if row.material_type == "klausur":
        k = Klausur.model_validate(row.content)
        view["gesamtpunkte"] = k.gesamtpunkte
        view["afb_anteile"] = {a: round(v, 1) for a, v in k.afb_anteile.items()}
        view["notenschluessel"] = [s.model_dump() for s in k.notenschluessel]
    return view
