"""A criterion as components (values, coordinates, formulas, expressions, key terms; examples and
parentheses optional), each scored against the answer's sentences."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.assessment.terms import key_terms, term_score
from core.assessment.values import (
    TUPLE,
    NamedValue,
    Sentence,
    formulas,
    formulas_as_written,
    has_unit,
    named_values,
    norm_math,
    tuple_score,
    tuples_of,
    value_score,
)

_OPTIONAL = re.compile(r"\([^()]*\)|\bz\.\s?B\..*$|\bzum Beispiel\b.*$|\boder\b[^.;]*$", re.I)


@dataclass
class Component:
    label: str
    weight: float
    optional: bool
    quantity: NamedValue | None = None
    formula: frozenset[str] | None = None
    coordinates: tuple[float, ...] | None = None
    expression: str | None = None  # normalized, e.g. "f'(x)=12x²-2"
    score: float = 0.0
    sentence: int | None = None


_RUN_BREAK = re.compile(r"[,;:](?=\s)|\.(?=\s|$)|(?<!\S)(?!(?:sin|cos|tan|log|lg|ln)\b)[A-Za-zÄÖÜäöüß]{3,}(?!\S)")


def _expressions(text: str) -> list[tuple[int, int, str]]:
    """Symbolic math of a text ('f'(x) = 12x² − 2', 'x = 14'): spans and normalized form, split at words and
    punctuation. Matched as written (after normalizing spaces, signs and powers), since rules cannot do algebra."""
    out = []
    pos = 0
    for m in [*_RUN_BREAK.finditer(text), None]:
        end = m.start() if m else len(text)
        run = text[pos:end]
        stripped = run.strip()
        if stripped and re.search(r"[=≈]", stripped) and re.search(r"[A-Za-zα-ωΔ]", stripped) \
                and re.search(r"\d", stripped) and len(norm_math(stripped)) >= 3 and not has_unit(stripped):
            start = pos + run.index(stripped)
            out.append((start, start + len(stripped), norm_math(stripped)))
        pos = m.end() if m else len(text)
    return out


def criterion_components(kriterium: str) -> list[Component]:
    """What a criterion asks for: its values, formulas and key terms. Parenthesised parts and examples ('z. B. …',
    '… oder …') are optional: they count when found, but are not required."""
    core = _OPTIONAL.sub(" ", kriterium)
    required_values = [n.quantity.value.si for n in named_values(core)]
    expressions = _expressions(kriterium)
    core_norm = norm_math(core)
    numbers = named_values(kriterium)
    comps: list[Component] = [Component(kriterium[a:b], 3.0, e not in core_norm, expression=e)
                               for a, b, e in expressions]
    for n, named in enumerate(numbers):
        q = named.quantity
        optional = all(abs(v - q.value.si) > 1e-12 * max(1.0, abs(v)) for v in required_values)
        comps.append(Component(kriterium[q.start:q.end], 3.0 if n == len(numbers) - 1 else 2.0, optional,
                                quantity=named))
    core_tuples = set(tuples_of(core))
    for m, coords in zip(TUPLE.finditer(kriterium), tuples_of(kriterium), strict=True):
        comps.append(Component(m.group(), 3.0, coords not in core_tuples, coordinates=coords))
    core_formulas = set(formulas(core))
    for f, shown in dict(formulas_as_written(kriterium)).items():
        comps.append(Component(f"Formel {shown}", 2.0, f not in core_formulas, formula=f))
    symbols = {s for c in comps if c.formula for s in c.formula}
    core_terms = set(key_terms(core))
    for term in key_terms(kriterium):
        if term not in symbols:
            comps.append(Component(term, 1.0, term not in core_terms))
    if comps and all(c.optional for c in comps):  # 'Begründetes Urteil, z. B. mit …': the example is the content
        for c in comps:
            c.optional = False
    return comps


def _scores(comp: Component, sentences: list[Sentence]) -> list[float]:
    out = []
    for s in sentences:
        if comp.quantity is not None:
            out.append(max((value_score(comp.quantity, q) for q in s.values), default=0.0))
        elif comp.coordinates is not None:
            out.append(max((tuple_score(comp.coordinates, t) for t in s.tuples), default=0.0))
        elif comp.expression is not None:
            out.append(1.0 if comp.expression in s.math else 0.0)
        elif comp.formula is not None:  # the same symbols, in any arrangement: 'U = R · I' shows 'R = U / I'
            out.append(1.0 if any(comp.formula <= f for f in s.formulas) else 0.0)
        else:
            out.append(term_score(comp.label, s.stems))
    return out


def score_all(comps: list[Component], sentences: list[Sentence]) -> None:
    """Best score per component; ties go to the sentence that shows most of the criterion (the evidence)."""
    table = [_scores(c, sentences) for c in comps]
    totals = [sum(c.weight * row[i] for c, row in zip(comps, table, strict=True)) for i in range(len(sentences))]
    for comp, row in zip(comps, table, strict=True):
        if not row or max(row) == 0:
            continue
        comp.score = max(row)
        comp.sentence = max((i for i, v in enumerate(row) if v == comp.score), key=lambda i: (totals[i], -i))
