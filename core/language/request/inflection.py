"""Case endings of topic words in a request, undone to the form a title uses: a dative plural after „zu“, „bei“,
„mit“ („zu Dreiecken“ -> „Dreiecke“), and a list that shares a prepositional head („Kommasetzung bei Relativsätzen
und Konjunktionalsätzen“: the parts are Relativsätze and Konjunktionalsätze; decision 052)."""

from __future__ import annotations

import re
from collections.abc import Callable

from core.language.lexicon import seeded_forms, seeded_words
from core.language.text import fold, key

Known = Callable[[str], str | None]
Check = Callable[[str], bool]

WEAK_PLURALS = ("ungen", "ionen", "heiten", "keiten", "schaften", "taeten", "innen", "ien", "eien", "zeiten",
                "arbeiten", "fahrten", "arten", "welten", "schriften", "pflichten")
# Plurals in -en whose dative is the same ("zu den Verben"): the -n is no dative ending.
SAME_IN_DATIVE = (
    "verben", "nomen", "formen", "normen", "themen", "farben", "daten", "medien", "laengen", "kurven", "linsen",
    "zellen", "geraden", "ebenen", "groessen", "flaechen", "pflanzen", "sprachen", "regeln", "formeln", "tabellen",
    "kugeln", "quellen", "seiten", "strecken", "ecken", "kanten", "wellen", "saeulen", "schichten", "stufen",
)


# Singulars in -e whose plural adds -n („Gruppe“, „Savanne“, „Linse“): „Gruppen“ is no dative of „Gruppe“.
_FEMININE_E = re.compile(r"([bdfgklmnprstz])\1e$|(?:ie|rve|nse|nze)$")


def undative(word: str, known: Known | None = None) -> str:
    """'Stromkreisen' -> 'Stromkreise', 'Brüchen' -> 'Brüche', 'Wörtern' -> 'Wörter'; 'Zahlen' stays. A form the
    vocabulary knows without the -n and not with it is nominative without it ('Dreiecken' -> 'Dreiecke',
    'Säugetieren' -> 'Säugetiere'), whatever the ending rules say."""
    f = fold(word)
    forms = seeded_forms()
    if len(f) > 6 and f.endswith("en") and f[-3] != "r" and key(f[:-1]) in forms and key(f[:-2]) in forms:
        return word[:-1]  # „Metallen“: „Metalle“ and „Metall“ are both attested, so the -e is the plural's (not
        # after r: the English „figure“ beside „Figur“ would cut „Figuren“)
    if _FEMININE_E.search(f[:-1]):
        return word
    if known is not None and len(f) > 4 and f.endswith("en") and known(fold(word[:-1])) and not known(f):
        return word[:-1]
    if f.endswith(SAME_IN_DATIVE):
        return word
    if len(f) > 5 and f.endswith(("ern", "eln")):
        return word[:-1]
    if len(f) > 4 and f.endswith("en") and not f.endswith(WEAK_PLURALS) and f[-3] in "szthkmfpgdbv":
        words = seeded_words()
        if key(f) in words and key(f[:-1]) not in words:
            return word  # a plural in -en ("zu Uhrzeiten"): the seeded texts know it, not a form without the -n
        return word[:-1]
    return word


# „Kommasetzung bei Aufzählungen und Nebensätzen“, „Rechnen mit Brüchen und Dezimalzahlen“: a head and a dative
# preposition before a list
_SHARED_HEAD = re.compile(r"^(?P<head>[^\W\d_][^,+&]*?)\s+(?:bei|mit|von)\s+(?P<rest>[^\W\d_].*)$")
_LIST_SPLIT = re.compile(r"\s*(?:,|\bund\b|\bsowie\b)\s*")
_HEAD_LIST = re.compile(r"\b(?:und|sowie|oder)\b|,")


def shared_head(thema: str, known: Known, is_topic: Check) -> tuple[str, tuple[str, ...]] | None:
    """A list of nouns after one head and a dative preposition: the nouns are the parts, in the nominative.
    'Kommasetzung bei Relativsätzen und Konjunktionalsätzen' -> (the same, ('Relativsätze', 'Konjunktionalsätze')).
    None when there is no such list or a piece is no topic."""
    m = _SHARED_HEAD.match(thema.strip())
    if m is None or _HEAD_LIST.search(m.group("head")):
        return None
    items = [i for i in _LIST_SPLIT.split(m.group("rest")) if i]
    if len(items) < 2 or any(len(i.split()) > 3 for i in items):
        return None
    parts = []
    for item in items:
        words = item.split()
        last = undative(words[-1], lambda t: known(t))
        parts.append(" ".join([*words[:-1], last]))
    if not all(is_topic(p) for p in parts):
        return None
    return thema, tuple(p[:1].upper() + p[1:] for p in parts)


_STRONG_ADJ = re.compile(r"^(\w{3,}(?:isch|lich|ig|al|iv|ell|är|ar|en))(?:er|es)$")


def plural_adjectives(head: str) -> str:
    """The adjectives of a known term's head for the teacher's plural: "Tropischer" (Regenwald) -> "Tropische"
    (Regenwälder)."""
    return " ".join(_STRONG_ADJ.sub(r"\1e", w) for w in head.split())


_BARE_ADJECTIVE = re.compile(r"^[a-zäöüß]{3,}(?:al|isch|iv|ig|lich|ell|är|ar|ant|ent)$")


def adjective_parts(thema: str | None, parts: tuple[str, ...]) -> tuple[str, ...]:
    """Parts that are bare adjectives of a plural head noun name kinds of it: „Zuordnungen (proportional/
    antiproportional)“ -> „proportionale Zuordnungen“, „antiproportionale Zuordnungen“."""
    if not thema or " " in thema.strip() or len(parts) < 2 or not fold(thema).endswith(("ungen", "ionen", "en")):
        return parts
    if not all(_BARE_ADJECTIVE.match(p.strip()) for p in parts):
        return parts
    return tuple(f"{p.strip()}e {thema.strip()}" for p in parts)
