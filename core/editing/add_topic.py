"""„Bitte noch eine Aufgabe zur Zinsrechnung ergänzen“: a reviewed bank task on the named (sub-)topic added to the
current exam as a new version — the exam's Klassenstufe and Niveau, the AFB the exam is shortest of, checked and
with the Notenschlüssel recomputed like any patch. Without a named topic („noch eine Aufgabe mehr“) the exam's own
topics are used. When the bank has no such task, nothing is stored and the teacher is told so."""

from __future__ import annotations

import re
import uuid
from typing import Any

from agents.deps import TurnContext
from core.checks.gate import duplicate_findings
from core.checks.views import views
from core.composition.klausur import budget
from core.editing.add_questions import add_questions
from core.editing.apply import apply_operations
from core.editing.bank_tasks import BankTask, Home, TaskBank, stems, topics_named
from core.editing.direct import bank_task_operation
from core.editing.errors import PatchError
from core.editing.loading import deps_for, klausur_of, own_row
from core.editing.patch import EditOutcome, store_version
from core.editing.regenerate import regenerate_from_previous
from core.generation.prepare import subject_operators
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Aufgabe, Klausur
from core.materials.notenschluessel import format_punkte

_MAX_ADDED = 6  # tasks one follow-up adds at most (a duration to fill may ask for more)


_FRAME = {"aufgab", "frage", "fragen", "übung", "uebung", "vokabe", "vocabu", "thema", "themen", "bitte", "weiter",
          "weiteren", "zusätz", "rechen", "textau", "reading", "compre", "teilau", "inhalt"}


def _wanted(thema: str | None) -> set[str]:
    """The content stems a task must hold to be on `thema` („Vokabeln zum Thema Ireland“ -> {irelan})."""
    return {w for w in stems(thema or "") if w not in _FRAME}


def _covers(wanted: set[str], text: str) -> bool:
    have = stems(text)
    return all(any(h.startswith(w) or w.startswith(h) for h in have) for w in wanted)


def _on_topic(bank: TaskBank, home: Home, thema: str | None) -> Any:
    """Whether a bank task is on what the teacher named: any task of the topic when she named the topic itself, a
    task of the named sub-topic, else only a task whose own words hold all of hers for one of the parts she named
    („magnetischer Fluss und Induktionsgesetz“ are two) — „zweiseitiger Hebel“ is not the Nussknacker,
    „Branddreieck“ not the Zerteilungsgrad."""
    wanted = _wanted(thema)
    name = str(next((x for x in bank.coverage() if x.get("id") == home.topic), {}).get("thema") or "")
    if not wanted or (_covers(wanted, name) and _covers(_wanted(name), thema or "")):  # she named the topic itself
        return lambda task: True
    parts = [p for p in (_wanted(x) for x in re.split(r",|\bund\b|\bsowie\b|\bor\b|\band\b", thema or "")) if p]
    named = home.unterthema if home.unterthema and _covers(wanted, home.unterthema) else None

    def fits(task: BankTask) -> bool:
        own = " ".join([task.unterthema, task.teil.text, *(m.model_dump_json() for m in task.materialien)])
        return task.unterthema == named or any(_covers(p, own) for p in parts)

    return fits


def _homes(bank: TaskBank, thema: str | None) -> list[Home]:
    """The coverage topics (and sub-topic) the teacher's words name, best first; without words the exam's own."""
    if not thema:
        found = dict.fromkeys(h for a in bank.k.aufgaben for t in a.teilaufgaben
                              if (h := bank.home(a, t)).topic)
        return [Home(h.topic, None) for h in found]
    named = topics_named(bank.coverage(), thema)
    return [h for h in named if h.topic == named[0].topic] if named else []  # the named topic, never a neighbour


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


def _pick(bank: TaskBank, homes: list[Home], afbs: list[str], thema: str | None) -> tuple[Home, BankTask] | None:
    """The first bank task of the best topic that is on `thema` and repeats none of the exam: its named sub-topic at
    any AFB before another sub-topic's."""
    for home in homes:
        fits = _on_topic(bank, home, thema)
        found = [t for afb in afbs for t in bank.candidates(home, afb, material_titles=set())
                 if fits(t) and not _repeats(bank.k, t)]
        best = next((t for t in found if t.unterthema == home.unterthema), found[0] if found else None)
        if best is not None:
            return home, best
    return None


