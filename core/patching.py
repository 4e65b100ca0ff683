"""Edits of stored materials: structured patch operations on a Klausur, re-validation, new versions, regeneration.

Every edit is stored as a NEW version (parent_id = the edited one, version + 1); the edited version stays as it was.
`regenerate_from_previous` reruns the specialist (or reworks one task from the knowledge base) when a patch cannot
express the change.

Decisions (see also the docstrings below):
- Addresses ("2b" = Aufgabe 2, Teilaufgabe b; "2" = Aufgabe 2) always refer to the numbering BEFORE the patch, also
  for later operations of the same patch; positions of moves are the place in the list at that moment.
- Tasks are renumbered 1, 2, 3 … and sub-tasks of a changed task relettered a, b, c … after structural changes.
- set_points scales the Erwartungshorizont proportionally (largest remainder, every criterion keeps ≥ 1 point, the
  sum is exact). Fewer points than criteria is refused: then rewrite_erwartung is needed (its criteria set the
  sub-task's points).
- set_afb keeps the operator if it fits the new AFB (same level or one below), else picks a fitting operator of
  the subject's list (same family first: Berechnen → Bestimmen, Nennen → Beurteilen) and rewrites the leading
  verb of the task text. The Erwartungshorizont stays; the change note asks to check it.
- A patch that turns a valid exam invalid (e.g. AFB shares outside ±10) is refused with the exact faults unless
  `force` is set; with `force` (an explicit instruction of the teacher) it is stored and the faults are reported.
  An exam that was already faulty may be patched; its remaining faults are reported.
- "Aufgabe 3 leichter/schwerer" replaces each sub-task by a good practice one AFB lower/higher on the same topic
  (points kept, criteria scaled), falling back to a lower/higher AFB with a fitting operator; other tasks stay
  untouched. Whole-exam instructions ("leichter", "30 Minuten", "mehr Rechenaufgaben") rerun the specialist with
  adjusted parameters and the previous material in the prompt; "mehr/weniger Rechenaufgaben" swaps up to two
  sub-tasks for good practices with/without calculation (same AFB and points) when the rebuild changes nothing.
  A regeneration that yields the same content is refused (nothing stored).
- In the chat the teacher's own words are the explicit instruction: the offline main model patches with `force`.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from core.app.errors import NotFoundError, UserError
from core.language.imperativ import imperativ
from core.materials import (
    AFB_STUFEN,
    Aufgabe,
    DifferenziertesMaterial,
    H5PSet,
    Klausur,
    Kriterium,
    MaterialRequest,
    Quelle,
    Teilaufgabe,
)
from core.notenschluessel import format_punkte
from core.validation import _usual_levels, afb_passt

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from agents.deps import SpecialistDeps, TurnContext
    from core.materials_service import StoredFile
    from db.models import GeneratedMaterial, Teacher
    from db.session import Identity

log = logging.getLogger(__name__)

MAX_PUNKTE_TEILAUFGABE = 100

# --- operations ----------------------------------------------------------------------------------------------------

_ZIEL = ("Adresse wie in der Klausur: '2b' = Aufgabe 2, Teilaufgabe b; '2' = ganze Aufgabe 2. Gilt immer für die "
         "Nummerierung VOR dieser Änderung, auch für spätere Operationen derselben Änderung.")


class KriteriumNeu(BaseModel):
    """One line of a new Erwartungshorizont."""

    text: str = Field(description="Erwartete Schülerleistung, konkret und prüfbar.")
    punkte: int = Field(description="Punkte für dieses Kriterium (ganze Zahl ≥ 1).")


class TeilaufgabeNeu(BaseModel):
    """A new sub-task; its label is given automatically, its points are the sum of its criteria."""

    operator: str = Field(description="Operator aus der Operatorenliste des Fachs, z. B. 'Erklären'.")
    text: str = Field(description="Aufgabenstellung, mit dem Operator formuliert, ohne Punktangabe.")
    afb: str = Field(description="Anforderungsbereich 'I', 'II' oder 'III'; muss zum Operator passen.")
    erwartung: list[KriteriumNeu] = Field(description="Erwartungshorizont; die Summe ergibt die Punkte.")
    quellen: list[Quelle] = Field(default_factory=list, description="Quellen (ref wie von den Werkzeugen geliefert).")


class AufgabeNeu(BaseModel):
    """A new task with at least one sub-task."""

    titel: str = Field(description="Kurzer Titel der Aufgabe.")
    material: str | None = Field(default=None, description="Optionales Material (Text, Tabelle als Text).")
    teilaufgaben: list[TeilaufgabeNeu] = Field(description="Die Teilaufgaben in Reihenfolge (mindestens eine).")


def _op_required(schema: dict[str, Any]) -> None:
    """The discriminator has a default (handy in Python) but a model must always send it."""
    schema["required"] = ["op", *[r for r in schema.get("required", []) if r != "op"]]


class _Op(BaseModel):
    model_config = ConfigDict(json_schema_extra=_op_required)


class ReplaceText(_Op):
    """Replace the text of a sub-task, or the title/material of a task (whole field, or one passage of it)."""

    op: Literal["replace_text"] = "replace_text"
    ziel: str = Field(description=_ZIEL)
    feld: Literal["text", "titel", "material"] = Field(
        default="text", description="text = Aufgabentext einer Teilaufgabe; titel/material = einer ganzen Aufgabe.")
    text: str = Field(description="Der neue Wortlaut (mit 'alt': der Ersatz für genau diese Stelle).")
    alt: str | None = Field(default=None, description="Optional: nur diese Textstelle ersetzen statt des Feldes.")


class SetPoints(_Op):
    """Give a sub-task new points; its criteria are scaled proportionally."""

    op: Literal["set_points"] = "set_points"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe nur, wenn sie genau eine Teilaufgabe hat.")
    punkte: int = Field(description="Neue Punktzahl (ganze Zahl ≥ 1).")


class SetAfb(_Op):
    """Move a sub-task (or every sub-task of a task) to another AFB, with a fitting operator."""

    op: Literal["set_afb"] = "set_afb"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe ändert alle ihre Teilaufgaben.")
    afb: str = Field(description="Neuer Anforderungsbereich: 'I', 'II' oder 'III'.")
    operator: str | None = Field(
        default=None, description="Optional der neue Operator; ohne Angabe wird ein passender gewählt, falls nötig.")


class SetOperator(_Op):
    """Give a sub-task another operator (the leading verb of its text follows)."""

    op: Literal["set_operator"] = "set_operator"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe nur, wenn sie genau eine Teilaufgabe hat.")
    operator: str = Field(description="Operator aus der Operatorenliste des Fachs, in der Grundform.")


class AddSubtask(_Op):
    """Add a sub-task to a task."""

    op: Literal["add_subtask"] = "add_subtask"
    ziel: str = Field(description="Die Aufgabe, z. B. '2'. " + _ZIEL)
    teilaufgabe: TeilaufgabeNeu
    position: int | None = Field(default=None, description="Stelle in der Aufgabe (1 = zuerst); ohne Angabe: ans Ende.")


class RemoveSubtask(_Op):
    """Remove a sub-task (a task keeps at least one)."""

    op: Literal["remove_subtask"] = "remove_subtask"
    ziel: str = Field(description=_ZIEL)


class MoveSubtask(_Op):
    """Move a sub-task to another place within its task."""

    op: Literal["move_subtask"] = "move_subtask"
    ziel: str = Field(description=_ZIEL)
    position: int = Field(description="Neue Stelle in der Aufgabe: 1 = zuerst, -1 = ans Ende.")


class AddTask(_Op):
    """Add a whole task."""

    op: Literal["add_task"] = "add_task"
    aufgabe: AufgabeNeu
    position: int | None = Field(default=None, description="Stelle in der Klausur (1 = zuerst); ohne Angabe: ans Ende.")


class RemoveTask(_Op):
    """Remove a whole task (the exam keeps at least one)."""

    op: Literal["remove_task"] = "remove_task"
    ziel: str = Field(description="Die Aufgabe, z. B. '4'. " + _ZIEL)


class MoveTask(_Op):
    """Move a whole task to another place."""

    op: Literal["move_task"] = "move_task"
    ziel: str = Field(description="Die Aufgabe, z. B. '2'. " + _ZIEL)
    position: int = Field(description="Neue Stelle in der Klausur: 1 = zuerst, -1 = ans Ende.")


class RewriteErwartung(_Op):
    """Replace the Erwartungshorizont of a sub-task; its points become the sum of the new criteria."""

    op: Literal["rewrite_erwartung"] = "rewrite_erwartung"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe nur, wenn sie genau eine Teilaufgabe hat.")
    erwartung: list[KriteriumNeu] = Field(description="Die neuen Kriterien mit Punkten (mindestens eines).")


PatchOp = Annotated[
    ReplaceText | SetPoints | SetAfb | SetOperator | AddSubtask | RemoveSubtask | MoveSubtask | AddTask | RemoveTask
    | MoveTask | RewriteErwartung,
    Field(discriminator="op"),
]
PATCH_OPS: TypeAdapter[list[PatchOp]] = TypeAdapter(list[PatchOp])


class RegenerateInstruction(BaseModel):
    """A change too large for patch operations, with the parameters the offline rules can act on."""

    anweisung: str = Field(description="Die Anweisung der Lehrkraft im Wortlaut.")
    aufgabe: int | None = Field(default=None, description="Nur diese Aufgabe überarbeiten (z. B. 'leichter').")
    teil: str | None = Field(default=None, description="Nur diese Teilaufgabe der Aufgabe (z. B. 'b').")
    richtung: Literal["leichter", "schwerer"] | None = None
    dauer_minuten: int | None = None
    laenge: Literal["kuerzer", "laenger"] | None = None
    rechnen: Literal["mehr", "weniger"] | None = None


class PatchError(UserError):
    """A patch that cannot be applied; nothing was written."""


class EditUnclear(UserError):
    """An edit request whose intent is clear but a detail is missing (e.g. the new wording)."""


# --- operators -----------------------------------------------------------------------------------------------------

_FAMILIEN: tuple[frozenset[str], ...] = (
    frozenset({"nennen", "angeben", "benennen", "bezeichnen", "beschreiben", "darstellen", "skizzieren", "zeichnen",
               "wiedergeben", "zusammenfassen", "aufzählen", "definieren", "name", "state", "describe", "outline"}),
    frozenset({"berechnen", "bestimmen", "ermitteln", "herleiten", "lösen", "auswerten", "abschätzen", "calculate"}),
    frozenset({"erklären", "erläutern", "begründen", "vergleichen", "analysieren", "interpretieren", "deuten",
               "einordnen", "zuordnen", "explain", "compare", "analyse", "illustrate"}),
    frozenset({"beurteilen", "bewerten", "diskutieren", "erörtern", "stellung nehmen", "prüfen", "überprüfen",
               "entwickeln", "planen", "entwerfen", "gestalten", "evaluate", "assess", "discuss", "comment"}),
)
_STANDARD_FAMILIE = {"I": 0, "II": 2, "III": 3}
_RANG = {"I": 1, "II": 2, "III": 3}


def _familie(operator: str) -> int | None:
    name = " ".join(operator.split()).casefold()
    return next((i for i, fam in enumerate(_FAMILIEN) if name in fam), None)


def canonical_operator(name: str, operatoren: Mapping[str, str]) -> str | None:
    """The list's spelling of an operator ('erkläre' -> 'Erklären'); None if the subject does not know it.

    Without an operator list every non-empty name is accepted (nothing to check against)."""
    wanted = " ".join(name.split())
    if not wanted:
        return None
    if not operatoren:
        return wanted[:1].upper() + wanted[1:]
    for known in operatoren:
        if known.casefold() == wanted.casefold():
            return known
    for known, afb in operatoren.items():
        if _usual_levels(wanted, {known: afb}):
            return known
    return None


def _operator_passt(operator: str, afb: str, operatoren: Mapping[str, str]) -> bool:
    if not operatoren:
        return True
    levels = _usual_levels(operator, operatoren)
    return bool(levels) and any(afb_passt(level, afb) for level in levels)


def fitting_operator(current: str, afb: str, operatoren: Mapping[str, str]) -> str:
    """The operator a sub-task gets at `afb`: the current one if it fits, else one of the same family (Berechnen ->
    Bestimmen), else the level's standard family (I: Nennen/Beschreiben, II: Erklären, III: Beurteilen)."""
    if _operator_passt(current, afb, operatoren):
        return canonical_operator(current, operatoren) or current
    order = list(operatoren)
    candidates = [name for name, usual in operatoren.items() if afb_passt(usual, afb)]
    if not candidates:
        return current
    fam = _familie(canonical_operator(current, operatoren) or current)

    def rank(name: str) -> tuple[int, int, int]:
        f = _familie(name)
        return (0 if fam is not None and f == fam else 1 if f == _STANDARD_FAMILIE[afb] else 2,
                0 if operatoren[name] == afb else 1, order.index(name))

    return min(candidates, key=rank)


