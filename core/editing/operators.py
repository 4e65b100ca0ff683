"""Operator choice for edits: the list's spelling of an operator, one that fits a new AFB (same family first),
and the task text's leading verb rewritten to the new operator ('Nenne …' -> 'Beurteile …')."""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.checks.operators import afb_passt, usual_levels
from core.language.imperativ import imperativ

FAMILIEN: tuple[frozenset[str], ...] = (
    frozenset({"nennen", "angeben", "benennen", "bezeichnen", "beschreiben", "darstellen", "skizzieren", "zeichnen",
               "wiedergeben", "zusammenfassen", "aufzählen", "definieren", "name", "state", "describe", "outline"}),
    frozenset({"berechnen", "bestimmen", "ermitteln", "herleiten", "lösen", "auswerten", "abschätzen", "calculate"}),
    frozenset({"erklären", "erläutern", "begründen", "vergleichen", "analysieren", "interpretieren", "deuten",
               "einordnen", "zuordnen", "explain", "compare", "analyse", "illustrate"}),
    frozenset({"beurteilen", "bewerten", "diskutieren", "erörtern", "stellung nehmen", "prüfen", "überprüfen",
               "entwickeln", "planen", "entwerfen", "gestalten", "evaluate", "assess", "discuss", "comment"}),
)
_STANDARD_FAMILIE = {"I": 0, "II": 2, "III": 3}


def _familie(operator: str) -> int | None:
    name = " ".join(operator.split()).casefold()
    return next((i for i, fam in enumerate(FAMILIEN) if name in fam), None)


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
        if usual_levels(wanted, {known: afb}):
            return known
    return None


def operator_fits(operator: str, afb: str, operatoren: Mapping[str, str]) -> bool:
    if not operatoren:
        return True
    levels = usual_levels(operator, operatoren)
    return bool(levels) and any(afb_passt(level, afb) for level in levels)


def fitting_operator(current: str, afb: str, operatoren: Mapping[str, str]) -> str:
    """The operator a sub-task gets at `afb`: the current one if it fits, else one of the same family (Berechnen ->
    Bestimmen), else the level's standard family (I: Nennen/Beschreiben, II: Erklären, III: Beurteilen)."""
    if operator_fits(current, afb, operatoren):
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


def swap_verb(text: str, old: str, new: str) -> str | None:
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
