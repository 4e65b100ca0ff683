"""„Bitte noch eine Aufgabe zur Zinsrechnung ergänzen“: a reviewed bank task on the named (sub-)topic added to the
current exam as a new version — the exam's Klassenstufe and Niveau, the AFB the exam is shortest of, checked and
with the Notenschlüssel recomputed like any patch. Without a named topic („noch eine Aufgabe mehr“) the exam's own
topics are used. When the bank has no such task, nothing is stored and the teacher is told so."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from agents.deps import TurnContext
from core.checks.gate import duplicate_findings
from core.checks.views import views
from core.composition.klausur import budget
from core.editing.add_questions import add_questions
from core.editing.apply import apply_operations
from core.editing.bank_material import WITH, fits, host, material_wish, next_number
from core.editing.bank_tasks import BankTask, Home, TaskBank, carries_words, stems, topics_named, wanted_words
from core.editing.direct import bank_subtask_operation, bank_task_operation
from core.editing.errors import PatchError
from core.editing.loading import deps_for, klausur_of, own_row
from core.editing.patch import EditOutcome, store_version
from core.editing.regenerate import regenerate_from_previous
from core.generation.prepare import subject_operators
from core.materials import patch_ops as ops
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Aufgabe, Klausur
from core.materials.notenschluessel import format_punkte

_MAX_ADDED = 6  # tasks one follow-up adds at most (a duration to fill may ask for more)


def _homes(bank: TaskBank, thema: str | None) -> list[Home]:
    """The coverage topics (and sub-topic) the teacher's words name, best first; without words the exam's own."""
    if not thema:
        found = dict.fromkeys(h for a in bank.k.aufgaben for t in a.teilaufgaben
                              if (h := bank.home(a, t)).topic)
        return [Home(h.topic, None) for h in found]
    grades = {str(x.get("id")): list(x.get("klassenstufen") or []) for x in bank.coverage()}
    stufe = bank.k.klassenstufe

    def taught(h: Home) -> bool:  # a topic of the exam's year first („Ersten Weltkrieg“ in Klasse 9)
        years = grades.get(h.topic or "") or []
        return not years or stufe in years or (stufe >= 11 and max(years) >= 11)

    named = sorted(topics_named(bank.coverage(), thema), key=lambda h: not taught(h))
    return [h for h in named if h.topic == named[0].topic] if named else []  # the named topic, never a neighbour


def _afb_order(k: Klausur, ziel: dict[str, int] | None) -> list[str]:
    """The AFB levels by how far the exam falls short of its target (the largest gap first)."""
    gesamt = max(k.gesamtpunkte, 1)
    punkte = {a: sum(t.punkte for t in k.teilaufgaben() if t.afb == a) for a in AFB_STUFEN}
    ziel = ziel or {"I": 30, "II": 40, "III": 30}
    return sorted(AFB_STUFEN, key=lambda a: (punkte[a] / gesamt * 100 - int(ziel.get(a, 0)), AFB_STUFEN.index(a)))


Unit = list[BankTask]  # the bank tasks one new Aufgabe is made of: one, or several on one material


def _repeats(k: Klausur, unit: Unit) -> bool:
    """Would a task of the unit repeat one of the exam almost word for word (the check would flag it)?"""
    teile = [t.teil.model_copy(update={"label": "abc"[i]}) for i, t in enumerate(unit)]
    probe = k.model_copy(update={"aufgaben": [*k.aufgaben, Aufgabe(nummer=len(k.aufgaben) + 1, titel=unit[0].unterthema,
                                                                    teilaufgaben=teile)]})
    new = {f"{len(k.aufgaben) + 1}{t.kennung}" for t in teile}
    return any(f.ref in new or any(f.message.startswith(f"wiederholt {n} ") for n in new)
               for f in duplicate_findings(views(probe)))


def _unit(bank: TaskBank, home: Home, best: BankTask, afbs: list[str]) -> Unit:
    """The task, and when it works on a material the bank's other tasks on that material at other AFB levels (at
    most three Teilaufgaben, rising from I to III) — one material unit, as a composed exam groups it."""
    unit = [best]
    if best.material_key:
        for afb in afbs:
            if len(unit) < 3 and afb not in {t.teil.afb for t in unit}:
                unit += [t for t in bank.candidates(home, afb, material_titles=None)
                         if t.material_key == best.material_key and not _repeats(bank.k, [*unit, t])][:1]
    return sorted(unit, key=lambda t: AFB_STUFEN.index(t.teil.afb))


@dataclass
class _Pick:
    """What one step of a follow-up adds: a new Aufgabe (`into` None) or a sub-task of the Aufgabe that prints the
    task's material already; `where` says where it went, once applied."""

    home: Home
    unit: Unit
    into: int | None = None
    where: str = ""


