"""What an answer shows beyond words: values with units, coordinates, symbolic formulas, normalized math —
read per sentence, and compared with the criterion's values within tolerance."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.assessment.terms import STOP, WORD, stem_light
from core.checks.arithmetic.lexer import tokenize
from core.checks.arithmetic.quantities import Quantity, quantities
from core.language.text import fold_composed

_SENTENCE = re.compile(r"(?:[^\n.!?;]|\.(?=\d))+(?:[.!?;]+|\n|$)")  # '0.25 A' does not end a sentence


def _is_symbol(text: str) -> bool:
    return ((len(text) <= 2 and fold_composed(text) not in STOP) or any(c in text for c in "₀₁₂₃₄₅₆₇₈₉_")
            or text.startswith("Δ"))


def formulas_as_written(text: str) -> list[tuple[frozenset[str], str]]:
    toks = tokenize(text)
    found: list[tuple[frozenset[str], str]] = []
    for r, t in enumerate(toks):
        if t.kind != "rel" or r == 0 or toks[r - 1].kind != "word" or not _is_symbol(toks[r - 1].text):
            continue
        symbols = {toks[r - 1].text.casefold()}
        numeric = False
        prev_kind, end = "op", t.end
        for u in toks[r + 1:]:
            if u.kind == "word" and _is_symbol(u.text) and prev_kind in ("op", "lp"):
                symbols.add(u.text.casefold())
            elif u.kind in ("num", "frac"):
                numeric = True
                break
            elif u.kind not in ("op", "lp", "rp", "sup", "pi", "sqrt", "vulgar") or (u.kind == "op" and u.text == ":"):
                break
            prev_kind, end = u.kind, u.end
        if not numeric and len(symbols) >= 2:
            found.append((frozenset(symbols), text[toks[r - 1].start: end].strip()))
    return found


def formulas(text: str) -> list[frozenset[str]]:
    """Symbolic formulas of a text as sets of their symbols: 'R = U / I' -> {r, u, i} (so 'U = R · I' matches)."""
    return [f for f, _ in formulas_as_written(text)]


_VALUE_NAME = re.compile(r"([A-Za-zΑ-Ωα-ωΔ][A-Za-z₀-₉\d_'′]*(?:\([^()=]{1,12}\))?)\s*[=≈]\s*$")
TUPLE = re.compile(r"\(\s*([−-]?\d+(?:,\d+)?(?:\s*[|;]\s*[−-]?\d+(?:,\d+)?)+)\s*\)")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


@dataclass(frozen=True)
class NamedValue:
    """A value with the symbol it is assigned to, if any: 'x₁ = 1' -> ('x1', 1)."""

    quantity: Quantity
    name: str | None

    @property
    def weak(self) -> bool:
        """Small whole numbers without a unit ('1', '2') turn up everywhere: alone they are weak evidence."""
        v = self.quantity.value
        return not v.united and float(v.raw).is_integer() and abs(v.raw) <= 12


def named_values(text: str) -> list[NamedValue]:
    inside = [(m.start(), m.end()) for m in TUPLE.finditer(text)]
    out = []
    for q in quantities(text):
        if any(a <= q.start < b for a, b in inside):
            continue  # coordinates are compared as a whole
        m = _VALUE_NAME.search(text[: q.start])
        out.append(NamedValue(q, m.group(1).translate(_SUBSCRIPTS).casefold() if m else None))
    return out


def tuples_of(text: str) -> list[tuple[float, ...]]:
    return [tuple(float(x.strip().replace("−", "-").replace(",", ".")) for x in re.split(r"[|;]", m.group(1)))
            for m in TUPLE.finditer(text)]


@dataclass
class Sentence:
    text: str
    stems: set[str]
    values: list[NamedValue]
    tuples: list[tuple[float, ...]]
    formulas: list[frozenset[str]]
    math: str  # the sentence in the normalized form of `_expressions`


def _decimal_points(text: str) -> str:
    """Pupils often type '0.25 A': read a point between digits as a decimal comma — except thousands ('1.000')."""
    return re.sub(r"(?<![\d.])(\d+)\.(\d{1,2}|\d{4,})(?![\d.])", r"\1,\2", text)


def answer_sentences(answer: str) -> list[Sentence]:
    out = []
    for m in _SENTENCE.finditer(answer):
        raw = m.group().strip()
        if not raw:
            continue
        readable = _decimal_points(raw)
        out.append(Sentence(raw, {stem_light(w) for w in WORD.findall(fold_composed(readable)) if len(w) >= 3},
                             named_values(readable), tuples_of(readable), formulas(readable), norm_math(readable)))
    return out


def value_score(wanted: NamedValue, got: NamedValue) -> float:
    """1.0 for the same value (and dimension), 0.5 for the right number without the unit the criterion has, or for
    a small whole number that is not assigned to the same symbol."""
    w, g = wanted.quantity.value, got.quantity.value
    if w.united and g.united:
        if w.dims != g.dims:
            return 0.0
        # the criterion's stated precision, or 2 %: pupils round differently, but '9 A' is not '8,7 A'
        tol = max(0.02 * abs(w.si), (w.half_digit or 0) * (w.unit_scale if w.ops == 0 else 1))
        return 1.0 if abs(w.si - g.si) <= max(tol, 1e-12) else 0.0
    tol = max(0.02 * abs(w.raw), w.half_digit or 0)
    if abs(w.raw - g.raw) > max(tol, 1e-12):
        return 0.0
    score = 0.5 if w.united and not g.united else 1.0
    if wanted.weak and not (wanted.name and wanted.name == got.name):
        score = min(score, 0.5)
    return score


def tuple_score(wanted: tuple[float, ...], got: tuple[float, ...]) -> float:
    if len(wanted) != len(got):
        return 0.0
    return 1.0 if all(abs(a - b) <= max(0.02 * abs(a), 0.05) for a, b in zip(wanted, got, strict=True)) else 0.0


_MATH_NORM = str.maketrans({"−": "-", "–": "-", "·": "*", "×": "*", "⋅": "*", "′": "'", "≈": "="})


def norm_math(text: str) -> str:
    return re.sub(r"\s+", "", text.translate(_MATH_NORM)).replace("^2", "²").replace("^3", "³").rstrip(".")


def has_unit(text: str) -> bool:
    """Physics-style calculations ('R = 24 Ω') are matched by their values, not as written."""
    return any(q.value.united for q in quantities(text))
