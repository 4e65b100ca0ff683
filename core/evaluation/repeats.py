"""Repeats a reader sees that the app's duplicate check (core.checks.duplicates) lets through: the same task in
another Aufgabe with other numbers („Astronautin … 120 kg … Gewichtskraft auf Erde, Mond, Mars“ and „Astronautin …
180 kg …“), or the same question asked again in other words.

Calibrated on a labelled set of pairs (tests/core/evaluation/repeat_pairs.yaml, half repeats, half legitimately
related tasks); `calibration()` gives precision and recall on it, seeds/eval/README.md records them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.checks.duplicates import demand, demand_words, operator_classes, similar, soft_jaccard, swapped, things
from core.checks.views import TaskView
from core.language.text import fold

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_WORD = re.compile(r"[^\W\d_]{3,}")
SAME_WORDING = 0.5  # share of words (numbers masked) two tasks have in common
SAME_DEMAND = 0.45  # soft Jaccard of the demand words of two tasks of the same kind of work …
OPENING = 4  # the same first four demand words ask for the same thing
SOME_WORDING = 0.3  # … that also share this much of their wording


def wording(text: str) -> frozenset[str]:
    """The words of a task with its numbers left out: tasks that differ only in their numbers have the same."""
    return frozenset(_WORD.findall(_NUMBER.sub(" ", fold(text))))


def opening(text: str) -> tuple[str, ...]:
    """The first demand words of a task (the app's, stopwords and numbers left out): „Lokalisiere mithilfe deines
    Atlas …“ twice is one task; „Geben Sie mit eigenen Worten wieder, worüber Faust …“ and „…, was Faust …“ are two."""
    return demand_words(_NUMBER.sub(" ", text))[:OPENING]


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def reader_repeat(a: str, b: str) -> bool:
    """A reader takes b for a again beyond what the app's duplicate check finds: nearly the same words or the same
    opening words (numbers aside), or the same kind of work (the same operator classes) on largely the same words —
    unless one thing is exchanged for another („Ursachen“ for „Folgen“), which asks something else."""
    da, db = demand(a), demand(b)
    nouns = things(a), things(b)
    if swapped(da, db, None if None in nouns else nouns[0] | nouns[1]):
        return False
    same_words = _jaccard(wording(a), wording(b))
    if same_words >= SAME_WORDING or (len(opening(a)) == OPENING and opening(a) == opening(b)):
        return True
    work = operator_classes(a)
    return bool(work) and work == operator_classes(b) and soft_jaccard(da, db) >= SAME_DEMAND \
        and same_words >= SOME_WORDING


def reader_repeats(tasks: Sequence[TaskView]) -> list[tuple[str, str]]:
    """Repeat pairs (refs) among tasks of different Aufgaben; tasks of one Aufgabe may build on one scenario (the
    app's check judges those). A worksheet level or a quiz is one group: there every pair counts."""
    out = []
    for i, a in enumerate(tasks):
        for b in tasks[i + 1:]:
            siblings = a.gruppe == b.gruppe and a.gruppe.isdigit()
            if not siblings and reader_repeat(a.text, b.text):
                out.append((a.ref, b.ref))
    return out


@dataclass(frozen=True)
class Calibration:
    pairs: int
    repeats: int
    true_pos: int
    false_pos: int
    false_neg: int
    wrong: tuple[str, ...]  # the ids of the misjudged pairs

    @property
    def precision(self) -> float:
        found = self.true_pos + self.false_pos
        return self.true_pos / found if found else 0.0

    @property
    def recall(self) -> float:
        return self.true_pos / self.repeats if self.repeats else 0.0

    def line(self) -> str:
        return (f"Wiederholungen beim Lesen: {self.pairs} Paare ({self.repeats} Wiederholungen) · Präzision "
                f"{self.precision:.0%} · Trefferquote {self.recall:.0%}"
                + (f" · falsch beurteilt: {', '.join(self.wrong)}" if self.wrong else ""))


def judged_repeat(a: str, b: str) -> bool:
    """What the content evaluator says of two tasks of different Aufgaben: the app's check or the reader's."""
    return similar(TaskView("a", a, gruppe="1"), TaskView("b", b, gruppe="2")) is not None or reader_repeat(a, b)


def calibration(pairs: Sequence[dict[str, object]]) -> Calibration:
    tp = fp = fn = 0
    wrong = []
    for p in pairs:
        said, truth = judged_repeat(str(p["a"]), str(p["b"])), bool(p["wiederholung"])
        tp += said and truth
        fp += said and not truth
        fn += truth and not said
        if said != truth:
            wrong.append(str(p["id"]))
    return Calibration(len(pairs), sum(1 for p in pairs if p["wiederholung"]), tp, fp, fn, tuple(wrong))
