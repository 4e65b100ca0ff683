"""The follow-up classifier of the offline model on the labelled follow-ups (tests/agents/offline/followup_cases.py):
each case must read as labelled; the accuracy over all is printed (`pytest -s`)."""

from __future__ import annotations

import pytest

from agents.offline.edit_plan import steps
from agents.offline.followup import classify
from tests.agents.offline.followup_cases import CASES, HELD_OUT, NEW_KINDS


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


def test_the_follow_ups_on_all_three_kinds_are_enough_and_their_accuracy_is_printed() -> None:
    assert len(NEW_KINDS) >= 40 and {k for k, _, _ in NEW_KINDS} == {"klausur", "h5p", "differenzierung"}
    right = sum(_read(text) == sorted(want) for _, text, want in NEW_KINDS)
    # first run, before any change for them (commit 02a4ac2): 16/48
    print(f"\nFollow-ups on quiz, sheet and exam: {right}/{len(NEW_KINDS)} = {right / len(NEW_KINDS):.1%} right")


@pytest.mark.parametrize(("kind", "text", "want"), NEW_KINDS, ids=[f"{k}-{t[:36]}" for k, t, _ in NEW_KINDS])
def test_each_follow_up_on_its_kind_reads_as_labelled(kind: str, text: str, want: list[str]) -> None:
    assert _read(text) == sorted(want)
    if want:  # and it is carried out by the edit tools, not left to the rules after it
        assert steps(text, kind), text


def test_a_quiz_question_is_struck_by_its_number_and_replaced_by_as_many_questions() -> None:
    plan = steps("Ersetze Frage 5 durch eine zu den Vulkanen.", "h5p")
    assert [(s.tool, s.what) for s in plan] == [("add_bank_task", "eine Frage zu „Vulkanen“ ergänzen"),
                                                ("patch_material_task", "Frage 5 streichen")]
    assert plan[0].args == {"thema": "Vulkanen", "anzahl": 1}
    assert steps("Noch zwei Fragen zur Photosynthese, bitte.", "h5p")[0].args == {"thema": "Photosynthese",
                                                                                  "anzahl": 2}


def test_a_strike_on_one_niveau_and_from_the_end_keeps_the_niveau_and_the_place() -> None:
    plan = steps("Bitte auf Niveau B die letzte Aufgabe streichen.", "differenzierung")
    assert [(s.tool, s.what) for s in plan] == [("patch_material_task", "Niveau B: die letzte Aufgabe streichen")]
    assert plan[0].args["operations"] == [{"op": "remove_task", "ziel": "B-1"}]
    plan = steps("Die erste und die letzte Aufgabe bitte raus", "klausur")
    assert [op["ziel"] for op in plan[0].args["operations"]] == ["-1", "1"]


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
