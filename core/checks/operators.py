"""Operators and AFB: whether a sub-task's operator is known for the subject and fits the AFB it is given.

Matching is tolerant of form (imperatives, 'Berechnen Sie'), not of meaning; the faults are German and concrete.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.materials.blocks import AFB, AFB_STUFEN
from core.materials.klausur import Teilaufgabe

AFB_RANG: dict[str, int] = {"I": 1, "II": 2, "III": 3}


def _normalize_operator(name: str) -> str:
    text = " ".join(name.split()).casefold()
    return text.removesuffix(" sie").strip()


def _operator_base(name: str) -> str:
    return name.split("(", 1)[0].strip()


def _infinitives(word: str) -> set[str]:
    """The word and the infinitives a du-imperative may stand for: 'nenne' -> 'nennen', 'erläutere' -> 'erläutern',
    'ermittle' -> 'ermitteln'. Wrong guesses are harmless: they only count if the operator list has them."""
    forms = {word, word + "n", word[:-1] + "n"}
    if word.endswith("le"):
        forms.add(word[:-2] + "eln")
    return forms


def usual_levels(operator: str, operatoren: Mapping[str, AFB]) -> list[AFB] | None:
    """Usual AFB levels of an operator, or None if the subject does not know it.

    Matching is case-insensitive and tolerant of form, not of meaning: 'Berechnen Sie' and the du-imperative
    'Berechne' match 'Berechnen'; an operator list entry with a qualifier like 'Berechnen (Herleitung)' also
    matches plain 'Berechnen'. When several entries match, all their levels count (the most lenient wins).
    Separable verbs in imperative form ('Gib an') are not recognised; the fault then names the list's form.
    """
    wanted = _normalize_operator(operator)
    forms = _infinitives(wanted) | _infinitives(_operator_base(wanted))
    levels = [afb for name, afb in operatoren.items() if _normalize_operator(name) in forms]
    if not levels:
        levels = [afb for name, afb in operatoren.items() if _operator_base(_normalize_operator(name)) in forms]
    return levels or None


def afb_passt(usual: str, used: str) -> bool:
    """Whether an operator whose usual AFB is `usual` may be used at AFB `used`.

    The rule: the same level, or exactly one level higher (a task can lift an operator, e.g. 'Erklären' (II) with
    an unfamiliar context becomes III). Two levels up (I used as III) or any level down (III used as I or II) is a
    fault: the operator then promises a demand the task does not make, or the other way round.
    """
    return 0 <= AFB_RANG[used] - AFB_RANG[usual] <= 1


def operator_fault(ref: str, teil: Teilaufgabe, fach: str, operatoren: Mapping[str, AFB]) -> str | None:
    levels = usual_levels(teil.operator, operatoren)
    if levels is None:
        bekannte = ", ".join(sorted(operatoren, key=str.casefold))
        return (
            f"{ref}: Der Operator „{teil.operator.strip()}“ ist für {fach} nicht bekannt. "
            f"Verwende einen Operator aus der Liste in der Grundform: {bekannte}."
        )
    if any(afb_passt(level, teil.afb) for level in levels):
        return None
    usual = " bzw. ".join(afb for afb in AFB_STUFEN if afb in levels)
    passende = sorted((name for name, afb in operatoren.items() if afb == teil.afb), key=str.casefold)[:6]
    beispiel = f" (z. B. {', '.join(passende)})" if passende else ""
    return (
        f"{ref}: Der Operator „{teil.operator.strip()}“ gehört üblicherweise zu AFB {usual}, die Teilaufgabe ist "
        f"aber als AFB {teil.afb} eingestuft. Wähle einen Operator für AFB {teil.afb}{beispiel} "
        f"oder stufe die Teilaufgabe passend zum Operator ein."
    )

