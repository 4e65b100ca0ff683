"""Class and school notes as constraints: the key words a task must contain to meet a note."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from core.checks.lexicon import FRAME_WORDS, OPERATOR_WORDS
from core.language.text import STOPWORDS, fold, stem

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_SOFT_WORDS = ("sollten sollen bitte enthalten vorkommen ueben wichtig unbedingt immer klasse schueler schuelerinnen "
               "kinder thema themen auch noch")
_SOFT = frozenset(stem(w) for w in _SOFT_WORDS.split())


def keywords(text: str) -> tuple[str, ...]:
    """Words of a note that a task would contain: units ('mA') kept as written, other words folded."""
    out: list[str] = []
    for w in _TOKEN.findall(text):
        if len(w) <= 3 and any(ch.isupper() for ch in w[1:]):
            out.append(w)  # a unit like mA, kW, kΩ
            continue
        f = fold(w)
        s = stem(f)
        if len(f) > 3 and f not in STOPWORDS and s not in _SOFT and s not in FRAME_WORDS and s not in OPERATOR_WORDS:
            out.append(f)
    return tuple(dict.fromkeys(out))


# A note that asks for something in the tasks ("Aufgaben sollten eine Umrechnung enthalten", "Probleme mit …"), not a
# convention of how answers are written ("Größen immer mit Einheit angeben").
_ASKS_FOR_TASKS = re.compile(r"(aufgabe\w*|test|arbeit)\W+(\w+\W+){0,6}(enthalten|vorkommen|einbauen|abfragen)|"
                             r"probleme? mit|schwierigkeiten mit|bitte (immer )?(eine )?aufgabe", re.I)


def short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def note_keywords(rows: Iterable[Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(note, key words) of the notes that ask for something in the tasks ('mA ↔ A sollte enthalten sein');
    conventions ('Größen immer mit Einheit') shape the Erwartungshorizont style, not the choice of tasks."""
    out = []
    for r in rows:
        content = r.content or {}
        text = str(content.get("text") or r.description or "").strip()
        kws = keywords(text)
        if text and kws and _ASKS_FOR_TASKS.search(text):
            out.append((short(text), kws))
    return tuple(out)
