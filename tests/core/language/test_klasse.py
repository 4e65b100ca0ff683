"""Klasse, Klassenstufe and Oberstufe Niveau in teacher text (core.language.klasse), as tables."""

from __future__ import annotations

import pytest

from core.language.klasse import bare_klasse, oberstufe_of, parse_klasse
from core.language.text import fold

CASES: list[tuple[str, int | None, str | None, str | None]] = [  # text, stufe, klasse, niveau
    ("Mathe 7 Klausur Terme", 7, None, None),
    ("Kl. 10 Physik", 10, None, None),
    ("Kl.9 Deutsch", 9, None, None),
    ("7. Klasse Bio", 7, None, None),
    ("Klassenstufe 9", 9, None, None),
    ("Jg 12 Deutsch", 12, None, None),
    ("Jahrgang 12", 12, None, None),
    ("Jgst. 12", 12, None, None),
    ("klasse8 test", 8, None, None),
    ("für die 10a", 10, "10a", None),
    ("für die 10 a", 10, "10a", None),
    ("Q1", 12, None, None),
    ("Q2 Klausur", 13, None, None),
    ("EF", 11, None, None),
    ("in der E-Phase", 11, None, None),
    ("Chemie LK 12", 12, None, "erhoeht"),
    ("GK 12 Bio", 12, None, "grundlegend"),
    ("Leistungskurs Physik Q1", 12, None, "erhoeht"),
    ("Grundkurs Q2", 13, None, "grundlegend"),
    ("Bio-LK Klausur", None, None, "erhoeht"),
    ("Physik-Klausur Kurs 12 (eA), Induktion", 12, None, "erhoeht"),  # „Kurs 12“ names the year (stop 26)
    ("Geographie Kurs 11 Klausur", 11, None, None),
    ("Mathe Kurs 5 Brüche", None, None, None),  # a Kurs number below the Oberstufe is no year
    ("Deutsch-Grundkurs in der 12", 12, None, "grundlegend"),
    ("Englisch-Leistungskurs in Jahrgang 12", 12, None, "erhoeht"),
    ("erhöhtes Anforderungsniveau, Jg. 13", 13, None, "erhoeht"),
    ("Oberstufe", 11, None, None),
    ("Oberstufe Jahrgang 12", 12, None, None),
    ("für die sechste", 6, None, None),
    ("die 9er", 9, None, None),
    ("in der 7, Thema Zuordnungen", 7, None, None),
    ("Klassenarbeit Geschichte 6: Ägypten", 6, None, None),
    ("achte Klasse", 8, None, None),
    ("Klasse sechs", 6, None, None),
    ("I need a test for year 9", 9, None, None),
    ("for grade 11", 11, None, None),
    ("class 9c", 9, "9c", None),
    ("für meine Chemie-10b", 10, "10b", None),
    ("Klassenarbeit Mathe 7 Prozentrechnung mit Rabatt", 7, None, None),  # a word starting like a unit is a topic
    ("Test Physik 8 Stundenplan der Planeten", 8, None, None),
    # not a Klasse
    ("Test 30 Minuten Physik", None, None, None),
    ("Mathe 7 % Rabatt", None, None, None),
    ("Klausur 90 min.", None, None, None),
    ("die 45 Minuten", None, None, None),
    ("für den 12. März", None, None, None),
    ("Aufgabe 3a", None, None, None),
    ("Quiz 10 Fragen", None, None, None),
    ("Mathe 9:30 Uhr", None, None, None),
    ("AFB 30/40/30", None, None, None),
]


@pytest.mark.parametrize(("text", "stufe", "klasse", "niveau"), CASES, ids=[c[0] for c in CASES])
def test_parse_klasse(text: str, stufe: int | None, klasse: str | None, niveau: str | None) -> None:
    found = parse_klasse(fold(text))
    assert (found.stufe, found.klasse, found.niveau) == (stufe, klasse, niveau)


def test_impossible_explicit_klasse_is_a_problem_not_a_value() -> None:
    found = parse_klasse(fold("Klasse 14"))
    assert found.stufe is None and found.problem and "14" in found.problem
    assert parse_klasse(fold("für die 3a")).problem.startswith("Klassenstufe 3 ist eine Grundschulklasse")


@pytest.mark.parametrize(("text", "expected"), [
    ("8", (8, None)), ("8b", (8, "b")), ("die 9er", (9, None)), ("Klasse 10", (10, None)), ("10 a", (10, "a")),
    ("45", None), ("3", None), ("8 Fragen", None), ("Stromkreise", None),
])
def test_bare_klasse_is_only_a_whole_message(text: str, expected: tuple[int, str | None] | None) -> None:
    assert bare_klasse(fold(text)) == expected


@pytest.mark.parametrize(("bundesland", "text", "stufe"), [
    # G9 as in NRW (also when the Bundesland is unknown): EF 11, Q1 12, Q2 13
    ("Nordrhein-Westfalen", "Q2 Klausur", 13), ("Nordrhein-Westfalen", "EF", 11), (None, "Q1", 12),
    ("Niedersachsen", "Grundkurs Q2", 13), ("Unbekanntland", "Q2", 13),
    # G8: one year less
    ("Sachsen", "Q1", 11), ("Sachsen", "Deutsch LK Q2", 12), ("Thüringen", "Q2", 12), ("Baden-Württemberg", "Q2", 12),
    ("Mecklenburg-Vorpommern", "EF", 10),
    # Q1–Q4 are half-years: Q1/Q2 the first Q year, Q3/Q4 the second
    ("Hessen", "Q2", 12), ("Hessen", "Q3 Klausur", 13), ("Berlin", "Q4", 12), ("Brandenburg", "Q1", 11),
    # a named year wins over the Q name of any Land
    ("Sachsen", "Klasse 12", 12), ("Sachsen", "Oberstufe", 11),
])
def test_oberstufe_years_follow_the_bundesland(bundesland: str | None, text: str, stufe: int) -> None:
    assert parse_klasse(fold(text), oberstufe_of(bundesland)).stufe == stufe


def test_q3_names_no_year_where_the_q_phase_counts_years() -> None:
    assert parse_klasse(fold("Q3"), oberstufe_of("Nordrhein-Westfalen")).stufe is None


@pytest.mark.parametrize(("bundesland", "question"), [
    ("Nordrhein-Westfalen", "Q1 (Jahrgang 12) oder Q2 (Jahrgang 13)"),
    ("Sachsen", "Q1 (Jahrgang 11) oder Q2 (Jahrgang 12)"),
    ("Hessen", "Q1/Q2 (Jahrgang 12) oder Q3/Q4 (Jahrgang 13)"),
])
def test_the_year_question_names_the_years_of_the_bundesland(bundesland: str, question: str) -> None:
    assert question in oberstufe_of(bundesland).question()