def _pick(bank: TaskBank, homes: list[Home], afbs: list[str], kind: str | None, words: str | None,
          strict: bool = True) -> _Pick | None:
    """The first bank task of the best topic that repeats none of the exam and has the material asked for: its
    named sub-topic at any AFB before another sub-topic's; words that name no sub-topic („zweiseitiger Hebel“) are
    carried by the task itself, else nothing is added (never a neighbour in their place). A task on a material the
    exam prints already joins the Aufgabe printing it; one on a new material brings it, with the bank's other tasks
    on it."""
    for home in homes:
        entry = next((x for x in bank.coverage() if x.get("id") == home.topic), {})
        wanted = wanted_words(entry, words) if words and not home.unterthema else set()
        found = [t for afb in afbs for t in bank.candidates(home, afb, material_titles=None)
                 if fits(t.materialien, kind) and host(bank.k, t.materialien) != 0 and carries_words(t, wanted)
                 and not _repeats(bank.k, [t])]
        own = [t for t in found if t.unterthema == home.unterthema]
        # one task asked for a named sub-topic: that sub-topic's or none; filling a duration may take the topic's
        best = own[0] if own else (found[0] if found and (not strict or not home.unterthema) else None)
        if best is not None:
            into = host(bank.k, best.materialien)
            return _Pick(home, [best], into) if into else _Pick(home, _unit(bank, home, best, afbs))
    return None


def _apply(turn: TurnContext, k: Klausur, pick: _Pick, **context: Any) -> tuple[Klausur, list[str]]:
    """The pick applied to `k` (its materials numbered on from the exam's last one); `pick.where` is filled in."""
    if pick.into:
        aufgabe = next(a for a in k.aufgaben if a.nummer == pick.into)
        op: ops.AddSubtask | ops.AddTask = bank_subtask_operation(turn, pick.unit[0].ref, aufgabe=aufgabe)
    else:
        op = bank_task_operation(turn, [t.ref for t in pick.unit], position=None, first_m=next_number(k))
    new, changes = apply_operations(k, [op], turn=turn, **context)
    if pick.into:
        teil = next(t for a in new.aufgaben if a.nummer == pick.into for t in a.teilaufgaben
                    if t.quellen and t.quellen[0].ref == pick.unit[0].ref)
        printed_there = [b.titel for a in new.aufgaben if a.nummer == pick.into for b in a.materialien]
        pick.where = f"als {pick.into}{teil.kennung} zu „{printed_there[0]}“" if printed_there else f"in {pick.into}"
    else:
        last = new.aufgaben[-1]
        mit = ", mit " + " und ".join(f"„{b.titel}“" for b in last.materialien) if last.materialien else ""
        pick.where = f"Aufgabe {last.nummer}{mit}"
    return new, changes


