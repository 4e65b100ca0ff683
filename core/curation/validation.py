"""Validation of a curator's edit: every fault in German, saying what to fix (empty fields, operator not on
the subject's list or not fitting the AFB, points, Erwartungshorizont sums, lengths)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from core.checks.operators import afb_passt
from core.curation.views import AFB_STUFEN, EntryEdit
from core.materials.faecher import fach_name

MAX_PUNKTE = 30
LIMITS: dict[str, tuple[str, int]] = {  # field -> (German label, max characters)
    "thema": ("Das Thema", 200), "description": ("Die Kurzbeschreibung", 500), "aufgabe": ("Der Aufgabentext", 3000),
    "kontext": ("Der Kontext", 1000), "material": ("Das Material", 6000), "themenfeld": ("Das Themenfeld", 200),
}
MAX_KRITERIUM = 500


def _number(value: Any) -> int | None:
    """A whole number from a widget value (int, float, numeric text); None for empty/NaN/fractions."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if math.isnan(number) or not number.is_integer():
        return None
    return int(number)


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", ".")


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)


def _text(value: Any) -> str:
    """A form value as text; nothing printable (whitespace, zero-width characters) counts as empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = str(value).strip()
    return text if text.translate(_INVISIBLE).strip() else ""


def validate_edit(edit: EntryEdit, *, fach: str, operators: Mapping[str, str]) -> tuple[EntryEdit, list[str]]:
    """The cleaned edit and every fault, in German, saying what to fix. No faults: the edit may be saved."""
    faults: list[str] = []
    clean = EntryEdit(thema=_text(edit.thema), description=_text(edit.description), kontext=_text(edit.kontext))
    if not clean.thema:
        faults.append("Das Thema ist leer – bitte ein Thema eintragen.")
    if edit.is_task:
        clean = replace(clean, aufgabe=_text(edit.aufgabe), material=_text(edit.material),
                        themenfeld=_text(edit.themenfeld))
        faults += _task_faults(edit, clean, fach=fach, operators=operators)
    for name, (label, limit) in LIMITS.items():
        value = getattr(clean, name)
        if isinstance(value, str) and len(value) > limit:
            faults.append(f"{label} ist zu lang ({_thousands(len(value))} Zeichen, höchstens {_thousands(limit)}). "
                          f"Bitte kürzen.")
    return clean, faults


def _task_faults(edit: EntryEdit, clean: EntryEdit, *, fach: str, operators: Mapping[str, str]) -> list[str]:
    faults: list[str] = []
    if not clean.aufgabe:
        faults.append("Der Aufgabentext ist leer – bitte die Aufgabenstellung eintragen.")
    operator = _text(edit.operator)
    known = {name.casefold(): name for name in operators}
    if not operator:
        faults.append("Der Operator fehlt – bitte einen Operator aus der Operatorenliste wählen.")
    elif operators and operator.casefold() not in known:
        liste = ", ".join(sorted(operators, key=str.casefold))
        faults.append(f"Der Operator „{operator}“ steht nicht in der Operatorenliste für {fach_name(fach)}. "
                      f"Bitte einen dieser Operatoren wählen: {liste}.")
    else:
        operator = known.get(operator.casefold(), operator)
    afb = _text(edit.afb)
    if afb not in AFB_STUFEN:
        faults.append("Bitte einen Anforderungsbereich wählen: AFB I, II oder III.")
    elif operator in operators and not afb_passt(operators[operator], afb):
        passende = sorted((n for n, a in operators.items() if a == afb), key=str.casefold)[:5]
        faults.append(f"Der Operator „{operator}“ gehört üblicherweise zu AFB {operators[operator]} und passt nicht "
                      f"zu AFB {afb}. Bitte einen Operator für AFB {afb} wählen (z. B. {', '.join(passende)}) oder "
                      f"den AFB passend zum Operator einstufen.")
    punkte = _number(edit.punkte)
    if punkte is None or not 1 <= punkte <= MAX_PUNKTE:
        faults.append(f"Die Punktzahl muss eine ganze Zahl von 1 bis {MAX_PUNKTE} sein (eingetragen: "
                      f"{_text(edit.punkte) or 'nichts'}).")
    klassenstufe = _number(edit.klassenstufe)
    if edit.klassenstufe not in (None, "") and (klassenstufe is None or not 5 <= klassenstufe <= 13):
        faults.append("Die Klassenstufe muss zwischen 5 und 13 liegen.")
    kriterien, kf = _criteria(edit.erwartung)
    faults += kf
    summe = sum(k["punkte"] for k in kriterien)
    if kriterien and not kf and punkte is not None and summe != punkte:
        faults.append(f"Die Kriterien des Erwartungshorizonts ergeben {summe} Punkte, die Aufgabe hat {punkte}. "
                      f"Bitte die Punkte der Kriterien oder die Punktzahl der Aufgabe anpassen.")
    clean.operator, clean.afb, clean.punkte, clean.erwartung = operator, afb, punkte, kriterien
    clean.klassenstufe = klassenstufe
    return faults


def _criteria(rows: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    faults, out = [], []
    rows = [r for r in rows if _text(r.get("kriterium")) or _text(r.get("punkte"))]  # skip rows left empty
    if not rows:
        return [], ["Der Erwartungshorizont braucht mindestens ein Kriterium mit Punkten."]
    for i, r in enumerate(rows, start=1):
        text, punkte = _text(r.get("kriterium")), _number(r.get("punkte"))
        if not text:
            faults.append(f"Kriterium {i}: Der Text fehlt – bitte beschreiben, was erwartet wird.")
        elif len(text) > MAX_KRITERIUM:
            faults.append(f"Kriterium {i}: Der Text ist zu lang ({len(text)} Zeichen, höchstens {MAX_KRITERIUM}).")
        if punkte is None or punkte < 1:
            faults.append(f"Kriterium {i}: Die Punkte müssen eine ganze Zahl ab 1 sein (eingetragen: "
                          f"{_text(r.get('punkte')) or 'nichts'}).")
        out.append({"kriterium": text, "punkte": punkte or 0})
    return out, faults