def _swap_verb(text: str, old: str, new: str) -> str | None:
    """The task text with the leading verb of `old` replaced by `new` ('Nenne …' -> 'Beurteile …'); None if the
    text has no sentence starting with the old operator."""
    old_verb, old_part = imperativ(old)
    new_verb, new_part = imperativ(new)
    m = re.search(rf"(?:^\s*|(?<=[.!?:]\s)){re.escape(old_verb)}\b", text, re.IGNORECASE)
    if not m:
        return None
    head, rest = text[: m.start()], text[m.end():]
    if old_part:
        if re.match(rf"\s+{old_part}\b", rest):
            rest = re.sub(rf"^\s+{old_part}\b", "", rest)
        else:
            rest = re.sub(rf"\s+{old_part}(?=[.!?](\s|$))", "", rest, count=1)
    if new_part:
        if rest.startswith(","):
            rest = f" {new_part}{rest}"
        else:
            end = re.search(r"[.!?](\s|$)", rest)
            rest = f"{rest[: end.start()]} {new_part}{rest[end.start():]}" if end else f"{rest} {new_part}"
    return f"{head}{new_verb}{rest}"


# --- applying operations (pure) ------------------------------------------------------------------------------------

_ADRESSE = re.compile(r"^\s*(?:(?:teil)?aufgabe\s*)?(\d{1,2})\s*(?:([a-z])\s*\)?)?\s*$", re.IGNORECASE)


def _afb_wert(value: str) -> str:
    raw = " ".join(str(value).split()).upper().removeprefix("AFB").strip()
    raw = {"1": "I", "2": "II", "3": "III"}.get(raw, raw)
    if raw not in AFB_STUFEN:
        raise PatchError(f"„{value}“ ist kein Anforderungsbereich. Möglich sind AFB I, II und III.")
    return raw


def scale_points(points: Sequence[int], total: int) -> list[int]:
    """Criterion points scaled to `total`: proportional, each ≥ 1, exact sum (largest remainder)."""
    n = len(points)
    if total < n:
        raise ValueError("fewer points than criteria")
    weights = [max(1, p) for p in points]
    raw = [w * total / sum(weights) for w in weights]
    out = [max(1, int(r)) for r in raw]
    while sum(out) < total:
        i = max(range(n), key=lambda j: (raw[j] - out[j], -j))
        out[i] += 1
    while sum(out) > total:
        i = max((j for j in range(n) if out[j] > 1), key=lambda j: (out[j] - raw[j], j))
        out[i] -= 1
    return out


def _kriterien(ref: str, eingabe: Sequence[KriteriumNeu]) -> list[Kriterium]:
    if not eingabe:
        raise PatchError(f"{ref}: Der Erwartungshorizont braucht mindestens ein Kriterium mit Punkten.")
    out = []
    for i, k in enumerate(eingabe, start=1):
        if not k.text.strip():
            raise PatchError(f"{ref}: Kriterium {i} ist leer. Bitte die erwartete Leistung ausformulieren.")
        if k.punkte < 1:
            raise PatchError(f"{ref}: Kriterium {i} hat {k.punkte} Punkte; jedes Kriterium braucht mindestens 1 Punkt.")
        out.append(Kriterium(text=k.text.strip(), punkte=k.punkte))
    return out


def _label(i: int) -> str:
    return chr(ord("a") + i) if i < 26 else f"a{i}"


