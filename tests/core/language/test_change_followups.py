"""Follow-ups that change the current material, read from the teacher's words (core.language.followups), and topic
spelling variants that are no typos (core.language.spelling) — teacher review, stop 20."""

from __future__ import annotations

import pytest

from core.language.followups import wants_added_task, wants_whole_topic
from core.language.spelling import TermSpeller


@pytest.mark.parametrize(("text", "expected"), [
    ("Da fehlt die Zinsrechnung. Bitte noch eine Aufgabe zur Zinsrechnung ergänzen.", (True, "Zinsrechnung")),
    ("Ergänze bitte eine Aufgabe zum Zinseszins", (True, "Zinseszins")),
    ("bitte noch eine Aufgabe zu Monats- und Tageszinsen hinzufügen", (True, "Monats- und Tageszinsen")),
    ("noch eine Aufgabe mehr", (True, None)),
    ("Noch eine Aufgabe bitte.", (True, None)),
    ("Noch eine Klausur zur Zinsrechnung", (False, None)),  # a new material, no added task
    ("Aufgabe 3 bitte streichen", (False, None)),
    ("Klausur Mathe Klasse 7 mit einer Aufgabe zur Zinsrechnung", (False, None)),
])
def test_an_added_task_and_its_topic(text: str, expected: tuple[bool, str | None]) -> None:
    assert wants_added_task(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Die Klausur muss 135 Minuten dauern. Bitte das ganze Thema Expressionismus nehmen", (True, "Expressionismus")),
    ("das ganze Thema abdecken bitte", (True, None)),
    ("Bitte das gesamte Thema „Zinsrechnung“ nehmen.", (True, "Zinsrechnung")),
    ("Das war ganz gut", (False, None)),
])
def test_the_whole_topic(text: str, expected: tuple[bool, str | None]) -> None:
    assert wants_whole_topic(text) == expected


def test_missing_umlauts_are_restored_and_the_linking_s_variant_stays() -> None:
    speller = TermSpeller.of(["Radioaktivität", "Halbwertszeit", "Klassenarbeit", "Stromkreis"])
    fixed, changes = speller.corrected("Radioaktivitat und Halbwertzeit")
    assert fixed == "Radioaktivität und Halbwertzeit"
    assert changes == [("Radioaktivitat", "Radioaktivität")]
    assert speller.corrected("Radioaktivität und Halbwertszeit") == ("Radioaktivität und Halbwertszeit", [])
    assert speller.correct("Halbwerszeit") == "Halbwertszeit"  # a letter missing elsewhere is still a typo
