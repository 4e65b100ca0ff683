"""Topics as a teacher types them, through the real chat (offline models, database): misspelt topic words resolve to
the Fach's topic and the reply says which one was assumed; the kind of work on a text is no topic; two adjectives
sharing one noun are two topics (teacher retest: „Satz des Pythagros“ and „Analyse einer Kurzgeschichte“ were
refused, „waagerechter und schiefer Wurf“ became „Schiefer Wurf“)."""

from __future__ import annotations

import pytest

from tests.core.chat.test_request_chat import chat


@pytest.mark.parametrize(("message", "meant"), [
    ("Klassenarbeit Mathe Klasse 9 Satz des Pythagros, 45 Minuten", "Satz des Pythagoras"),
    ("Arbeitsblatt Bio Klasse 7 Photosythese", "Photosynthese"),
    ("Test Mathe Klasse 6 Bruchrechnug, 30 Minuten", "Bruchrechnung"),
])
def test_a_misspelt_topic_is_resolved_and_the_reply_says_so(db, as_teacher, message: str,  # noqa: ANN001
                                                            meant: str) -> None:
    results, args = chat(db, as_teacher, message)
    reply = results[0].reply
    assert reply.startswith(f"Ich nehme an, Sie meinen „{meant}“."), reply
    assert args is not None and args["thema"] == meant
    assert "Das kann ich nicht gut erstellen" not in reply  # the topic exists in the bank: no refusal


def test_a_correctly_spelt_topic_gets_no_assumption(db, as_teacher) -> None:  # noqa: ANN001
    results, _ = chat(db, as_teacher, "Klassenarbeit Mathe Klasse 9 Satz des Pythagoras, 45 Minuten")
    assert "Ich nehme an" not in results[0].reply


def test_analyse_einer_kurzgeschichte_is_an_exam_on_the_short_story(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klausur Deutsch Klasse 9 Analyse einer Kurzgeschichte, 90 Minuten",
                         "Standard passt")
    assert args is not None and args["thema"] == "Kurzgeschichte", args
    made = results[-1]
    assert made.material_id, made.reply
    assert "Fertig: **Klassenarbeit Deutsch: Kurzgeschichte" in made.reply


def test_the_waagerechte_and_the_schiefe_wurf_are_both_asked_for(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klausur Physik Klasse 11 zum waagerechten und schiefen Wurf, 45 Minuten",
                         "Standard passt")
    assert args is not None and args["thema"] == "Waagerechter und schiefer Wurf", args
    assert args["unterthemen"] == ["Waagerechter Wurf", "Schiefer Wurf"]
    made = results[-1]
    assert made.material_id, made.reply
    assert "Fertig: **Klausur Physik: Waagerechter" in made.reply
    if "Fertig: **Klausur Physik: Waagerechter und schiefer Wurf" not in made.reply:  # the bank lacks it: said
        assert "Zu „Schiefer Wurf“ habe ich keine geprüfte Aufgabe für Klasse 11" in made.reply, made.reply
    # not only tasks on the schiefer Wurf (or none on either); where it stands depends on the AFB balance
    aufgaben = next(line for line in made.reply.splitlines() if line.startswith("- Aufgaben:"))
    assert "Waagerechter Wurf" in aufgaben, aufgaben