@dataclass
class _Arbeit:
    """A working copy of the exam; addresses resolve against the numbering before the patch (object identity)."""

    k: Klausur
    operatoren: Mapping[str, str]
    changes: list[str] = field(default_factory=list)
    tasks: dict[int, Aufgabe] = field(default_factory=dict)
    subs: dict[tuple[int, str], tuple[Aufgabe, Teilaufgabe]] = field(default_factory=dict)
    relabel: list[Aufgabe] = field(default_factory=list)
    total: int = 0

    def __post_init__(self) -> None:
        self.k = self.k.model_copy(deep=True)
        self.total = self.k.gesamtpunkte
        for a in self.k.aufgaben:
            self.tasks[a.nummer] = a
            for t in a.teilaufgaben:
                self.subs[(a.nummer, t.kennung.casefold())] = (a, t)

    # addresses
    def _parse(self, ziel: str) -> tuple[int, str | None]:
        m = _ADRESSE.match(str(ziel or ""))
        if not m:
            raise PatchError(f"„{ziel}“ ist keine Aufgabenangabe. Bitte z. B. „2“ für Aufgabe 2 oder „2b“ für "
                             f"Teilaufgabe b von Aufgabe 2 angeben.")
        return int(m.group(1)), (m.group(2) or "").casefold() or None

    def _present(self, a: Aufgabe) -> bool:
        return any(x is a for x in self.k.aufgaben)

    def _vorhanden(self) -> str:
        nummern = sorted(self.tasks)
        return f"Die Klausur hat die Aufgaben {nummern[0]} bis {nummern[-1]}" if len(nummern) > 1 else \
            f"Die Klausur hat nur Aufgabe {nummern[0]}"

    def task(self, ziel: str) -> Aufgabe:
        nummer, label = self._parse(ziel)
        if nummer not in self.tasks:
            raise PatchError(f"Aufgabe {nummer}{label or ''} gibt es nicht. {self._vorhanden()}.")
        a = self.tasks[nummer]
        if not self._present(a):
            raise PatchError(f"Aufgabe {nummer} ist in dieser Änderung schon gestrichen.")
        return a

    def sub(self, ziel: str, *, ganze_aufgabe: bool = False) -> list[tuple[Aufgabe, Teilaufgabe, str]]:
        """The addressed sub-task(s) with their reference ('2b'); a task address means all its sub-tasks if
        `ganze_aufgabe`, else only a task with exactly one sub-task."""
        nummer, label = self._parse(ziel)
        a = self.task(ziel)
        if label is None:
            teile = list(a.teilaufgaben)
            if len(teile) > 1 and not ganze_aufgabe:
                namen = f"{nummer}{teile[0].kennung}–{nummer}{teile[-1].kennung}"
                raise PatchError(f"Aufgabe {nummer} hat mehrere Teilaufgaben ({namen}). Bitte eine angeben, "
                                 f"z. B. „{nummer}{teile[0].kennung}“.")
            return [(a, t, f"{nummer}{t.kennung}") for t in teile]
        found = self.subs.get((nummer, label))
        if found is None:
            vorhanden = ", ".join(f"{nummer}{t.kennung}" for t in a.teilaufgaben)
            raise PatchError(f"Teilaufgabe {nummer}{label} gibt es nicht. Aufgabe {nummer} hat: {vorhanden}.")
        if not any(t is found[1] for t in a.teilaufgaben):
            raise PatchError(f"Teilaufgabe {nummer}{label} ist in dieser Änderung schon entfernt.")
        return [(found[0], found[1], f"{nummer}{label}")]

    @staticmethod
    def _index(items: Sequence[Any], obj: Any) -> int:
        return next(i for i, x in enumerate(items) if x is obj)

    @staticmethod
    def _position(position: int | None, length: int, what: str) -> int:
        """0-based index for a 1-based position (-1/None = end) in a list of `length` places."""
        if position is None or position == -1:
            return length - 1
        if not 1 <= position <= length:
            raise PatchError(f"Stelle {position} gibt es nicht: {what} hat {length} mögliche Stellen (1 bis {length}).")
        return position - 1

    # operations
    def replace_text(self, op: ReplaceText) -> None:
        neu = op.text.strip()
        if not neu:
            raise PatchError(f"Der neue Text für {op.ziel} ist leer. Bitte den gewünschten Wortlaut angeben.")
        if op.feld == "text":
            ((_, teil, ref),) = self.sub(op.ziel)
            teil.text = self._ersetze(teil.text, op.alt, neu, ref)
            self.changes.append(f"{ref}: Aufgabentext neu formuliert („{_kurz(teil.text)}“)")
            return
        a = self.task(op.ziel)
        if op.feld == "titel":
            alt_titel = a.titel
            a.titel = self._ersetze(a.titel, op.alt, neu, f"Aufgabe {a.nummer}")
            self.changes.append(f"Aufgabe {a.nummer}: Titel „{_kurz(alt_titel)}“ → „{_kurz(a.titel)}“")
        else:
            a.material = self._ersetze(a.material or "", op.alt, neu, f"Aufgabe {a.nummer}")
            self.changes.append(f"Aufgabe {a.nummer}: Material neu gefasst")

    @staticmethod
    def _ersetze(text: str, alt: str | None, neu: str, ref: str) -> str:
        if alt is None or not alt.strip():
            return neu
        if alt not in text:
            raise PatchError(f"{ref}: Die Stelle „{_kurz(alt)}“ kommt im bisherigen Text nicht vor. Bitte genau "
                             f"wie im Text angeben oder den ganzen Text ersetzen.")
        return text.replace(alt, neu)

    def set_points(self, op: SetPoints) -> None:
        ((_, teil, ref),) = self.sub(op.ziel)
        if op.punkte < 1:
            raise PatchError(f"{ref}: {op.punkte} Punkte geht nicht – eine Teilaufgabe hat mindestens 1 Punkt.")
        if op.punkte > MAX_PUNKTE_TEILAUFGABE:
            raise PatchError(f"{ref}: {op.punkte} Punkte sind zu viele für eine Teilaufgabe (höchstens "
                             f"{MAX_PUNKTE_TEILAUFGABE}).")
        if op.punkte == teil.punkte:
            return
        if op.punkte < len(teil.erwartung):
            raise PatchError(f"{ref}: Der Erwartungshorizont hat {len(teil.erwartung)} Kriterien, bei {op.punkte} "
                             f"Punkten bekäme nicht jedes Kriterium einen Punkt. Bitte den Erwartungshorizont mit "
                             f"weniger Kriterien neu fassen (die Punkte ergeben sich dann aus den Kriterien) oder "
                             f"mindestens {len(teil.erwartung)} Punkte geben.")
        vorher = [c.punkte for c in teil.erwartung]
        neu = scale_points(vorher, op.punkte)
        teil.erwartung = [Kriterium(text=c.text, punkte=p) for c, p in zip(teil.erwartung, neu, strict=True)]
        self.changes.append(f"{ref}: {format_punkte(teil.punkte)} → {format_punkte(op.punkte)} (Erwartungshorizont "
                            f"anteilig angepasst: {'/'.join(map(str, vorher))} → {'/'.join(map(str, neu))})")
        teil.punkte = op.punkte

    def set_afb(self, op: SetAfb) -> None:
        afb = _afb_wert(op.afb)
        operator = None
        if op.operator is not None:
            operator = canonical_operator(op.operator, self.operatoren)
            if operator is None:
                raise PatchError(self._unbekannt(op.operator))
        geaendert = False
        for _, teil, ref in self.sub(op.ziel, ganze_aufgabe=True):
            geaendert |= self.change_afb(teil, ref, afb, operator)
        if not geaendert:
            raise PatchError(f"{op.ziel} ist bereits AFB {afb}; es gibt nichts zu ändern.")

    def change_afb(self, teil: Teilaufgabe, ref: str, afb: str, operator: str | None = None, note: str = "") -> bool:
        neu_op = operator or fitting_operator(teil.operator, afb, self.operatoren)
        if teil.afb == afb and neu_op == teil.operator:
            return False
        teile = [f"AFB {teil.afb} → {afb}"] if teil.afb != afb else []
        hinweis = ""
        if teil.afb != afb:  # the criteria were written for the old demand
            hinweis = "; Aufgabentext und Erwartungshorizont bitte prüfen" if neu_op != teil.operator else \
                "; Erwartungshorizont bitte prüfen"
        if neu_op != teil.operator:
            teile.append(f"Operator {teil.operator} → {neu_op}")
            teile += self._verb(teil, neu_op)
            teil.operator = neu_op
        teil.afb = afb
        self.changes.append(f"{ref}: {', '.join(teile)}{note}{hinweis}")
        return True

    def _verb(self, teil: Teilaufgabe, neu_op: str) -> list[str]:
        text = _swap_verb(teil.text, teil.operator, neu_op)
        if text is None:
            return ["Aufgabentext beginnt nicht mit dem Operator – bitte anpassen"]
        teil.text = text
        return []

    def _unbekannt(self, operator: str) -> str:
        bekannte = ", ".join(sorted(self.operatoren, key=str.casefold))
        return (f"Den Operator „{operator.strip()}“ kennt die Operatorenliste für {self.k.fach} nicht. "
                f"Möglich sind: {bekannte}.")

    def set_operator(self, op: SetOperator) -> None:
        ((_, teil, ref),) = self.sub(op.ziel)
        operator = canonical_operator(op.operator, self.operatoren)
        if operator is None:
            raise PatchError(self._unbekannt(op.operator) if op.operator.strip() else f"{ref}: Der Operator ist leer.")
        if operator == teil.operator:
            raise PatchError(f"{ref} hat bereits den Operator {operator}.")
        extra = self._verb(teil, operator)
        self.changes.append(f"{ref}: Operator {teil.operator} → {operator}" + (f" ({extra[0]})" if extra else ""))
        teil.operator = operator

    def _neue_teilaufgabe(self, neu: TeilaufgabeNeu, ref: str) -> Teilaufgabe:
        operator = canonical_operator(neu.operator, self.operatoren)
        if operator is None:
            raise PatchError(self._unbekannt(neu.operator) if neu.operator.strip() else f"{ref}: Der Operator fehlt.")
        if not neu.text.strip():
            raise PatchError(f"{ref}: Der Aufgabentext ist leer. Bitte die Aufgabenstellung angeben.")
        erwartung = _kriterien(ref, neu.erwartung)
        quellen = list(neu.quellen) or [Quelle(art="eigene", ref="Ergänzung der Lehrkraft",
                                               titel="Ergänzung der Lehrkraft")]
        return Teilaufgabe(label="?", operator=operator, text=neu.text.strip(), afb=_afb_wert(neu.afb),
                           punkte=sum(c.punkte for c in erwartung), erwartung=erwartung, quellen=quellen)

    def add_subtask(self, op: AddSubtask) -> None:
        a = self.task(op.ziel)
        teil = self._neue_teilaufgabe(op.teilaufgabe, f"Neue Teilaufgabe in Aufgabe {a.nummer}")
        i = self._position(op.position, len(a.teilaufgaben) + 1, f"Aufgabe {a.nummer}")
        a.teilaufgaben.insert(i, teil)
        self.relabel.append(a)
        self.changes.append(f"Aufgabe {a.nummer}: neue Teilaufgabe an Stelle {i + 1} ({teil.operator}, AFB "
                            f"{teil.afb}, {format_punkte(teil.punkte)})")

    def remove_subtask(self, op: RemoveSubtask) -> None:
        ((a, teil, ref),) = self.sub(op.ziel)
        if _index_label(op.ziel) is None:
            raise PatchError(f"„{op.ziel}“ ist eine ganze Aufgabe; zum Streichen einer Aufgabe „Aufgabe streichen“ "
                             f"verwenden, für eine Teilaufgabe z. B. „{ref}“ angeben.")
        if len(a.teilaufgaben) == 1:
            raise PatchError(f"{ref} ist die einzige Teilaufgabe von Aufgabe {a.nummer}. Bitte stattdessen die ganze "
                             f"Aufgabe streichen.")
        a.teilaufgaben.pop(self._index(a.teilaufgaben, teil))
        self.relabel.append(a)
        self.changes.append(f"{ref} entfernt ({teil.operator}, AFB {teil.afb}, {format_punkte(teil.punkte)})")

    def move_subtask(self, op: MoveSubtask) -> None:
        ((a, teil, ref),) = self.sub(op.ziel)
        i = self._index(a.teilaufgaben, teil)
        j = self._position(op.position, len(a.teilaufgaben), f"Aufgabe {a.nummer}")
        if i == j:
            return
        a.teilaufgaben.insert(j, a.teilaufgaben.pop(i))
        self.relabel.append(a)
        self.changes.append(f"{ref} an Stelle {j + 1} von Aufgabe {a.nummer} verschoben")

    def add_task(self, op: AddTask) -> None:
        neu = op.aufgabe
        if not neu.titel.strip():
            raise PatchError("Die neue Aufgabe braucht einen Titel.")
        if not neu.teilaufgaben:
            raise PatchError("Die neue Aufgabe braucht mindestens eine Teilaufgabe.")
        if neu.material is not None and not neu.material.strip():
            raise PatchError("Das Material der neuen Aufgabe ist leer – Material angeben oder weglassen.")
        teile = [self._neue_teilaufgabe(t, f"Neue Aufgabe, Teilaufgabe {i}")
                 for i, t in enumerate(neu.teilaufgaben, start=1)]
        a = Aufgabe(nummer=99, titel=neu.titel.strip(), material=(neu.material or "").strip() or None,
                    teilaufgaben=teile)
        i = self._position(op.position, len(self.k.aufgaben) + 1, "Die Klausur")
        self.k.aufgaben.insert(i, a)
        self.relabel.append(a)
        self.changes.append(f"Neue Aufgabe an Stelle {i + 1}: „{_kurz(a.titel)}“ ({format_punkte(a.punkte)})")

    def remove_task(self, op: RemoveTask) -> None:
        a = self.task(op.ziel)
        if len(self.k.aufgaben) == 1:
            raise PatchError("Das ist die einzige Aufgabe der Klausur; sie kann nicht gestrichen werden.")
        self.k.aufgaben.pop(self._index(self.k.aufgaben, a))
        self.changes.append(f"Aufgabe {a.nummer} „{_kurz(a.titel)}“ gestrichen ({format_punkte(a.punkte)})")

    def move_task(self, op: MoveTask) -> None:
        a = self.task(op.ziel)
        i = self._index(self.k.aufgaben, a)
        j = self._position(op.position, len(self.k.aufgaben), "Die Klausur")
        if i == j:
            return
        self.k.aufgaben.insert(j, self.k.aufgaben.pop(i))
        self.changes.append(f"Aufgabe {a.nummer} „{_kurz(a.titel)}“ an Stelle {j + 1} verschoben")

    def rewrite_erwartung(self, op: RewriteErwartung) -> None:
        ((_, teil, ref),) = self.sub(op.ziel)
        erwartung = _kriterien(ref, op.erwartung)
        punkte = sum(c.punkte for c in erwartung)
        note = f", {format_punkte(teil.punkte)} → {format_punkte(punkte)}" if punkte != teil.punkte else ""
        teil.erwartung, teil.punkte = erwartung, punkte
        self.changes.append(f"{ref}: Erwartungshorizont neu gefasst ({len(erwartung)} Kriterien{note})")

    def result(self) -> Klausur:
        alt_total = self.total
        for nummer, a in enumerate(self.k.aufgaben, start=1):
            a.nummer = nummer
        for a in self.relabel:
            for i, t in enumerate(a.teilaufgaben):
                t.label = _label(i)
        neu_total = sum(a.punkte for a in self.k.aufgaben)
        if neu_total != alt_total:  # "insgesamt sind 45 Punkte erreichbar" must follow the new total
            self.k.hinweise = [re.sub(rf"\b{alt_total}(\s+Punkte)", rf"{neu_total}\1", h) for h in self.k.hinweise]
        try:
            return Klausur.model_validate(self.k.model_dump(mode="json"))
        except ValidationError as exc:
            log.warning("patch produced an invalid Klausur: %s", exc)
            raise PatchError("Die Änderung ergibt keine gültige Klausur (z. B. eine Teilaufgabe ohne Punkte). "
                             "Bitte die Angaben prüfen.") from exc


