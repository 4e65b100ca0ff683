"""Decision 064: a period that ends no sentence (ordinals in dates and names, abbreviations) never cuts a topic or a
part; a Fach the teacher does not name comes from what the whole request is about, and is asked when it cannot be
decided."""

from __future__ import annotations

import pytest
from pydantic_ai.messages import ModelRequest, TextPart, ToolCallPart, UserPromptPart

from agents.offline.main_rules import main_rules
from core.language.document import MARK
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract, read_topic
from core.language.request.periods import protect, restore


def _read(text: str):  # noqa: ANN202
    return extract(text, topic_terms=seeded_lexicon().terms)


@pytest.mark.parametrize(
    "text",
    [
        "Volksaufstand 17. Juni 1953",
        "Mauerfall am 9. November 1989",
        "Ursachen des 1. Weltkriegs",
        "Deutschland im 20. Jahrhundert",
        "die 2. binomische Formel",
        "Industrialisierung im 19. Jh. und soziale Frage",
        "Wirbeltiere, z. B. Fische",
        "Tiere u. a. Fische",
        "Gründung 753 v. Chr.",
        "Test Kl. 9",
    ],
)
def test_a_period_inside_a_date_name_or_abbreviation_is_marked_and_restored(text: str) -> None:
    marked = protect(text)
    assert len(marked) == len(text) and MARK in marked
    assert restore(marked) == text


@pytest.mark.parametrize(
    "text",
    [
        "Test Geschichte für Klasse 9. Thema: Weimarer Republik",
        "45 Minuten. Bitte mit Lösungen",
        "Revolution 1848. Danke",
    ],
)
def test_a_period_that_ends_a_sentence_stays(text: str) -> None:
    assert protect(text) == text


def test_the_ddr_request_keeps_both_dated_parts() -> None:
    e = _read(
        "Klausur Geschichte Klasse 10 DDR: Volksaufstand 17. Juni 1953 und Mauerbau 1961, 45 min, mit Quellenarbeit"
    )
    assert (e.fach, e.klassenstufe, e.thema, e.dauer_minuten) == ("geschichte", 10, "DDR", 45)
    assert e.unterthemen == ("Volksaufstand 17. Juni 1953", "Mauerbau 1961")


def test_a_date_after_a_preposition_stays_in_the_topic_and_its_part() -> None:
    e = _read("Test Geschichte 9: Mauerfall am 9. November 1989 und Wiedervereinigung, 45 Minuten")
    assert e.klassenstufe == 9 and e.dauer_minuten == 45
    assert e.unterthemen == ("Mauerfall am 9. November 1989", "Wiedervereinigung")
    assert e.thema == "Mauerfall am 9. November 1989 und Wiedervereinigung"


@pytest.mark.parametrize(
    ("text", "thema", "parts"),
    [
        ("Quiz Geschichte 9 Ursachen des 1. Weltkriegs, 10 Fragen", "Ursachen des 1. Weltkriegs", ()),
        ("Arbeitsblatt Mathe 8 zur 2. binomischen Formel", "2. binomische Formel", ()),
        (
            "Test Mathe 8 1. und 2. binomische Formel, 30 Minuten",
            "1. und 2. binomische Formel",
            ("1. binomische Formel", "2. binomische Formel"),
        ),
        # ordinals that qualify a topic make one time span, no parts
        (
            "Quiz Geschichte 7 Kreuzzüge im 11. und 12. Jahrhundert, 8 Fragen",
            "Kreuzzüge im 11. und 12. Jahrhundert",
            (),
        ),
        (
            "Bio 9 Test Genetik: 1. und 2. Mendelsche Regel, 30 min",
            "Genetik",
            ("1. Mendelsche Regel", "2. Mendelsche Regel"),
        ),
        (
            "Test Geschichte 6 Griechenland: Perserkriege und Athen im 5. Jh. v. Chr., 30 Minuten",
            "Griechenland",
            ("Perserkriege", "Athen im 5. Jh. v. Chr."),
        ),
        (
            "Klassenarbeit Geschichte 8 Französische Revolution: Sturm auf die Bastille am 14. Juli 1789 und "
            "Menschenrechte, 45 Minuten",
            "Französische Revolution",
            ("Sturm auf die Bastille am 14. Juli 1789", "Menschenrechte"),
        ),
    ],
)
def test_ordinals_and_dates_in_topics_and_parts(text: str, thema: str, parts: tuple[str, ...]) -> None:
    e = _read(text)
    assert (e.thema, e.unterthemen) == (thema, parts)