def _picks(bank: TaskBank, homes: list[Home], afbs: list[str], minuten: int, apply: Any, thema: str | None
           ) -> list[tuple[Home, BankTask]]:
    """One bank task, or as many as fill `minuten` more working minutes (a task takes about a minute per point)."""
    picks: list[tuple[Home, BankTask]] = []
    while len(picks) < _MAX_ADDED and (picked := _pick(bank, homes, afbs, thema)) is not None:
        picks.append(picked)
        bank.k = apply(bank.k, picked[1])
        if sum(t.teil.punkte for _, t in picks) >= minuten:
            break
    return picks


def add_topic_task(*, turn: TurnContext, material_id: uuid.UUID | str, thema: str | None = None,
                   dauer_minuten: int | None = None) -> EditOutcome:
    """Reviewed bank tasks on `thema` (None: the exam's topics) added at the end of the exam as its next version:
    one, or with `dauer_minuten` as many as fill the exam to that duration (which it then gets).

    Raises PatchError (German) when the material is no exam or the bank has no further task on the topic for its
    Klassenstufe; nothing is stored then.
    """
    row = own_row(turn, material_id)
    k = klausur_of(row)
    thema = " ".join((thema or "").split()) or None
    operatoren = subject_operators(turn, row.fach)
    afb_ziel = deps_for(turn, row, k).afb_ziel
    bank = TaskBank(turn=turn, k=k, operatoren=operatoren)

    def apply(current: Klausur, task: BankTask) -> Klausur:
        return apply_operations(current, [bank_task_operation(turn, task.ref, position=None)], operatoren=operatoren,
                                turn=turn, afb_ziel=afb_ziel)[0]

    longer = dauer_minuten if dauer_minuten and dauer_minuten > k.dauer_minuten else None
    minuten = budget(longer) - budget(k.dauer_minuten) if longer else 0
    homes = _homes(bank, thema)
    picks = _picks(bank, homes, _afb_order(k, afb_ziel), minuten, apply, thema)
    if not picks:
        raise PatchError(_nothing_on(bank, k, thema, _afb_order(k, afb_ziel)))
    new, changes = apply_operations(k, [bank_task_operation(turn, t.ref, position=None) for _, t in picks],
                                    operatoren=operatoren, turn=turn, afb_ziel=afb_ziel)
    said = _said(k, picks, thema)
    added = {stem for _, t in picks for stem in stems(t.unterthema)}  # notes saying these were left out are untrue now
    new = new.model_copy(update={"hinweise_lehrkraft": [h for h in new.hinweise_lehrkraft if not (
        added & stems(h) and ("nicht verwendet" in h or "fehlt" in h))]})
    if longer:
        new = new.model_copy(update={"dauer_minuten": longer})
        changes.append(f"Dauer {k.dauer_minuten} → {longer} Minuten")
        if sum(t.teil.punkte for _, t in picks) < minuten:
            said += (f" Für {longer} Minuten reicht das noch nicht ganz: weitere passende geprüfte Aufgaben gibt es "
                     f"dazu für Klasse {k.klassenstufe} nicht – ergänzen Sie gern eine eigene.")
    outcome = store_version(turn, row, k, new, changes, force=True, art="patch")
    outcome.changes.insert(0, said)
    return outcome.said_first(said)


def _nearest(bank: TaskBank, thema: str, afbs: list[str]) -> str | None:
    """The sub-topic nearest to `thema` that still has a fitting task the exam does not hold: one sharing most of
    its words, else one of the topic her words name."""
    wanted = _wanted(thema)
    scored = []
    for entry in bank.coverage():
        for unter in entry.get("unterthemen") or []:
            if (shared := len({w for w in wanted if _covers({w}, unter)})) > 0:
                scored.append((-shared, str(entry["id"]), unter))
    named = [(0, h.topic, u) for h in _homes(bank, thema)[:1] for u in next(
        (x.get("unterthemen") or [] for x in bank.coverage() if x.get("id") == h.topic), [])]
    for _, topic, unter in [*sorted(scored), *named]:
        home = Home(topic, unter)
        if any(t.unterthema == unter and not _repeats(bank.k, t)
               for afb in afbs for t in bank.candidates(home, afb, material_titles=set())):
            return unter
    return None