def _index_label(ziel: str) -> str | None:
    m = _ADRESSE.match(str(ziel or ""))
    return m.group(2) if m else None


def _kurz(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def apply_operations(klausur: Klausur, operations: Sequence[PatchOp], *, operatoren: Mapping[str, str]
                     ) -> tuple[Klausur, list[str]]:
    """Apply patch operations to a copy of `klausur`: the new exam and a German line per change.

    Raises PatchError (German) for anything invalid: unknown address, empty text, points below 1, AFB other than
    I–III, unknown operator, removing the last (sub-)task, a patch without effect.
    """
    if not operations:
        raise PatchError("Es ist keine Änderung angegeben.")
    work = _Arbeit(klausur, operatoren)
    for op in operations:
        getattr(work, op.op)(op)
    neu = work.result()
    if _inhalt(neu) == _inhalt(klausur):
        raise PatchError("Die Änderung ergibt keinen Unterschied zur bisherigen Fassung – es wurde nichts gespeichert.")
    return neu, work.changes


def _inhalt(k: Klausur) -> dict[str, Any]:
    return k.model_dump(mode="json", exclude={"notenschema", "notenschluessel"})


# --- reading German edit requests (pure; the offline main model uses it) --------------------------------------------

_AUFGABE_REF = re.compile(r"\b(?:teil)?aufgaben?\s*(?:nr\.?\s*)?(\d{1,2})\s*([a-h])?(?![a-zäöüß\d])", re.I)
_KURZ_REF = re.compile(r"(?<![\w/.,])(\d{1,2})([a-h])\)?(?![a-zäöüß\d])", re.I)
_ZAHLWORT = {"ein": 1, "einen": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
             "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12}
_PUNKTE = re.compile(r"\b(\d{1,3}|" + "|".join(_ZAHLWORT) + r")\s*(?:punkte?n?|pkt\.?|p\.)(?![a-zäöüß])", re.I)
_PUNKTE_CUE = re.compile(r"\b(gib|gebe|geben|setz\w*|soll\w*|mach\w*|bitte|änder\w*|reduzier\w*|erhöh\w*|"
                         r"verringer\w*|kürz\w*|nur|auf|statt|bekomm\w*|krieg\w*|für)\b", re.I)
_AFB = re.compile(r"\b(?:afb|anforderungsbereich)\s*[:\-]?\s*(iv|iii|ii|i|v|[1-5])(?![\w/])", re.I)
_AFB_CUE = re.compile(r"\b(als|auf|zu|in|soll\w*|bitte|mach\w*|setz\w*|änder\w*|heb\w*|stuf\w*)\b", re.I)
_ENTFERNEN = re.compile(r"\b(streich\w*|lösch\w*|entfern\w*|weglassen|wegnehmen|raus\w*|(kann|soll|muss)\s+weg)\b",
                        re.I)
_TAUSCH = re.compile(r"\b(tausch\w*|vertausch\w*)\b", re.I)
_VERSCHIEBEN = re.compile(r"\b(verschieb\w*|setz\w*|stell\w*|pack\w*|rück\w*|nimm|mach\w*)\b", re.I)
_STELLE = re.compile(r"\b(?:an|auf)\s+(?:die\s+)?(?:stelle|position|platz)\s*(\d{1,2})\b", re.I)
_ANFANG = re.compile(r"\b(an\s+den\s+anfang|nach\s+vorne?|zuerst|als\s+erste\w*)\b", re.I)
_ENDE = re.compile(r"\b(ans\s+ende|an\s+das\s+ende|nach\s+hinten|zuletzt|als\s+letzte\w*)\b", re.I)
_OPERATOR = re.compile(r"\boperator\w*\b[^:]*?(?:\b(?:auf|zu|in|durch)\b|:|→|->|=)\s*[„\"']?([A-Za-zÄÖÜäöüß]{4,})|"
                       r"\bmit\s+(?:dem\s+)?operator\s+[„\"']?([A-Za-zÄÖÜäöüß]{4,})", re.I)
_FORMULIEREN = re.compile(r"\b(formulier\w*|umformulier\w*|ersetz\w*|schreib\w*|lauten|lautet|neu\s+fassen|"
                          r"verständlicher|einfacher\s+formuliert)\b", re.I)
_SCHWIERIGKEIT = re.compile(r"\b(leichter|einfacher|schwerer|anspruchsvoller|schwieriger|fordernder)\b", re.I)
_AENDERN_CUE = re.compile(r"\b(mach\w*|bitte|soll\w*|gestalt\w*|etwas|noch|kannst|könntest|können|kann|überarbeit\w*)"
                          r"\b", re.I)
_DAUER = re.compile(r"\b(\d{2,3})\s*(?:min\b|min\.|minuten)", re.I)
_DAUER_CUE = re.compile(r"\b(soll\w*|nur|dauer\w*|auf|kürzer|länger|mach\w*|bitte|statt|reduzier\w*|kürz\w*)\b", re.I)
_LAENGE = re.compile(r"\b(kürzer|kürzen|länger|verlängern)\b", re.I)
_RECHNEN = re.compile(r"\b(mehr|weniger)\s+(rechen\w*|rechnung\w*|rechnen)", re.I)
_NEU = re.compile(r"\b(neu\s+erzeug\w*|noch\s*mal|nochmal|neu\s+generier\w*|überarbeit\w*)\b", re.I)
_KRITERIUM = re.compile(r"^(.*?)[\s,:–-]*\(?\s*(\d{1,2})\s*(?:p\.?|pkt\.?|punkte?)\s*\)?\s*\.?$", re.I)


def _refs(text: str) -> list[tuple[int, str | None]]:
    """Task references in order of appearance: 'Aufgabe 2', 'Teilaufgabe 1b', '2a'."""
    found: list[tuple[int, int, str | None]] = []
    for m in _AUFGABE_REF.finditer(text):
        found.append((m.start(), int(m.group(1)), (m.group(2) or "").casefold() or None))
    for m in _KURZ_REF.finditer(text):
        if not any(s <= m.start() < s + 12 for s, _, _ in found):
            found.append((m.start(), int(m.group(1)), m.group(2).casefold()))
    return [(n, label) for _, n, label in sorted(found)]


def _ziel(ref: tuple[int, str | None]) -> str:
    return f"{ref[0]}{ref[1] or ''}"


def _ohne_refs(text: str) -> str:
    return _KURZ_REF.sub(" ", _AUFGABE_REF.sub(" ", text))


def _zahl(raw: str) -> int:
    return int(raw) if raw.isdigit() else _ZAHLWORT[raw.casefold()]


def _unquote(text: str) -> str:
    return text.strip().strip("„“\"'»«").strip()


def _erwartung_aus(text: str, ziel: str) -> list[KriteriumNeu]:
    kriterien = []
    for teil in re.split(r"[;\n]+", text):
        if not teil.strip():
            continue
        m = _KRITERIUM.match(teil.strip())
        if not m or not m.group(1).strip():
            raise EditUnclear(f"Bitte bei jedem Kriterium für {ziel} die Punkte angeben, getrennt durch Semikolon, "
                              f"z. B. „Erwartungshorizont {ziel}: nennt die Formel (1 P.); rechnet richtig (2 P.)“.")
        kriterien.append(KriteriumNeu(text=_unquote(m.group(1)), punkte=int(m.group(2))))
    return kriterien


def _check_refs(refs: Sequence[tuple[int, str | None]], material: Klausur | None) -> None:
    if material is None:
        return
    nummern = {a.nummer: a for a in material.aufgaben}
    for nummer, label in refs:
        a = nummern.get(nummer)
        if a is None or (label and label not in {t.kennung.casefold() for t in a.teilaufgaben}):
            raise EditUnclear(f"Aufgabe {nummer}{label or ''} gibt es in dieser Klausur nicht (Aufgaben 1 bis "
                              f"{len(material.aufgaben)}). Welche Aufgabe meinen Sie?")


def _parse_patch(text: str, refs: list[tuple[int, str | None]]) -> list[PatchOp] | None:
    rest = _ohne_refs(text)
    head, colon, body = text.partition(":")
    if colon and refs and _refs(head) and body.strip():
        if re.search(r"erwartung", head, re.I):
            return [RewriteErwartung(ziel=_ziel(_refs(head)[0]), erwartung=_erwartung_aus(body, _ziel(refs[0])))]
        if re.search(r"\b(titel|überschrift)\b", head, re.I):
            return [ReplaceText(ziel=str(refs[0][0]), feld="titel", text=_unquote(body))]
        if re.search(r"\bmaterial\b", head, re.I):
            return [ReplaceText(ziel=str(refs[0][0]), feld="material", text=_unquote(body))]
        if _FORMULIEREN.search(head) or re.search(r"\b(text|neu|so)\b", head, re.I):
            return [ReplaceText(ziel=_ziel(_refs(head)[0]), text=_unquote(body))]
    if _TAUSCH.search(text):
        nummern = [(int(m.group(1)), (m.group(2) or "").casefold() or None)
                   for m in re.finditer(r"(?<![\d/])(\d{1,2})\s*([a-h])?(?![a-zäöüß\d/])", text, re.I)]
        if len(nummern) >= 2:
            (n1, l1), (n2, l2) = nummern[0], nummern[1]
            if l1 is None and l2 is None and n1 != n2:
                a, b = sorted((n1, n2))
                ops: list[PatchOp] = [MoveTask(ziel=str(a), position=b)]
                return ops + ([MoveTask(ziel=str(b), position=a)] if b - a > 1 else [])
            if l1 and l2 and n1 == n2 and l1 != l2:
                a_l, b_l = sorted((l1, l2))
                pa, pb = ord(a_l) - ord("a") + 1, ord(b_l) - ord("a") + 1
                ops = [MoveSubtask(ziel=f"{n1}{a_l}", position=pb)]
                return ops + ([MoveSubtask(ziel=f"{n1}{b_l}", position=pa)] if pb - pa > 1 else [])
            raise EditUnclear("Tauschen kann ich zwei ganze Aufgaben („Tausch Aufgabe 2 und 3“) oder zwei "
                              "Teilaufgaben derselben Aufgabe („Tausch 2a und 2b“).")
    if not refs:
        return None
    ziel = _ziel(refs[0])
    if _ENTFERNEN.search(rest):
        return [RemoveSubtask(ziel=ziel) if refs[0][1] else RemoveTask(ziel=ziel)]
    punkte = _PUNKTE.search(rest)
    if punkte and _PUNKTE_CUE.search(rest):
        return [SetPoints(ziel=ziel, punkte=_zahl(punkte.group(1)))]
    afb = _AFB.search(rest)
    if afb and _AFB_CUE.search(rest[: afb.start()] + rest[afb.end():]):
        wert = {"1": "I", "2": "II", "3": "III", "4": "IV", "5": "V"}.get(afb.group(1), afb.group(1).upper())
        operator = _OPERATOR.search(rest)
        return [SetAfb(ziel=ziel, afb=wert, operator=(operator.group(1) or operator.group(2)) if operator else None)]
    operator = _OPERATOR.search(rest)
    if operator:
        return [SetOperator(ziel=ziel, operator=operator.group(1) or operator.group(2))]
    if _VERSCHIEBEN.search(rest):
        position = None
        if m := _STELLE.search(rest):
            position = int(m.group(1))
        elif _ANFANG.search(rest):
            position = 1
        elif _ENDE.search(rest):
            position = -1
        if position is not None:
            return [MoveSubtask(ziel=ziel, position=position) if refs[0][1] else MoveTask(ziel=ziel, position=position)]
    if re.search(r"\b(formulier\w*|umformulier\w*|verständlicher)\b", rest, re.I):
        raise EditUnclear(f"Wie soll {ziel} genau lauten? Schreiben Sie mir den neuen Wortlaut nach einem "
                          f"Doppelpunkt, z. B. „Formulier {ziel} so: …“.")
    return None


def parse_edit_request(text: str, material: Klausur | None = None) -> list[PatchOp] | RegenerateInstruction | None:
    """What a teacher's German chat message asks to change in the last material, or None if it is no edit.

    Patches: "Gib Aufgabe 1b 6 Punkte", "Aufgabe 2 bitte als AFB III", "Streich Aufgabe 4", "Tausch Aufgabe 2 und
    3", "Formulier 2a verständlicher: …", "Operator von 2a auf Erklären", "Erwartungshorizont 2a: … (2 P.); …".
    Regeneration: "Mach Aufgabe 3 leichter" (that task), "Mach die Klausur leichter", "Die Klausur soll nur 30
    Minuten dauern", "kürzer", "mehr Rechenaufgaben". Complaints without a change wish ("Aufgabe 3 ist zu schwer")
    are no edit (they are feedback). Raises EditUnclear when the wish is clear but a detail is missing. With
    `material`, task references are checked against it.
    """
    text = " ".join((text or "").split())
    if not text:
        return None
    refs = _refs(text)
    ops = _parse_patch(text, refs)
    if ops:
        _check_refs(refs, material)
        return ops
    rest = _ohne_refs(text)
    schwierigkeit = _SCHWIERIGKEIT.search(rest)
    if schwierigkeit and _AENDERN_CUE.search(rest):
        richtung = "schwerer" if schwierigkeit.group(1).casefold() in ("schwerer", "anspruchsvoller", "schwieriger",
                                                                        "fordernder") else "leichter"
        if refs:
            _check_refs(refs[:1], material)
            return RegenerateInstruction(anweisung=text, aufgabe=refs[0][0], teil=refs[0][1], richtung=richtung)
        return RegenerateInstruction(anweisung=text, richtung=richtung)
    dauer = _DAUER.search(rest)
    if dauer and _DAUER_CUE.search(rest) and not refs:
        return RegenerateInstruction(anweisung=text, dauer_minuten=int(dauer.group(1)))
    if re.search(r"\bdoppelstunde\b", rest, re.I) and _DAUER_CUE.search(rest):
        return RegenerateInstruction(anweisung=text, dauer_minuten=90)
    if (laenge := _LAENGE.search(rest)) and _AENDERN_CUE.search(rest) and not refs:
        return RegenerateInstruction(anweisung=text, laenge="kuerzer" if laenge.group(1).startswith("kürz") else
                                     "laenger")
    if rechnen := _RECHNEN.search(rest):
        return RegenerateInstruction(anweisung=text, rechnen="mehr" if rechnen.group(1).casefold() == "mehr" else
                                     "weniger")
    if _NEU.search(rest):
        aufgabe = refs[0] if refs else (None, None)
        return RegenerateInstruction(anweisung=text, aufgabe=aufgabe[0], teil=aufgabe[1])
    return None


# --- storing versions ----------------------------------------------------------------------------------------------


@dataclass
class EditOutcome:
    """A stored new version: what changed, what the check says, and the text the main agent presents."""

    material_id: uuid.UUID
    parent_id: uuid.UUID
    version: int
    titel: str
    changes: list[str]
    faults: list[str]
    files: list[str]
    text: str

    @property
    def message(self) -> str:
        lines = [f"Version {self.version} von „{self.titel}“ gespeichert (die vorige Fassung bleibt abrufbar)."]
        lines += [f"- {c}" for c in self.changes]
        lines += [f"- Prüfhinweis: {f}" for f in self.faults]
        return "\n".join(lines)


def _own_row(turn: TurnContext, material_id: uuid.UUID | str) -> GeneratedMaterial:
    from db.repos import materials as material_repo

    try:
        mid = material_id if isinstance(material_id, uuid.UUID) else uuid.UUID(str(material_id).strip())
    except ValueError:
        raise NotFoundError("Dieses Material gibt es nicht (ungültige ID). Bitte die ID aus [material:ID] "
                            "nehmen.") from None
    row = material_repo.get_material(db=turn.db, material_id=mid)
    if row is None or row.teacher_id != turn.teacher.id:
        raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
    return row


def _klausur_of(row: GeneratedMaterial) -> Klausur:
    if row.material_type != "klausur":
        raise PatchError("Gezielte Änderungen (Punkte, AFB, Operator, Aufgaben) gibt es nur für Klausuren. Dieses "
                         "Material lässt sich mit einer Anweisung neu erzeugen (z. B. „kürzer“ oder „5 Fragen“).")
    try:
        return Klausur.model_validate(row.content)
    except ValidationError as exc:
        raise PatchError("Diese Klausur ist in einem älteren Format gespeichert und lässt sich nicht mehr gezielt "
                         "bearbeiten. Bitte neu erzeugen lassen.") from exc


def _request_of(row: GeneratedMaterial, material: Klausur | DifferenziertesMaterial | H5PSet | None
                ) -> MaterialRequest:
    try:
        return MaterialRequest.model_validate(row.request or {})
    except ValidationError:
        if material is None:
            raise PatchError("Zu diesem Material ist kein Auftrag gespeichert; es lässt sich nicht neu erzeugen. "
                             "Bitte im Chat neu anfragen.") from None
        return MaterialRequest(fach=row.fach, thema=material.thema, material_type=row.material_type,
                               klassenstufe=material.klassenstufe, klasse=getattr(material, "klasse", None),
                               dauer_minuten=getattr(material, "dauer_minuten", None))


def _stored_target(row: GeneratedMaterial) -> dict[str, int] | None:
    ziel = (row.request or {}).get("afb_ziel_verwendet")
    if isinstance(ziel, dict) and set(ziel) <= set(AFB_STUFEN):
        try:
            return {k: int(v) for k, v in ziel.items()}
        except (TypeError, ValueError):
            return None
    return None


def _deps_for(turn: TurnContext, row: GeneratedMaterial, k: Klausur) -> SpecialistDeps:
    """The router's targets for this material: its stored AFB target, the subject's operators, the preferences."""
    from core.router import _prepare

    deps = _prepare(turn, _request_of(row, k))
    if (ziel := _stored_target(row)) is not None:
        deps.afb_ziel = ziel
        deps.afb_quelle = str((row.request or {}).get("afb_quelle") or deps.afb_quelle)
    return deps


def _summary(material: Klausur | DifferenziertesMaterial | H5PSet, *, material_id: uuid.UUID, version: int,
             afb_ziel: dict[str, int] | None, files: list[str], changes: list[str], faults: list[str],
             parent_version: int) -> str:
    from core.router import material_summary

    lines = material_summary(material, material_id=material_id, afb_ziel=afb_ziel, files=files).split("\n")
    lines[1] = f"Version {version} von „{material.titel}“ — " + lines[1].split(" — ", 1)[-1]
    extra = [f"Geändert: {c}" for c in changes]
    if isinstance(material, Klausur):
        lines = [line.replace("Notenschlüssel: berechnet", "Notenschlüssel: neu berechnet") for line in lines]
    tail = [f"Prüfhinweis: {f}" for f in faults]
    tail.append(f"Version {parent_version} bleibt unverändert unter „Meine Materialien“ abrufbar.")
    return "\n".join([*lines[:2], *extra, *lines[2:-1], *tail, lines[-1]])


def _refusal(faults: Sequence[str]) -> str:
    return ("Änderung nicht übernommen: Die Klausur war geprüft und in Ordnung, nach der Änderung meldet die "
            "Prüfung:\n- " + "\n- ".join(faults) + "\nEs wurde nichts gespeichert. Wenn Sie die Änderung trotzdem "
            "wollen, bestätigen Sie sie ausdrücklich (im Chat: „trotzdem übernehmen“; unter „Meine Materialien“: "
            "Häkchen „Auch übernehmen …“), oder gleichen Sie mit einer weiteren Änderung aus (z. B. Punkte oder AFB "
            "einer anderen Teilaufgabe).")


def _store_version(turn: TurnContext, row: GeneratedMaterial, old: Klausur, new: Klausur, changes: list[str], *,
                   force: bool, art: str) -> EditOutcome:
    """Validate `new` with the router's targets and store it as the next version of `row` with fresh files."""
    from agents.klausur import klausur_faults
    from core.exports.files import render
    from core.router import _fill_sources, grading_scheme
    from db.repos import materials as material_repo
    from db.repos import memory as memory_repo

    deps = _deps_for(turn, row, old)
    new = new.model_copy(update={"notenschema": grading_scheme(turn, new)})
    _fill_sources(turn, [q for t in new.teilaufgaben() for q in t.quellen])
    before = klausur_faults(deps, old)
    faults = klausur_faults(deps, new)
    if not before and faults and not force:
        raise PatchError(_refusal(faults))
    request = dict(row.request or {})
    request["bearbeitung"] = {"art": art, "von_version": row.version, "von_material": str(row.id),
                              "aenderungen": changes, "erzwungen": bool(force and faults and not before)}
    new_row = material_repo.add_material(
        db=turn.db, teacher_id=row.teacher_id, conversation_id=row.conversation_id, material_type="klausur",
        fach=row.fach, klassenstufe=new.klassenstufe, thema=new.thema[:200], titel=new.titel[:300],
        content=new.model_dump(mode="json"), request=request, validation=faults, model_name=row.model_name,
        version=row.version + 1, parent_id=row.id,
    )
    files = render(new, afb_ziel=deps.afb_ziel)
    for f in files:
        material_repo.add_file(db=turn.db, material_id=new_row.id, teacher_id=row.teacher_id, kind=f.kind,
                               filename=f.filename, mime=f.mime, data=f.data)
    memory_repo.add_session_log(db=turn.db, teacher_id=turn.teacher.id, conversation_id=turn.conversation_id,
                                summary=f"{new.titel} bearbeitet (Version {new_row.version}): "
                                        f"{'; '.join(changes)}"[:500])
    labels = [f.label for f in files]
    text = _summary(new, material_id=new_row.id, version=new_row.version, afb_ziel=deps.afb_ziel, files=labels,
                    changes=changes, faults=faults, parent_version=row.version)
    turn.outcomes.append({"kind": "material", "material_id": str(new_row.id), "titel": new.titel,
                          "material_type": "klausur", "files": [f.filename for f in files], "validation": faults,
                          "version": new_row.version, "parent_id": str(row.id)})
    turn.step(f"Bearbeitung: Version {new_row.version} von {new.titel} gespeichert ({len(changes)} Änderungen)")
    return EditOutcome(material_id=new_row.id, parent_id=row.id, version=new_row.version, titel=new.titel,
                       changes=changes, faults=faults, files=labels, text=text)


def patch_material(*, turn: TurnContext, material_id: uuid.UUID | str, operations: Sequence[PatchOp],
                   force: bool = False) -> EditOutcome:
    """Apply patch operations to a stored Klausur and store the result as a new version (parent_id = old).

    Validation uses the targets the router used (stored AFB target, the subject's operator list, preferences).
    A patch that makes a valid exam invalid is refused (PatchError listing the faults) unless `force`.
    Nothing is written when a PatchError is raised.
    """
    from db.repos import knowledge as knowledge_repo

    row = _own_row(turn, material_id)
    old = _klausur_of(row)
    operatoren = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=turn.db, fach=row.fach)}
    new, changes = apply_operations(old, operations, operatoren=operatoren)
    return _store_version(turn, row, old, new, changes, force=force, art="patch")


