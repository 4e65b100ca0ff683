"""Level cues: the concepts, grammar and methods a task names, and the Klassenstufe from which they are taught.

The map is seeds/data/levels.json (per Fach, written by hand, plus operators and methods for all Fächer) together with
the key words of the coverage maps (a key word of a topic is taught from that topic's earliest grade). A task naming a
concept three or more grades above the class is too hard; an Oberstufe task that only asks for a Grundschul activity
(„Kreuze an“, „Male“) and names nothing taught from Klasse 9 on is too easy. Hand-written cues count alone; key words
of the coverage maps (titles and sub-topics of two words or more) are broader: they count only for Oberstufe topics four
grades above the class.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from core.checks.topics import TopicIndex
from core.language.text import STOPWORDS, fold, stem

LEVELS = Path(__file__).resolve().parents[2] / "seeds" / "data" / "levels.json"
COVERAGE = LEVELS.parent / "coverage"
GAP = 3  # grades between a concept's first teaching and the class that make a task too hard
UPPER_FROM = 9  # an Oberstufe task naming a concept taught from here on is not Grundschul level
_MIN_PREFIX = 6  # shortest cue stem that also matches as the start of a compound ('Ionenbindung' ~ 'Ionenbindungen')


@dataclass(frozen=True)
class Cue:
    name: str  # as written in the map
    stems: tuple[str, ...]
    ab: int  # the Klassenstufe it is taught from
    curated: bool  # hand-written (counts alone) or a coverage key word


_HYPHENATED = re.compile(r"[^\W_]+(?:-[^\W_]+)*")


def _stems(text: str) -> tuple[str, ...]:
    """Content stems in text order; a hyphenated word with a one-letter part is one word ('p-q-Formel',
    'x-Achse'), other hyphenated words are their parts ('Welle-Teilchen-Dualismus')."""
    out = []
    for w in _HYPHENATED.findall(fold(text)):
        parts = w.split("-")
        for p in ["".join(parts)] if any(len(p) == 1 for p in parts) and len(parts) > 1 else parts:
            if p not in STOPWORDS and (len(p) > 1 or len(parts) > 1):
                out.append(p if p.isdigit() else stem(p))
    return tuple(out)


def _token_matches(cue: str, token: str) -> bool:
    return token == cue or (len(cue) >= _MIN_PREFIX and token.startswith(cue))


def present(cue: Cue, tokens: tuple[str, ...]) -> bool:
    """The cue's words stand in the text one after the other (stopwords between them do not count)."""
    n = len(cue.stems)
    return n > 0 and any(all(_token_matches(c, t) for c, t in zip(cue.stems, tokens[i:i + n], strict=True))
                         for i in range(len(tokens) - n + 1))


@cache
def _data() -> dict:
    return json.loads(LEVELS.read_text(encoding="utf-8"))


@cache
def fach_ids() -> dict[str, frozenset[str]]:
    """The coverage topic ids of each Fach (to tell which Fach a topic index belongs to)."""
    out = {}
    for path in sorted(COVERAGE.glob("*.json")):
        out[path.stem] = frozenset(t["id"] for t in json.loads(path.read_text(encoding="utf-8"))["topics"])
    return out


def fach_of(index: TopicIndex) -> str | None:
    ids = set(index.topics)
    best = max(fach_ids().items(), key=lambda kv: len(ids & kv[1]), default=(None, frozenset()))
    return best[0] if ids & best[1] else None


@cache
def curated_cues(fach: str | None) -> tuple[Cue, ...]:
    data = _data()
    entries = {**data["operatoren"], **(data["faecher"].get(fach, {}) if fach else {})}
    return tuple(Cue(name, _stems(name), ab, True) for name, ab in entries.items() if _stems(name))


@lru_cache(maxsize=32)
def coverage_cues(index: TopicIndex) -> tuple[Cue, ...]:
    """Each key word, sub-topic and title of the coverage topics, taught from the earliest grade of any topic naming
    it."""
    first: dict[tuple[str, ...], tuple[str, int]] = {}
    for t in index.topics.values():
        if not t.klassenstufen:
            continue
        for name in (t.thema, *t.unterthemen):
            key = _stems(name)
            if key and (key not in first or first[key][1] > min(t.klassenstufen)):
                first[key] = (name, min(t.klassenstufen))
    return tuple(Cue(name, key, ab, False) for key, (name, ab) in first.items())


def _by_first(cues: tuple[Cue, ...]) -> dict[str, list[Cue]]:
    out: dict[str, list[Cue]] = {}
    for c in cues:
        out.setdefault(c.stems[0], []).append(c)
    return out


@lru_cache(maxsize=64)
def _lookup(fach: str | None, index: TopicIndex) -> tuple[dict[str, list[Cue]], dict[str, list[Cue]]]:
    return _by_first(curated_cues(fach)), _by_first(coverage_cues(index))


def _found(tokens: tuple[str, ...], by_first: dict[str, list[Cue]]) -> list[Cue]:
    """The cues whose words stand in the text (looked up by the first word, exact or as a compound's start)."""
    out: list[Cue] = []
    for i, t in enumerate(tokens):
        for key in {t, *(t[:n] for n in range(_MIN_PREFIX, len(t)))}:
            for c in by_first.get(key, ()):
                if c not in out and present(c, tokens[i:i + len(c.stems)]):
                    out.append(c)
    return out


def cues_in(text: str, index: TopicIndex) -> list[Cue]:
    """The level cues a text names, hand-written ones first."""
    tokens = _stems(text)
    curated, covered = _lookup(fach_of(index), index)
    return _found(tokens, curated) + _found(tokens, covered)


def too_hard(text: str, index: TopicIndex, klasse: int) -> Cue | None:
    """The cue that puts the task far above the class, or None."""
    cues = [c for c in cues_in(text, index) if c.ab - klasse >= GAP]
    curated = [c for c in cues if c.curated]
    if curated:
        return max(curated, key=lambda c: (c.ab, len(c.stems), len("".join(c.stems))))  # hardest, most specific
    derived = [c for c in cues if len(c.stems) >= 2 and c.ab >= 11 and c.ab - klasse >= GAP + 1]
    return max(derived, key=lambda c: c.ab) if derived else None


@cache
def _elementary() -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for cue in _data()["grundschule"]:
        start = cue.startswith("^")
        body = re.escape(cue.lstrip("^").strip())
        prefix = r"(?:^|(?<=[.!?:;]\s)|(?<=[.!?:;]))\s*" if start else r"\b"
        out.append((cue.lstrip("^").strip(), re.compile(prefix + body + r"\b", 0 if start else re.I)))
    return tuple(out)


def elementary_activity(text: str) -> str | None:
    """A Grundschul activity the task asks for („Kreuze an“), or None."""
    return next((name for name, rx in _elementary() if rx.search(text.strip())), None)


def too_easy(text: str, index: TopicIndex) -> str | None:
    """The Grundschul activity of a task that names no concept taught from Klasse 9 on, or None."""
    activity = elementary_activity(text)
    if activity is None or any(c.ab >= UPPER_FROM for c in cues_in(text, index)):
        return None
    return activity
