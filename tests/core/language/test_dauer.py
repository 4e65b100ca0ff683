"""Dauer in teacher text (core.language.dauer), as a table."""

from __future__ import annotations

import pytest

from core.language.dauer import bare_minutes, parse_dauer
from core.language.text import fold

CASES: list[tuple[str, int | None]] = [
    ("45 Minuten", 45), ("45min", 45), ("45 Min.", 45), ("90 minutes", 90), ("30 mins", 30),
    ("Doppelstunde", 90), ("Einzelstunde", 45), ("2 Stunden", 90), ("2 Schulstunden", 90), ("1,5 h", 90),
    ("anderthalb Stunden", 90), ("eine halbe Stunde", 30), ("3 Zeitstunden", 180), ("2 hours", 120),
    ("eine 60-minütige Klausur", 60), ("zwanzig Minuten", 20), ("Klasse 9", None), ("30/40/30", None),
]


@pytest.mark.parametrize(("text", "minutes"), CASES, ids=[c[0] for c in CASES])
def test_parse_dauer(text: str, minutes: int | None) -> None:
    assert parse_dauer(fold(text)).minutes == minutes


def test_impossible_dauer_is_a_problem() -> None:
    found = parse_dauer(fold("0 Minuten"))
    assert found.minutes is None and "0 Minuten ist nicht möglich" in (found.problem or "")


@pytest.mark.parametrize(("text", "minutes"), [("45", 45), ("90", 90), ("ca. 90", 90), ("8", None), ("Optik", None)])
def test_bare_minutes_answer(text: str, minutes: int | None) -> None:
    assert bare_minutes(fold(text)) == minutes
