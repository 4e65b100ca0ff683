"""Near-duplicate tasks within one material: the same demand twice, with a synonym operator, other words for the
same thing, or the same kind of calculation with other numbers.

Two tasks make the same demand when their operators ask for the same kind of work (operator classes: 'Nenne' ~
'Gib … an', 'Erkläre' ~ 'Begründe') and their demand words — what they are about, operators removed, German compounds
and verb forms meeting their stems — largely coincide. A calculation with other numbers is the same demand when it
asks for the same quantity with the same operations and units ('6 km in 20 Minuten' ~ '8 km in 30 Minuten'): in an
exam that is a repeat. Sub-tasks of one Aufgabe share their scenario and need more to count as a repeat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from core.checks.lexicon import DEMAND_SYNONYMS, OPERATOR_CLASSES, OPERATOR_WORDS, SEPARABLE
from core.checks.topics import term_matches
from core.checks.views import TaskView
from core.language.text import STOPWORDS, content_words, stem

_CALC = re.compile(r"\d+(?:[,.]\d+)?|[+\-−·*×/:=^²³]")
_ENUMERATION = re.compile(r"\(\d+\)|^\s*\d+[.)]\s|\b[a-e]\)")
_FRACTION = re.compile(r"\b\d+\s*/\s*\d+\b")
_UNIT = re.compile(r"(?<![\w])(km/h|m/s²?|g/mol|mol/l|g/cm³|kg/m³|kWh|%|€|°C|km|cm|mm|m²|m³|m|kg|g|mg|t|l|ml|h|min|s|"
                   r"Minuten|Stunden|Sekunden|Jahre|Tage|V|A|Ω|W|J|N|Pa|Hz|mol)(?![\w])")
_UNIT_NAMES = {"Minuten": "min", "Stunden": "h", "Sekunden": "s", "Jahre": "a", "Tage": "d"}
_VERB_SIGNS = {"addi": "+", "subtrahi": "−", "multiplizi": "·", "dividi": ":"}
SAME_DEMAND = 0.6
SAME_CLASS_OVERLAP = 0.65  # share of the shorter demand matched, operators of one class
SIBLING_DEMAND = 0.75
OTHER_NUMBERS_DEMAND = 0.85


@dataclass(frozen=True)
class Duplicate:
    first: str
    second: str
    similarity: float


def _norm(word: str) -> str:
    """Verb forms meet their stem ('rostet' ~ 'rosten'); applied to both sides, so nouns in -t still meet.
    Synonyms of task language meet ('Gründe' ~ 'Ursachen')."""
    s = stem(word[:-1]) if word.endswith("t") and len(word) > 5 else stem(word)
    return DEMAND_SYNONYMS.get(s, s)


@lru_cache(maxsize=8192)
def demand_words(text: str) -> tuple[str, ...]:
    """The demand words in text order (operators, stopwords and numbers removed)."""
    out: list[str] = []
    for w in content_words(text):
        if any(c.isdigit() for c in w) or stem(w) in OPERATOR_WORDS or w in OPERATOR_CLASSES:
            continue
        s = _norm(w)
        if s not in OPERATOR_WORDS and s not in STOPWORDS and len(s) > 1 and s not in out:
            out.append(s)
    return tuple(out)


def demand(text: str) -> frozenset[str]:
    return frozenset(demand_words(text))


@lru_cache(maxsize=8192)
def operator_classes(text: str) -> frozenset[str]:
    """The kinds of work a task asks for ('nennen', 'erklaeren', …), from its operators, separable ones included."""
    words = content_words(text)
    found = {OPERATOR_CLASSES[w] for w in words if w in OPERATOR_CLASSES}
    present = set(words)
    found |= {c for (verb, particle), c in SEPARABLE.items() if verb in present and particle in present}
    return frozenset(found)


@lru_cache(maxsize=8192)
def calculation(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The numbers (sorted) and arithmetic signs of a task; list enumerations like '(1)' removed."""
    tokens = [t.replace(".", ",") for t in _CALC.findall(_ENUMERATION.sub(" ", text or ""))]
    return tuple(sorted(t for t in tokens if t[0].isdigit())), frozenset(t for t in tokens if not t[0].isdigit())


