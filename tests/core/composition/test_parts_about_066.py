"""A part is covered by a task about it, not by a word it shares with one (decision 066): the last element of a
compound is the wider thing („Schaltung“ is no „Reihenschaltung“), an answer's „in Reihe“ mentions no
„Reihenschaltung“, and a lamp is no „Parallelschaltung von Lampen“. Both ways: real coverage stays covered."""

from __future__ import annotations

import pytest

from core.checks.views import TaskView
from core.composition.parts_lexicon import treats

THEMA = "Reihenschaltung und Parallelschaltung von Lampen"


def _task(text: str, loesung: str = "", titel: str = "") -> TaskView:
    return TaskView(ref="t", text=text, titel=titel, kriterien=(loesung,) if loesung else ())


@pytest.mark.parametrize(
    ("task", "part"),
    [
        (_task("Nenne ein Beispiel aus dem Alltag für eine ODER-Schaltung."), "Parallelschaltung von Lampen"),
        (
            _task(
                "Gib an, ob bei einer UND-Schaltung die Schalter hintereinander oder nebeneinander liegen.",
                "Hintereinander (in Reihe).",
            ),
            "Reihenschaltung",
        ),
        (
            _task(
                "Eine Lampe ist über zwei nebeneinander liegende Schalter angeschlossen. Schalter 1 ist offen. Gib an, "
                "ob die Lampe leuchtet."
            ),
            "Parallelschaltung von Lampen",
        ),
        (
            _task(
                "Das Innenlicht soll angehen, wenn eine Tür offen ist. Skizziere die Schaltung mit zwei Türkontakten.",
                "Beide Türkontakte parallel zueinander, in Reihe mit der Lampe: ODER-Schaltung.",
            ),
            "Reihenschaltung",
        ),
    ],
)
def test_a_word_in_passing_does_not_treat_the_part(task: TaskView, part: str) -> None:
    assert not treats([task], part, THEMA)


@pytest.mark.parametrize(
    ("task", "part", "thema"),
    [
        (
            _task(
                "In einer Reihenschaltung aus zwei Lampen misst du vor der ersten Lampe 0,3 A. Gib die Stromstärke "
                "hinter der zweiten Lampe an."
            ),
            "Reihenschaltung",
            THEMA,
        ),
        (
            _task("Zwei gleiche Lampen sind parallel an 6 V angeschlossen. Gib die Spannung an jeder Lampe an."),
            "Parallelschaltung von Lampen",
            THEMA,
        ),
        (
            _task("Bestimme den Scheitelpunkt der Parabel und gib die Funktion in Scheitelpunktform an."),
            "Scheitelpunktform",
            "Quadratische Funktionen",
        ),
        (_task("Beschreibe, was mit der Zelle bei der Zellteilung geschieht."), "Zellteilung", "Zellteilung"),
        (
            _task("Erkläre die Motive verschiedener Gruppen für die Teilnahme an den Kreuzzügen."),
            "Ursachen",
            "Kreuzzüge",
        ),
    ],
)
def test_a_task_about_the_part_treats_it(task: TaskView, part: str, thema: str) -> None:
    assert treats([task], part, thema)
