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

from core.checks.lexicon import (
    DEMAND_FILLERS,
    DEMAND_SYNONYMS,
    OPERATOR_CLASSES,
    OPERATOR_WORDS,
    QUESTION_CLASSES,
    SEPARABLE,
)
from core.checks.topics import term_matches
from core.checks.views import TaskView
from core.language.text import STOPWORDS, content_words, fold, stem, words

_CALC = re.compile(r"\d+(?:[,.]\d+)?|[+\-−·*×/:=^²³]")
_ENUMERATION = re.compile(r"\(\d+\)|^\s*\d+[.)]\s|\b[a-e]\)")
_FRACTION = re.compile(r"\b\d+\s*/\s*\d+\b")
_UNIT = re.compile(r"(?<=\d)\s?(km/h|m/s²?|g/mol|mol/l|g/cm³|kg/m³|kWh|%|€|°C|km²|cm³|dm³|mm³|cm²|dm²|mm²|km|cm|dm|"
                   r"mm|m²|m³|m|kg|g|mg|t|l|ml|h|min|s|Minuten|Stunden|Sekunden|Jahre|Tage|V|A|Ω|W|J|N|Pa|Hz|mol)"
                   r"(?![^\W\d_])")
_VARIABLE = re.compile(r"\d[a-z](?![^\W\d_])|(?<![^\W\d_])[a-z]\s*[+\-−·]|[+\-−·]\s*\d*[a-z](?![^\W\d_])")
_KEPT = frozenset({"present"})  # an English operator that is also a tense ('present perfect')
_UNIT_NAMES = {"Minuten": "min", "Stunden": "h", "Sekunden": "s", "Jahre": "a", "Tage": "d"}
_VERB_SIGNS = {"addi": "+", "subtrahi": "−", "multiplizi": "·", "dividi": ":"}
_HEAD = 8  # shared start of two compounds that makes them the same thing
SAME_DEMAND = 0.6
SAME_CLASS_OVERLAP = 0.65  # share of the shorter demand matched, operators of one class
SIBLING_DEMAND = 0.75
OTHER_NUMBERS_DEMAND = 0.85
ASKED_MIN = 6  # things a word problem asks for and about, at least, to be recognised with other numbers and names
# the method a task names is how, not what it asks: two Pythagoras tasks on different unknowns are no repeat
_METHOD = frozenset({"satz", "pythagora", "gleichungssyst", "verfahr", "rechenverfahr", "baumdiagramm", "wahl",
                     "prob", "skizz", "formel", "gleichung", "ableitung", "stammfunktion", "tabell", "material"})
_CALCULATING = frozenset({"berechnen", "aufstellen"})  # a task that also explains or judges asks for more
ASKED_UNMATCHED = 1 / 3  # share of them the other task may lack


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
        if any(c.isdigit() for c in w) or (stem(w) in OPERATOR_WORDS and w not in _KEPT) or w in OPERATOR_CLASSES \
                or w in QUESTION_CLASSES:
            continue
        s = _norm(w)
        if (s not in OPERATOR_WORDS or w in _KEPT) and s not in STOPWORDS | DEMAND_FILLERS and len(s) > 1 \
                and s not in out:
            out.append(s)
    return tuple(out)


def demand(text: str) -> frozenset[str]:
    return frozenset(demand_words(text))


@lru_cache(maxsize=8192)
def operator_classes(text: str) -> frozenset[str]:
    """The kinds of work a task asks for ('nennen', 'erklaeren', …), from its operators, separable ones included."""
    content = content_words(text)
    found = {OPERATOR_CLASSES[w] for w in content if w in OPERATOR_CLASSES}
    present = {fold(w) for w in words(text)}  # particles ('an', 'dar') are stopwords
    found |= {c for (verb, particle), c in SEPARABLE.items() if verb in present and particle in present}
    if not found:  # a question carries the demand ('Warum …?', 'Wie viel …?')
        found = {QUESTION_CLASSES[w] for w in content if w in QUESTION_CLASSES}
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
    if "=" in text and _VARIABLE.search(text):  # an equation to solve: '3x + 5 = 20' ~ '4x − 7 = 9'
        signs = (signs - {"+", "−"}) | {"="}
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


def word_matches(x: str, y: str) -> bool:
    """One demand word meets another: the same stem, one inside a compound of the other ('Stromstärke' ~
    'Stärke'), a compound starting with the other ('Sommertemperaturen' ~ 'Sommer'), or two compounds with the same
    long head ('Verdauungsorgane' ~ 'Verdauungssystem')."""
    if term_matches(x, y):
        return True
    short, long_ = (x, y) if len(x) <= len(y) else (y, x)
    return (len(short) >= 4 and (long_.startswith(short) or long_.endswith(short))) or (
        len(short) >= _HEAD and long_[:_HEAD] == short[:_HEAD])


def _unmatched(a: frozenset[str], b: frozenset[str]) -> list[str]:
    return sorted(x for x in a if not any(word_matches(x, y) for y in b))


def soft_jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return (len(a) - len(_unmatched(a, b)) + len(b) - len(_unmatched(b, a))) / (len(a) + len(b))


def _shared(a: frozenset[str], b: frozenset[str]) -> int:
    return min(len(a) - len(_unmatched(a, b)), len(b) - len(_unmatched(b, a)))


def _unshared(a: frozenset[str], b: frozenset[str]) -> int:
    return max(len(_unmatched(a, b)), len(_unmatched(b, a)))


