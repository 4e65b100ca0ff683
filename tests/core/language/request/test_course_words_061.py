"""Decision 061: words about the class and the shape of the task are no topic. Course and level words (Grundkurs,
„advanced course“, gA/eA, „auf grundlegendem Anforderungsniveau“, „Niveau: erhöht“) set the Niveau and never become
the Thema; the English „for (my) year 12 …“ leads to the class; a task shape („analysis of a newspaper article plus
comment“, „mit Sätzen aus einem Märchen“) names no topic; a topic after a spaced slash is kept as a part. Examples of
their own, none of them in the request suite. Read with the seeded subject lexicon, as the offline model reads them."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.language.request.extraction import Extraction
from tests.core.chat.test_request_chat import chat


def _read(message: str) -> Extraction:
    return extract(message, topic_terms=seeded_lexicon().terms)


# --- course and level words set the Niveau and are no topic -------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "niveau", "klasse", "thema"),
    [
        (
            "Physik Klausur Jgst. 12, erhöhtes Anforderungsniveau: Thema Elektromagnetische Induktion, 180 Minuten",
            "erhoeht",
            12,
            "Elektromagnetische Induktion",
        ),
        (
            "Chemie Klausur Q2 auf grundlegendem Anforderungsniveau: Kunststoffe, 135 Minuten",
            "grundlegend",
            13,
            "Kunststoffe",
        ),
        (
            "Geschichte Klausur Jahrgang 11, Niveau: erhöht – Thema Reformation, 90 Minuten",
            "erhoeht",
            11,
            "Reformation",
        ),
        ("Bio gA Q1 Klausur Enzyme, 135 Minuten", "grundlegend", 12, "Enzyme"),
        ("Mathe Klausur EF eA: Exponentialfunktionen, 90 Minuten", "erhoeht", 11, "Exponentialfunktionen"),
        (
            "Exam for my year 13 advanced course on the Harlem Renaissance, 180 minutes",
            "erhoeht",
            13,
            "Harlem Renaissance",
        ),
        ("Worksheet for the year 11 basic course: Canada", "grundlegend", 11, "Canada"),
    ],
)
def test_a_level_word_sets_the_niveau_and_is_no_topic(message: str, niveau: str, klasse: int, thema: str) -> None:
    e = _read(message)
    assert (e.niveau, e.klassenstufe, e.thema, e.unterthemen) == (niveau, klasse, thema, ())


def test_a_course_in_the_lower_school_sets_no_oberstufe_niveau() -> None:
    e = _read("Gesamtschule G-Kurs Klasse 8 Mathe Test lineare Funktionen, 30 Minuten")
    assert (e.niveau, e.klassenstufe, e.thema) == (None, 8, "Lineare Funktionen")


# --- the English „for year N …:“ is no topic ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "klasse", "thema"),
    [
        ("Quiz for year 9: New Zealand, 10 questions", 9, "New Zealand"),
        ("A worksheet for my year 7 class: pets and animals", 7, "Pets and Animals"),
        ("Test for grade 10 (basic course): teenage life in Ireland, 30 minutes", 10, "Teenage life in Ireland"),
    ],
)
def test_for_year_n_leads_to_the_class(message: str, klasse: int, thema: str) -> None:
    e = _read(message)
    assert (e.klassenstufe, e.thema) == (klasse, thema)


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        (
            "Englisch Q1 Klausur: The Struggle for Independence in India, 135 Minuten",
            "Struggle for Independence in India",
        ),
        ("Quiz for year 10 on the fight for civil rights, 10 questions", "Fight for civil rights"),
    ],
)
def test_for_inside_a_topic_stays(message: str, thema: str) -> None:
    assert _read(message).thema == thema


# --- a task shape names no topic ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        (
            "Englisch Klausur Q2: Thema Multicultural Britain – analysis of a cartoon plus comment, 180 Minuten",
            "Multicultural Britain",
        ),
        ("Geschichte Q1 Klausur: Imperialismus, Analyse einer Rede und Stellungnahme, 135 Minuten", "Imperialismus"),
        ("Deutsch 6 Test Zeitformen mit Sätzen aus einer Sage, 30 Minuten", "Zeitformen"),
        ("English worksheet year 6: plurals, with sentences from a fairy tale", "Plurals"),
        ("Physik Q1 Grundkurs, Klausur mit Auswertung eines Experiments: Schwingungen, 135 Minuten", "Schwingungen"),
        ("Geschichte 9 Klausur mit Analyse einer Karikatur zur Weimarer Republik, 45 Minuten", "Weimarer Republik"),
    ],
)
def test_a_task_shape_is_no_topic(message: str, thema: str) -> None:
    e = _read(message)
    assert (e.thema, e.unterthemen) == (thema, ())


@pytest.mark.parametrize(
    "message",
    [
        "Englisch Klausur Q2 Leistungskurs: analysis of a speech plus comment, 180 Minuten",
        "Geschichte 8 Klassenarbeit mit Analyse einer Karikatur, 45 Minuten",
    ],
)
def test_a_task_shape_alone_names_no_topic(message: str) -> None:
    assert _read(message).thema is None


def test_one_kind_of_task_on_a_text_is_still_the_topic_when_nothing_else_is() -> None:
    assert _read("Deutsch 8 Klassenarbeit Analyse einer Ballade, 90 Minuten").thema == "Ballade"


def test_a_math_area_named_like_a_task_stays_the_topic() -> None:
    e = _read("Mathe LK Q2 Klausur: Analysis – Integralrechnung und Rotationskörper, 180 Minuten")
    assert (e.thema, e.unterthemen) == ("Analysis", ("Integralrechnung", "Rotationskörper"))


# --- a topic after a spaced slash is a part, never dropped --------------------------------------------------------


def test_a_topic_after_a_spaced_slash_is_kept_as_a_part() -> None:
    e = _read("Englisch Quiz Klasse 11: The USA and immigration / the Mexican border, 10 Fragen")
    assert e.unterthemen == ("The USA and immigration", "The Mexican border")


# --- the request of the morning, through the real chat ------------------------------------------------------------


def test_the_commonwealth_quiz_is_about_the_commonwealth_and_brexit(db: Session, as_teacher) -> None:  # noqa: ANN001
    """Seen on main at stop 25: the quiz was titled „Übung: For“, the real topic was lost."""
    request = "H5P quiz for year 12 basic course: Great Britain and the Commonwealth / Brexit, 12 questions"
    results, args = chat(db, as_teacher, request)
    assert args is not None, results[-1].reply
    assert (args["fach"], args["klassenstufe"], args["niveau"], args["material_type"]) == (
        "englisch",
        12,
        "grundlegend",
        "h5p",
    )
    assert args["thema"] == "Great Britain and the Commonwealth / Brexit"
    assert args["unterthemen"] == ["Great Britain and the Commonwealth", "Brexit"]
    reply = results[-1].reply
    assert "„Great Britain and the Commonwealth / Brexit“" in reply and "Übung: For" not in reply
    # the bank has Commonwealth questions and none on Brexit: the options say so and one takes the Commonwealth topic
    results, _ = chat(db, as_teacher, request, "1")
    title = results[-1].reply.split("**")[1]
    assert title.startswith("Übung: ") and "Commonwealth" in title, results[-1].reply