def _nothing_on(bank: TaskBank, k: Klausur, thema: str | None, afbs: list[str]) -> str:
    """The plain word that there is no task on what she named, and what she can do (nothing was changed)."""
    if not thema:
        return (f"In der geprüften Aufgabensammlung gibt es zu den Themen dieser Klausur für Klasse {k.klassenstufe} "
                "keine weitere Aufgabe, die noch nicht in der Klausur steht – es wurde nichts gespeichert. Sie können "
                "unter „Meine Materialien“ → „Bearbeiten“ eine eigene Aufgabe hinzufügen oder mir die Aufgabe im Chat "
                "vorgeben („Ergänze als Aufgabe: …“).")
    optionen = ["eine eigene Aufgabe ergänzen: unter „Meine Materialien“ → „Bearbeiten“ → „Neue Aufgabe“ → „Selbst "
                "formulieren“, oder eigene Aufgaben auf der Seite „Hochladen“",
                "ein Sprachmodell konfigurieren (siehe README), das die Aufgabe neu schreibt"]
    if near := _nearest(bank, thema, afbs):
        optionen.append(f"stattdessen eine geprüfte Aufgabe zu „{near}“ nehmen – schreiben Sie dann „Noch eine "
                        f"Aufgabe zu {near} dazu“")
    return (f"Zu „{thema}“ habe ich keine geprüfte Aufgabe für Klasse {k.klassenstufe}, die noch nicht in der "
            "Klausur steht – es wurde nichts geändert und nichts gespeichert. Möglichkeiten: "
            + "; ".join(f"({i}) {o}" for i, o in enumerate(optionen, 1)) + ".")


def _said(k: Klausur, picks: list[tuple[Home, BankTask]], thema: str | None) -> str:
    """„Ergänzt aus der geprüften Aufgabensammlung: …“ and, when the named sub-topic had no task, that too."""
    parts = [f"„{t.unterthema}“, AFB {t.teil.afb}, {format_punkte(t.teil.punkte)} (Aufgabe {len(k.aufgaben) + i})"
             for i, (_, t) in enumerate(picks, start=1)]
    said = "Ergänzt aus der geprüften Aufgabensammlung: " + "; ".join(parts) + "."
    home = picks[0][0]
    others = [t for _, t in picks if t.unterthema != home.unterthema]
    if home.unterthema and len(others) == len(picks):
        said += (f" Zu „{home.unterthema}“ selbst gibt es für Klasse {k.klassenstufe} keine geprüfte Aufgabe mehr; "
                 "ich habe die nächstliegende des Themas genommen.")
    elif home.unterthema and others:
        said += (f" Weitere passende Aufgaben zu „{home.unterthema}“ gibt es nicht; die übrigen sind aus demselben "
                 "Thema.")
    return said


async def add_topic(*, turn: TurnContext, material_id: uuid.UUID | str, thema: str | None = None,
                    dauer_minuten: int | None = None) -> EditOutcome:
    """A named sub-topic added to any material as its next version: an exam gets reviewed bank tasks on it (see
    `add_topic_task`), a quiz bank questions on it (see `add_questions`); a differentiated sheet is made again with
    the sub-topic as one more part of its request, kept only if it then has more on the sub-topic. Raises PatchError
    (German) when nothing could be added; nothing is stored then."""
    row = own_row(turn, material_id)
    if row.material_type == "klausur" or not thema:
        return add_topic_task(turn=turn, material_id=row.id, thema=thema, dauer_minuten=dauer_minuten)
    if row.material_type == "h5p":
        return add_questions(turn=turn, row=row, thema=thema)
    outcome = await regenerate_from_previous(turn=turn, material_id=row.id,
                                             instruction=f"Bitte auch „{thema}“ aufnehmen.", added=thema)
    said = f"Ergänzt: „{thema}“ (aus der geprüften Aufgabensammlung, neu zusammengestellt)."
    outcome.changes.insert(0, said)
    return outcome.said_first(said)
