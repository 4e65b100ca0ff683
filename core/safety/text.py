"""Text preparation for the rules: HTML out, German folding (lower case, ä -> ae, accents dropped), spaces
collapsed; rule patterns are written against the folded text. Regex helpers with cheap substring gates."""

from __future__ import annotations

import html
import re
from functools import lru_cache

from core.language.fold import fold_for_rules

# Classification reads at most this much; personal-data detection always reads everything (it is linear).
MAX_CHARS = 200_000


_TAG = re.compile(r"<[a-zA-Z/!][^<>]{0,1000}>")


def prepare(text: str) -> str:
    raw = text[:MAX_CHARS]
    return fold_for_rules(html.unescape(_TAG.sub(" ", raw)))


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@lru_cache(maxsize=32)
def has(pattern: re.Pattern[str], folded: str) -> bool:
    """A shared signal of one text; several rules ask for the same ones."""
    return pattern.search(folded) is not None


class Rules:
    """Patterns behind a cheap gate: none of them can match unless one of `keys` occurs in the text, and a
    substring test is much faster than a regex over 50 000 characters."""

    def __init__(self, keys: str, *patterns: re.Pattern[str]) -> None:
        self.keys = tuple(keys.split("|"))
        self.patterns = patterns

    def search(self, folded: str) -> bool:
        return any(k in folded for k in self.keys) and any(p.search(folded) for p in self.patterns)


def words(*alternatives: str) -> str:
    return "(?:" + "|".join(alternatives) + ")"


# A clause: no sentence end inside. Windows are always bounded.
def gap(n: int) -> str:
    return r"[^.?!\n]{0," + str(n) + "}?"
