"""Typos in the words a request hinges on, corrected before parsing: key words ("Physick", "Klausr", "Chemi",
"englich") and long topic words of the subject vocabulary ("expontialfunktionen", "eigenschafen").

Key words: only words of five letters or more within one edit (insert, delete, replace, swap) of exactly one key
word are changed. Topic words: only words of eight letters or more, within one edit of exactly one vocabulary word
of the same first letter (two edits from twelve letters on). Inflected forms ("deutsche", "Klassenarbeiten",
"Stromkreise" next to "Stromkreis") are no typos and stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from core.language.text import fold, key, stem

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


_TERM_WORD = re.compile(r"[^\W\d_]{8,}")
_TWO_EDITS_FROM = 15
_INNER_CAPITAL = re.compile(r"(?<=[\s(\"„/-])[^\W\d_a-z][^\W\d_A-Z]+\b")
_MAX_LOOKUPS = 60  # a pasted text is not spell-checked word by word; a request has a handful of long words


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance (insert, delete, replace, swap of neighbours), or limit + 1 once it is certainly larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _fugen_s(word: str, known: str) -> bool:
    """The same compound with and without the linking s ("Halbwertzeit" / "Halbwertszeit"): both are spelt."""
    if abs(len(word) - len(known)) != 1:
        return False
    short, long_ = (word, known) if len(word) < len(known) else (known, word)
    # the word after the s has four letters or more ("…s|zeit"): "Periodensytem" is a typo, not "Periodens|tem"
    return any(long_[i] == "s" and long_[:i] + long_[i + 1:] == short and long_[i - 1] != "s"
               and long_[i + 1] not in "aeiousy" for i in range(3, len(long_) - 4))


def _umlauts_restored(word: str, spelling: str) -> bool:
    """'Radioaktivitat' or 'Radioaktivitaet' for 'Radioaktivität': the word without the umlauts its usual spelling
    has (a keyboard without umlauts), so the usual spelling is meant."""
    return any(c in "äöüÄÖÜ" for c in spelling) and not any(c in "äöüÄÖÜß" for c in word) and fold(word) != fold(
        spelling) and key(fold(word)) == key(fold(spelling))


def _inflected(word: str, known: str) -> bool:
    """Another form of the same word ("tropischen" / "tropischer", "Gedichts" / "Gedichte"), not a typo."""
    return stem(word) == stem(known) or any(word == known + s or known == word + s for s in _INFLECTIONS)


@dataclass
class TermSpeller:
    """The long words of a subject vocabulary (folded -> usual spelling), indexed by first letter and length."""

    spelling: dict[str, str] = field(default_factory=dict)  # key(fold(word)) -> usual spelling
    real_words: Callable[[], frozenset[str]] = frozenset  # words that are no typos (asked only for a suspect)
    two_edits_from: int = _TWO_EDITS_FROM  # word length from which two edits are still a typo
    _by_start: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, words: Iterable[str], real_words: Callable[[], frozenset[str]] = frozenset,
           two_edits_from: int = _TWO_EDITS_FROM) -> TermSpeller:
        speller = cls(real_words=real_words, two_edits_from=two_edits_from)
        for word in words:
            folded = key(fold(word))  # umlaut spellings merged: "Widerstände" is an inflection of "Widerstand"
            if len(folded) >= 8 and folded.isalpha() and folded not in speller.spelling:
                speller.spelling[folded] = word
                speller._by_start.setdefault((folded[0], len(folded)), []).append(folded)
        return speller

    def _match(self, folded: str) -> str | None:
        if folded in self.spelling or folded in KEY_WORDS or _correction(folded) is not None:
            return None
        limit = 2 if len(folded) >= self.two_edits_from else 1
        near = [k for n in range(len(folded) - limit, len(folded) + limit + 1)
                for k in self._by_start.get((folded[0], n), ())]
        if any(_inflected(folded, k) or _fugen_s(folded, k) for k in near):
            return None
        scored = sorted((d, k) for k in near if (d := _distance(folded, k, limit)) <= limit)
        if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None  # nothing near, or two equally near: no guess
        if folded in self.real_words():  # "Strompreis" is a word of its own, not a misspelt "Stromkreis"
            return None
        return scored[0][1]

    def correct(self, text: str) -> str:
        """The text with misspelt long vocabulary words in their usual spelling (the typed case of the first
        letter kept); everything else untouched."""
        return self.corrected(text)[0]

    def corrected(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """correct(text), and the (typed, meant) word pairs it changed."""
        lookups = 0
        changes: list[tuple[str, str]] = []
        nouns_capitalised = _INNER_CAPITAL.search(text) is not None

        def fix(m: re.Match[str]) -> str:
            nonlocal lookups
            lookups += 1
            if lookups > _MAX_LOOKUPS:
                return m.group()
            word = m.group()
            folded = key(fold(word))
            found = folded if _umlauts_restored(word, self.spelling.get(folded, "")) else self._match(folded)
            if found is None:
                return word
            spelling = self.spelling[found]
            if nouns_capitalised and word[:1].isupper() != spelling[:1].isupper():
                return word  # a writer who capitalises nouns wrote a verb or adjective, not a misspelt noun
            meant = (spelling[:1].upper() if word[:1].isupper() else spelling[:1].lower()) + spelling[1:]
            changes.append((word, meant))
            return meant

        return _TERM_WORD.sub(fix, text), changes
