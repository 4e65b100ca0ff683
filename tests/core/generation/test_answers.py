"""The teacher's answer to the AFB Rückfrage picks the suggestion it names — as the teacher test wrote it."""

from __future__ import annotations

import pytest

from core.generation.answers import resolve_answer

SUGGESTIONS = ["25/45/30 (Standard im Fachprofil)", "20/50/30 (mehr Anwendung)", "40/40/20 (mehr Reproduktion)"]


@pytest.mark.parametrize(("answer", "picked"), [
    ("Standard", 0), ("Standard passt", 0), ("The standard is fine.", 0), ("Nimm den Standard", 0),
    ("wie vorgeschlagen", 0), ("passt so", 0), ("mehr Anwendung", 1), ("nicht den Standard, mehr Anwendung", 1),
    ("der zweite", 1), ("lieber mehr Reproduktion", 2), ("40/40/20 (mehr Reproduktion)", 2),
])
def test_an_answer_naming_a_suggestion_picks_it(answer: str, picked: int) -> None:
    assert resolve_answer(answer, SUGGESTIONS) == SUGGESTIONS[picked]


@pytest.mark.parametrize("answer", ["kein Standard", "Standard? nein, 30/40/30", "35/40/25"])
def test_other_answers_stay_the_teachers_own(answer: str) -> None:
    assert resolve_answer(answer, SUGGESTIONS) == answer
