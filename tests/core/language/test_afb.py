"""Answers to the AFB Rückfrage (core.language.afb): phrase -> (I, II, III) or None."""

from __future__ import annotations

import pytest

from core.language.afb import parse_afb_answer

# --- answers to the AFB Rückfrage -------------------------------------------------------------------------------------

AFB_ANSWER_CASES: list[tuple[str, tuple[int, int, int] | None]] = [
    ("30/40/30 bitte", (30, 40, 30)),
    ("lieber 20 50 30", (20, 50, 30)),
    ("20, 50, 30", (20, 50, 30)),
    ("Nimm 20-50-30.", (20, 50, 30)),
    ("eher 20 % / 50 % / 30 %", (20, 50, 30)),
    ("AFB I 20%, AFB II 50%, AFB III 30%", (20, 50, 30)),
    ("I: 25, II: 50, III: 25", (25, 50, 25)),
    ("wie vorgeschlagen", None),
    ("den ersten Vorschlag", None),
    ("30/40/40", None),
    ("Klasse 8, 45 Minuten", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "expected"), AFB_ANSWER_CASES, ids=[c[0] or "empty" for c in AFB_ANSWER_CASES])
def test_parse_afb_answer(text: str, expected: tuple[int, int, int] | None) -> None:
    assert parse_afb_answer(text) == expected
