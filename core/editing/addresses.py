"""Addresses in an exam ('2b' = Aufgabe 2, Teilaufgabe b; '2' = the whole Aufgabe 2) and a working copy that
resolves them against the numbering before the patch, also for later operations of the same patch."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.editing.errors import PatchError
from core.materials.klausur import Aufgabe, Klausur, Teilaufgabe

ADRESSE = re.compile(r"^\s*(?:(?:teil)?aufgabe\s*)?(\d{1,2})\s*(?:([a-z])\s*\)?)?\s*$", re.IGNORECASE)


@dataclass
class AddressedExam:
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

    def _parse(self, ziel: str) -> tuple[int, str | None]:
        m = ADRESSE.match(str(ziel or ""))
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
    def index_of(items: Sequence[Any], obj: Any) -> int:
        return next(i for i, x in enumerate(items) if x is obj)

    @staticmethod
    def position(position: int | None, length: int, what: str) -> int:
        """0-based index for a 1-based position (-1/None = end) in a list of `length` places."""
        if position is None or position == -1:
            return length - 1
        if not 1 <= position <= length:
            raise PatchError(f"Stelle {position} gibt es nicht: {what} hat {length} mögliche Stellen (1 bis {length}).")
        return position - 1



def address_label(ziel: str) -> str | None:
    m = ADRESSE.match(str(ziel or ""))
    return m.group(2) if m else None