def test_facts_around_the_periods_are_read_as_before() -> None:
    e = _read("Test Geschichte für Klasse 9. Thema: Weimarer Republik, 45 Minuten")
    assert (e.klassenstufe, e.thema, e.dauer_minuten) == (9, "Weimarer Republik", 45)
    e = _read("Test Chemie Kl. 9 Alkane und Alkene, 30 Minuten")
    assert (e.klassenstufe, e.thema, e.unterthemen) == (9, "Alkane und Alkene", ("Alkane", "Alkene"))
    e = _read("Quiz Bio 7 Wirbeltiere, z. B. Fische und Vögel, 10 Fragen")  # examples are a remark, no parts
    assert (e.klassenstufe, e.thema, e.unterthemen, e.aufgaben_anzahl) == (7, "Wirbeltiere", (), 10)


def test_an_answer_with_a_date_keeps_it() -> None:
    assert (
        read_topic("Volksaufstand 17. Juni 1953", topic_terms=seeded_lexicon().terms)[0]
        == "Volksaufstand 17. Juni 1953"
    )


def test_the_head_topic_and_its_parts_outweigh_a_shared_word() -> None:
    e = _read("Quiz Nahrungsbeziehungen Klasse 6: Nahrungspyramide und Energiefluss, 8 Fragen")
    assert (e.fach, e.fach_source) == ("biologie", "topic")
    assert e.unterthemen == ("Nahrungspyramide", "Energiefluss")
    assert _read("Test Klasse 6 Nahrungsketten: Produzenten, Konsumenten und Energie, 30 Minuten").fach == "biologie"
    assert _read("Arbeitsblatt Klasse 8 Energieumwandlung: Solarzelle und Dynamo").fach == "physik"


def test_a_fach_only_guessed_from_a_compound_is_asked() -> None:
    # „Verdunkelung“ begins like „Verdun“ (Geschichte), „Energiesparlampen“ like „Energie“: no Fach is decided so
    assert _read("Quiz Klasse 7 Verdunkelung, 8 Fragen").fach is None
    assert _read("Quiz Klasse 6 Energiesparlampen, 8 Fragen").fach is None
    # the word known in full decides
    assert _read("Quiz Klasse 7 Wasserkreislauf: Verdunstung und Niederschlag, 8 Fragen").fach == "geographie"


def test_u_a_names_a_part_like_inkl() -> None:
    e = _read("Klassenarbeit Geschichte 9 Weimarer Republik u. a. Hitlerputsch, 45 Minuten")
    assert (e.thema, e.unterthemen) == ("Weimarer Republik", ("Hitlerputsch",))


def test_bzw_between_shortened_compounds_is_read_as_before() -> None:
    assert _read("Arbeitsblatt Deutsch 8 Haupt- bzw. Nebensätze").thema == "Haupt- bzw. Nebensätze"


def _first_reply(text: str, faecher: str) -> str | dict:
    """The main rules' answer to one message from a teacher whose Fächer the instructions name as agents.main does."""
    instructions = f"Lehrkraft: Frau Test, Nordrhein-Westfalen; Fächer: {faecher}; Klassen: —."
    response = main_rules(seeded_lexicon())(
        [ModelRequest(parts=[UserPromptPart(text)], instructions=instructions)], None
    )  # type: ignore[arg-type]  # the main rules do not read the AgentInfo
    calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
    return calls[0].args_as_dict() if calls else "".join(p.content for p in response.parts if isinstance(p, TextPart))


def test_the_teachers_own_faecher_break_a_tie() -> None:
    text = "Arbeitsblatt Klasse 8 Energieumwandlung"  # a term of the Physik, Biologie and Chemie profiles alike
    assert _read(text).fach is None and set(_read(text).fach_options) == {"physik", "biologie", "chemie"}
    made = _first_reply(text, "Physik, Mathematik")
    assert isinstance(made, dict) and made["fach"] == "physik", made
    asked = _first_reply(text, "Deutsch, Englisch")  # none of hers: asked, never guessed
    assert isinstance(asked, str) and "Für welches Fach?" in asked, asked
    asked = _first_reply(text, "Physik, Chemie")  # two of hers: still a tie
    assert isinstance(asked, str) and "Für welches Fach?" in asked, asked
