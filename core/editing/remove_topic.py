"""„Bitte die Normalverteilung weglassen“: the tasks of an exam (or the questions of a quiz) on a named sub-topic
struck as the material's next version, the reply naming each one. When none is on it, or all are, nothing is stored
and the teacher is told what to say instead."""

from __future__ import annotations

import uuid

from agents.deps import TurnContext
from core.editing.add_questions import store_quiz
from core.editing.bank_tasks import stems
from core.editing.errors import PatchError
from core.editing.loading import klausur_of, own_row
from core.editing.patch import EditOutcome, patch_material
from core.materials import patch_ops as ops
from core.materials.h5p import H5PSet
from db.models import GeneratedMaterial


def _on(thema: set[str], text: str) -> bool:
    return bool(thema) and thema <= stems(text)


def _struck_questions(turn: TurnContext, row: GeneratedMaterial, thema: str, wanted: set[str]) -> EditOutcome:
    quiz = H5PSet.model_validate(row.content)
    keep = [f for f in quiz.fragen if not _on(wanted, f.model_dump_json())]
    n = len(quiz.fragen) - len(keep)
    if n == 0 or not keep:
        raise PatchError(_refusal(thema, "Frage", none=n == 0))
    new = quiz.model_copy(update={"fragen": keep})
    outcome = store_quiz(turn, row, new, [f"{n} Fragen zu „{thema}“ gestrichen"])
    return outcome.said_first(f"Gestrichen: {n} Fragen zu „{thema}“ (jetzt {len(keep)} Fragen).")


def _refusal(thema: str, was: str, *, none: bool) -> str:
    if none:
        return (f"Zu „{thema}“ finde ich keine {was} in diesem Material – es wurde nichts gestrichen. Nennen Sie "
                f"mir die Nummer, z. B. „Streich {was} 2“.")
    return (f"Alle {was}n handeln von „{thema}“; ganz leer kann das Material nicht werden – es wurde nichts "
            "gestrichen. Möchten Sie stattdessen ein neues Material zu einem anderen Thema?")


def remove_topic(*, turn: TurnContext, material_id: uuid.UUID | str, thema: str) -> EditOutcome:
    """The tasks (exam) or questions (quiz) on `thema` struck as the next version; PatchError (German) when none or
    all are on it, or for a differentiated sheet."""
    row = own_row(turn, material_id)
    wanted = stems(thema)
    if row.material_type == "h5p":
        return _struck_questions(turn, row, thema, wanted)
    if row.material_type != "klausur":
        raise PatchError(f"Aus einem differenzierten Arbeitsblatt kann ich „{thema}“ nicht gezielt streichen – es "
                         "wurde nichts gespeichert. Sagen Sie z. B. „Bitte neu erzeugen ohne …“ oder bearbeiten Sie "
                         "das Blatt unter „Meine Materialien“.")
    k = klausur_of(row)
    struck = [a for a in k.aufgaben if _on(wanted, " ".join([a.titel, *(t.text for t in a.teilaufgaben)]))]
    if not struck or len(struck) == len(k.aufgaben):
        raise PatchError(_refusal(thema, "Aufgabe", none=not struck))
    outcome = patch_material(turn=turn, material_id=row.id, force=True,
                             operations=[ops.RemoveTask(ziel=str(a.nummer)) for a in reversed(struck)])
    said = "Gestrichen: " + ", ".join(f"Aufgabe {a.nummer} „{a.titel}“" for a in struck) + f" (zu „{thema}“)."
    return outcome.said_first(said)
