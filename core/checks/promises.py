"""Promises kept: what the teacher asked for (number of questions or tasks, duration, named sub-topics) is
delivered, or the material tells the teacher why not (in `hinweise_lehrkraft`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.checks.views import TaskView
from core.composition.parts_lexicon import names_literally, treats
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest

Material = Klausur | DifferenziertesMaterial | H5PSet


def _explained(hinweise: Sequence[str], *words: str) -> bool:
    text = " ".join(hinweise).lower()
    return bool(text) and any(w.lower() in text for w in words if w)


def _said_missing(hinweise: Sequence[str], part: str) -> bool:
    """A note names the part in quotes and says it is not there („Zu „Teilung“ … fehlt“) — a note that merely
    contains its word („Zu „Proteinbiosynthese und Genregulation“ liegen nur …“) explains nothing."""
    quoted = f"„{part}“".casefold()
    return any(quoted in h.casefold() and any(w in h for w in ("fehlt", "keine", "nicht", "ohne")) for h in hinweise)


def covers(tasks: Sequence[TaskView], unterthema: str) -> bool:
    """A task names the sub-topic (its words, compounds included) in its title, text or criteria."""
    return names_literally(tasks, unterthema)


def _count(material: Material) -> tuple[int, str]:
    if isinstance(material, H5PSet):
        return len(material.fragen), "Fragen"
    if isinstance(material, Klausur):
        return len(material.aufgaben), "Aufgaben"
    return min((len(n.aufgaben) for n in material.niveaus), default=0), "Aufgaben je Niveau"


def broken_promises(material: Material, request: MaterialRequest, tasks: Sequence[TaskView]) -> list[tuple[str, str]]:
    """(ref, message) for every promise neither kept nor explained to the teacher."""
    hinweise = material.hinweise_lehrkraft
    out: list[tuple[str, str]] = []
    if request.anzahl:
        have, what = _count(material)
        if have < request.anzahl and not _explained(hinweise, what.split()[0], str(request.anzahl)):
            out.append(("Umfang", f"{have} statt {request.anzahl} gewünschter {what}, ohne Hinweis an die Lehrkraft"))
    if isinstance(material, Klausur) and request.dauer_minuten and material.dauer_minuten != request.dauer_minuten \
            and not _explained(hinweise, "Minuten", "Dauer", "Bearbeitungszeit"):
        out.append(("Dauer", f"{material.dauer_minuten} statt {request.dauer_minuten} Minuten, ohne Hinweis"))
    for u in request.unterthemen:  # treated by a printed task (decision 045), or said to be missing
        if not treats(tasks, u, request.thema) and not _said_missing(hinweise, u):
            out.append(("Unterthema", f"keine Aufgabe zu „{u}“, obwohl gewünscht, und kein Hinweis dazu"))
    return out
