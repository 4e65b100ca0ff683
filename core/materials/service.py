"""What Meine Materialien and the CLI call: the teacher's materials as a page of cards, one material's preview and
files, a rating, and the structured view of a stored material (each call one unit of work)."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.knowledge.learning import rate_material
from core.materials.dates import SCHOOL_TZ, local_time
from core.materials.downloads import stored_files
from core.materials.faecher import FAECHER, fach_name
from core.materials.klausur import Klausur
from core.materials.preview import MaterialDetail, fill_preview
from core.materials.quiz import QuizItem, QuizResult, check_quiz
from core.materials.wording import anzahl
from db.models import Teacher
from db.repos import browse
from db.repos import materials as material_repo

__all__ = [
    "FAECHER", "MATERIAL_TYPES", "PAGE_SIZE", "MaterialCard", "MaterialDetail", "MaterialPage", "RatingOutcome",
    "QuizItem", "QuizResult", "check_quiz", "list_my_materials", "material_detail", "material_view",
    "rate_my_material",
]

log = logging.getLogger(__name__)


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


PAGE_SIZE = 20
MATERIAL_TYPES: dict[str, str] = {"klausur": "Klausur", "differenzierung": "Differenzierung", "h5p": "H5P"}


@dataclass(frozen=True)
class MaterialCard:
    id: uuid.UUID
    titel: str
    typ: str
    fach: str
    klasse: str
    datum: str
    rating: int | None
    model: str
    faults: int
    version: int = 1  # the newest version; its earlier versions are under the same card


@dataclass(frozen=True)
class MaterialPage:
    items: list[MaterialCard]
    total: int
    page: int
    pages: int


def _klasse(klasse: str | None, klassenstufe: int | None) -> str:
    if klasse and klassenstufe:
        return f"{klasse} (Klassenstufe {klassenstufe})"
    return klasse or (f"Klassenstufe {klassenstufe}" if klassenstufe else "ohne Klassenstufe")


def list_my_materials(*, teacher_id: uuid.UUID, fach: str | None = None, material_type: str | None = None,
                      date_from: date | None = None, date_to: date | None = None, page: int = 1,
                      page_size: int = PAGE_SIZE) -> MaterialPage:
    """One page of the teacher's materials, newest first; counting and paging happen in SQL."""
    if date_from and date_to and date_from > date_to:
        raise UserError(f"Der Zeitraum passt nicht: „von“ ({date_from:%d.%m.%Y}) liegt nach „bis“ "
                        f"({date_to:%d.%m.%Y}). Bitte das Startdatum vor das Enddatum legen.")
    if material_type and material_type not in MATERIAL_TYPES:
        raise UserError(f"Unbekannter Typ „{material_type}“. Möglich sind: {', '.join(MATERIAL_TYPES.values())}.")
    filters: dict[str, Any] = {
        "fach": fach or None, "material_type": material_type or None,
        "created_from": datetime.combine(date_from, time.min, SCHOOL_TZ) if date_from else None,
        "created_before": datetime.combine(date_to + timedelta(days=1), time.min, SCHOOL_TZ) if date_to else None,
    }
    with acting(teacher_id) as (db, teacher, _):
        total = browse.count_materials(db=db, teacher_id=teacher.id, **filters)
        pages = max(1, -(-total // page_size))
        page = min(max(1, page), pages)
        rows = browse.material_cards(db=db, teacher_id=teacher.id, limit=page_size, offset=(page - 1) * page_size,
                                     **filters)
    items = [MaterialCard(id=r.id, titel=r.titel, typ=MATERIAL_TYPES.get(r.material_type, r.material_type),
                          fach=fach_name(r.fach), klasse=_klasse(r.klasse, r.klassenstufe),
                          datum=local_time(r.created_at), rating=r.rating, model=r.model_name or "unbekannt",
                          faults=int(r.faults or 0), version=r.version) for r in rows]
    return MaterialPage(items=items, total=total, page=page, pages=pages)


def material_detail(*, teacher_id: uuid.UUID, material_id: uuid.UUID | str) -> MaterialDetail:
    """Preview structure and stored files (with their bytes) of one of the teacher's materials."""
    try:
        material_id = material_id if isinstance(material_id, uuid.UUID) else uuid.UUID(str(material_id))
    except ValueError:
        raise NotFoundError("Dieses Material gibt es nicht. Bitte den Link prüfen oder das Material in der "
                            "Liste suchen.") from None
    with acting(teacher_id) as (db, teacher, _):
        row = material_repo.get_material(db=db, material_id=material_id)
        if row is None or row.teacher_id != teacher.id:
            raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
        files = stored_files(db=db, material_id=material_id)
        detail = MaterialDetail(id=row.id, titel=row.titel, material_type=row.material_type, files=files,
                                faults=[str(f) for f in row.validation or []])
        content, request = dict(row.content or {}), dict(row.request or {})
    try:
        fill_preview(detail, content, request)
    except ValidationError:
        log.warning("material %s: stored content no longer fits the %s model", material_id, detail.material_type)
        detail.info = ("Für dieses Material lässt sich keine Vorschau mehr aufbauen (älteres Format); die Dateien "
                       "zum Herunterladen sind unverändert.")
    return detail


@dataclass(frozen=True)
class RatingOutcome:
    stars: int
    good_practices: int
    preferences: dict[str, Any]

    @property
    def message(self) -> str:
        parts = [f"{anzahl(self.stars, 'Stern')} gespeichert"]
        if self.good_practices:
            parts.append(f"{anzahl(self.good_practices, 'Aufgabe')} in Ihre bewährten Aufgaben übernommen")
        if self.preferences:
            parts.append("Präferenzen gemerkt (" + ", ".join(self.preferences) + ")")
        return "Danke! " + "; ".join(parts) + "."


def rate_my_material(*, teacher_id: uuid.UUID, material_id: uuid.UUID, stars: int) -> RatingOutcome:
    """Rate a whole material with 1–5 stars; good ratings become the teacher's good practices and preferences."""
    with acting(teacher_id) as (db, teacher, identity):
        learned = rate_material(db=db, identity=identity, teacher=teacher, material_id=material_id, stars=stars)
    return RatingOutcome(stars=stars, good_practices=int(learned.get("good_practices") or 0),
                         preferences=dict(learned.get("preferences") or {}))