# --- regeneration --------------------------------------------------------------------------------------------------


def _shift_afb(ziel: dict[str, int], richtung: str) -> dict[str, int]:
    """'leichter': 10 points from III (else II) to I; 'schwerer': 10 points from I (else II) to III."""
    ziel = {a: int(ziel.get(a, 0)) for a in AFB_STUFEN}
    nach, quellen = ("I", ("III", "II")) if richtung == "leichter" else ("III", ("I", "II"))
    rest = 10
    for quelle in quellen:
        teil = min(rest, ziel[quelle])
        ziel[quelle] -= teil
        ziel[nach] += teil
        rest -= teil
    return ziel


def _used(k: Klausur) -> set[str]:
    """Task texts and cited good practices of the exam (a replacement must be neither)."""
    texte = {" ".join(t.text.split()).casefold() for t in k.teilaufgaben()}
    return texte | {q.ref for t in k.teilaufgaben() for q in t.quellen if q.art == "good_practice"}


def _stems(text: str) -> set[str]:
    """Content words cut to six letters: 'Parallelschaltung' and 'parallel' meet, 'Blitz' and 'Widerstand' do not."""
    from core.embeddings import words

    return {w[:6] for w in words(text) if len(w) >= 5}


def _themenfelder(turn: TurnContext, aufgabe: Aufgabe) -> set[str]:
    """The Themenfelder of the good practices this task was built from."""
    from db.repos import knowledge as knowledge_repo

    ids = []
    for t in aufgabe.teilaufgaben:
        for q in t.quellen:
            if q.art == "good_practice":
                try:
                    ids.append(uuid.UUID(q.ref))
                except ValueError:
                    continue
    rows = knowledge_repo.knowledge_by_ids(db=turn.db, identity=turn.identity, ids=ids)
    return {str(r.content.get("themenfeld")) for r in rows.values() if (r.content or {}).get("themenfeld")}


