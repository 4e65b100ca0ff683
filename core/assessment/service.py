"""What the Bewerten page calls: a pupil's answer to one sub-task of a stored Klausur held against its
Erwartungshorizont. Pupil answers are personal data: nothing here stores or logs them."""

from __future__ import annotations

import logging
import re
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import PurePath

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.assessment.results import HINWEIS, Assessment, Assessor, CriterionCheck
from core.assessment.rules import default_assessor
from core.materials.dates import local_time
from core.materials.klausur import Klausur, Teilaufgabe
from core.materials.notenschluessel import format_punkte
from core.uploads.files import extract_text, safe_filename
from db.repos import materials as material_repo

__all__ = ["DATENSCHUTZ", "HINWEIS", "MAX_ANSWER_CHARS", "UPLOAD_TYPES", "Assessment", "CriterionCheck", "ExamChoice",
           "TaskChoice", "answer_from_upload", "assess", "exam_choices"]

log = logging.getLogger(__name__)

MAX_ANSWER_CHARS = 20_000
DATENSCHUTZ = ("Die Schülerantwort wird nur für diese Prüfung verwendet: Sie wird weder gespeichert noch an ein "
               "Sprachmodell geschickt.")
UPLOAD_TYPES = ("txt", "docx")
MAX_EXAMS = 100


def _normalize_ref(task_ref: str) -> str:
    text = re.sub(r"(?i)^\s*(teil)?aufgabe\s*", "", task_ref or "")
    return re.sub(r"[\s).]", "", text).casefold()


def _find_task(k: Klausur, task_ref: str) -> tuple[str, Teilaufgabe]:
    wanted = _normalize_ref(task_ref)
    refs: list[tuple[str, Teilaufgabe]] = [(f"{a.nummer}{t.kennung}", t) for a in k.aufgaben for t in a.teilaufgaben]
    for ref, teil in refs:
        if ref.casefold() == wanted:
            return ref, teil
    single = [a for a in k.aufgaben if str(a.nummer) == wanted and len(a.teilaufgaben) == 1]
    if single:
        teil = single[0].teilaufgaben[0]
        return f"{single[0].nummer}{teil.kennung}", teil
    known = ", ".join(ref for ref, _ in refs)
    raise UserError(f"Die Teilaufgabe „{task_ref.strip() or '(leer)'}“ gibt es in dieser Klausur nicht. "
                    f"Vorhanden sind: {known}.")


def _material_of(task: Teilaufgabe, k: Klausur) -> str | None:
    return next((a.material for a in k.aufgaben if any(t is task for t in a.teilaufgaben)), None)


def _load_exam(teacher_id: uuid.UUID, material_id: uuid.UUID | str) -> tuple[uuid.UUID, Klausur]:
    try:
        mid = material_id if isinstance(material_id, uuid.UUID) else uuid.UUID(str(material_id))
    except ValueError:
        raise NotFoundError("Diese Klausur gibt es nicht. Bitte eine Klausur aus der Liste wählen.") from None
    with acting(teacher_id) as (db, teacher, _):
        row = material_repo.get_material(db=db, material_id=mid)
        if row is None or row.teacher_id != teacher.id:
            raise NotFoundError("Diese Klausur gibt es nicht (oder sie gehört einer anderen Lehrkraft).")
        if row.material_type != "klausur":
            raise UserError("Das gewählte Material ist keine Klausur — nur Klausuren haben einen Erwartungshorizont. "
                            "Bitte eine Klausur wählen.")
        content = dict(row.content)
    return mid, Klausur.model_validate(content)


def _clean_answer(pupil_answer: str | None, ref: str) -> str:
    text = unicodedata.normalize("NFC", (pupil_answer or "").replace("\x00", "")).strip()
    if not text:
        raise UserError("Die Schülerantwort ist leer. Bitte den Text der Antwort einfügen oder eine TXT- oder "
                        "DOCX-Datei hochladen.")
    if len(text) > MAX_ANSWER_CHARS:
        # Refused, not cut: a checklist over half an answer would mark the rest as 'not found'.
        raise UserError(f"Die Antwort ist mit {len(text):,} Zeichen zu lang für eine Teilaufgabe (höchstens "
                        f"{MAX_ANSWER_CHARS:,}). Bitte nur die Antwort auf Teilaufgabe {ref} einfügen."
                        .replace(",", "."))
    return text


