"""Is a task on the requested topic? Judged by what the task itself says — its text, its material and what the
teacher grades by — never by the title the composer gave it nor by a quiz's wrong answer options.

A case's `themenwoerter` are word parts („katalys“, „ion“, „if“, „%“). Matched as plain substrings they meant more
than their authors did: „ion“ hit every „Reaktion“, „if“ every „different“, „pro“ every „Problem“. So a key is
matched as a word part where it is one:
- a key of up to three letters is a word of its own, at most with a German ending („Ion“, „Ionen“, „pH-Wert“, „if“);
- a key of four letters, or several words, starts a word („Zeit“, „Zeitraum“, „soziale Frage“);
- a longer key may sit anywhere, also inside a compound („katalys“ in „Enzymkatalyse“);
- a number is a number of its own („1789“ not in „17890“); signs and symbols („%“, „f(x)“, „→“) are substrings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from core.checks.views import TaskView
from core.language.text import fold
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import BlanksFrage, DragTextFrage, H5PSet, MultiChoiceFrage, TrueFalseFrage
from core.materials.klausur import Klausur

_LETTERS = re.compile(r"[a-zß]+(?: [a-zß]+)*")
_ENDINGS = "(?:e|en|n|s|es|er)?"
MATERIAL_CHARS = 400  # the start of an Aufgabe's material: what its sub-tasks work with


@lru_cache(maxsize=4096)
def key_pattern(key: str) -> re.Pattern[str]:
    k = fold(key).strip()
    if _LETTERS.fullmatch(k):
        if len(k) <= 3:
            return re.compile(rf"(?<![a-zß]){re.escape(k)}{_ENDINGS}(?![a-zß])")
        if len(k) <= 4 or " " in k:
            return re.compile(rf"(?<![a-zß]){re.escape(k)}")
        return re.compile(re.escape(k))
    if k.isdigit():
        return re.compile(rf"(?<!\d){k}(?!\d)")
    return re.compile(re.escape(k))


def names_topic(text: str, woerter: Iterable[str]) -> bool:
    folded = fold(text)
    return any(key_pattern(w).search(folded) for w in woerter if w.strip())


def own_text(t: TaskView) -> str:
    """What a task itself says: its text, the start of its material, its criteria or solution — not its title."""
    return " ".join([t.text, t.material[:MATERIAL_CHARS], *t.kriterien])


def _quiz_views(s: H5PSet) -> list[TaskView]:
    """Quiz questions without their wrong options: the question, the right answers and the explanation."""
    out = []
    for i, f in enumerate(s.fragen, 1):
        if isinstance(f, MultiChoiceFrage):
            text, right = f.frage, tuple(a.text for a in f.antworten if a.korrekt)
        elif isinstance(f, TrueFalseFrage):
            text, right = f.frage, ()
        elif isinstance(f, BlanksFrage | DragTextFrage):
            text, right = f.text, ()
        else:
            text, right = str(f), ()
        erklaerung = getattr(f, "erklaerung", None)
        out.append(TaskView(ref=f"Frage {i}", text=text, kriterien=right + ((erklaerung,) if erklaerung else ()),
                            gruppe="quiz"))
    return out


def topic_views(m: Klausur | DifferenziertesMaterial | H5PSet, tasks: Sequence[TaskView]) -> list[TaskView]:
    """The views the topic check reads: the product's views, a quiz's without its distractors."""
    return _quiz_views(m) if isinstance(m, H5PSet) else list(tasks)


def on_topic(tasks: Sequence[TaskView], woerter: Iterable[str]) -> list[bool]:
    keys = [w for w in woerter if w.strip()]
    return [names_topic(own_text(t), keys) for t in tasks]
