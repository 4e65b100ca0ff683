"""Near-duplicate tests between exam candidates, cached: the composers ask them for every pair they try."""

from __future__ import annotations

from functools import lru_cache

from core.checks.duplicates import similar, soft_jaccard, target
from core.checks.views import TaskView
from core.composition.candidates import TaskCandidate
from core.evaluation.repeats import reader_repeat
from core.language.text import fold


def view(c: TaskCandidate) -> TaskView:
    """The candidate as the content checks see a task."""
    return TaskView(ref=c.key, text=c.text, kriterien=tuple(t for t, _ in c.erwartung), titel=c.unterthema,
                    gruppe=c.material_key or c.key)


@lru_cache(maxsize=65536)
def _similar_views(a: TaskView, b: TaskView) -> bool:
    return similar(a, b) is not None or (a.gruppe != b.gruppe and reader_repeat(a.text, b.text))


def repeats(a: TaskCandidate, b: TaskCandidate) -> bool:
    """The two tasks are near-duplicates (core.checks.duplicates.similar) or, on different materials, a reader takes
    one for the other again (core.evaluation.repeats.reader_repeat: „Astronautin … 120 kg“ and „… 180 kg“; decision
    047), cached: composers ask it many times."""
    return _similar_views(view(a), view(b))


@lru_cache(maxsize=65536)
def _same_target(a: str, b: str) -> bool:
    ta, tb = target(a), target(b)
    return bool(ta) and bool(tb) and soft_jaccard(ta, tb) >= 0.5


def same_demand(a: TaskCandidate, b: TaskCandidate) -> bool:
    """Same operator, same thing asked for ('Berechne die Steigung … durch P und Q' twice)."""
    return fold(a.operator) == fold(b.operator) and _same_target(a.text, b.text)
