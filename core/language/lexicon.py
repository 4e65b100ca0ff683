"""The subject lexicon a request reader needs beyond its built-in words: fach -> Themenfeld -> terms from the seeded
subject profiles, the Klassenstufen of each Themenfeld from the seeded Lehrplan excerpts, and the long words of all
seeded texts (real words, which the topic speller never takes for typos)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.language.text import fold, key

SEED_DATA = Path(__file__).resolve().parents[2] / "seeds" / "data"


@dataclass(frozen=True)
class Lexicon:
    """Topic terms (fach -> Themenfeld -> terms) and the Klassenstufen of each Themenfeld (fach -> Themenfeld ->
    years). Empty, a reader knows only its built-in words."""

    terms: Mapping[str, Mapping[str, Sequence[str]]] = field(default_factory=dict)
    grades: Mapping[str, Mapping[str, frozenset[int]]] = field(default_factory=dict)


@lru_cache
def seeded_lexicon() -> Lexicon:
    """The lexicon of the seed content (`seeds/data/*.json`, in file-name order), read once per process."""
    terms: dict[str, dict[str, list[str]]] = {}
    grades: dict[str, dict[str, set[int]]] = {}
    for path in sorted(SEED_DATA.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "profile" in data:
            terms[data["fach"]] = data["profile"]["themenfelder"]
        for chunk in data.get("curriculum") or []:
            if isinstance(chunk, dict) and chunk.get("themenfeld"):
                years = grades.setdefault(data.get("fach", ""), {}).setdefault(chunk["themenfeld"], set())
                years.update(int(k) for k in chunk.get("klassenstufen") or [] if isinstance(k, int))
    return Lexicon(terms=terms,
                   grades={fach: {feld: frozenset(y) for feld, y in felder.items()} for fach, felder in grades.items()})


_WORD = re.compile(r"[^\W\d_]{3,}")


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON-like value (dicts, lists), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


@lru_cache
def seeded_words() -> frozenset[str]:
    """Every word of eight letters or more in the seed content (profiles, Lehrplan excerpts, task bank), umlaut
    spellings merged (core.language.text.key). Read once per process, and only when a typo is suspected."""
    return frozenset(w for w in seeded_forms() if len(w) >= 8)


@lru_cache
def seeded_forms() -> frozenset[str]:
    """Every word of five letters or more in the seed content, umlaut spellings merged: the forms a noun is attested
    in („Metall“, „Metalle“), for undoing a dative plural."""
    return frozenset(w for w in attested_words() if len(w) >= 5)


@lru_cache
def attested_words() -> frozenset[str]:
    """Every word of three letters or more in the seed content, umlaut spellings merged: the words a compound's first
    part may be („Wärme“ of „Wärmetransport“, not „Tran“ of „Transport“)."""
    return frozenset(key(fold(w)) for w in _seed_words())


@lru_cache
def attested_plain_words() -> frozenset[str]:
    """The attested words written without an umlaut, folded like attested_words(): what a bare stem plus an ending
    may be („Brenn“ + „en“ is „brennen“) — „Tran“ + „en“ is not „Tränen“, whose umlaut the merge drops."""
    return frozenset(key(fold(w)) for w in _seed_words() if not _UMLAUT.search(w))


_UMLAUT = re.compile(r"[äöüÄÖÜ]")


@lru_cache
def _seed_words() -> frozenset[str]:
    words: set[str] = set()
    for path in sorted(SEED_DATA.glob("**/*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for text in strings_in(data):
            words.update(_WORD.findall(text))
    return frozenset(words)
