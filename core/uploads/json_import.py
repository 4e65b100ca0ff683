"""Importing knowledge from a JSON file: validated item by item, written in one transaction or not at all."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.materials.faecher import normalize_fach
from core.safety.service import find_personal_data
from core.uploads.files import read_named_file
from db.models import KNOWLEDGE_TYPES, School, SchoolClass, Teacher
from db.repos import knowledge as knowledge_repo

MAX_IMPORT_BYTES = 20 * 1024 * 1024


class ImportItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fach: str = Field(min_length=1, max_length=40)
    agent_type: Literal["klausur", "differenzierung", "h5p", "alle"] = "klausur"
    knowledge_type: Literal["generic", "example", "good_practice", "preference", "operator_list", "note"] = (
        "good_practice"
    )
    scope_type: Literal["teacher", "class", "school", "global"] = "global"
    scope_id: uuid.UUID | None = None
    thema: str | None = Field(default=None, max_length=200)
    description: str | None = Field(default=None, max_length=2000)
    content: dict[str, Any] = Field(default_factory=dict)
    external_id: str | None = Field(default=None, max_length=200)
    quality_score: float = Field(default=0.5, ge=0, le=1)


def _describe(err: ValidationError, index: int) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "Eintrag"
    return f"Eintrag {index + 1}, Feld „{where}“: {first['msg']}"


def parse_import_file(path: Path) -> list[ImportItem]:
    raw = read_named_file(path, limit=MAX_IMPORT_BYTES)
    if len(raw) > MAX_IMPORT_BYTES:
        raise UserError("Die Datei ist größer als 20 MB. Bitte in mehrere Dateien aufteilen.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UserError("Die Datei ist kein UTF-8-Text. Bitte als UTF-8-kodiertes JSON speichern.") from exc
    except json.JSONDecodeError as exc:
        raise UserError(
            f"Ungültiges JSON in Zeile {exc.lineno}, Spalte {exc.colno}: {exc.msg}. Nichts wurde importiert."
        ) from exc
    except RecursionError as exc:
        raise UserError("Das JSON ist zu tief verschachtelt (mehr als ein paar hundert Ebenen). Nichts wurde "
                        "importiert.") from exc
    if not isinstance(data, list):
        raise UserError("Erwartet wird eine JSON-Liste von Einträgen ([{…}, {…}]). Nichts wurde importiert.")
    if not data:
        raise UserError("Die Datei enthält keine Einträge. Nichts wurde importiert.")
    items = []
    for i, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise UserError(f"Eintrag {i + 1} ist kein JSON-Objekt. Nichts wurde importiert.")
        try:
            item = ImportItem.model_validate(raw)
        except ValidationError as exc:
            raise UserError(_describe(exc, i) + ". Nichts wurde importiert.") from exc
        except RecursionError as exc:
            raise UserError(f"Eintrag {i + 1} ist zu tief verschachtelt. Nichts wurde importiert.") from exc
        text = knowledge_text(content=item.content, thema=item.thema, description=item.description)
        if find_personal_data(text):
            raise UserError(f"Eintrag {i + 1} enthält offenbar personenbezogene Daten (Namen, Kontaktdaten, "
                            "Diagnosen). Bitte entfernen. Nichts wurde importiert.")
        items.append(item)
    return items


def import_knowledge(*, db: Session, items: list[ImportItem]) -> dict[str, int]:
    """Insert (or update by external_id) every item; any fault raises before the caller commits."""
    assert set(KNOWLEDGE_TYPES) >= {i.knowledge_type for i in items}
    texts, prepared = [], []
    for i, item in enumerate(items):
        try:
            fach = normalize_fach(item.fach)
        except UserError as exc:
            raise UserError(f"Eintrag {i + 1}: {exc.message} Nichts wurde importiert.") from exc
        if (item.scope_type == "global") != (item.scope_id is None):
            raise UserError(
                f"Eintrag {i + 1}: scope_id gehört zu teacher/class/school und fehlt bei global. "
                "Nichts wurde importiert."
            )
        owner = None
        if item.scope_id is not None:
            model = {"teacher": Teacher, "class": SchoolClass, "school": School}[item.scope_type]
            if db.get(model, item.scope_id) is None:
                raise UserError(f"Eintrag {i + 1}: scope_id {item.scope_id} existiert nicht. Nichts wurde importiert.")
            owner = item.scope_id if item.scope_type == "teacher" else None
        texts.append(knowledge_text(content=item.content, thema=item.thema, description=item.description))
        prepared.append((item, fach, owner))
    vectors = embed_documents(texts)
    model_name = embedding_model_name()
    inserted = updated = 0
    for (item, fach, owner), text, vec in zip(prepared, texts, vectors, strict=True):
        fields = dict(
            agent_type=item.agent_type, scope_type=item.scope_type, scope_id=item.scope_id, owner_id=owner, fach=fach,
            thema=item.thema, knowledge_type=item.knowledge_type, content=item.content,
            description=item.description, quality_score=item.quality_score, source="import", search_text=text,
            embedding=vec, embedding_model=model_name,
        )
        existing = (
            knowledge_repo.find_by_external_id(db=db, external_id=item.external_id) if item.external_id else None
        )
        if existing is not None:
            for k, v in fields.items():
                setattr(existing, k, v)
            existing.revision += 1
            updated += 1
        else:
            knowledge_repo.add_knowledge(db=db, external_id=item.external_id, **fields)
            inserted += 1
    db.flush()
    return {"inserted": inserted, "updated": updated}