def _picks(bank: TaskBank, homes: list[Home], afbs: list[str], minuten: int, kind: str | None, words: str | None,
           apply: Any, anzahl: int = 1) -> tuple[list[_Pick], list[str]]:
    """`anzahl` bank tasks (or material units), or as many as fill `minuten` more working minutes (about a minute a
    point), applied one after the other to `bank.k`; with the changes they made."""
    picks: list[_Pick] = []
    changes: list[str] = []
    while len(picks) < _MAX_ADDED and (picked := _pick(bank, homes, afbs, kind, words, strict=not minuten)) is not None:
        picks.append(picked)
        bank.k, made = apply(bank.k, picked)
        changes += made
        if sum(t.teil.punkte for p in picks for t in p.unit) >= minuten and len(picks) >= anzahl:
            break
    return picks, changes


def add_topic_task(*, turn: TurnContext, material_id: uuid.UUID | str, thema: str | None = None,
                   dauer_minuten: int | None = None, anzahl: int | None = None) -> EditOutcome:
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

    def apply(current: Klausur, pick: _Pick) -> tuple[Klausur, list[str]]:
        return _apply(turn, current, pick, operatoren=operatoren, afb_ziel=afb_ziel)

    longer = dauer_minuten if dauer_minuten and dauer_minuten > k.dauer_minuten else None
    minuten = budget(longer) - budget(k.dauer_minuten) if longer else 0
    topic, kind = material_wish(thema)
    picks, changes = _picks(bank, _homes(bank, topic), _afb_order(k, afb_ziel), minuten, kind, topic, apply,
                            max(1, min(anzahl or 1, _MAX_ADDED)))
    if not picks:
        raise PatchError(_nothing_on(k, topic, kind, _nearest(bank, topic, kind, _afb_order(k, afb_ziel))))
    new = bank.k
    said = _said(k, picks, kind)
    added = {stem for p in picks for stem in stems(p.unit[0].unterthema)}  # notes saying they were left out: untrue now
    new = new.model_copy(update={"hinweise_lehrkraft": [h for h in new.hinweise_lehrkraft if not (
        added & stems(h) and ("nicht verwendet" in h or "fehlt" in h))]})
    if longer:
        new = new.model_copy(update={"dauer_minuten": longer})
        changes.append(f"Dauer {k.dauer_minuten} → {longer} Minuten")
        if sum(t.teil.punkte for p in picks for t in p.unit) < minuten:
            said += (f" Für {longer} Minuten reicht das noch nicht ganz: weitere passende geprüfte Aufgaben gibt es "
                     f"dazu für Klasse {k.klassenstufe} nicht – ergänzen Sie gern eine eigene.")
    outcome = store_version(turn, row, k, new, changes, force=True, art="patch")
    outcome.changes.insert(0, said)
    return outcome.said_first(said)


_NEAR_MAX = 2  # sub-topics offered instead of one the bank has nothing more on


def _nearest(bank: TaskBank, topic: str | None, kind: str | None, afbs: list[str]) -> list[str]:
    """Up to two sub-topics nearest to what she named that still have a fitting task the exam does not hold: those
    sharing most of her words first, then the other sub-topics of the topic her words name (when they name none, of
    the exam's own topics). Only offered, never added in its place (decision 041)."""
    if not topic:
        return []
    wanted = {w[:5] for w in stems(topic)}
    named = {h.topic for h in _homes(bank, topic)[:1]} or {h.topic for h in _homes(bank, None)}  # else the exam's
    scored = []
    for entry in bank.coverage():
        for unter in map(str, entry.get("unterthemen") or []):
            shared = len(wanted & {w[:5] for w in stems(unter)})
            if shared or entry.get("id") in named:
                scored.append((-shared, 0 if entry.get("id") in named else 1, str(entry.get("id")), unter))
    near: list[str] = []
    for _, _, home_topic, unter in sorted(scored):
        home = Home(home_topic, unter)
        found = (t for afb in afbs for t in bank.candidates(home, afb, material_titles=None))
        if unter not in near and any(t.unterthema == unter and fits(t.materialien, kind) and host(bank.k, t.materialien)
                                     != 0 and not _repeats(bank.k, [t]) for t in found):
            near.append(unter)
        if len(near) == _NEAR_MAX:
            break
    return near


