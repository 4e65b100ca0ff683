"""Issue #10 item 4, decision 052: shapes of a request the reader did not know — a trailing clause naming a part the
material must have, prepositional heads, inflected parts, subject words inside a topic, slashes in a parenthesis,
English topics after a colon. Examples of their own, none of them in the request suite. Read with the seeded
subject lexicon, as the offline model reads them."""

from __future__ import annotations

import pytest

from agents.models.registry import offline_model
from core.evaluation.requests import play
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract


def _read(message: str) -> tuple[str | None, tuple[str, ...]]:
    e = extract(message, topic_terms=seeded_lexicon().terms)
    return e.thema, e.unterthemen


# --- a trailing clause names a part the material must have, beside the topic's own parts -------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        ("Test Bio 7 Fotosynthese, 30 min, Zellatmung sollte auch drin sein", "Fotosynthese", ("Zellatmung",)),
        ("Arbeitsblatt Erdkunde 6 Gradnetz, bitte mit Zeitzonen", "Gradnetz", ("Zeitzonen",)),
        ("Quiz Physik 8 Mechanik inkl. Hebel und Flaschenzug, 10 Fragen", "Mechanik", ("Hebel", "Flaschenzug")),
        ("Klausur Geschichte 11 Reformation, auch Bauernkrieg, 90 Minuten", "Reformation", ("Bauernkrieg",)),
        ("Klausur Mathe 11 Analysis unter besonderer Berücksichtigung der Extremwertprobleme, 135 Minuten",
         "Analysis", ("Extremwertprobleme",)),
        ("Test Mathe 9 Quadratische Gleichungen und Satz des Pythagoras, 45 min, die pq-Formel muss vorkommen",
         "Quadratische Gleichungen und Satz des Pythagoras",
         ("Quadratische Gleichungen", "Satz des Pythagoras", "pq-Formel")),
    ],
)
def test_a_must_have_clause_adds_its_part(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


def test_the_broken_promise_of_the_tuned_suite_keeps_its_topic() -> None:
    """content.yaml ph-energie-9: the topic was „Wirkungsgrad“ alone, „Energie und Leistung“ was lost."""
    message = "Klassenarbeit Physik 9 Energie und Leistung, 45 Minuten, Wirkungsgrad soll vorkommen"
    assert _read(message) == ("Energie und Leistung", ("Wirkungsgrad",))


def test_an_emphasis_named_alone_is_the_topic() -> None:
    assert _read("Mathe 8 Test mit Schwerpunkt auf Termumformungen, 30 Minuten") == ("Termumformungen", ())


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        ("Klausur Mathe 8 lineare Funktionen, 45 Minuten, bitte mit Lösungen", "Lineare Funktionen"),
        ("Arbeitsblatt Bio 5 Haustiere, auch gerne kürzer", "Haustiere"),
        ("Klausur Physik 9 Elektrischer Widerstand, 45 min, auch mit Erwartungshorizont", "Elektrischer Widerstand"),
    ],
)
def test_a_wish_about_the_material_names_no_part(message: str, thema: str) -> None:
    assert _read(message) == (thema, ())


def test_the_facts_of_a_request_stay_when_a_clause_is_cut() -> None:
    e = extract("Klassenarbeit Chemie 9 Salze, 45 Minuten, Ionenbindung soll vorkommen",
                topic_terms=seeded_lexicon().terms)
    assert (e.fach, e.klassenstufe, e.dauer_minuten, e.material_type) == ("chemie", 9, 45, "klausur")


