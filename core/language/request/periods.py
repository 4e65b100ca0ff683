"""Periods that end no sentence: ordinals in dates and names („17. Juni 1953“, „1. Weltkrieg“, „19. Jh.“,
„2. binomische Formel“) and abbreviations („z. B.“, „v. Chr.“, „Kl. 9“). The request reader splits sentences,
clauses and lists at periods; before it reads a message such a period is replaced by a stand-in of the same length
that splits nothing (`protect`), and the stand-in becomes a period again in what it hands on (`restore`).

core.language.document reads the stand-in as a period for the facts (Klasse, Dauer: their patterns know „Kl.“ and
„9. Klasse“) and as no break between tokens.
"""

from __future__ import annotations

import re

from core.language.document import MARK  # no word character, no white space, no punctuation a reader splits at

_MONTHS = "Januar|Jänner|Februar|März|Maerz|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"
# Nouns an ordinal names („1. Weltkrieg“, „3. Person“, „2. Hälfte“), capitalised adjectives of a name
# („2. Punischer Krieg“, „1. Mendelsche Regel“); written in lower case they pass as any lower-case word.
_ORDINAL_NOUNS = (
    "Jahrhunderts?|Jahrhunderten?|Jahrtausends?|Jh|Jhd|Jhdt|Weltkriegs?|Weltkrieges|Kreuzzugs?|Kreuzzuges|"
    "Koalitionskriegs?|Golfkriegs?|Reichs?|Republik|Hauptsatz(?:es)?|Hälfte|Person|Fall(?:es)?|Vergangenheit|"
    "Zukunft|Ordnung|Grades|Art|Ableitung|Strahlensatz(?:es)?|Mendelschen?|Newtonschen?|Newtonsches|Keplerschen?|"
    "Keplersches|Binomischen?|Punischen?|Punischer|Schlesischen?|Schlesischer|Vatikanischen?|Vatikanisches|"
    "Kaiserreichs?|Internationale|Lebensjahr(?:es|s)?|Jahrestag(?:es|s)?|Parteitag(?:es|s)?|Mal(?:es)?"
)
# A number the period ends as a sentence: the Klasse („für Klasse 9. Thema …“).
_CLASS_WORD_BEFORE = re.compile(
    r"(?:klassenstufe|jahrgangsstufe|klasse|jahrgang|jgst|jg|kl|stufe|year|grade)\.?\s?$", re.I
)
_ORDINAL = re.compile(
    rf"(?<![\w.,])\d{{1,3}}(\.)(?=\s?(?:[-–]\s?\d{{1,3}}\.|und\s\d{{1,3}}\.|bis\s\d{{1,3}}\.|(?:{_MONTHS})\b|"
    rf"(?:{_ORDINAL_NOUNS})\b|[a-zäöüß]))"
)
_ABBREVIATION = re.compile(
    r"(?<![\w.])(?:z(\.)\s?B|u(\.)\s?a|d(\.)\s?h|v(\.)\s?Chr|n(\.)\s?Chr|Jh|Jhd|Jhdt|Jahrh|sog|vgl|bspw|Kl|Jg|Nr|"
    r"Hl|röm|dt|insb|vs|bzw)(\.)(?=[\s,;:)]|$)",
    re.I,
)


def protect(text: str) -> str:
    """The text with every period that ends no sentence replaced by MARK (same length, same positions)."""
    if "." not in text:
        return text
    spots: list[int] = []
    for m in _ORDINAL.finditer(text):
        if not _CLASS_WORD_BEFORE.search(text[max(0, m.start() - 20) : m.start()]):
            spots.append(m.start(1))
    for m in _ABBREVIATION.finditer(text):
        spots.extend(m.start(k) for k in range(1, 7) if m.start(k) >= 0)
    if not spots:
        return text
    chars = list(text)
    for k in spots:
        chars[k] = MARK
    return "".join(chars)


def restore(text: str) -> str:
    return text.replace(MARK, ".")
