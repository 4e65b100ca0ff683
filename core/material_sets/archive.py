"""The ZIP of a material set: every stored file of its materials, prefixed per material ("1_Klausur_…"), with
the answer as an overview text. Built on demand from the stored files."""

from __future__ import annotations

import io
import uuid
import zipfile
from collections.abc import Sequence

from sqlalchemy.orm import Session

from core.exports.files import safe_name
from core.material_sets.records import SHORT
from db.repos import materials as material_repo


def combined_zip(*, db: Session, material_ids: Sequence[uuid.UUID], overview: str | None = None) -> bytes:
    """One ZIP of the stored files of several materials; names are prefixed per material ("1_Klausur_…")."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        if overview:
            zf.writestr("0_Uebersicht.txt", overview)
        for n, mid in enumerate(material_ids, 1):
            row = material_repo.get_material(db=db, material_id=mid)
            label = safe_name(SHORT.get(row.material_type, "Material") if row else "Material", 20)
            for f in material_repo.files_of(db=db, material_id=mid):
                zf.writestr(f"{n}_{label}_{f.filename}", f.data)
    return buf.getvalue()
