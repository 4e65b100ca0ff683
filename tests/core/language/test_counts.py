"""German counts in what a teacher reads: one helper (core.materials.wording.anzahl) for count + noun, and the
messages that said „liegen nur 1 geprüfte Aufgaben“, „1 Aufgaben“, „1 Sterne“ use it."""

from __future__ import annotations

import pytest

from core.composition.report import Befund
from core.materials.service import RatingOutcome
from core.materials.wording import anzahl


@pytest.mark.parametrize(("n", "noun", "expected"), [
    (1, "Aufgabe", "1 Aufgabe"), (3, "Aufgabe", "3 Aufgaben"), (1, "Aufgaben", "1 Aufgabe"),
    (1, "geprüfte Aufgaben", "1 geprüfte Aufgabe"), (2, "geprüfte Aufgabe", "2 geprüfte Aufgaben"),
    (1, "Aufgaben je Niveau", "1 Aufgabe je Niveau"), (1, "weitere geprüfte dreistufige Aufgaben",
                                                        "1 weitere geprüfte dreistufige Aufgabe"),
    (1, "Hilfekarten", "1 Hilfekarte"), (0, "Frage", "0 Fragen"), (1, "Stern", "1 Stern"), (4, "Stern", "4 Sterne"),
    (2, "Rückfrage", "2 Rückfragen"), (3, "Eintrag", "3 Einträge"), (2, "Übung", "2 Übungen"),
])
def test_count_and_noun_agree(n: int, noun: str, expected: str) -> None:
    assert anzahl(n, noun) == expected


def test_a_shorter_exam_with_one_found_task_says_it_in_the_singular() -> None:
    befund = Befund(was="Klausur", thema="Kinematik", gefunden=1, gewuenscht_minuten=45, geschafft_minuten=15)
    note = befund.hinweise()[0]
    assert "Zu „Kinematik“ liegt nur 1 geprüfte Aufgabe in passender Klassenstufe vor" in note, note


def test_one_task_outside_the_focus_is_named_in_the_singular() -> None:
    befund = Befund(was="Arbeitsblatt", thema="Brüche addieren", gefunden=0, einheit="Aufgaben je Niveau",
                    schwerpunkt=("addieren",), schwerpunkt_thema="Brüche und Dezimalzahlen", ausserhalb=1)
    assert befund.optionen()[0] == "das ganze Thema „Brüche und Dezimalzahlen“ nehmen (1 weitere geprüfte " \
                                   "dreistufige Aufgabe)"
    assert "1 weitere geprüfte dreistufige Aufgabe zu „Brüche und Dezimalzahlen“ behandelt andere Teile des " \
           "Themas und wurde nicht verwendet" in befund.focus_line()


def test_a_focus_of_several_words_of_one_phrase_is_named_as_the_teacher_wrote_it() -> None:
    befund = Befund(was="Klausur", thema="Waagerechter und schiefer Wurf", schwerpunkt=("Waagerechter", "schiefer",
                    "Wurf"), schwerpunkt_thema="Kinematik", ausserhalb=8)
    assert "Nur Aufgaben zum Schwerpunkt „Waagerechter und schiefer Wurf“: 8 weitere" in befund.focus_line()


def test_a_rating_of_one_star_with_one_learned_task() -> None:
    message = RatingOutcome(stars=1, good_practices=1, preferences={}).message
    assert message == "Danke! 1 Stern gespeichert; 1 Aufgabe in Ihre bewährten Aufgaben übernommen."