@lru_cache(maxsize=8192)
def calculation_kind(text: str) -> tuple[frozenset[str], frozenset[str], bool]:
    """What kind of calculation a task carries, whatever its numbers: operations (signs and verbs like 'Addiere'),
    units, and whether it works with fractions."""
    text = _ENUMERATION.sub(" ", text or "")
    signs = {t for t in _CALC.findall(_UNIT.sub(" ", text)) if not t[0].isdigit() and t not in "=^"}
    signs |= {sign for w in content_words(text) for key, sign in _VERB_SIGNS.items() if stem(w).startswith(key)}
    signs = {"−" if s == "-" else "·" if s in "*×" else s for s in signs}
    units = frozenset(_UNIT_NAMES.get(u, u) for u in _UNIT.findall(text))
    return frozenset(signs), units, bool(_FRACTION.search(text))


@lru_cache(maxsize=8192)
def target(text: str) -> frozenset[str]:
    """What the task asks for: the first demand words of the sentence that carries the operator ('die Stromstärke')."""
    for sentence in reversed(re.split(r"(?<=[.!?])\s+", text.strip())):
        first = content_words(sentence)[:1]
        if first and (stem(first[0]) in OPERATOR_WORDS or first[0] in OPERATOR_CLASSES):
            return frozenset(demand_words(sentence)[:4])
    return demand(text)


def soft_jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    hits_a = sum(1 for x in a if any(term_matches(x, y) for y in b))
    hits_b = sum(1 for y in b if any(term_matches(y, x) for x in a))
    return (hits_a + hits_b) / (len(a) + len(b))


def _shared(a: frozenset[str], b: frozenset[str]) -> int:
    return min(sum(1 for x in a if any(term_matches(x, y) for y in b)),
               sum(1 for y in b if any(term_matches(y, x) for x in a)))


def _unshared(a: frozenset[str], b: frozenset[str]) -> int:
    return max(sum(1 for x in a if not any(term_matches(x, y) for y in b)),
               sum(1 for y in b if not any(term_matches(y, x) for x in a)))


def _same_class(a: str, b: str) -> bool:
    ca, cb = operator_classes(a), operator_classes(b)
    return bool(ca & cb) or (not ca and not cb)


def similar(a: TaskView, b: TaskView) -> float | None:
    """The similarity when a and b are near-duplicates, else None."""
    if a.text.strip().lower() == b.text.strip().lower():
        return 1.0
    da, db = demand(a.text), demand(b.text)
    sim = soft_jaccard(da, db)
    siblings = bool(a.gruppe) and a.gruppe == b.gruppe
    (na, oa), (nb, ob) = calculation(a.text), calculation(b.text)
    if len(na) >= 2 and len(nb) >= 2:
        ta, tb = target(a.text), target(b.text)
        if (na, oa) == (nb, ob):  # the same calculation: a repeat unless it asks for something else
            return round(max(sim, 0.5), 2) if not ta or not tb or soft_jaccard(ta, tb) > 0 else None
        if not siblings and _same_class(a.text, b.text) and calculation_kind(a.text) == calculation_kind(b.text) \
                and calculation_kind(a.text) != (frozenset(), frozenset(), False) and soft_jaccard(ta, tb) > 0:
            return round(max(sim, 0.5), 2)  # the same calculation with other numbers
        return round(sim, 2) if sim >= OTHER_NUMBERS_DEMAND and _unshared(da, db) <= 1 else None
    if siblings:
        return round(sim, 2) if sim >= SIBLING_DEMAND and _unshared(da, db) <= 1 else None
    if sim >= SAME_DEMAND and _unshared(da, db) <= 1:
        return round(sim, 2)
    shared = _shared(da, db)
    if _same_class(a.text, b.text) and shared >= 2 and shared >= SAME_CLASS_OVERLAP * min(len(da), len(db)):
        return round(sim, 2)
    return None


def duplicates(tasks: Sequence[TaskView]) -> list[Duplicate]:
    out = []
    for i, a in enumerate(tasks):
        for b in tasks[i + 1:]:
            sim = similar(a, b)
            if sim is not None:
                out.append(Duplicate(a.ref, b.ref, sim))
    return out
