"""Typos in the few words a request hinges on ("Physick", "Klausr", "Chemi", "englich"): corrected before parsing.

Only words of five letters or more within one edit (insert, delete, replace, swap) of exactly one key word are
changed; inflected forms of a key word ("deutsche", "Klassenarbeiten") are no typos and stay as they are.
"""

from __future__ import annotations

import re

from core.language.text import fold

KEY_WORDS: dict[str, str] = {  # folded -> spelling
    "physik": "Physik", "chemie": "Chemie", "biologie": "Biologie", "mathematik": "Mathematik",
    "deutsch": "Deutsch", "englisch": "Englisch", "geschichte": "Geschichte", "geographie": "Geographie",
    "geografie": "Geografie", "erdkunde": "Erdkunde", "klausur": "Klausur", "klassenarbeit": "Klassenarbeit",
    "arbeitsblatt": "Arbeitsblatt", "uebungsblatt": "Übungsblatt", "lernkontrolle": "Lernkontrolle",
    "kurzkontrolle": "Kurzkontrolle", "leistungskontrolle": "Leistungskontrolle",
}
_INFLECTIONS = ("e", "en", "er", "es", "em", "n", "s")
_WORD = re.compile(r"[^\W\d_]{5,}")


def _within_one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def _correction(word: str) -> str | None:
    folded = fold(word)
    if folded in KEY_WORDS or any(folded == k + s for k in KEY_WORDS for s in _INFLECTIONS):
        return None
    hits = [k for k in KEY_WORDS if _within_one_edit(folded, k)]
    if len(hits) != 1:
        return None
    spelling = KEY_WORDS[hits[0]]
    return spelling if word[:1].isupper() else spelling.lower()


def correct(text: str) -> str:
    """The text with typos in key words (subjects, material types) corrected; everything else untouched."""
    def fix(m: re.Match[str]) -> str:
        return _correction(m.group()) or m.group()

    return _WORD.sub(fix, text)
