"""Klasse, Klassenstufe and Oberstufe Niveau in folded teacher text (core.language.fold): "Klasse 8", "8b",
"Mathe 7", "Kl. 10", "7. Klasse", "Jg 12", "Q1", "EF", "LK 12", "für die 9er", "year 9"."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

KLASSENSTUFE_MIN, KLASSENSTUFE_MAX = 5, 13
OBERSTUFE_DEFAULT = 11  # "Oberstufe" alone: its first year in most Länder (EF in G9, the first Q year in G8)


@dataclass(frozen=True)
class Oberstufe:
    """How a Bundesland names its Oberstufe years: the Einführungsphase (EF, E-Phase) and the Q-phase names, as
    school years (Q1, Q2) or as half-years (Q1–Q4)."""

    ef: int
    q: Mapping[str, int]

    def course_year(self) -> int:
        """The year a course (LK/GK) named without one is taken for: the first of the Q-phase (decision 068)."""
        return min(self.q.values())

    def question(self) -> str:
        first, last = min(self.q.values()), max(self.q.values())
        if len(self.q) > 2:
            return f"Für welche Jahrgangsstufe – Q1/Q2 (Jahrgang {first}) oder Q3/Q4 (Jahrgang {last})?"
        return f"Für welche Jahrgangsstufe – Q1 (Jahrgang {first}) oder Q2 (Jahrgang {last})?"


# G9 as in NRW: EF = 11, Q1 = 12, Q2 = 13 (the default, and the convention of the request suite). G8 states count
# one year less. Hessen, Berlin and Brandenburg name the half-years of the Q-phase Q1–Q4 (docs/decisions).
G9 = Oberstufe(ef=11, q={"1": 12, "2": 13})
G8 = Oberstufe(ef=10, q={"1": 11, "2": 12})
G9_HALF_YEARS = Oberstufe(ef=11, q={"1": 12, "2": 12, "3": 13, "4": 13})
G8_HALF_YEARS = Oberstufe(ef=10, q={"1": 11, "2": 11, "3": 12, "4": 12})
_OBERSTUFE_BY_LAND = {
    "nordrhein-westfalen": G9, "niedersachsen": G9, "bayern": G9, "schleswig-holstein": G9, "rheinland-pfalz": G9,
    "hessen": G9_HALF_YEARS, "berlin": G8_HALF_YEARS, "brandenburg": G8_HALF_YEARS,
    "baden-wuerttemberg": G8, "bremen": G8, "hamburg": G8, "mecklenburg-vorpommern": G8, "saarland": G8,
    "sachsen": G8, "sachsen-anhalt": G8, "thueringen": G8,
}


def oberstufe_of(bundesland: str | None) -> Oberstufe:
    """The Oberstufe naming of a Bundesland (full name, any case, ä/ü or ae/ue); unknown or none: G9 as in NRW."""
    key = (bundesland or "").strip().lower().replace("ü", "ue").replace("ä", "ae").replace("ö", "oe")
    return _OBERSTUFE_BY_LAND.get(key.replace(" ", "-"), G9)


Niveau = Literal["grundlegend", "erhoeht"]

ORDINAL_WORDS = {
    "fuenft": 5, "sechst": 6, "siebt": 7, "siebent": 7, "acht": 8, "neunt": 9, "zehnt": 10, "elft": 11,
    "zwoelft": 12, "dreizehnt": 13,
}
CARDINAL_WORDS = {
    "fuenf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwoelf": 12, "dreizehn": 13,
}
_ORDINALS = "fuenft|sechst|siebent|siebt|acht|neunt|zehnt|elft|zwoelft|dreizehnt"
_CARDINALS = "fuenf|sechs|sieben|acht|neun|zehn|elf|zwoelf|dreizehn"
_GRADE_WORDS = "klassenstufe|jahrgangsstufe|klasse|jahrgang|klaessler"
# A number followed by one of these is a count, a duration or a score, not a Klasse.
# a number followed by a unit or a count is no class („Test 30 Minuten“, „Mathe 7 %“) — whole words only, so that
# „Mathe 7 Prozentrechnung“ is Klasse 7
_NOT_A_CLASS_AFTER = (r"(?!\s?-?\s?(?:%|(?:min(?:uten?|\.)?|h|std\.?|stunden?|schulstunden?|prozent|aufgaben?|fragen?|"
                      r"punkten?|teilaufgaben?|seiten?|items?|questions?|minutes?)(?![a-z])))")

_EXPLICIT = re.compile(
    r"(?<![a-z])(?:klassenstufe|jahrgangsstufe|klassen|klasse|jahrgang|jgst|jg|kl|stufe)\.?\s?:?\s?"
    r"(\d{1,3})(?!\d)(?:\s?([a-g])(?![a-z0-9]))?"
)
_ORDINAL = re.compile(r"(?<![\d.,])(\d{1,3})\.\s?-?\s?(?:klassenstufe|jahrgangsstufe|klasse|jahrgang|schuljahr|"
                      r"klaessler)")
_KLAESSLER = re.compile(r"(?<![\d.,])(\d{1,2})\s?-?\s?klaessler")
_ORDINAL_WORD = re.compile(rf"(?<![a-z])({_ORDINALS})(?:e|en|er|es)?\s?(?:{_GRADE_WORDS})")
_CARDINAL_WORD = re.compile(rf"(?<![a-z])(?:klassenstufe|jahrgangsstufe|klasse|jahrgang)\s({_CARDINALS})(?![a-z])")
_NAME = re.compile(r"(?<![\w.,/-])(\d{1,2})([a-g])(?![\w-])")
_NAME_SPACED = re.compile(
    r"(?<![a-z])(?:die|der|klasse|kl\.?|fuer|meine|meiner|unsere|unserer|in)\s(\d{1,2})\s([a-g])(?![\w-])"
)
_NAME_SKIP_BEFORE = re.compile(
    r"(?:aufgabe|aufgaben|teilaufgabe|nr|nummer|seite|s|abb|abbildung|tabelle|kapitel|punkt|material|m|"
    r"vitamin|unit|lektion)\.?\s?$"
)
_NAME_CONTEXT_BEFORE = re.compile(r"(?:klasse|kl|die|der|meine|meiner|unsere|unserer|in|fuer|jahrgang)\.?\s?$")
_QPHASE = re.compile(r"(?<![a-z0-9])(?:q|qualifikationsphase\s?)([1-4])(?![0-9])(?![a-z])")
_EPHASE = re.compile(r"(?<![a-z0-9])(?:ef|e-phase|einfuehrungsphase)(?![a-z0-9])")
_AFTER_SUBJECT = re.compile(
    r"(?<![a-z])(?:physik|phy|ph|mathematik|mathe|ma|biologie|bio|deutsch|deu|englisch|engl|chemie|ch|geschichte|"
    r"ge|geographie|geografie|erdkunde|geo|ek|klausur|klassenarbeit|test|quiz|arbeitsblatt|uebungsblatt|"
    r"lernkontrolle|kurzkontrolle|lek|h5p)\.?[\s-]?"
    r"(\d{1,2})([a-g])?(?![\d/%a-z])(?![.,:]\d)" + _NOT_A_CLASS_AFTER
)
_COURSE_YEAR = re.compile(
    r"(?<![a-z])(?:lk|gk|leistungskurs|grundkurs|kurs(?=\s1[0-3](?!\d)))(?:es|e)?\s?(?:(?:in|im)\s)?(?:der\s)?"
    r"(?:(?:jahrgangsstufe|jahrgang|jgst|jg|stufe|klasse)\.?\s?)?(\d{1,2})(?!\d)(?![.,]\d)" + _NOT_A_CLASS_AFTER
)
_ARTICLE_NUMBER = re.compile(
    r"(?<![a-z])(?:in der|fuer die|fuer den|die|der|den|meine|meiner|meinen|unsere|unserer|unseren)\s"
    r"(\d{1,2})(?:er|ern)?(?![\d/%a-z-])(?![.,:]\d)(?!\.\s?\w)" + _NOT_A_CLASS_AFTER
)
_ARTICLE_ORDINAL = re.compile(rf"(?<![a-z])(?:in der|fuer die|die|der|meine|meiner)\s({_ORDINALS})(?:e|en)(?![a-z])")
_ENGLISH = re.compile(r"(?<![a-z])(?:year|grade|class|form)\s?(\d{1,2})(?:\s?([a-g]))?(?![\d])(?![a-z0-9])")
_OBERSTUFE = re.compile(r"(?<![a-z])oberstufe")
# Niveau words (decision 061): Leistungskurs/LK/eA, Grundkurs/GK/gA, „erhöhtes/grundlegendes (Anforderungs)niveau“
# in any case („auf grundlegendem Niveau“), „Niveau: erhöht“, the English „advanced/basic course“
_ERHOEHT = re.compile(r"(?<![a-z])(?:lk|leistungskurs(?:e[sn]?)?|erhoehte[mnrs]?\s(?:anforderungsniveau|niveau)|"
                      r"(?:anforderungs)?niveau\s?:\s?erhoeht|ea(?:-(?:niveau|kurs))?|advanced\scourses?)(?![a-z])")
_GRUNDLEGEND = re.compile(r"(?<![a-z])(?:gk|grundkurs(?:e[sn]?)?|grundlegende[mnrs]?\s(?:anforderungsniveau|niveau)|"
                          r"(?:anforderungs)?niveau\s?:\s?grundlegend|ga(?:-(?:niveau|kurs))?|basic\scourses?)"
                          r"(?![a-z])")


@dataclass(frozen=True)
class KlasseFound:
    """What a text says about the class: a concrete class ("10a"), its year, the Oberstufe Niveau, where."""

    klasse: str | None = None
    stufe: int | None = None
    niveau: Niveau | None = None
    spans: tuple[tuple[int, int], ...] = ()
    problem: str | None = None


@dataclass(frozen=True)
class _Cand:
    priority: int
    position: int
    stufe: int
    letter: str | None
    explicit: bool  # named as a class: an impossible value is reported, not ignored


def klassenstufe_problem(stufe: int) -> str:
    if 1 <= stufe < KLASSENSTUFE_MIN:
        return (f"Klassenstufe {stufe} ist eine Grundschulklasse und wird nicht unterstützt — bitte eine "
                f"Klassenstufe von {KLASSENSTUFE_MIN} bis {KLASSENSTUFE_MAX} angeben.")
    return (f"Klassenstufe {stufe} gibt es nicht — bitte eine Klassenstufe von {KLASSENSTUFE_MIN} bis "
            f"{KLASSENSTUFE_MAX} angeben.")


def _in_range(stufe: int) -> bool:
    return KLASSENSTUFE_MIN <= stufe <= KLASSENSTUFE_MAX


def _named(fold: str, cands: list[_Cand], spans: list[tuple[int, int]]) -> None:
    """Class names: "8b", "für die 10 a" — with context checks, since "Aufgabe 3a" is no class."""
    for m in _NAME.finditer(fold):
        before = fold[max(0, m.start() - 14):m.start()]
        if _NAME_SKIP_BEFORE.search(before):
            continue
        stufe = int(m.group(1))
        explicit = bool(_NAME_CONTEXT_BEFORE.search(before))
        if not _in_range(stufe) and not explicit:
            continue
        cands.append(_Cand(3, m.start(), stufe, m.group(2), explicit))
        spans.append(m.span())
    for m in _NAME_SPACED.finditer(fold):
        cands.append(_Cand(3, m.start(1), int(m.group(1)), m.group(2), True))
        spans.append((m.start(1), m.end()))


def _explicit(fold: str, cands: list[_Cand], spans: list[tuple[int, int]], oberstufe: Oberstufe) -> None:
    """Forms that name a year outright: "Klasse 8", "7. Klasse", "achte Klasse", "Q1", "EF", "LK 12"."""
    for m in _EXPLICIT.finditer(fold):
        cands.append(_Cand(3 if m.group(2) else 2, m.start(), int(m.group(1)), m.group(2), True))
        spans.append(m.span())
    for rx in (_ORDINAL, _KLAESSLER):
        for m in rx.finditer(fold):
            cands.append(_Cand(2, m.start(), int(m.group(1)), None, True))
            spans.append(m.span())
    for m in _ORDINAL_WORD.finditer(fold):
        cands.append(_Cand(2, m.start(), ORDINAL_WORDS[m.group(1)], None, True))
        spans.append(m.span())
    for m in _CARDINAL_WORD.finditer(fold):
        cands.append(_Cand(2, m.start(), CARDINAL_WORDS[m.group(1)], None, True))
        spans.append(m.span())
    for m in _QPHASE.finditer(fold):
        if m.group(1) in oberstufe.q:  # "Q3" names a half-year only where the Q-phase counts half-years
            cands.append(_Cand(2, m.start(), oberstufe.q[m.group(1)], None, True))
            spans.append(m.span())
    for m in _EPHASE.finditer(fold):
        cands.append(_Cand(2, m.start(), oberstufe.ef, None, True))
        spans.append(m.span())
    for m in _COURSE_YEAR.finditer(fold):
        cands.append(_Cand(2, m.start(1), int(m.group(1)), None, True))
        spans.append((m.start(1), m.end()))
    for m in _ENGLISH.finditer(fold):
        cands.append(_Cand(3 if m.group(2) else 2, m.start(), int(m.group(1)), m.group(2), True))
        spans.append(m.span())


def _implied(fold: str, cands: list[_Cand], spans: list[tuple[int, int]], oberstufe: Oberstufe) -> None:
    """Weaker forms: a number after a subject or material word ("Bio 10"), "für die 7", "die 9er", "Oberstufe"."""
    for m in _AFTER_SUBJECT.finditer(fold):
        stufe = int(m.group(1))
        if _in_range(stufe):
            cands.append(_Cand(3 if m.group(2) else 2, m.start(1), stufe, m.group(2), True))
            spans.append((m.start(1), m.end()))
    for m in _ARTICLE_NUMBER.finditer(fold):
        stufe = int(m.group(1))
        if _in_range(stufe):
            cands.append(_Cand(1, m.start(1), stufe, None, False))
            spans.append((m.start(1), m.end()))
    for m in _ARTICLE_ORDINAL.finditer(fold):
        cands.append(_Cand(1, m.start(1), ORDINAL_WORDS[m.group(1)], None, False))
        spans.append((m.start(1), m.end()))
    for m in _OBERSTUFE.finditer(fold):
        cands.append(_Cand(0, m.start(), OBERSTUFE_DEFAULT, None, True))


def _niveau(fold: str, spans: list[tuple[int, int]]) -> Niveau | None:
    """The Niveau a text names first; its words are spans of the class, no topic."""
    up, basic = _ERHOEHT.search(fold), _GRUNDLEGEND.search(fold)
    spans += [m.span() for m in (up, basic) if m is not None]
    if up and (basic is None or up.start() < basic.start()):
        return "erhoeht"
    return "grundlegend" if basic else None


def parse_klasse(fold: str, oberstufe: Oberstufe = G9) -> KlasseFound:
    """The class a folded text names; the most specific form wins, then the first. Impossible years of an
    explicitly named class ("Klasse 14") become a German problem message instead. EF and Q1/Q2 are read as
    `oberstufe` names them (the teacher's Bundesland)."""
    cands: list[_Cand] = []
    spans: list[tuple[int, int]] = []
    _explicit(fold, cands, spans, oberstufe)
    _named(fold, cands, spans)
    _implied(fold, cands, spans, oberstufe)
    niveau = _niveau(fold, spans)
    valid = [c for c in cands if _in_range(c.stufe)]
    if not valid:
        invalid = sorted((c for c in cands if c.explicit), key=lambda c: c.position)
        problem = klassenstufe_problem(invalid[0].stufe) if invalid else None
        return KlasseFound(niveau=niveau, spans=tuple(spans), problem=problem)
    best = min(valid, key=lambda c: (-c.priority, c.position))
    klasse = f"{best.stufe}{best.letter}" if best.letter else None
    return KlasseFound(klasse=klasse, stufe=best.stufe, niveau=niveau, spans=tuple(spans))


_BARE = re.compile(
    r"^\s*(?:die\s|der\s|klasse\s|kl\.?\s?|jg\.?\s?|stufe\s)?(\d{1,2})(?:\s?([a-g]))?(?:er)?\s*[.!]?\s*$"
)


def bare_klasse(fold: str) -> tuple[int, str | None] | None:
    """A message that is only a class ("8", "8b", "die 9er") — the answer to "Für welche Klasse?"."""
    m = _BARE.match(fold)
    if m and _in_range(int(m.group(1))):
        return int(m.group(1)), m.group(2)
    return None