def assess(*, teacher_id: uuid.UUID, material_id: uuid.UUID | str, task_ref: str, pupil_answer: str,
           assessor: Assessor | None = None) -> Assessment:
    """Check a pupil's answer to one sub-task of one of the teacher's exams. Reads only; the answer is not stored."""
    mid, k = _load_exam(teacher_id, material_id)
    ref, task = _find_task(k, task_ref)
    answer = _clean_answer(pupil_answer, ref)
    used = assessor or default_assessor()
    checks = used.check(task=task, material=_material_of(task, k), answer=answer)
    notes = []
    if all(c.met == "no" for c in checks if c.automatisch) and any(c.automatisch for c in checks):
        notes.append("In der Antwort wurde zu keinem Kriterium etwas gefunden. Passt die Antwort zu Teilaufgabe "
                     f"{ref}? Formulierungen mit anderen Worten erkennt die Prüfung nicht — bitte selbst lesen.")
    if any(not c.automatisch for c in checks):
        notes.append("Kriterien ohne prüfbare Begriffe oder Werte sind offen gelassen (Spanne 0 bis volle Punktzahl).")
    return Assessment(
        material_id=mid, task_ref=ref, klausur=k.titel, aufgabe=task.text, operator=task.operator, afb=task.afb,
        max_punkte=task.punkte, checks=checks, punkte_min=sum(c.punkte_min for c in checks),
        punkte_max=sum(c.punkte_max for c in checks), assessor=used.name, notes=notes)


@dataclass(frozen=True)
class TaskChoice:
    ref: str
    label: str  # "2b) Berechnen · AFB I · 3 Punkte"
    text: str
    erwartung: list[str]


@dataclass(frozen=True)
class ExamChoice:
    id: uuid.UUID
    label: str  # "Klassenarbeit Stromkreise · 10a · 03.05.2026 14:10"
    tasks: list[TaskChoice]


def exam_choices(*, teacher_id: uuid.UUID) -> list[ExamChoice]:
    """The teacher's exams, latest first, each with its sub-tasks (what the page offers to choose from)."""
    with acting(teacher_id) as (db, teacher, _):
        rows = material_repo.list_materials(db=db, teacher_id=teacher.id, material_type="klausur", limit=MAX_EXAMS)
        loaded = [(r.id, r.titel, r.created_at, dict(r.content)) for r in rows]
    choices = []
    for mid, titel, created, content in loaded:
        try:
            k = Klausur.model_validate(content)
        except ValueError:
            log.warning("stored exam %s does not validate; left out of the assessment choices", mid)
            continue
        wer = k.klasse or f"Klassenstufe {k.klassenstufe}"
        tasks = [TaskChoice(ref=f"{a.nummer}{t.kennung}",
                            label=f"{a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · {format_punkte(t.punkte)}",
                            text=t.text, erwartung=[f"{e.text} ({format_punkte(e.punkte)})" for e in t.erwartung])
                 for a in k.aufgaben for t in a.teilaufgaben]
        choices.append(ExamChoice(id=mid, label=f"{titel} · {wer} · {local_time(created)}", tasks=tasks))
    return choices


def answer_from_upload(*, filename: str, data: bytes) -> str:
    """The text of an uploaded pupil answer (TXT or DOCX). Only read, never stored."""
    suffix = PurePath(safe_filename(filename)).suffix.lower().lstrip(".")
    if suffix not in UPLOAD_TYPES:
        raise UserError("Bitte die Antwort als TXT- oder DOCX-Datei hochladen (Fotos und PDFs werden hier nicht "
                        "gelesen) — oder den Text direkt einfügen.")
    _, text = extract_text(filename, data)
    if not text.strip():
        raise UserError("In der Datei steht kein Text. Bitte die Antwort als Text einfügen.")
    return text