# --- inflected parts are named as a title names them ------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        ("Arbeitsblatt Deutsch 6 Rechtschreibung bei Fremdwörtern und Eigennamen",
         "Rechtschreibung bei Fremdwörtern und Eigennamen", ("Fremdwörter", "Eigennamen")),
        ("Quiz Bio 9 zu Viren und Bakterien, 8 Fragen", "Viren und Bakterien", ("Viren", "Bakterien")),
        ("Chemie 8 Test zu Metallen und Nichtmetallen, 30 Minuten", "Metalle und Nichtmetalle",
         ("Metalle", "Nichtmetalle")),
        ("Mathe 9 Test zu quadratischen Funktionen und quadratischen Gleichungen, 45 min",
         "Quadratische Funktionen und quadratische Gleichungen",
         ("Quadratische Funktionen", "Quadratische Gleichungen")),
    ],
)
def test_dative_parts_are_read_in_the_nominative(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


def test_a_dative_after_a_preposition_inside_the_topic_stays() -> None:
    assert _read("Physik 9 Arbeitsblatt zu Eigenschaften von Metallen")[0] == "Eigenschaften von Metallen"


# --- subject words inside a topic --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "fach"),
    [
        ("Geschichte 10 Arbeitsblatt Kunst im Nationalsozialismus", "Kunst im Nationalsozialismus", "geschichte"),
        ("Biologie 8 Test Biologie des Menschen: Verdauung, 30 min", "Biologie des Menschen", "biologie"),
    ],
)
def test_a_subject_word_heading_a_phrase_is_part_of_the_topic(message: str, thema: str, fach: str) -> None:
    e = extract(message, topic_terms=seeded_lexicon().terms)
    assert (e.thema, e.fach, e.problems) == (thema, fach, ())


def test_a_subject_the_workbench_does_not_teach_is_still_declined_when_named_alone() -> None:
    e = extract("Kunst Klasse 7 Test Farbenlehre, 20 min", topic_terms=seeded_lexicon().terms)
    assert e.fach is None and any("Kunst" in p for p in e.problems)


def test_a_second_subject_beside_the_first_is_no_topic() -> None:
    assert _read("Klausur Geschichte/Politik Klasse 9 Weimarer Republik, 45 min") == ("Weimarer Republik", ())


# --- slashes in a parenthesis separate parts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        ("Bio 7 Arbeitsblatt Wirbeltiere (Fische/Amphibien/Reptilien)", "Wirbeltiere",
         ("Fische", "Amphibien", "Reptilien")),
        ("Geschichte 9 Quiz Imperialismus (Ursachen/Folgen), 10 Fragen", "Imperialismus", ("Ursachen", "Folgen")),
        ("Chemie 10 Test Kohlenwasserstoffe (Alkane/Alkene), 30 Minuten", "Kohlenwasserstoffe", ("Alkane", "Alkene")),
    ],
)
def test_slashed_parts_in_a_parenthesis(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


# --- English topics ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        ("Englisch 8 Klausur, 45 Minuten\nTopic: media", "Media"),
        ("Englisch 6 quiz: food vocabulary, 10 Fragen", "Food"),
    ],
)
def test_english_topic_shapes(message: str, thema: str) -> None:
    assert _read(message)[0] == thema


def test_the_offline_assistant_hands_the_must_have_part_on() -> None:
    """What the teacher relies on: the generate_material call carries the topic and the part she asked for."""
    out = play(["Klassenarbeit Physik 8 Optik: Reflexion, 45 Minuten, Brechung soll vorkommen"], offline_model("main"))
    assert out.tool == "generate_material"
    assert out.call is not None
    assert (out.call["thema"], out.call["unterthemen"]) == ("Optik", ["Reflexion", "Brechung"])


# --- a parenthesis holding an example sentence is no list of parts ------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        ("H5P quiz English year 5 present progressive (What are you doing right now?), 10 questions",
         "present progressive"),
        ("Klassenarbeit Englisch Klasse 7 present perfect (e.g. I have never been to London), 45 minutes",
         "present perfect"),
        ("Test Deutsch Klasse 6 Imperativ (Komm sofort her!), 30 Minuten", "Imperativ"),
    ],
)
def test_an_example_sentence_in_parentheses_is_not_a_part(message: str, thema: str) -> None:
    got_thema, parts = _read(message)
    assert (got_thema or "").lower() == thema.lower() and parts == (), (got_thema, parts)
