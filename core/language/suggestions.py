"""Which offered suggestion an answer names by its label: "Standard passt" picks "35/40/25 (Standard im Fachprofil)",
"lieber mehr Anwendung" picks "20/50/30 (mehr Anwendung)", "The standard is fine." the standard one.

An answer that states its own numbers names no label (the numbers win), and a negated label ("nicht den Standard")
is not picked. Only a label word no other suggestion shares decides; an answer that fits two suggestions picks none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.language.fold import prepare
from core.language.stopwords import only_reply
from core.language.text import fold, stem

# Words a teacher uses for a label's word (folded): "default" for "Standard", "balanced" for "ausgewogen".
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "standard": ("standard", "standards", "standardwert", "standardverteilung", "default", "voreinstellung",
                 "fachprofil", "fachprofils", "ueblich", "uebliche", "ueblichen", "normal", "normale", "usual"),
    "ausgewogen": ("ausgewogen", "ausgewogene", "ausgewogenen", "ausgeglichen", "ausgeglichene", "balanced",
                   "gleichmaessig", "gleichmaessige"),
    "anwendung": ("anwendung", "anwendungen", "anwenden", "anwendungsorientiert", "anwendungsorientierte",
                  "application", "applied", "transfer"),
    "reproduktion": ("reproduktion", "reproduzieren", "wiedergabe", "grundlagen", "reproduction", "basics"),
}
_NOT_DISTINCTIVE = frozenset(str.split("""
    im in der die das den dem des mit mehr weniger und oder als von vom zum zur fuer eine ein einer mal auf"""))
_NEGATIONS = frozenset(str.split("nicht kein keine keinen keinesfalls statt anstatt ohne not no without instead"))
_INDIFFERENT = frozenset(str.split("egal beliebig irgendwas whatever"))
_LABEL = re.compile(r"\(([^()]{2,60})\)\s*$")
_WORD = re.compile(r"[^\W\d_]+")


def _label_words(suggestion: str) -> set[str]:
    """The words that name a suggestion: its label in parentheses, else its own words."""
    m = _LABEL.search(suggestion)
    text = m.group(1) if m else suggestion
    return {fold(w) for w in _WORD.findall(text)} - _NOT_DISTINCTIVE


def _named_words(words: list[str], label: set[str]) -> list[int]:
    """Positions of answer words that name one of `label`'s words (directly, by stem or by a synonym)."""
    stems = {stem(w) for w in label}
    spelled = {s for w in label for s in _SYNONYMS.get(w, ())}
    return [i for i, w in enumerate(words) if w in label or w in spelled or (len(w) >= 5 and stem(w) in stems)]


def _negated(words: list[str], i: int) -> bool:
    return any(w in _NEGATIONS for w in words[max(0, i - 2):i + 3])


def suggestion_by_label(answer: str, vorschlaege: Sequence[str]) -> str | None:
    """The one suggestion whose label the answer names, else None."""
    text = prepare(answer)
    if not text or any(c.isdigit() for c in text) or len(vorschlaege) < 1:
        return None
    words = [fold(w) for w in _WORD.findall(text)]
    labels = [_label_words(v) for v in vorschlaege]
    if only_reply(words) and set(words) & _INDIFFERENT:  # „egal“: the choice is left to the app — its standard
        standard = [v for v, label in zip(vorschlaege, labels, strict=True) if "standard" in label]
        return standard[0] if len(standard) == 1 else None
    picked: list[str] = []
    for k, (suggestion, label) in enumerate(zip(vorschlaege, labels, strict=True)):
        others = set().union(*(x for j, x in enumerate(labels) if j != k))
        own = label - others
        hits = _named_words(words, own)
        if hits and not all(_negated(words, i) for i in hits):
            picked.append(suggestion)
    return picked[0] if len(picked) == 1 else None
