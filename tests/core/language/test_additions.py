"""Follow-ups that ask to add a named sub-topic to the current material, in teachers' words (stop-21 review and
phrasings written before the code ran) — and messages that are something else."""

from __future__ import annotations

import pytest

from core.language.additions import Addition, wants_addition, wants_removal


@pytest.mark.parametrize(("text", "expected"), [
    # the review's follow-ups
    ("Bitte noch eine reading comprehension zu Australia ergänzen, die fehlt.",
     Addition("reading comprehension zu Australia")),
    ("Bitte auch das going-to-future aufnehmen, der Unterschied will/going to war der Kern.",
     Addition("going-to-future")),
    ("Bitte die Fragen zum Gradnetz dazunehmen, das gehört zu meinem Auftrag.", Addition("Gradnetz")),
    ("Bitte die Aufgaben zu magnetischem Fluss und Induktionsgesetz dazunehmen, damit es 90 Minuten werden.",
     Addition("magnetischem Fluss und Induktionsgesetz", 90)),
    # other phrasings
    ("Nimm noch Fragen zum Gradnetz dazu", Addition("Gradnetz")),
    ("Ergänze bitte eine Aufgabe zur Lenzschen Regel", Addition("Lenzschen Regel")),
    ("Pack die Zellatmung bitte auch noch rein.", Addition("Zellatmung")),
    ("Könnten Sie bitte auch die Lenzsche Regel mit aufnehmen?", Addition("Lenzsche Regel")),
    ("Kannst du noch Fragen zur Berliner Konferenz ergänzen?", Addition("Berliner Konferenz")),
    ("Füge noch Aufgaben zum Satz des Pythagoras hinzu.", Addition("Satz des Pythagoras")),
    ("Die Stammzellen fehlen noch, bitte ergänzen.", Addition("Stammzellen")),
    ("mehr zu Brüchen bitte", Addition("Brüchen")),
    ("noch drei Fragen zu Nomen", Addition("Nomen")),
    ("Statt der Normalverteilung lieber mehr zum Hypothesentest.", Addition("Hypothesentest")),
])
def test_an_addition_names_the_sub_topic_and_the_duration(text: str, expected: Addition) -> None:
    assert wants_addition(text) == expected


@pytest.mark.parametrize("text", [
    "Setz Aufgabe 2 auf 6 Punkte", "Bitte Aufgabe 1 und Aufgabe 5 streichen", "Neue Klausur Mathe 8 zu Prozent",
    "Noch eine Klausur für die 9b zur Bruchrechnung, bitte", "Danke, super!", "Die Klausur soll 90 Minuten dauern",
    "Bitte noch eine Aufgabe ergänzen", "Hör auf", "Ich komme mit", "Aufgabe 3 ist zu schwer",
])
def test_other_messages_are_no_addition(text: str) -> None:
    assert wants_addition(text) is None


@pytest.mark.parametrize(("text", "thema"), [
    ("Bitte die Normalverteilung weglassen.", "Normalverteilung"),
    ("Die Aufgaben zur Normalverteilung bitte streichen, das war nicht gewünscht.", "Normalverteilung"),
    ("Nimm die Fragen zu Sparta raus", "Sparta"), ("Normalverteilung kann weg", "Normalverteilung"),
    ("Lass das Gradnetz weg", "Gradnetz"), ("Bitte die Lenzsche Regel entfernen", "Lenzsche Regel"),
])
def test_a_removal_names_the_sub_topic(text: str, thema: str) -> None:
    assert wants_removal(text) == thema and wants_addition(text) is None


@pytest.mark.parametrize("text", ["Bitte Aufgabe 1 und Aufgabe 5 streichen", "Streich 2b", "Danke, passt so",
                                  "Die Klausur ist zu lang, bitte kürzer"])
def test_numbered_tasks_and_other_messages_are_no_topic_removal(text: str) -> None:
    assert wants_removal(text) is None