def _nothing_on(k: Klausur, topic: str | None, kind: str | None, near: list[str]) -> str:
    """The plain word that the bank has no further task on what she named (nothing was stored) and her options,
    numbered: write one herself, configure a model, or — only when she chooses it — the nearest sub-topics."""
    worum = f"zu „{topic}“" if topic else "zu den Themen dieser Klausur"
    optionen = ["eine eigene Aufgabe ergänzen: unter „Meine Materialien“ → „Bearbeiten“ → „Neue Aufgabe“, oder geben "
                "Sie sie mir im Chat vor („Ergänze als Aufgabe: …“)",
                "ein Sprachmodell einrichten (siehe README), das die Aufgabe schreibt",
                *(f"stattdessen eine geprüfte Aufgabe zu „{u}“ nehmen – schreiben Sie dann „Noch eine Aufgabe zu {u} "
                  "dazu“" for u in near)]
    return (f"In der geprüften Aufgabensammlung gibt es {worum} für Klasse {k.klassenstufe} keine weitere "
            f"Aufgabe{' ' + WITH[kind] if kind else ''}, die noch nicht in der Klausur steht – es wurde nichts "
            "gespeichert. Möglichkeiten: " + "; ".join(f"({i}) {o}" for i, o in enumerate(optionen, 1)) + ".")


def _said(k: Klausur, picks: list[_Pick], kind: str | None) -> str:
    """„Ergänzt aus der geprüften Aufgabensammlung: …“ (where each went, with its material) and, when the named
    sub-topic had no such task, that too."""
    parts = [f"„{p.unit[0].unterthema}“, AFB {'/'.join(dict.fromkeys(t.teil.afb for t in p.unit))}, "
             f"{format_punkte(sum(t.teil.punkte for t in p.unit))} ({p.where})" for p in picks]
    said = "Ergänzt aus der geprüften Aufgabensammlung: " + "; ".join(parts) + "."
    home = picks[0].home
    others = [p for p in picks if p.unit[0].unterthema != home.unterthema]
    solche = f"Aufgabe {WITH[kind]}" if kind else "Aufgabe"
    if home.unterthema and len(others) == len(picks):
        said += (f" Zu „{home.unterthema}“ selbst gibt es für Klasse {k.klassenstufe} keine geprüfte {solche} "
                 "mehr; ich habe die nächstliegende des Themas genommen.")
    elif home.unterthema and others:
        said += (f" Weitere passende Aufgaben zu „{home.unterthema}“ gibt es nicht; die übrigen sind aus demselben "
                 "Thema.")
    return said


async def add_topic(*, turn: TurnContext, material_id: uuid.UUID | str, thema: str | None = None,
                    dauer_minuten: int | None = None, anzahl: int | None = None) -> EditOutcome:
    """A named sub-topic added to any material as its next version: an exam gets reviewed bank tasks on it (see
    `add_topic_task`), a quiz bank questions on it (see `add_questions`); a differentiated sheet is made again with
    the sub-topic as one more part of its request, kept only if it then has more on the sub-topic. Raises PatchError
    (German) when nothing could be added; nothing is stored then."""
    row = own_row(turn, material_id)
    if row.material_type == "klausur" or not thema:
        return add_topic_task(turn=turn, material_id=row.id, thema=thema, dauer_minuten=dauer_minuten, anzahl=anzahl)
    if row.material_type == "h5p":
        return add_questions(turn=turn, row=row, thema=thema, anzahl=anzahl)
    outcome = await regenerate_from_previous(turn=turn, material_id=row.id,
                                             instruction=f"Bitte auch „{thema}“ aufnehmen.", added=thema)
    said = f"Ergänzt: „{thema}“ (aus der geprüften Aufgabensammlung, neu zusammengestellt)."
    outcome.changes.insert(0, said)
    return outcome.said_first(said)
