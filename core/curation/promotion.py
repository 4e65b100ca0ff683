"""Promotion of a task a teacher shared: a new global copy without the teacher's name, e-mail, school and
class names; the teacher keeps the original."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.curation.rows import require_entry, system_reads
from core.curation.views import Promoted
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from db.models import Teacher
from db.repos import curation as repo
from db.repos import knowledge as knowledge_repo

# Content keys that point into a teacher's private data; a promoted copy drops them.
PRIVATE_KEYS = ("material_id", "lehrer_rating")


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ANREDE = r"(?:\b(?:Herrn?|Frau|Hr\.|Fr\.)\s+(?:(?:Dr|Prof)\.\s+)?)"
_SOMEONE = re.compile(_ANREDE + r"[A-ZÄÖÜ][\w\-ÄÖÜäöüß]*")
_MARK = "\x00"  # stands for the replacement until the end, so a name part never matches inside it
_LEHRKRAFT = "[Lehrkraft]"


@dataclass(frozen=True)
class PersonalData:
    """What identifies a teacher in a shared task: their name, e-mail, school and class names."""

    names: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    classes: tuple[tuple[str, int], ...] = ()  # (class name, Klassenstufe)
    school: str | None = None


def anonymise(text: str, personal: PersonalData) -> tuple[str, int]:
    """The text without e-mail addresses, "Herr/Frau <Name>", the teacher's name, school and class names.
    Returns the text and how many passages were replaced."""
    count = 0

    def sub(pattern: str | re.Pattern[str], repl: str, flags: int = 0) -> None:
        nonlocal text, count
        text, n = re.subn(pattern, repl, text, flags=flags)
        count += n

    sub(_EMAIL, "[E-Mail entfernt]")
    names = [n.strip() for n in personal.names if n and n.strip()]
    parts = {p for n in names for p in n.split() if len(p) >= 3 and p[0].isalpha()}
    for value in sorted(set(names) | parts, key=len, reverse=True):  # the full name before its parts
        sub(rf"{_ANREDE}?(?<![\w-]){re.escape(value)}(?![\w-])", _MARK, re.IGNORECASE if value in names else 0)
    sub(_SOMEONE, _MARK)  # anyone else addressed by name
    if personal.school:
        sub(re.escape(personal.school), "[Schule]", re.IGNORECASE)
    for name, stufe in personal.classes:
        sub(rf"(?<!\w)(?:Klasse\s+)?{re.escape(name)}(?!\w)", f"Klassenstufe {stufe}", re.IGNORECASE)
    return text.replace(_MARK, _LEHRKRAFT), count


def _anonymise_value(value: Any, personal: PersonalData) -> tuple[Any, int]:
    if isinstance(value, str):
        return anonymise(value, personal)
    if isinstance(value, list):
        pairs = [_anonymise_value(v, personal) for v in value]
        return [v for v, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        pairs = {k: _anonymise_value(v, personal) for k, v in value.items() if k not in PRIVATE_KEYS}
        return {k: v for k, (v, _) in pairs.items()}, sum(n for _, n in pairs.values())
    return value, 0


def _personal_data(db: Session, owner_id: uuid.UUID | None) -> PersonalData:
    if owner_id is None:
        return PersonalData()
    with system_reads(db):
        teacher = db.get(Teacher, owner_id, populate_existing=True)
        if teacher is None:
            return PersonalData()
        school = repo.school_name(db=db, school_id=teacher.school_id) if teacher.school_id else None
        classes = repo.classes_of(db=db, teacher_id=owner_id)
        return PersonalData(names=(teacher.name,), emails=(teacher.email,), classes=tuple(classes), school=school)


def promote(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID) -> Promoted:
    """A new global, anonymised copy of a shared task (source 'curator'); the teacher keeps the original. The copy
    starts unrated (quality 0.5, no ratings): the teacher's own stars judged her copy for her class, not the
    general one."""
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id, lock=True))
    if row.scope_type == "global":
        raise UserError("Dieser Eintrag ist bereits allgemein – befördern lassen sich nur geteilte Aufgaben.")
    if row.status != "active":
        raise UserError("Diese Aufgabe ist ausgemustert und lässt sich nicht befördern.")
    existing = repo.promoted_copy(db=db, knowledge_id=row.id)
    if existing is not None:
        raise UserError(f"Diese Aufgabe wurde bereits befördert (allgemeiner Eintrag {str(existing)[:8]}).")
    personal = _personal_data(db, row.owner_id or (row.scope_id if row.scope_type == "teacher" else None))
    content, n_content = _anonymise_value(dict(row.content or {}), personal)
    thema, n_thema = anonymise(row.thema or "", personal)
    description, n_desc = anonymise(row.description or "", personal)
    text = knowledge_text(content=content, thema=thema, description=description)
    copy = knowledge_repo.add_knowledge(
        db=db, agent_type=row.agent_type, scope_type="global", scope_id=None, owner_id=None, fach=row.fach,
        thema=thema[:200] or None, knowledge_type="good_practice", content=content, description=description or None,
        quality_score=0.5, rating_count=0, times_used=0, source="curator",
        status="active", shared_for_curation=False, external_id=f"curation:{row.id}", search_text=text,
        embedding=embed_documents([text])[0], embedding_model=embedding_model_name(),
    )
    replaced = n_content + n_thema + n_desc
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.promote", before=None,
                    after={"promoted_to": str(copy.id)})
    repo.add_change(db=db, knowledge_id=copy.id, actor_id=curator.id, action="curate.create", before=None,
                    after={"promoted_from": str(row.id), "anonymised_passages": replaced})
    return Promoted(new_id=copy.id, message=(
        f"Befördert: neuer allgemeiner Eintrag {str(copy.id)[:8]}, {replaced} personenbezogene Angabe(n) ersetzt. "
        f"Die Lehrkraft behält ihre eigene Fassung."))