def _candidate(turn: TurnContext, k: Klausur, aufgabe: Aufgabe, teil: Teilaufgabe, afb: str, used: set[str],
               operatoren: Mapping[str, str], felder: set[str], want: Callable[[dict[str, Any]], bool] | None = None
               ) -> tuple[Teilaufgabe, str] | None:
    """The good practice at `afb` closest to this sub-task's topic that fits into its points, or None.

    On topic means: from the Themenfeld of the task's own good practices (when known) and sharing content words
    with the task's title or the sub-task; among those, the most shared words win, then the search rank."""
    from core.faecher import normalize_fach
    from core.retrieval import search

    try:
        hits = search(db=turn.db, identity=turn.identity, query=f"{aufgabe.titel} {k.thema} {teil.text}"[:900],
                      fach=normalize_fach(k.fach, required=False) or k.fach, agent_type="klausur", limit=40)
    except UserError:
        return None
    titel, thema = _stems(aufgabe.titel), _stems(f"{aufgabe.titel} {teil.text}")
    best: tuple[int, int, Teilaufgabe, str] | None = None
    for rank, hit in enumerate(hits):
        c = hit.content or {}
        text, operator = str(c.get("aufgabe") or "").strip(), str(c.get("operator") or "")
        kl = c.get("klassenstufe")
        if c.get("afb") != afb or not text or c.get("material") or str(hit.id) in used \
                or " ".join(text.split()).casefold() in used:
            continue
        if (isinstance(kl, int) and kl > k.klassenstufe + 1) or (felder and c.get("themenfeld") not in felder):
            continue
        overlap = len(thema & _stems(f"{hit.thema or ''} {hit.title} {text}"))
        if not overlap or (want is not None and not want(c)):
            continue
        overlap += 2 * len(titel & _stems(f"{hit.thema or ''} {hit.title}"))  # the task's topic weighs most
        name = canonical_operator(operator, operatoren)
        if name is None or not _operator_passt(name, afb, operatoren):
            continue
        try:
            kriterien = [(str(x.get("kriterium") or x.get("text") or "").strip(), int(x.get("punkte") or 0))
                         for x in c.get("erwartung") or []]
        except (AttributeError, TypeError, ValueError):
            continue
        if not kriterien or any(not t or p < 1 for t, p in kriterien) or len(kriterien) > teil.punkte:
            continue
        if best is not None and (overlap, -rank) <= (best[0], best[1]):
            continue
        punkte = scale_points([p for _, p in kriterien], teil.punkte)
        quellen = [Quelle(art="good_practice", ref=str(hit.id))] + [q for q in teil.quellen if q.art == "curriculum"]
        neu = Teilaufgabe(label=teil.label, operator=name, text=text, afb=afb, punkte=teil.punkte, quellen=quellen,
                          erwartung=[Kriterium(text=t, punkte=p) for (t, _), p in zip(kriterien, punkte, strict=True)])
        best = (overlap, -rank, neu, hit.title)
    return (best[2], best[3]) if best else None


