"""„Frage 3 raus“, „Niveau C: Aufgabe 2 raus“, „die letzte Aufgabe streichen“: numbered questions of a quiz or tasks
of one Niveau of a differentiated sheet struck as the material's next version (with fresh files), and places counted
from the end („-1“ = the last) resolved against the material. Nothing is stored when a number does not exist, a
differentiated sheet's Niveau is not named, or nothing would be left."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence

from agents.deps import TurnContext
from core.editing.add_questions import store_quiz
from core.editing.errors import PatchError
from core.editing.loading import klausur_of, own_row
from core.editing.patch import EditOutcome, patch_material
from core.language.edits import NIVEAU_BUCHSTABEN
from core.materials import patch_ops as ops
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.wording import anzahl
from db.models import GeneratedMaterial

_ZIEL = re.compile(r"^\s*([ABC])?\s*(-?\d{1,2})\s*$", re.I)
_COUNT_NOTE = re.compile(r"^Nur \d|\b\d+ (?:Fragen|Aufgaben)\b")  # a note that counts what the edit changes


def from_end(ziel: str, count: int) -> str:
    """'-1' → the number of the last of `count` tasks, '-2' the one before; other addresses as they are."""
    m = _ZIEL.match(str(ziel or ""))
    if not m or not m.group(2).startswith("-"):
        return ziel
    number = count + 1 + int(m.group(2))
    if number < 1:
        raise PatchError(f"So viele Aufgaben hat das Material nicht (nur {count}). Bitte die Nummer nennen.")
    return f"{m.group(1) or ''}{number}"


def only_strikes(operations: Sequence[ops.PatchOp]) -> bool:
    return bool(operations) and all(isinstance(op, ops.RemoveTask) for op in operations)


def _numbers(operations: Sequence[ops.PatchOp], count: int, was: str) -> list[int]:
    numbers = sorted({int(from_end(op.ziel, count).lstrip("ABCabc")) for op in operations}, reverse=True)
    if missing := [n for n in numbers if not 1 <= n <= count]:
        raise PatchError(f"{was} {missing[0]} gibt es nicht: Es sind {anzahl(count, was)} (1 bis {count}). Es wurde "
                         "nichts gestrichen.")
    if len(numbers) >= count:
        raise PatchError(f"Ganz leer kann das Material nicht werden – es wurde nichts gestrichen. Möchten Sie "
                         f"stattdessen andere {was}n?")
    return numbers


def _niveau(operations: Sequence[ops.PatchOp]) -> str:
    named = {(m.group(1) or "").upper() for op in operations if (m := _ZIEL.match(op.ziel))}
    if len(named) != 1 or "" in named:
        raise PatchError("Das Arbeitsblatt hat drei Niveaus mit eigenen Aufgaben. Auf welchem Niveau soll ich "
                         "streichen? Sagen Sie z. B. „Niveau C: Aufgabe 2 raus“ (A = grundlegend, B = mittel, "
                         "C = erweitert) – bis dahin bleibt alles, wie es ist.")
    return named.pop()


def _struck_questions(turn: TurnContext, row: GeneratedMaterial, operations: Sequence[ops.PatchOp]) -> EditOutcome:
    quiz = H5PSet.model_validate(row.content)
    numbers = _numbers(operations, len(quiz.fragen), "Frage")
    fragen = [f for i, f in enumerate(quiz.fragen, 1) if i not in numbers]
    notes = [n for n in quiz.hinweise_lehrkraft if not _COUNT_NOTE.search(n)]
    new = quiz.model_copy(update={"fragen": fragen, "hinweise_lehrkraft": notes})
    named = " und ".join(f"Frage {n}" for n in sorted(numbers))
    outcome = store_quiz(turn, row, new, [f"{named} gestrichen"])
    return outcome.said_first(f"Gestrichen: {named} (jetzt {anzahl(len(fragen), 'Frage')}).")


def _struck_tasks(turn: TurnContext, row: GeneratedMaterial, operations: Sequence[ops.PatchOp]) -> EditOutcome:
    sheet = DifferenziertesMaterial.model_validate(row.content)
    letter = _niveau(operations)
    name = NIVEAU_BUCHSTABEN[letter]
    level = next((n for n in sheet.niveaus if n.name == name), None)
    if level is None:
        raise PatchError(f"Das Niveau {letter} ({name}) gibt es auf diesem Blatt nicht – es wurde nichts gestrichen.")
    numbers = _numbers(operations, len(level.aufgaben), "Aufgabe")
    changed = level.model_copy(update={
        "aufgaben": [a for i, a in enumerate(level.aufgaben, 1) if i not in numbers],
        "loesungen": [x for i, x in enumerate(level.loesungen, 1) if i not in numbers]})
    new = sheet.model_copy(update={"niveaus": [changed if n is level else n for n in sheet.niveaus]})
    named = " und ".join(f"Aufgabe {n}" for n in sorted(numbers))
    outcome = store_quiz(turn, row, new, [f"Niveau {letter} ({name}): {named} gestrichen, mit Lösung"])
    return outcome.said_first(f"Gestrichen auf Niveau {letter} ({name}): {named} mit ihrer Lösung "
                              f"(jetzt {anzahl(len(changed.aufgaben), 'Aufgabe')} auf diesem Niveau; die anderen "
                              "Niveaus bleiben, wie sie sind).")


def strike_items(turn: TurnContext, row: GeneratedMaterial, operations: Sequence[ops.PatchOp]) -> EditOutcome:
    """The numbered questions (quiz) or tasks of one Niveau (differentiated sheet) struck as the next version."""
    if row.material_type == "h5p":
        return _struck_questions(turn, row, operations)
    return _struck_tasks(turn, row, operations)


def patch_any_material(*, turn: TurnContext, material_id: uuid.UUID | str, operations: Sequence[ops.PatchOp],
                       force: bool = False) -> EditOutcome:
    """`patch_material` for every material: an exam with places counted from the end resolved; strikes of numbered
    questions (quiz) or of one Niveau's tasks (differentiated sheet); other changes of those stay for exams only."""
    row = own_row(turn, material_id)
    if row.material_type != "klausur" and only_strikes(operations):
        return strike_items(turn, row, operations)
    count = len(klausur_of(row).aufgaben)
    resolved = [op.model_copy(update={"ziel": from_end(op.ziel, count)}) if isinstance(op, ops.RemoveTask) else op
                for op in operations]
    return patch_material(turn=turn, material_id=row.id, operations=resolved, force=force)
