"""Near-duplicate tasks within one material: the same demand twice, with a synonym operator or the same numbers.

Similarity is measured on demand words (operator words removed, so 'Beurteile' and 'Bewerte' frames meet; German
compounds and verb forms meet their stems) and on the calculation a task carries (its numbers and operators). Two
tasks with the same calculation need little shared wording; with different numbers they are two instances, not a
repeat, unless the wording is nearly identical. Sub-tasks of one Aufgabe may share their scenario.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.checks.lexicon import OPERATOR_WORDS
from core.checks.topics import term_matches
from core.checks.views import TaskView
from core.language.text import STOPWORDS, content_words, stem

_CALC = re.compile(r"\d+(?:[,.]\d+)?|[+\-−·*×/:=^²³]")
_ENUMERATION = re.compile(r"\(\d+\)|^\s*\d+[.)]\s|\b[a-e]\)")
SAME_DEMAND = 0.6
SIBLING_DEMAND = 0.75
OTHER_NUMBERS_DEMAND = 0.85


@dataclass(frozen=True)
class Duplicate:
    first: str
    second: str
    similarity: float


def _norm(word: str) -> str:
    """Verb forms meet their stem ('rostet' ~ 'rosten'); applied to both sides, so nouns in -t still meet."""
    return stem(word[:-1]) if word.endswith("t") and len(word) > 5 else stem(word)


def demand(text: str) -> frozenset[str]:
    return frozenset(s for w in content_words(text) if not any(c.isdigit() for c in w)
                     and (s := _norm(w)) not in OPERATOR_WORDS and stem(w) not in OPERATOR_WORDS
                     and s not in STOPWORDS and len(s) > 1)


def calculation(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The numbers (sorted) and arithmetic signs of a task; list enumerations like '(1)' removed."""
    tokens = [t.replace(".", ",") for t in _CALC.findall(_ENUMERATION.sub(" ", text or ""))]
    return tuple(sorted(t for t in tokens if t[0].isdigit())), frozenset(t for t in tokens if not t[0].isdigit())


def target(text: str) -> frozenset[str]:
    """What the task asks for: the demand words of the sentence that carries the operator ('die Stromstärke')."""
    for sentence in reversed(re.split(r"(?<=[.!?])\s+", text.strip())):
        first = content_words(sentence)[:1]
        if first and stem(first[0]) in OPERATOR_WORDS:
            return frozenset(list(demand(sentence))[:4])
    return demand(text)


def soft_jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    hits_a = sum(1 for x in a if any(term_matches(x, y) for y in b))
    hits_b = sum(1 for y in b if any(term_matches(y, x) for x in a))
    return (hits_a + hits_b) / (len(a) + len(b))


def _unshared(a: frozenset[str], b: frozenset[str]) -> int:
    return max(sum(1 for x in a if not any(term_matches(x, y) for y in b)),
               sum(1 for y in b if not any(term_matches(y, x) for x in a)))


def similar(a: TaskView, b: TaskView) -> float | None:
    """The similarity when a and b are near-duplicates, else None."""
    if a.text.strip().lower() == b.text.strip().lower():
        return 1.0
    da, db = demand(a.text), demand(b.text)
    sim = soft_jaccard(da, db)
    (na, oa), (nb, ob) = calculation(a.text), calculation(b.text)
    if len(na) >= 2 and len(nb) >= 2:
        if (na, oa) == (nb, ob):  # the same calculation: a repeat unless it asks for something else
            ta, tb = target(a.text), target(b.text)
            return round(max(sim, 0.5), 2) if not ta or not tb or soft_jaccard(ta, tb) > 0 else None
        return round(sim, 2) if sim >= OTHER_NUMBERS_DEMAND and _unshared(da, db) <= 1 else None
    siblings = bool(a.gruppe) and a.gruppe == b.gruppe
    limit = SIBLING_DEMAND if siblings else SAME_DEMAND
    return round(sim, 2) if sim >= limit and _unshared(da, db) <= 1 else None


def duplicates(tasks: Sequence[TaskView]) -> list[Duplicate]:
    out = []
    for i, a in enumerate(tasks):
        for b in tasks[i + 1:]:
            sim = similar(a, b)
            if sim is not None:
                out.append(Duplicate(a.ref, b.ref, sim))
    return out
