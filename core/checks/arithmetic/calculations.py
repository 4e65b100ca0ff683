"""Recomputing the calculations of an Erwartungshorizont: each relation is checked, in German words.

Conservative by design: only chains the parser understands completely are checked; the rest is skipped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from core.checks.arithmetic.relations import OpenStep, Relation, Side, analyse
from core.checks.arithmetic.units import SUPERSCRIPT_DIGITS, dims_name
from core.checks.arithmetic.values import Value

RELATIVE_TOLERANCE = 0.01



@dataclass(frozen=True)
class CalcIssue:
    """A calculation that does not check out, in words for teacher and model."""

    kind: Literal["arithmetic", "units"]
    message: str
    text: str  # the criterion text it was found in


@dataclass
class CalcReport:
    checked: int = 0
    issues: list[CalcIssue] = field(default_factory=list)


def _zahl(v: float) -> str:
    """German formatting with four significant digits: 0.1 -> '0,1', 4.9725e-19 -> '4,973 · 10⁻¹⁹'."""
    if v == 0:
        return "0"
    exp = math.floor(math.log10(abs(v)))
    if exp >= 6 or exp <= -4:
        mant = round(v / 10 ** exp, 3)
        return f"{_zahl(mant)} · 10{str(exp).translate(SUPERSCRIPT_DIGITS)}"
    digits = max(0, 3 - exp)
    text = f"{round(v, digits):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",")


def _tolerance(a: float, left: Value, right: Value, scale_l: float, scale_r: float) -> float:
    tol = RELATIVE_TOLERANCE * abs(a)
    for v, scale in ((left, scale_l), (right, scale_r)):
        if v.ops == 0 and v.half_digit is not None:
            tol = max(tol, v.half_digit * scale * 1.0001)
    return tol if tol > 0 else 1e-12  # an exact zero on both sides


def _check(rel: Relation, text: str, snippet: str | None = None) -> CalcIssue | None:
    left, right = rel.left.value, rel.right.value
    snippet = snippet or text[rel.left.start: rel.right.end].strip()
    shown_left = text[rel.left.start: rel.left.end].strip()
    shown_right = text[rel.right.start: rel.right.end].strip()
    if left.united and right.united and not (left.uncertain or right.uncertain):
        if left.temps and right.temps and left.temps != right.temps and "−" not in snippet:
            return None  # '20 °C = 293 K' is a conversion with an offset, not a product
        if left.dims != right.dims:
            return CalcIssue("units", f"Die Einheit passt nicht: „{shown_left}“ ergibt eine Größe in "
                                      f"{dims_name(left.dims)}, angegeben ist „{shown_right}“ "
                                      f"({dims_name(right.dims)}). Rechnung: „{snippet}“.", text)
        scale_l = left.si / left.raw if left.raw else 1.0
        scale_r = right.si / right.raw if right.raw else 1.0
        if abs(left.si - right.si) <= _tolerance(left.si, left, right, scale_l, scale_r):
            return None
        expected = left.si / right.unit_scale if right.ops == 0 and right.unit_text else left.si
        unit = right.unit_text.replace("^2", "²").replace("^3", "³") if right.ops == 0 and right.unit_text \
            else dims_name(left.dims)
        return CalcIssue("arithmetic", f"„{shown_left}“ ergibt {_zahl(expected)} {unit}, angegeben ist "
                                       f"„{shown_right}“. Rechnung: „{snippet}“.", text)
    # At least one side without units ('m(5) = 400 · 0,8⁵ ≈ 131 mg'): numbers as written, SI as a second chance.
    if abs(left.raw - right.raw) <= _tolerance(left.raw, left, right, 1.0, 1.0):
        return None
    if (left.united or right.united) and abs(left.si - right.si) <= _tolerance(left.si, left, right, 1.0, 1.0):
        return None
    return CalcIssue("arithmetic", f"„{shown_left}“ ergibt {_zahl(left.raw)}, angegeben ist „{shown_right}“. "
                                   f"Rechnung: „{snippet}“.", text)


def _joined(first: str, step: OpenStep, second: str, result: Side) -> tuple[Relation, str]:
    """A step left open in one criterion and its result in the next, glued: 'R = 6,0 V / 0,25 A = 24 Ω'."""
    head = first[step.side.start: step.side.end]
    tail = second[result.start: result.end]
    text = f"{step.name} = {head} = {tail}"
    offset = len(step.name) + 3
    left = Side(step.side.value, offset, offset + len(head))
    right = Side(result.value, offset + len(head) + 3, len(text))
    return Relation(left, right, "="), text


def check_calculations(texts: Iterable[str]) -> CalcReport:
    """Recompute every calculation in a sequence of texts (e.g. the criteria of one sub-task, in order).

    A step left open in one text ('R = 6,0 V / 0,25 A.') is checked against the next text when that one starts by
    stating the same quantity ('Ergebnis R = 24 Ω mit Einheit.').
    """
    report = CalcReport()
    pending: tuple[OpenStep, str] | None = None
    for text in texts:
        analysis = analyse(text)
        if pending is not None and analysis.first_named is not None and analysis.first_named[0] == pending[0].name:
            rel, glued = _joined(pending[1], pending[0], text, analysis.first_named[1])
            report.checked += 1
            issue = _check(rel, glued, snippet=glued)
            if issue is not None:
                report.issues.append(replace(issue, text=f"{pending[1]} | {text}"))
        for rel in analysis.relations:
            report.checked += 1
            issue = _check(rel, text)
            if issue is not None:
                report.issues.append(issue)
        pending = (analysis.open_step, text) if analysis.open_step is not None else None
    return report