def swapped(a: frozenset[str], b: frozenset[str], things: frozenset[str] | None = None) -> bool:
    """The same frame with one thing exchanged ('Ursachen' for 'Folgen', 'Lungenkreislauf' for 'Körperkreislauf',
    'simple past' for 'present perfect'): another demand on a look-alike task, not a paraphrase — paraphrases change
    the frame or use a synonym the lexicon knows. `things`: the words that name things (German nouns); an exchanged
    adjective or verb ('kühler' for 'niedriger') is wording."""
    only_a, only_b = _unmatched(a, b), _unmatched(b, a)
    if not (1 <= len(only_a) == len(only_b) <= 2 and len(a) - len(only_a) >= len(only_a)):
        return False
    return things is None or all(w in things for w in only_a + only_b)


_GERMAN = frozenset(("der", "die", "das", "den", "dem", "des", "und", "ein", "eine", "einer", "eines", "im", "zu",
                     "mit", "ist", "sind", "von"))
_ENGLISH = frozenset(("the", "a", "an", "and", "of", "to", "in", "with", "is", "are", "your", "you"))


@lru_cache(maxsize=8192)
def things(text: str) -> frozenset[str] | None:
    """The demand words a German task writes with a capital (its nouns); None for an English task, where every word
    may name the thing."""
    ws = words(text)
    if sum(w in _ENGLISH for w in ws) > sum(w.lower() in _GERMAN for w in ws):
        return None
    return frozenset(_norm(fold(w)) for w in ws if w[:1].isupper())


def _same_class(a: str, b: str) -> bool:
    ca, cb = operator_classes(a), operator_classes(b)
    return bool(ca & cb) or (not ca and not cb)


def _calculations(na: tuple[str, ...], nb: tuple[str, ...], a: str, b: str) -> bool:
    """Both tasks calculate: two numbers each, or numbers with units ('36 g Wasser')."""
    return (len(na) >= 2 and len(nb) >= 2) or (bool(na) and bool(nb) and bool(calculation_kind(a)[1])
                                               and bool(calculation_kind(b)[1]))


def _calculation_repeat(a: TaskView, b: TaskView, sim: float, siblings: bool) -> float | None:
    (na, oa), (nb, ob) = calculation(a.text), calculation(b.text)
    da, db = demand(a.text), demand(b.text)
    ta, tb = target(a.text), target(b.text)
    same_target = not ta or not tb or (soft_jaccard(ta, tb) > 0 and not swapped(ta, tb))
    if (na, oa) == (nb, ob):  # the same calculation: a repeat unless it asks for something else
        return round(max(sim, 0.5), 2) if same_target else None
    kind = calculation_kind(a.text)
    if not siblings and _same_class(a.text, b.text) and kind == calculation_kind(b.text) \
            and kind != (frozenset(), frozenset(), False) and ta and tb and same_target:
        return round(max(sim, 0.5), 2)  # the same calculation with other numbers
    return round(sim, 2) if sim >= OTHER_NUMBERS_DEMAND and _unshared(da, db) <= 1 else None


@lru_cache(maxsize=8192)
def asked(text: str) -> frozenset[str]:
    """What a task asks for and about: the demand nouns of every sentence that carries an operator („Bestimme … den
    Eintrittspreis für Erwachsene und für Kinder“: Eintrittspreis, Erwachsene, Kinder — and the scene it names)."""
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", (text or "").strip()):
        if any(stem(w) in OPERATOR_WORDS or w in OPERATOR_CLASSES for w in content_words(sentence)):
            nouns = things(sentence)
            out |= {w for w in demand_words(sentence) if (nouns is None or w in nouns) and w not in _METHOD}
    return frozenset(out)


def same_unknowns(a: str, b: str) -> bool:
    """The same word problem whatever its numbers and names (decision 051): both only calculate, and what the shorter
    one asks for and about — at least six things, its method aside — is nearly all asked in the other: „Bestimme
    mit den Belegen der Familien Kaya und Braun den Eintrittspreis für Erwachsene und für Kinder“ ~ „Familie Weber
    zahlt im Freizeitbad … Bestimme die Eintrittspreise für einen Erwachsenen und für ein Kind“ (the names differ,
    as the numbers do)."""
    ka, kb = asked(a), asked(b)
    small, large = (ka, kb) if len(ka) <= len(kb) else (kb, ka)
    ca, cb = operator_classes(a), operator_classes(b)
    if len(small) < ASKED_MIN or "berechnen" not in ca & cb or not (ca ^ cb) <= _CALCULATING:
        return False
    return len(_unmatched(small, large)) <= len(small) * ASKED_UNMATCHED


def similar(a: TaskView, b: TaskView) -> float | None:
    """The similarity when a and b are near-duplicates, else None."""
    if a.text.strip().lower() == b.text.strip().lower():
        return 1.0
    da, db = demand(a.text), demand(b.text)
    sim = soft_jaccard(da, db)
    siblings = bool(a.gruppe) and a.gruppe == b.gruppe
    if not siblings and same_unknowns(a.text, b.text):
        return round(max(sim, 0.5), 2)
    if _calculations(calculation(a.text)[0], calculation(b.text)[0], a.text, b.text):
        return _calculation_repeat(a, b, sim, siblings)
    nouns = things(a.text), things(b.text)
    if swapped(da, db, None if None in nouns else nouns[0] | nouns[1]):
        return None
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
