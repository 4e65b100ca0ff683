"""Text preparation for the rules: HTML out, German folding (lower case, ä -> ae, accents dropped), spaces
collapsed; rule patterns are written against the folded text. Regex helpers with cheap substring gates."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

# Classification reads at most this much; personal-data detection always reads everything (it is linear).
MAX_CHARS = 200_000


_TAG = re.compile(r"<[a-zA-Z/!][^<>]{0,1000}>")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a\u202b\u202c\u202d\u202e"))
_FOLD_MAP = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "’": "'", "‘": "'", "`": "'", "–": "-",
                           "—": "-", "‑": "-", "„": '"', "“": '"', "”": '"', "«": '"', "»": '"'})
_HSPACE = re.compile(r"[^\S\n]+")
_NEWLINES = re.compile(r" ?\n[\s]*")


_COMBINING = re.compile(r"[\u0300-\u036f]")


def fold_for_rules(text: str) -> str:
    text = unicodedata.normalize("NFC", text.translate(_INVISIBLE)).casefold().translate(_FOLD_MAP)
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    return _NEWLINES.sub("\n", _HSPACE.sub(" ", text)).strip()


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