def rework_task(turn: TurnContext, k: Klausur, plan: RegenerateInstruction, operatoren: Mapping[str, str]
                ) -> tuple[Klausur, list[str]]:
    """Make one task (or one sub-task) easier/harder, leaving the rest of the exam as it is.

    Each sub-task not yet at the lowest (highest) AFB is replaced by a good practice on the same topic one AFB
    lower (higher) — real, different content with its own Erwartungshorizont, points kept — or, when none fits,
    moved one AFB down (up) with a fitting operator and the leading verb rewritten.
    """
    work = _Arbeit(k, operatoren)
    ziel = f"{plan.aufgabe}{plan.teil or ''}"
    schritt = -1 if plan.richtung == "leichter" else 1
    used = _used(k)
    wort = "leichtere" if schritt < 0 else "anspruchsvollere"
    felder = _themenfelder(turn, work.task(str(plan.aufgabe)))
    for a, teil, ref in work.sub(ziel, ganze_aufgabe=True):
        rang = _RANG[teil.afb] + schritt
        if not 1 <= rang <= 3:
            continue
        afb = AFB_STUFEN[rang - 1]
        found = _candidate(turn, work.k, a, teil, afb, used, operatoren, felder)
        if found is None:
            work.change_afb(teil, ref, afb, note=" (keine passende bewährte Aufgabe gefunden)")
            continue
        neu, titel = found
        a.teilaufgaben[_Arbeit._index(a.teilaufgaben, teil)] = neu
        used |= {" ".join(neu.text.split()).casefold(), neu.quellen[0].ref}
        work.changes.append(f"{ref}: durch eine {wort} bewährte Aufgabe ersetzt (AFB {teil.afb} → {afb}, "
                            f"{teil.operator} → {neu.operator}, {format_punkte(neu.punkte)} wie bisher): "
                            f"„{_kurz(neu.text, 90)}“" + (f" – Vorlage: {_kurz(titel, 60)}" if titel else ""))
    if not work.changes:
        stufe = "I" if schritt < 0 else "III"
        raise PatchError(f"{'Aufgabe ' + ziel if not plan.teil else ziel} steht schon ganz auf AFB {stufe}. "
                         + ("Leichter geht mit weniger Punkten (z. B. „Gib "
                            f"{ziel if plan.teil else str(plan.aufgabe) + 'a'} 2 Punkte“) oder einer einfacheren "
                            "Formulierung („Formulier … so: …“)." if schritt < 0 else
                            "Anspruchsvoller geht mit einer zusätzlichen Teilaufgabe oder einer neuen Formulierung."))
    return work.result(), work.changes


def _ist_rechnung(operator: str, kriterien: Sequence[str]) -> bool:
    """A calculation task: a calculating operator, or at least two criteria with an equation and a number."""
    if " ".join(operator.split()).casefold() in _FAMILIEN[1]:
        return True
    return sum(1 for text in kriterien if "=" in text and re.search(r"\d", text)) >= 2


def swap_for_calculation(turn: TurnContext, k: Klausur, *, mehr: bool, operatoren: Mapping[str, str],
                         limit: int = 2) -> tuple[Klausur, list[str]]:
    """More (or fewer) calculation tasks: up to `limit` sub-tasks without (with) calculation are replaced by good
    practices with (without) calculation on the same topic, at the same AFB and points — so the AFB shares and the
    total stay as they were."""
    work = _Arbeit(k, operatoren)
    used = _used(k)
    wort = "Rechenaufgabe" if mehr else "Aufgabe ohne Rechnung"

    def want(c: dict[str, Any]) -> bool:
        kriterien = [str(x.get("kriterium") or x.get("text") or "") for x in c.get("erwartung") or []
                     if isinstance(x, dict)]
        return _ist_rechnung(str(c.get("operator") or ""), kriterien) == mehr

    for a in list(work.k.aufgaben):
        felder = _themenfelder(turn, a)
        for teil in list(a.teilaufgaben):
            if len(work.changes) >= limit or _ist_rechnung(teil.operator, [c.text for c in teil.erwartung]) == mehr:
                continue
            found = _candidate(turn, work.k, a, teil, teil.afb, used, operatoren, felder, want)
            if found is None:
                continue
            neu, titel = found
            a.teilaufgaben[_Arbeit._index(a.teilaufgaben, teil)] = neu
            used |= {" ".join(neu.text.split()).casefold(), neu.quellen[0].ref}
            work.changes.append(f"{a.nummer}{teil.kennung}: durch eine {wort} ersetzt (AFB {neu.afb}, "
                                f"{format_punkte(neu.punkte)} wie bisher): „{_kurz(neu.text, 90)}“"
                                + (f" – Vorlage: {_kurz(titel, 60)}" if titel else ""))
    if not work.changes:
        raise PatchError(f"Ich habe keine passende {wort} zu den Themen dieser Klausur gefunden – es wurde nichts "
                         f"gespeichert. Sie können eine Teilaufgabe gezielt ersetzen („Formulier 2a so: …“).")
    return work.result(), work.changes


def _plan_of(instruction: str | RegenerateInstruction) -> RegenerateInstruction:
    if isinstance(instruction, RegenerateInstruction):
        return instruction
    text = " ".join((instruction or "").split())
    if not text:
        raise PatchError("Die Anweisung ist leer. Bitte sagen, was anders werden soll, z. B. „kürzer“ oder "
                         "„Aufgabe 3 leichter“.")
    try:
        parsed = parse_edit_request(text)
    except EditUnclear:
        parsed = None
    return parsed if isinstance(parsed, RegenerateInstruction) else RegenerateInstruction(anweisung=text)


def _dauer(plan: RegenerateInstruction, dauer: int | None) -> int | None:
    if plan.dauer_minuten:
        return plan.dauer_minuten
    if plan.laenge and dauer:
        neu = dauer * 2 / 3 if plan.laenge == "kuerzer" else dauer * 4 / 3
        return max(15, int(round(neu / 5) * 5))
    return dauer


async def regenerate_from_previous(*, turn: TurnContext, material_id: uuid.UUID | str,
                                   instruction: str | RegenerateInstruction) -> EditOutcome:
    """Make a new version of a material from an instruction too large for patch operations.

    "Aufgabe 3 leichter/schwerer" reworks just that task from the knowledge base (see `rework_task`); anything else
    reruns the material's specialist through the router (_prepare + _run) with the previous material as JSON and the
    instruction, and with adjusted parameters the offline rules act on: 'leichter'/'schwerer' shift the AFB target
    by 10 points, a duration or 'kürzer'/'länger' changes the minutes, 'mehr/weniger Rechenaufgaben' sets the
    calculation share. The specialist never asks back here. Explicit instructions are stored even if the check
    then reports faults (they are listed).
    """
    from core.router import MAX_RUECKFRAGEN, _prepare, _run, auftrag_prompt
    from db.repos import knowledge as knowledge_repo
    from db.repos import materials as material_repo

    row = _own_row(turn, material_id)
    plan = _plan_of(instruction)
    if plan.aufgabe is not None and plan.richtung and row.material_type == "klausur":
        old = _klausur_of(row)
        operatoren = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=turn.db, fach=row.fach)}
        new, changes = rework_task(turn, old, plan, operatoren)
        return _store_version(turn, row, old, new, changes, force=True, art="regenerate")

    model = {"klausur": Klausur, "differenzierung": DifferenziertesMaterial, "h5p": H5PSet}.get(row.material_type)
    try:
        old_material = model.model_validate(row.content) if model else None
    except ValidationError:
        old_material = None
    base = _request_of(row, old_material)
    changes = [f"neu erzeugt mit der Anweisung „{_kurz(plan.anweisung, 120)}“"]
    if (row.request or {}).get("bearbeitung"):
        changes.append(f"bitte prüfen, ob Ihre Einzeländerungen aus Version {row.version} noch enthalten sind")
    update: dict[str, Any] = {"zusatz": f"{base.zusatz} Überarbeitung: {plan.anweisung}".strip()[:1000]}
    if row.material_type == "klausur":
        ziel = _stored_target(row) or dict(base.afb_ziel or {})
        if plan.richtung and ziel:
            neu_ziel = _shift_afb(ziel, plan.richtung)
            changes.append("AFB-Ziel " + "/".join(str(ziel.get(a, 0)) for a in AFB_STUFEN) + " → "
                           + "/".join(str(neu_ziel[a]) for a in AFB_STUFEN))
            ziel = neu_ziel
        if ziel and sum(ziel.values()) == 100:
            update["afb_ziel"] = ziel
        dauer = _dauer(plan, base.dauer_minuten)
        if dauer != base.dauer_minuten:
            changes.append(f"Dauer {base.dauer_minuten} → {dauer} Minuten")
            update["dauer_minuten"] = dauer
    request = base.model_copy(update=update)
    deps = _prepare(turn, request)
    deps.rueckfragen, deps.final = MAX_RUECKFRAGEN, True  # the instruction is the answer: no Rückfrage
    if plan.rechnen:
        deps.preferences["rechnung_theorie_ratio"] = "100:0" if plan.rechnen == "mehr" else "0:100"
        changes.append(f"{plan.rechnen} Rechenaufgaben")
    previous = row.content if not isinstance(old_material, Klausur) else old_material.model_dump(
        mode="json", exclude={"gesamtpunkte", "afb_punkte", "afb_anteile", "notenschluessel", "notenschema"})
    prompt = (f"{auftrag_prompt(request)}\n\nÜberarbeitung von Version {row.version} („{row.titel}“). "
              f"Änderungswunsch der Lehrkraft: „{plan.anweisung}“.\nSetze genau diesen Wunsch um und übernimm aus der "
              f"bisherigen Fassung alles, was er nicht betrifft.\nBisherige Fassung:\n```json\n"
              f"{json.dumps(previous, ensure_ascii=False)}\n```")
    n_outcomes = len(turn.outcomes)
    savepoint = turn.db.begin_nested()
    try:
        outcome = await _run(turn, deps, prompt=prompt, history=None, session_id=None)
    except BaseException:
        if savepoint.is_active:
            savepoint.rollback()
        raise
    new_row = material_repo.get_material(db=turn.db, material_id=outcome.material_id) if outcome.material_id else None
    if new_row is None or outcome.kind != "material":
        savepoint.rollback()
        del turn.outcomes[n_outcomes:]
        raise PatchError(outcome.text.removeprefix("FEHLER: ") if outcome.kind == "error" else
                         "Die Überarbeitung hat kein Material ergeben. Bitte die Anweisung anders fassen.")
    if _same_content(new_row.content, row.content):
        savepoint.rollback()
        del turn.outcomes[n_outcomes:]
        if plan.rechnen and row.material_type == "klausur":  # the rebuild could not act on it: swap tasks instead
            old = _klausur_of(row)
            operatoren = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=turn.db, fach=row.fach)}
            new, swapped = swap_for_calculation(turn, old, mehr=plan.rechnen == "mehr", operatoren=operatoren)
            return _store_version(turn, row, old, new, [f"{plan.rechnen} Rechenaufgaben", *swapped], force=True,
                                  art="regenerate")
        raise PatchError("Mit dieser Anweisung ergab die Neuerzeugung dieselbe Fassung – es wurde nichts gespeichert. "
                         "Für gezielte Änderungen sagen Sie z. B. „Gib 1b 6 Punkte“, „Streich Aufgabe 4“ oder "
                         "„Formulier 2a so: …“.")
    savepoint.commit()
    new_row.version, new_row.parent_id, new_row.conversation_id = row.version + 1, row.id, row.conversation_id
    new_row.request = {**(new_row.request or {}), "bearbeitung": {
        "art": "regenerate", "von_version": row.version, "von_material": str(row.id), "aenderungen": changes}}
    turn.db.flush()
    if turn.outcomes[n_outcomes:]:
        turn.outcomes[-1].update({"version": new_row.version, "parent_id": str(row.id)})
    material = model.model_validate(new_row.content) if model else None
    faults = [str(f) for f in new_row.validation or []]
    text = outcome.text if material is None else _summary(
        material, material_id=new_row.id, version=new_row.version, afb_ziel=deps.afb_ziel if model is Klausur else
        None, files=outcome.files, changes=changes, faults=faults, parent_version=row.version)
    return EditOutcome(material_id=new_row.id, parent_id=row.id, version=new_row.version, titel=new_row.titel,
                       changes=changes, faults=faults, files=outcome.files, text=text)


