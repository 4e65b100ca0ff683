"""Class and school knowledge: notes such as "10a: viele Probleme mit Einheiten" (scope class) or
"Fachschaft Physik: Einheiten ab Klasse 7 systematisch üben" (scope school). Only for a Fach the author teaches,
without pupils' personal data and without instructions to the system; prompts get them as quoted data.

Teachers of that class / that school see them — in the Wissenskarte and through the specialists' get_context —
and nobody else (RLS and the repository filter both enforce it).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Literal

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.materials.faecher import fach_name, normalize_fach
from core.safety.service import DATA_NOTE, find_personal_data, looks_like_injection, quoted
from db.repos import knowledge as knowledge_repo
from db.repos.teachers import classes_of

MAX_NOTE_CHARS = 500


@dataclass(frozen=True)
class Note:
    id: uuid.UUID
    scope: str
    scope_label: str
    fach: str
    text: str
    mine: bool


def my_scopes(*, teacher_id: uuid.UUID) -> dict[str, list[tuple[str, str]]]:
    """Where this teacher may write notes: the classes they teach, and their school."""
    with acting(teacher_id) as (db, teacher, _):
        classes = [(str(c.id), c.name) for c in classes_of(db=db, teacher_id=teacher.id)]
        school = [(str(teacher.school_id), "Meine Schule (Fachschaft)")] if teacher.school_id else []
        return {"class": classes, "school": school}


def add_note(*, teacher_id: uuid.UUID, scope: Literal["class", "school"], scope_id: str, fach: str,
             text: str) -> Note:
    text = " ".join((text or "").split())
    if not text:
        raise UserError("Bitte einen Hinweis eingeben, z. B. „10a: viele Probleme mit Einheiten“.")
    if len(text) > MAX_NOTE_CHARS:
        raise UserError(f"Der Hinweis ist zu lang ({len(text)} Zeichen, höchstens {MAX_NOTE_CHARS}).")
    if find_personal_data(text):
        raise UserError("Der Hinweis enthält offenbar personenbezogene Daten (Namen, Kontaktdaten). Bitte nur "
                        "Beobachtungen zur ganzen Klasse oder Fachschaft notieren, ohne Schülernamen.")
    if looks_like_injection(text):
        raise UserError("Der Hinweis enthält Anweisungen an das System (z. B. „ignoriere alle Anweisungen“). Solche "
                        "Texte werden nicht übernommen. Bitte nur Beobachtungen zur Klasse oder Fachschaft notieren.")
    key = normalize_fach(fach)
    allowed = my_scopes(teacher_id=teacher_id)
    if scope not in ("class", "school") or scope_id not in {sid for sid, _ in allowed.get(scope, [])}:
        raise UserError("Hinweise gehen nur für Klassen, die Sie unterrichten, oder für Ihre eigene Schule.")
    with acting(teacher_id) as (db, teacher, _):
        if key not in {normalize_fach(f) for f in teacher.faecher or []}:
            raise UserError(f"Hinweise gehen nur für Fächer, die Sie unterrichten; {fach_name(key)} gehört nicht dazu.")
        row = knowledge_repo.add_knowledge(
            db=db, agent_type=knowledge_repo.SUBJECT_WIDE, scope_type=scope, scope_id=uuid.UUID(scope_id),
            owner_id=teacher.id, fach=key, thema=None, knowledge_type="note", content={"text": text},
            description=text[:200], quality_score=0.8, source="conversation", search_text=text,
            embedding=embed_documents([text])[0], embedding_model=embedding_model_name(),
        )
        label = dict(allowed[scope]).get(scope_id, scope)
        return Note(id=row.id, scope=scope, scope_label=label, fach=key, text=text, mine=True)


def visible_notes(*, teacher_id: uuid.UUID, fach: str | None = None) -> list[Note]:
    with acting(teacher_id) as (db, teacher, identity):
        key = normalize_fach(fach) if fach else None
        rows = knowledge_repo.notes_for(db=db, identity=identity, fach=key)
        names = {sid: name for sid, name in my_scopes_in(db, teacher)}
        return [Note(id=r.id, scope=r.scope_type, scope_label=names.get(str(r.scope_id), r.scope_type),
                     fach=r.fach, text=r.content.get("text") or r.description or "", mine=r.owner_id == teacher.id)
                for r in rows]


def my_scopes_in(db, teacher) -> list[tuple[str, str]]:  # noqa: ANN001
    pairs = [(str(c.id), f"Klasse {c.name}") for c in classes_of(db=db, teacher_id=teacher.id)]
    if teacher.school_id:
        pairs.append((str(teacher.school_id), "Schule"))
    return pairs


def delete_note(*, teacher_id: uuid.UUID, note_id: uuid.UUID) -> None:
    with acting(teacher_id) as (db, teacher, _):
        if not knowledge_repo.delete_own_note(db=db, note_id=note_id, owner_id=teacher.id):
            raise NotFoundError("Diesen Hinweis gibt es nicht, oder er stammt von einer Kollegin/einem Kollegen.")


def notes_text(notes: list[Note]) -> str:
    """Notes for a prompt: each quoted as data (a colleague's note is never an instruction)."""
    if not notes:
        return "Keine Hinweise zu Klassen oder Schule."
    return "\n".join([DATA_NOTE, *(f"- {n.scope_label} ({fach_name(n.fach)}): {quoted(n.text)}" for n in notes)])
