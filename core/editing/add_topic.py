"""„Bitte noch eine Aufgabe zur Zinsrechnung ergänzen“: a reviewed bank task on the named (sub-)topic added to the
current exam as a new version — the exam's Klassenstufe and Niveau, the AFB the exam is shortest of, checked and
with the Notenschlüssel recomputed like any patch. Without a named topic („noch eine Aufgabe mehr“) the exam's own
topics are used. When the bank has no such task, nothing is stored and the teacher is told so."""

from __future__ import annotations

import uuid
from typing import Any

from agents.deps import TurnContext
from core.checks.gate import duplicate_findings
from core.checks.views import views
from core.editing.bank_tasks import BankTask, Home, TaskBank, stems
from core.editing.direct import bank_task_operation
from core.editing.errors import PatchError
from core.editing.loading import deps_for, klausur_of, own_row
from core.editing.patch import EditOutcome, patch_material
from core.generation.prepare import subject_operators
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Aufgabe, Klausur
from core.materials.notenschluessel import format_punkte


def _topic_words(entry: dict[str, Any]) -> set[str]:
    words = [entry.get("id") or "", entry.get("thema") or "", *(entry.get("schlagworte") or []),
             *(entry.get("unterthemen") or [])]
    return stems(" ".join(str(w).replace("-", " ") for w in words))


def _homes(bank: TaskBank, thema: str | None) -> list[Home]:
    """The coverage topics (and sub-topic) the teacher's words name, best first; without words the exam's own."""
    if not thema:
        found = dict.fromkeys(h for a in bank.k.aufgaben for t in a.teilaufgaben
                              if (h := bank.home(a, t)).topic)
        return [Home(h.topic, None) for h in found]
    wanted = stems(thema)
    if not wanted:
        return []
    scored = []
    for entry in bank.coverage():
        unter = next((u for u in entry.get("unterthemen") or [] if wanted <= stems(u)), None)
        hits = len(wanted & _topic_words(entry)) + (2 if wanted & stems(str(entry.get("thema") or "")) else 0)
        if hits:
            scored.append((-hits, 0 if unter else 1, str(entry["id"]), unter))
    return [Home(topic, unter) for _, _, topic, unter in sorted(scored)]


def _afb_order(k: Klausur, ziel: dict[str, int] | None) -> list[str]:
    """The AFB levels by how far the exam falls short of its target (the largest gap first)."""
    gesamt = max(k.gesamtpunkte, 1)
    punkte = {a: sum(t.punkte for t in k.teilaufgaben() if t.afb == a) for a in AFB_STUFEN}
    ziel = ziel or {"I": 30, "II": 40, "III": 30}
    return sorted(AFB_STUFEN, key=lambda a: (punkte[a] / gesamt * 100 - int(ziel.get(a, 0)), AFB_STUFEN.index(a)))


def _repeats(k: Klausur, task: BankTask) -> bool:
    """Would the task repeat one of the exam almost word for word (the check would flag it)?"""
    teil = task.teil.model_copy(update={"label": "a"})
    probe = k.model_copy(update={"aufgaben": [*k.aufgaben, Aufgabe(nummer=len(k.aufgaben) + 1, titel=task.unterthema,
                                                                    teilaufgaben=[teil])]})
    neu = f"{len(k.aufgaben) + 1}a"
    return any(f.ref == neu or f.message.startswith(f"wiederholt {neu} ") for f in duplicate_findings(views(probe)))


def _pick(bank: TaskBank, homes: list[Home], afbs: list[str]) -> tuple[Home, BankTask] | None:
    """The first bank task of the best topic that repeats none of the exam: its named sub-topic at any AFB before
    another sub-topic's."""
    for home in homes:
        found = [t for afb in afbs for t in bank.candidates(home, afb, material_titles=set())
                 if not _repeats(bank.k, t)]
        best = next((t for t in found if t.unterthema == home.unterthema), found[0] if found else None)
        if best is not None:
            return home, best
    return None


def add_topic_task(*, turn: TurnContext, material_id: uuid.UUID | str, thema: str | None = None) -> EditOutcome:
    """A reviewed bank task on `thema` (None: the exam's topics) added at the end of the exam as its next version.

    Raises PatchError (German) when the material is no exam or the bank has no further task on the topic for its
    Klassenstufe; nothing is stored then.
    """
    row = own_row(turn, material_id)
    k = klausur_of(row)
    thema = " ".join((thema or "").split()) or None
    bank = TaskBank(turn=turn, k=k, operatoren=subject_operators(turn, row.fach))
    picked = _pick(bank, _homes(bank, thema), _afb_order(k, deps_for(turn, row, k).afb_ziel))
    if picked is None:
        worum = f"zu „{thema}“" if thema else "zu den Themen dieser Klausur"
        raise PatchError(f"In der geprüften Aufgabensammlung gibt es {worum} für Klasse {k.klassenstufe} keine "
                         "weitere Aufgabe, die noch nicht in der Klausur steht – es wurde nichts gespeichert. Sie "
                         "können unter „Meine Materialien“ → „Bearbeiten“ eine eigene Aufgabe hinzufügen.")
    home, task = picked
    outcome = patch_material(turn=turn, material_id=row.id, operations=[bank_task_operation(turn, task.ref,
                                                                                           position=None)], force=True)
    said = (f"Ergänzt aus der geprüften Aufgabensammlung: „{task.unterthema}“, AFB {task.teil.afb}, "
            f"{format_punkte(task.teil.punkte)} (Aufgabe {len(k.aufgaben) + 1}).")
    if home.unterthema and task.unterthema != home.unterthema:
        said += (f" Zu „{home.unterthema}“ selbst gibt es für Klasse {k.klassenstufe} keine geprüfte Aufgabe mehr; "
                 "ich habe die nächstliegende des Themas genommen.")
    outcome.changes.insert(0, said)
    lines = outcome.text.split("\n")
    outcome.text = "\n".join([*lines[:2], said, *lines[2:]])
    return outcome
