"""Dauer in folded teacher text (core.language.fold): "45 Min", "Doppelstunde", "2 Stunden", "1,5 h",
"anderthalb Stunden", "eine halbe Stunde", "90 minutes"."""

from __future__ import annotations

import re
from dataclasses import dataclass

DAUER_MIN, DAUER_MAX = 1, 300
SCHULSTUNDE_MINUTEN = 45

# School convention: "2 Stunden", "2 Std." and "zweistündig" are lessons of 45 minutes (= 90 minutes), while "h",
# "Zeitstunden" and fractional hours ("1,5 Stunden", "anderthalb Stunden") are clock hours (1,5 h = 90 minutes).
_MINUTES = re.compile(
    r"(?<![\d.,])(\d{1,4}(?:[.,]\d{1,2})?)\s?-?\s?(?:minuten|minute|minutes|mins|min|minuetig(?:e[nrms]?)?)(?![a-z])"
)
_HOURS = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,2})?)\s?-?\s?(schulstunden|schulstunde|unterrichtsstunden|unterrichtsstunde|"
    r"zeitstunden|zeitstunde|stunden|stunde|std|stuendig(?:e[nrms]?)?|hours|hour|h)(?![a-z])"
)
_WORD_HOURS = re.compile(
    r"(?<![a-z])(eine|einer|ein|zwei|drei|vier|anderthalb|eineinhalb)\s(schulstunden|schulstunde|"
    r"unterrichtsstunden|unterrichtsstunde|zeitstunden|zeitstunde|stunden|stunde)(?![a-z])"
)
_FRACTION = re.compile(r"(?<![a-z])(?:eine\s)?(halbe\sstunde|dreiviertelstunde|dreiviertel\sstunde|"
                       r"viertelstunde)(?![a-z])")
_LESSON = re.compile(
    r"(?<![a-z])(?:(\d|zwei|drei|vier)\s)?(doppelstunden|doppelstunde|einzelstunden|einzelstunde|blockstunden|"
    r"blockstunde|double\slessons?|single\slessons?)(?![a-z])"
)
_WORD_MINUTES = re.compile(
    r"(?<![a-z])(fuenfundvierzig|fuenfundzwanzig|fuenfzehn|fuenfzig|fuenf|zehn|zwanzig|dreissig|vierzig|sechzig|"
    r"siebzig|achtzig|neunzig)\s?-?\s?(?:minuten|min)(?![a-z])"
)
NUMBER_WORDS = {
    "ein": 1, "eine": 1, "einer": 1, "zwei": 2, "drei": 3, "vier": 4, "fuenf": 5, "sechs": 6, "sieben": 7,
    "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwoelf": 12, "fuenfzehn": 15, "zwanzig": 20,
    "fuenfundzwanzig": 25, "dreissig": 30, "vierzig": 40, "fuenfundvierzig": 45, "fuenfzig": 50, "sechzig": 60,
    "siebzig": 70, "achtzig": 80, "neunzig": 90,
}
_BARE_MINUTES = re.compile(r"^\s*(?:ca\.?\s|etwa\s|circa\s)?(\d{2,3})\s*[.!]?\s*$")


@dataclass(frozen=True)
class DauerFound:
    minutes: int | None = None
    spans: tuple[tuple[int, int], ...] = ()
    problem: str | None = None


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def non_overlapping(cands: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """(start, end, value) candidates without overlaps; at equal starts the longest wins."""
    out: list[tuple[int, int, int]] = []
    last_end = -1
    for cand in sorted(cands, key=lambda c: (c[0], -(c[1] - c[0]))):
        if cand[0] >= last_end:
            out.append(cand)
            last_end = cand[1]
    return out


def _hours(value: float, unit: str) -> int:
    if unit in ("h", "zeitstunde", "zeitstunden", "hour", "hours"):
        per_hour = 60
    elif unit.startswith(("schulstunde", "unterrichtsstunde")):
        per_hour = SCHULSTUNDE_MINUTEN
    else:
        per_hour = SCHULSTUNDE_MINUTEN if value.is_integer() else 60
    return round(value * per_hour)


def _candidates(fold: str) -> list[tuple[int, int, int]]:
    cands: list[tuple[int, int, int]] = []  # start, end, minutes
    for m in _MINUTES.finditer(fold):
        cands.append((m.start(), m.end(), round(_number(m.group(1)))))
    for m in _HOURS.finditer(fold):
        cands.append((m.start(), m.end(), _hours(_number(m.group(1)), m.group(2))))
    for m in _WORD_HOURS.finditer(fold):
        word, unit = m.group(1), m.group(2)
        if word in ("anderthalb", "eineinhalb"):
            minutes = 90
        else:
            minutes = NUMBER_WORDS[word] * (60 if unit.startswith("zeit") else SCHULSTUNDE_MINUTEN)
        cands.append((m.start(), m.end(), minutes))
    for m in _FRACTION.finditer(fold):
        word = m.group(1)
        minutes = 30 if word.startswith("halbe") else 45 if word.startswith("dreiviertel") else 15
        cands.append((m.start(), m.end(), minutes))
    for m in _LESSON.finditer(fold):
        count = 1 if m.group(1) is None else int(NUMBER_WORDS.get(m.group(1), 0) or int(m.group(1)))
        per = 45 if m.group(2).startswith(("einzel", "single")) else 90
        cands.append((m.start(), m.end(), count * per))
    for m in _WORD_MINUTES.finditer(fold):
        cands.append((m.start(), m.end(), NUMBER_WORDS[m.group(1)]))
    return non_overlapping(cands)


def parse_dauer(fold: str) -> DauerFound:
    """The first possible duration in a folded text; an impossible one ("0 Minuten") becomes a problem."""
    cands = _candidates(fold)
    spans = tuple((s, e) for s, e, _ in cands)
    for _, _, minutes in cands:
        if DAUER_MIN <= minutes <= DAUER_MAX:
            return DauerFound(minutes=minutes, spans=spans)
    if cands:
        return DauerFound(spans=spans, problem=f"Eine Dauer von {cands[0][2]} Minuten ist nicht möglich — bitte eine "
                                                f"Dauer von {DAUER_MIN} bis {DAUER_MAX} Minuten angeben.")
    return DauerFound()


def bare_minutes(fold: str) -> int | None:
    """A message that is only a number of minutes ("45", "ca. 90") — the answer to "Wie lange?"."""
    m = _BARE_MINUTES.match(fold)
    if m and 15 <= int(m.group(1)) <= DAUER_MAX:
        return int(m.group(1))
    return None
