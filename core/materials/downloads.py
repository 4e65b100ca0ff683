"""A stored material's files as downloads: with their German labels, in a fixed order (student copy first).

The bytes are read once, inside the unit of work, so pages can offer them after the session is closed.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.orm import Session

from db.repos import materials as material_repo

FILE_LABELS: dict[str, str] = {
    "schueler_docx": "Schülerfassung (DOCX)", "schueler_pdf": "Schülerfassung (PDF)",
    "schueler_b_docx": "Schülerfassung Gruppe B (DOCX)", "schueler_b_pdf": "Schülerfassung Gruppe B (PDF)",
    "lehrer_docx": "Lehrerfassung (DOCX)", "lehrer_pdf": "Lehrerfassung (PDF)",
    "arbeitsblatt_docx": "Arbeitsblatt, drei Niveaus (DOCX)", "arbeitsblatt_pdf": "Arbeitsblatt, drei Niveaus (PDF)",
    "h5p": "H5P-Paket (.h5p)", "moodle_xml": "Moodle-XML",
    "loesungen_docx": "Lösungen und Hinweise (DOCX)", "loesungen_pdf": "Lösungen und Hinweise (PDF)",
}


@dataclass(frozen=True)
class StoredFile:
    label: str
    filename: str
    mime: str
    data: bytes


def stored_files(*, db: Session, material_id: uuid.UUID) -> list[StoredFile]:
    """The material's files with labels and bytes, in the order of FILE_LABELS (unknown kinds last)."""
    stored = sorted(material_repo.files_of(db=db, material_id=material_id),
                    key=lambda f: (list(FILE_LABELS).index(f.kind) if f.kind in FILE_LABELS else 99, f.filename))
    return [StoredFile(label=FILE_LABELS.get(f.kind, f.filename), filename=f.filename, mime=f.mime,
                       data=bytes(f.data)) for f in stored]
