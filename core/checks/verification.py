"""Verification of exams: grounding and recomputed calculations as flags, and their texts for model and teacher.

Conservative by design: anything symbolic, ambiguous or unknown is skipped, because a false alarm costs a teacher's
trust more than a missed one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from core.checks.arithmetic.calculations import check_calculations
from core.checks.grounding import GROUNDING_ARTS, grounding_fault
from core.materials.klausur import Klausur

FlagKind = Literal["unsupported", "arithmetic", "units"]


@dataclass(frozen=True)
class Flag:
    """One finding of the verification, attached to a sub-task such as '2b'."""

    task_ref: str
    kind: FlagKind
    message: str


def verify_klausur(k: Klausur, *, known_refs: set[str] | None = None,
                   grounding_arts: frozenset[str] = GROUNDING_ARTS) -> list[Flag]:
    """Grounding and calculation flags of an exam, in exam order; [] when nothing is found.

    - "unsupported": a sub-task cites no curriculum chunk / good practice, or (when `known_refs` is given, e.g. from
      `known_source_refs`) only refs that do not exist.
    - "arithmetic" / "units": a calculation in the Erwartungshorizont does not check out (see `check_calculations`).
    """
    flags: list[Flag] = []
    for aufgabe in k.aufgaben:
        for teil in aufgabe.teilaufgaben:
            ref = f"{aufgabe.nummer}{teil.kennung}"
            grounding = grounding_fault(teil, known_refs, grounding_arts)
            if grounding is not None:
                flags.append(Flag(ref, "unsupported", grounding))
            report = check_calculations([c.text for c in teil.erwartung])
            flags.extend(Flag(ref, issue.kind, issue.message) for issue in report.issues)
    return flags


def calculations_checked(k: Klausur) -> int:
    """How many calculation steps of the exam's Erwartungshorizont the checker could recompute."""
    return sum(check_calculations([c.text for c in t.erwartung]).checked for t in k.teilaufgaben())


_KIND_LABEL = {"unsupported": "ohne Beleg", "arithmetic": "Rechenfehler", "units": "Einheitenfehler"}
_KIND_REPAIR = {
    "unsupported": "Nenne in 'quellen' die ref eines passenden Lehrplanauszugs (search_curriculum) oder einer Good "
                   "Practice (get_good_practices), auf dem die Teilaufgabe aufbaut — oder ersetze die Teilaufgabe "
                   "durch eine, die du so belegen kannst.",
    "arithmetic": "Rechne den Schritt nach und korrigiere das Ergebnis im Erwartungshorizont (auch Folgewerte, die "
                  "darauf aufbauen).",
    "units": "Korrigiere die Einheit des Ergebnisses (oder die Rechnung), sodass sie zur Rechenoperation passt.",
}


def verification_retry_message(flags: Sequence[Flag]) -> str:
    """The flags as one ModelRetry text for the specialist: what is wrong, where, and how to repair it."""
    if not flags:
        return ""
    lines = [f"- Aufgabe {f.task_ref} ({_KIND_LABEL[f.kind]}): {f.message} {_KIND_REPAIR[f.kind]}" for f in flags]
    return ("Die Beleg- und Rechenprüfung der Klausur hat Probleme gefunden. Behebe genau diese und gib die ganze "
            "Klausur erneut aus:\n" + "\n".join(lines))


_TEACHER_LABEL = {"unsupported": "ohne Beleg", "arithmetic": "Rechnung bitte prüfen",
                  "units": "Einheit bitte prüfen"}


def flags_for_teacher(flags: Sequence[Flag]) -> list[str]:
    """Remaining flags as short German notes for the teacher (shown with the material, one line each)."""
    return [f"Aufgabe {f.task_ref} – {_TEACHER_LABEL[f.kind]}: {f.message}" for f in flags]
