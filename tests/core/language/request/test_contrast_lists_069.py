"""Decision 069 in the request reader: a contrast „A vs. B“ followed by more parts keeps every part and its
contrast; an add-on („plus Wortschatz Holidays“, „dazu …“, „+ Vokabeln …“) is a named part; a kind of task named as a
feature („mit Kartenarbeit“) is no topic."""

from __future__ import annotations

import pytest

from core.checks.topicality import contrast_parts
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract


def _read(text: str):  # noqa: ANN202
    return extract(text, topic_terms=seeded_lexicon().terms)


def test_a_versus_inside_a_header_list_keeps_both_sides_and_the_next_part() -> None:
    # „vs.“ ended the list: the part was „Massentierhaltung vs“ and Sonderkulturen was lost (brief, stop 26)
    e = _read(
        "Klausur Geographie Kl. 6 Landwirtschaft: Massentierhaltung vs. ökologischer Landbau, Sonderkulturen, "
        "45 Minuten"
    )
    assert e.thema == "Landwirtschaft"
    assert [u.casefold() for u in e.unterthemen] == ["massentierhaltung", "ökologischer landbau", "sonderkulturen"]


def test_a_contrast_read_from_her_words_when_a_head_names_the_topic() -> None:
    said = "Klausur Geographie Kl. 6 Landwirtschaft: Massentierhaltung vs. ökologischer Landbau, Sonderkulturen"
    e = _read(said)
    assert contrast_parts(e.thema or "", e.unterthemen, said) == ["Massentierhaltung", "Ökologischer Landbau"]
    assert contrast_parts(e.thema or "", e.unterthemen, said.replace(" vs.", ",")) == []


@pytest.mark.parametrize("joiner", ["vs.", "versus"])
def test_a_contrast_before_a_list_stays_a_contrast_in_the_topic(joiner: str) -> None:
    e = _read(f"Klausur Biologie Klasse 9: Mitose {joiner} Meiose, Chromosomen, 45 Minuten")
    assert e.unterthemen == ("Mitose", "Meiose", "Chromosomen")
    assert contrast_parts(e.thema or "") == ["Mitose", "Meiose"], e.thema


def test_a_contrast_alone_is_read_as_before() -> None:
    e = _read("Englisch Klasse 6, differenziertes Arbeitsblatt: simple past vs. present perfect")
    assert e.thema and e.thema.casefold() == "simple past vs. present perfect"
    assert [u.casefold() for u in e.unterthemen] == ["simple past", "present perfect"]
    assert [s.casefold() for s in contrast_parts(e.thema)] == ["simple past", "present perfect"]


def test_an_english_contrast_of_lower_case_words_keeps_its_right_side() -> None:
    # „will-future vs. going-to future“ was read as „Will-future“: the right side silently dropped
    e = _read("Englisch Klasse 6 Arbeitsblatt: will-future vs. going-to future")
    assert e.thema == "Will-future vs. going-to future"
    assert e.unterthemen == ("Will-future", "Going-to future")


def test_im_vergleich_zur_keeps_the_left_side() -> None:
    e = _read("Klausur Physik Klasse 8: Reihenschaltung im Vergleich zur Parallelschaltung, 45 Minuten")
    assert e.unterthemen == ("Reihenschaltung", "Parallelschaltung")
    assert contrast_parts(e.thema or "") == ["Reihenschaltung", "Parallelschaltung"]


def test_bzw_inside_a_list_names_both() -> None:
    e = _read("Test Geschichte Kl. 7 Mittelalter: Lehnswesen bzw. Grundherrschaft, Ständegesellschaft, 45 Minuten")
    assert e.unterthemen == ("Lehnswesen", "Grundherrschaft", "Ständegesellschaft")


@pytest.mark.parametrize(
    ("text", "thema", "added"),
    [
        (
            "Englisch Test Kl. 6: will-future and going-to future, plus Wortschatz Holidays, 45 min",
            "will-future and going-to future",
            "holidays",
        ),
        ("Englisch Test Klasse 7: simple past, dazu Wortschatz Travelling, 30 Minuten", "simple past", "travelling"),
        (
            "Englisch Test Klasse 6: present progressive + Vokabeln Clothes, 30 Minuten",
            "present progressive",
            "clothes",
        ),
        ("Erdkunde 7 Klassenarbeit Klimazonen, außerdem Klimadiagramme, 45 Minuten", "klimazonen", "klimadiagramme"),
    ],
)
def test_an_add_on_is_a_named_part(text: str, thema: str, added: str) -> None:
    e = _read(text)
    assert (e.thema or "").casefold() == thema
    assert [u.casefold() for u in e.unterthemen][-1:] == [added], e.unterthemen


def test_an_add_on_that_says_how_the_material_is_made_is_no_part() -> None:
    e = _read("Mathe Klasse 7 Test Prozentrechnung, plus Lösungen, 30 Minuten")
    assert e.thema == "Prozentrechnung" and e.unterthemen == ()


@pytest.mark.parametrize(
    ("text", "thema"),
    [
        ("Klassenarbeit Geographie Klasse 7 Klimazonen mit Kartenarbeit, 45 Minuten", "Klimazonen"),
        ("Mathe Klasse 7 Klassenarbeit Prozentrechnung mit Textaufgabe, 45 Minuten", "Prozentrechnung"),
        ("Klassenarbeit Mathe Klasse 8 lineare Funktionen mit Textaufgaben, 45 Minuten", "Lineare Funktionen"),
    ],
)
def test_a_kind_of_task_named_as_a_feature_is_no_topic(text: str, thema: str) -> None:
    assert _read(text).thema == thema