def _same_content(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def strip(c: dict[str, Any]) -> str:
        return json.dumps(c, sort_keys=True, ensure_ascii=False)
    return strip(a or {}) == strip(b or {})


# --- versions ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VersionEntry:
    id: uuid.UUID
    version: int
    titel: str
    datum: str
    aenderungen: list[str]
    faults: int
    files: list[StoredFile]


def material_versions(*, db: Session, teacher: Teacher, material_id: uuid.UUID) -> list[VersionEntry]:
    """This material and the versions it was made from (parent chain), newest first, with their files."""
    from core.materials_service import FILE_LABELS, StoredFile, local_time
    from db.repos import materials as material_repo

    out: list[VersionEntry] = []
    seen: set[uuid.UUID] = set()
    current: uuid.UUID | None = material_id
    while current is not None and current not in seen and len(out) < 100:
        seen.add(current)
        row = material_repo.get_material(db=db, material_id=current)
        if row is None or row.teacher_id != teacher.id:
            if not out:
                raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
            break
        stored = sorted(material_repo.files_of(db=db, material_id=row.id),
                        key=lambda f: (list(FILE_LABELS).index(f.kind) if f.kind in FILE_LABELS else 99, f.filename))
        files = [StoredFile(label=FILE_LABELS.get(f.kind, f.filename), filename=f.filename, mime=f.mime,
                            data=bytes(f.data)) for f in stored]
        bearbeitung = (row.request or {}).get("bearbeitung") or {}
        out.append(VersionEntry(id=row.id, version=row.version, titel=row.titel, datum=local_time(row.created_at),
                                aenderungen=[str(c) for c in bearbeitung.get("aenderungen") or []],
                                faults=len(row.validation or []), files=files))
        current = row.parent_id
    return out


# --- Meine Materialien: the Bearbeiten section (pages call these with a teacher id) --------------------------------

FORM_ACTIONS: dict[str, str] = {
    "punkte": "Punkte setzen", "afb": "AFB ändern (I, II, III)", "operator": "Operator ändern",
    "text": "Aufgabentext ersetzen", "entfernen": "Teilaufgabe entfernen", "vor": "Teilaufgabe nach vorn",
    "zurueck": "Teilaufgabe nach hinten", "aufgabe_streichen": "Ganze Aufgabe streichen",
    "aufgabe_vor": "Ganze Aufgabe nach vorn", "aufgabe_zurueck": "Ganze Aufgabe nach hinten",
}


@dataclass(frozen=True)
class EditView:
    version: int
    teile: dict[str, str]  # "2b" -> "2b) Berechnen · AFB I · 3 P."
    operatoren: list[str]
    frueher: list[VersionEntry]  # the versions this one was made from, newest first


def _turn(db: Session, teacher: Teacher, identity: Identity) -> TurnContext:
    from agents.deps import TurnContext

    return TurnContext(db=db, identity=identity, teacher=teacher)


def edit_view(*, teacher_id: uuid.UUID, material_id: uuid.UUID) -> EditView:
    """What the Bearbeiten section offers for one Klausur: its sub-tasks, the operators, earlier versions."""
    from core.app.acting import acting
    from db.repos import knowledge as knowledge_repo

    with acting(teacher_id) as (db, teacher, identity):
        row = _own_row(_turn(db, teacher, identity), material_id)
        k = _klausur_of(row)
        operatoren = [o["operator"] for o in knowledge_repo.operator_list(db=db, fach=row.fach)]
        versions = material_versions(db=db, teacher=teacher, material_id=row.id)
    teile = {f"{a.nummer}{t.kennung}": f"{a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · "
                                       f"{format_punkte(t.punkte)} · {_kurz(t.text, 50)}"
             for a in k.aufgaben for t in a.teilaufgaben}
    return EditView(version=versions[0].version, teile=teile, operatoren=operatoren, frueher=versions[1:])


def form_operations(aktion: str, ziel: str, wert: str, k: Klausur) -> list[PatchOp]:
    """The patch for one submit of the Bearbeiten form (ziel is a sub-task like '2b')."""
    adresse = _ADRESSE.match(ziel or "")
    if adresse is None:
        raise PatchError("Bitte eine Teilaufgabe aus der Liste wählen.")
    nummer, label = int(adresse.group(1)), (adresse.group(2) or "a").casefold()
    wert = (wert or "").strip()
    aufgabe = next((a for a in k.aufgaben if a.nummer == nummer), None)
    if aufgabe is None:
        raise PatchError(f"Aufgabe {nummer} gibt es nicht (mehr). Bitte die Seite neu laden.")
    if aktion == "punkte":
        if not re.fullmatch(r"-?\d{1,4}", wert):
            raise PatchError("Bitte die Punkte als ganze Zahl eintragen, z. B. 4.")
        return [SetPoints(ziel=ziel, punkte=int(wert))]
    if aktion in ("afb", "operator", "text") and not wert:
        raise PatchError("Bitte im Feld „Neuer Wert“ angeben, was gelten soll (AFB, Operator oder Text).")
    if aktion == "afb":
        return [SetAfb(ziel=ziel, afb=wert)]
    if aktion == "operator":
        return [SetOperator(ziel=ziel, operator=wert)]
    if aktion == "text":
        return [ReplaceText(ziel=ziel, text=wert)]
    if aktion == "entfernen":
        return [RemoveSubtask(ziel=ziel)]
    if aktion in ("vor", "zurueck"):
        labels = [t.kennung.casefold() for t in aufgabe.teilaufgaben]
        if label not in labels:
            raise PatchError(f"Teilaufgabe {ziel} gibt es nicht (mehr). Bitte die Seite neu laden.")
        i = labels.index(label) + (0 if aktion == "vor" else 2)
        if not 1 <= i <= len(labels):
            raise PatchError(f"{ziel} steht schon an {'erster' if aktion == 'vor' else 'letzter'} Stelle.")
        return [MoveSubtask(ziel=ziel, position=i)]
    if aktion == "aufgabe_streichen":
        return [RemoveTask(ziel=str(nummer))]
    if aktion in ("aufgabe_vor", "aufgabe_zurueck"):
        i = nummer + (-1 if aktion == "aufgabe_vor" else 1)
        if not 1 <= i <= len(k.aufgaben):
            raise PatchError(f"Aufgabe {nummer} steht schon an {'erster' if i < 1 else 'letzter'} Stelle.")
        return [MoveTask(ziel=str(nummer), position=i)]
    raise PatchError(f"Unbekannte Änderung „{aktion}“. Bitte eine aus der Liste wählen.")


def apply_form_edit(*, teacher_id: uuid.UUID, material_id: uuid.UUID, aktion: str, ziel: str, wert: str = "",
                    force: bool = False) -> EditOutcome:
    """One change from the Bearbeiten form, stored as a new version (refused with reasons if it breaks the check,
    unless `force`)."""
    from core.app.acting import acting

    with acting(teacher_id) as (db, teacher, identity):
        turn = _turn(db, teacher, identity)
        row = _own_row(turn, material_id)
        ops = form_operations(aktion, ziel, wert, _klausur_of(row))
        return patch_material(turn=turn, material_id=row.id, operations=ops, force=force)


def regenerate_my_material(*, teacher_id: uuid.UUID, material_id: uuid.UUID, instruction: str) -> EditOutcome:
    """"Neu erzeugen mit Anweisung" from the page: a new version made from the instruction."""
    from core.app.acting import acting
    from core.chat import _run as run_sync

    with acting(teacher_id) as (db, teacher, identity):
        turn = _turn(db, teacher, identity)
        return run_sync(regenerate_from_previous(turn=turn, material_id=material_id, instruction=instruction))
