"""The follow-up classifier of the offline model on the labelled follow-ups (tests/agents/offline/followup_cases.py):
each case must read as labelled; the accuracy over all is printed (`pytest -s`)."""

from __future__ import annotations

import pytest

from agents.offline.edit_plan import steps
from agents.offline.followup import classify
from tests.agents.offline.followup_cases import CASES, HELD_OUT


def _read(text: str) -> list[str]:
    return sorted(c for i in classify(text) for c in i.canonical())


def test_the_labelled_set_is_large_enough_and_its_accuracy_is_printed() -> None:
    cases = CASES + HELD_OUT
    assert len(CASES) >= 60
    right = sum(_read(text) == sorted(want) for text, want in cases)
    print(f"\nFollow-up classifier: {right}/{len(cases)} = {right / len(cases):.1%} right")


@pytest.mark.parametrize(("text", "want"), CASES + HELD_OUT, ids=[t[:40] for t, _ in CASES + HELD_OUT])
def test_each_follow_up_reads_as_labelled(text: str, want: list[str]) -> None:
    assert _read(text) == sorted(want)


def test_a_replacement_adds_before_it_strikes_and_strikes_the_highest_number_first() -> None:
    plan = steps("Aufgabe 3 ersetzen durch eine zum Hebelgesetz und Aufgabe 5 streichen", "klausur")
    assert [s.tool for s in plan] == ["add_bank_task", "patch_material_task"]
    assert plan[0].args == {"thema": "Hebelgesetz"}
    assert [op["ziel"] for op in plan[1].args["operations"]] == ["5", "3"]


def test_easier_runs_before_the_strike_so_the_numbers_still_hold() -> None:
    plan = steps("Streiche Aufgabe 1 und mach Aufgabe 3 leichter.", "klausur")
    assert [(s.tool, s.what) for s in plan] == [("regenerate_from_previous", "Aufgabe 3 leichter machen"),
                                                ("patch_material_task", "Aufgabe 1 streichen")]
    assert plan[0].args == {"instruction": "Mach Aufgabe 3 leichter."}


def test_sub_task_patches_and_new_requests_are_left_to_their_own_rules() -> None:
    for text in ("Streiche 2a", "Gib Aufgabe 1b 6 Punkte", "Tausch Aufgabe 2 und 3",
                 "Erstelle noch eine Klausur Physik Klasse 9 zum Hebel", "Bitte wieder Version 1"):
        assert steps(text, "klausur") == [], text
