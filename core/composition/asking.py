"""What a task asks about (decision 050): its title and its question say its subject; its scenario and expected
answer only mention things — they count for a part unless the subject names a sibling of it; a word in a negation
(„ein Teich ohne Fische“) and the material never count.

A task's question is the sentences with an operator („Erkläre, warum …“, „Setze die Kommas: …“) or a question mark
that say something of their own; a bare „Erkläre.“ leaves its scenario as mere mention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.checks.lexicon import OPERATOR_CLASSES, OPERATOR_FORMS, OPERATOR_WORDS, SEPARABLE
from core.checks.topics import text_stems
from core.checks.views import TaskView
from core.language.text import fold, stem, words

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")
# „ohne Fische“, „keine Lunge“, „ohne wörtliche Rede zu verwenden“: the negated words up to their noun
_NEGATED = re.compile(r"\b(?:ohne|kein|keine|keinen|keinem|keiner|keines|without)\s+((?:[a-zäöüß-]+\s+){0,2}"
                      r"[A-ZÄÖÜ][\w-]*|\S+)")


def without_negations(text: str) -> str:
    """The text without what it says is not there: „In einem Teich ohne Fische“ names no Fische."""
    return _NEGATED.sub(" ", text or "")


_GOES_ON = frozenset({"die", "den", "das", "der", "dem", "des", "ein", "eine", "einen", "einem", "einer", "in", "im",
                      "aus", "mit", "zu", "zum", "zur", "an", "auf"})


def _asks(sentence: str) -> bool:
    """An operator sentence or a question: „Erkläre, …“, „Werte … aus“, „Setze die Kommas: …“ (an imperative ending
    in -e before an article or preposition), „Welche Pflicht …?“."""
    ws = [fold(w) for w in words(sentence)[:2]]
    first = ws[0] if ws else ""
    imperative = len(ws) == 2 and first.endswith("e") and ws[1] in _GOES_ON and sentence[:1].isupper()
    return first in OPERATOR_CLASSES or stem(first) in OPERATOR_WORDS or imperative \
        or sentence.rstrip().endswith("?") or bool(_separable(sentence))


def _separable(sentence: str) -> str:
    ws = [fold(w) for w in words(sentence.split(":")[0])]
    return SEPARABLE.get((ws[0], ws[-1]), "") if len(ws) > 1 else ""


@dataclass(frozen=True)
class Asked:
    """A task split into where its subject is said (`subject`: title and question) and where a part may only be
    mentioned (`mention`: the scenario, the expected answer)."""

    subject: TaskView
    mention: TaskView
    operators: frozenset[str]  # the operator classes the question uses („Zeichne“ → skizzieren)


def asked(t: TaskView) -> Asked:
    sentences = [s for s in _SENTENCE.split(without_negations(t.text)) if s.strip()]
    questions = [s for s in sentences if _asks(s)]
    own = [s for s in questions if text_stems(s)] or ([] if questions else sentences)
    scenario = " ".join(s for s in sentences if s not in own)  # what a task is set in, or what a bare „Erkläre.“ asks
    classes = {OPERATOR_CLASSES.get(fold(t.operator or ""), "")}
    for s in questions:
        classes |= {OPERATOR_CLASSES.get(fold(w), "") for w in words(s)[:1]} | {_separable(s)}
    answer = tuple(without_negations(k) for k in t.kriterien)
    return Asked(subject=TaskView(ref=t.ref, text=" ".join(own), titel=t.titel),
                 mention=TaskView(ref=t.ref, text=scenario, kriterien=answer),
                 operators=frozenset(c for c in classes if c))


# Reading a figure is one skill whatever the operator: „Klimadiagramm beschreiben“ is its first step of „auswerten“.
# Making something (zeichnen, berechnen, aufstellen, schreiben) needs its own operator.
READING = frozenset({"analysieren", "beschreiben", "interpretieren", "vergleichen"})


def skill(part: str) -> tuple[str, str] | None:
    """A part that names a skill („Klimadiagramme auswerten“, „Graphen zeichnen“, „writing an email“): the operator
    class of its verb and the object it is done to; None for a part that names a thing."""
    for w in words(part):
        f = fold(w)
        f = f[:-3] + "e" if f.endswith("ing") else f
        rest = " ".join(x for x in words(part) if x != w)
        if f in OPERATOR_FORMS and (cls := OPERATOR_CLASSES.get(f)) and text_stems(rest):
            return cls, rest
    return None
