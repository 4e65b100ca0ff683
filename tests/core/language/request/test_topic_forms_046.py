"""Issue #10 item 4, cause A1 of the s22 held-out suite, decision 046: the reader never builds the topic from the
wrong words. Each kind with the held-out suite's own examples (as the lead's brief quotes them) and two more of its
own. Read with the seeded subject lexicon, as the offline model reads them."""

from __future__ import annotations

import pytest

from agents.models.registry import offline_model
from core.evaluation.requests import play
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract, read_topic


def _read(message: str) -> tuple[str | None, tuple[str, ...]]:
    e = extract(message, topic_terms=seeded_lexicon().terms)
    return e.thema, e.unterthemen


def _answer(message: str) -> tuple[str | None, tuple[str, ...]]:
    return read_topic(message, topic_terms=seeded_lexicon().terms)


# --- quoted words: the words as written, one topic, never the first word alone ------------------------------------


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        ("H5P Quiz Deutsch Kl 8 Rechtschreibung „das“ oder „dass“, 10 Fragen", "Das oder dass"),
        ("Quiz Deutsch Klasse 6 „seit“ oder „seid“, 8 Fragen", "Seit oder seid"),
        ("Arbeitsblatt Deutsch 7 zu „wider“ und „wieder“", "Wider und wieder"),
        ("Test Englisch Klasse 8 'since' oder 'for', 20 min", "Since oder for"),
    ],
)
def test_quoted_words_are_one_topic(message: str, thema: str) -> None:
    assert _read(message) == (thema, ())


def test_a_single_quoted_title_stays_the_topic() -> None:
    assert _read("H5P Geschichte 10 zum Schlagwort „Wirtschaftswunder“, 8 Fragen") == ("Wirtschaftswunder", ())


# --- a verb saying what pupils do is no part of the topic -------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        (
            "Arbeitsblatt Deutsch 6 auf drei Niveaus: Satzglieder bestimmen (Subjekt, Prädikat, Objekte)",
            "Satzglieder",
            ("Subjekt", "Prädikat", "Objekte"),
        ),
        ("Chemie 9 Quiz Oxidationszahlen bestimmen, 10 Fragen", "Oxidationszahlen", ()),
        ("Deutsch 8 Test Stilmittel erkennen und benennen, 30 Minuten", "Stilmittel", ()),
        ("Mathe 8 Test lineare Gleichungen lösen, 30 Minuten", "Lineare Gleichungen", ()),
    ],
)
def test_an_activity_verb_is_no_part_of_the_topic(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        ("Mathe 6 Arbeitsblatt Brüche kürzen und erweitern", "Brüche kürzen und erweitern"),
        ("Deutsch 5 Arbeitsblatt Adjektive steigern", "Adjektive steigern"),
    ],
)
def test_a_verb_that_names_the_operation_stays(message: str, thema: str) -> None:
    """Kürzen and Steigern are what the topic is about, not what pupils do with some topic."""
    assert _read(message)[0] == thema


def test_an_answer_with_an_activity_verb_names_the_topic() -> None:
    assert _answer("Satzglieder bestimmen") == ("Satzglieder", ())
    assert _answer("Zeitformen bestimmen") == ("Zeitformen", ())


# --- „X und Y“: two topics, a header noun with its members, a fixed pair ------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        (
            "diff. AB Physik 10 gleichmäßig beschleunigte Bewegung und freier Fall, 3 Niveaus",
            "Gleichmäßig beschleunigte Bewegung und freier Fall",
            ("Gleichmäßig beschleunigte Bewegung", "Freier Fall"),
        ),
        ("H5P Quiz Bio Klasse 7 Sinnesorgane: Auge und Ohr, 10 Fragen", "Sinnesorgane", ("Auge", "Ohr")),
        ("H5P Quiz Bio Klasse 7 Sinnesorgane Auge und Ohr, 10 Fragen", "Sinnesorgane", ("Auge", "Ohr")),
        ("Quiz Bio 8 Organe Herz und Lunge, 10 Fragen", "Organe", ("Herz", "Lunge")),
        (
            "Physik 9 Arbeitsblatt gleichförmige Kreisbewegung und Zentripetalkraft",
            "Gleichförmige Kreisbewegung und Zentripetalkraft",
            ("Gleichförmige Kreisbewegung", "Zentripetalkraft"),
        ),
    ],
)
def test_two_topics_are_two_parts(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        (
            "H5P Quiz Geographie Klasse 7 Europa – Staaten und Hauptstädte, 12 Fragen",
            "Europa",
            ("Staaten und Hauptstädte",),
        ),
        (
            "H5P Quiz Geographie Klasse 7 Europa: Staaten und Hauptstädte, 12 Fragen",
            "Europa",
            ("Staaten und Hauptstädte",),
        ),
        (
            "Differenziertes Arbeitsblatt Geschichte Klasse 5 Steinzeit: Jäger und Sammler, Sesshaftwerdung",
            "Steinzeit",
            ("Jäger und Sammler", "Sesshaftwerdung"),
        ),
        ("Quiz Geographie 7 Küsten: Ebbe und Flut, 8 Fragen", "Küsten", ("Ebbe und Flut",)),
        (
            "Geschichte 9 Klassenarbeit Industrialisierung: Arm und Reich, 45 Minuten",
            "Industrialisierung",
            ("Arm und Reich",),
        ),
    ],
)
def test_a_fixed_pair_is_one_part(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


def test_a_pair_of_topics_of_their_own_stays_two_parts() -> None:
    """Licht and Schatten are each a topic of Physik: the teacher may mean both parts (dev label)."""
    assert _read("Klassenarbeit Physik 7c Licht und Schatten 45 Minuten")[1] == ("Licht", "Schatten")


# --- „A or B“ in English grammar ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        ("English test year 8: gerund or infinitive, 30 min", "Gerund or infinitive", ("Gerund", "Infinitive")),
        (
            "English worksheet year 8: present perfect or simple past",
            "Present perfect or simple past",
            ("Present perfect", "Simple past"),
        ),
        ("Englisch 8 Test will or going to, 20 Minuten", "Will or going to", ("Will", "Going to")),
        (
            "Englisch Klasse 9 Test if-clauses type 1 or type 2, 30 Minuten",
            "If-clauses type 1 or type 2",
            ("If-clauses type 1", "If-clauses type 2"),
        ),
        (
            "Worksheet for year 10: defining or non-defining relative clauses",
            "Defining or non-defining relative clauses",
            ("Defining relative clauses", "Non-defining relative clauses"),
        ),
    ],
)
def test_grammar_topics_contrasted_are_both_parts(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        ("Englisch Test Klasse 6 some/any, 30 Minuten", "Some/any"),
        ("Englisch Test Klasse 6 some and any, 30 Minuten", "Some and any"),
        ("English quiz year 6: this/that/these/those, 10 questions", "This/that/these/those"),
        ("Englisch Klasse 5 Arbeitsblatt a/an", "A/an"),
    ],
)
def test_words_contrasted_are_one_topic(message: str, thema: str) -> None:
    assert _read(message) == (thema, ())


def test_a_slash_between_subjects_or_word_endings_is_no_topic() -> None:
    assert _read("Klassenarbeit Physik/Chemie Klasse 8")[0] is None
    assert _read("Test für alle Schüler/innen der Klasse 7, Englisch")[0] is None


# --- author and work: one reference, the title whole ------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema"),
    [
        (
            "Klassenarbeit Deutsch Klasse 8 Kurzgeschichte (Borchert, Das Brot), 45 Minuten",
            "Kurzgeschichte: Borchert, Das Brot",
        ),
        (
            "Deutsch Klasse 11 Klausur Drama (Schiller, Kabale und Liebe), 135 Minuten",
            "Drama: Schiller, Kabale und Liebe",
        ),
        (
            "Deutsch 7 Test Kurzgeschichte (Ilse Aichinger: Das Fenster-Theater), 45 min",
            "Kurzgeschichte: Ilse Aichinger, Das Fenster-Theater",
        ),
        (
            "Englisch LK 12 Klausur novel (Orwell, Nineteen Eighty-Four), 180 Minuten",
            "Novel: Orwell, Nineteen Eighty-Four",
        ),
    ],
)
def test_author_and_work_are_one_reference(message: str, thema: str) -> None:
    assert _read(message) == (thema, ())


def test_a_genre_with_topics_in_parentheses_keeps_its_parts() -> None:
    """A parenthesis of sub-topics after a topic is no work reference: „Enzyme (Schlüssel-Schloss, Temperatur)“."""
    thema, parts = _read("Differenziertes Arbeitsblatt Biologie Klasse 11 Enzyme (Schlüssel-Schloss, Temperatur)")
    assert (thema, len(parts)) == ("Enzyme", 2)


# --- a year range qualifies a topic, it is never the topic ------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "thema", "parts"),
    [
        (
            "Geschichte LK 12 Klausur: die deutsche Frage 1945–1990 – Teilung, Mauerfall, Wiedervereinigung, "
            "mit Quelleninterpretation, 180 min",
            "Deutsche Frage 1945-1990",
            ("Teilung", "Mauerfall", "Wiedervereinigung"),
        ),
        (
            "Geschichte 9 Klassenarbeit: die Weimarer Republik 1918–1933 – Novemberrevolution, Inflation, "
            "Weltwirtschaftskrise, 45 Minuten",
            "Weimarer Republik 1918-1933",
            ("Novemberrevolution", "Inflation", "Weltwirtschaftskrise"),
        ),
        ("Arbeitsblatt Geschichte 10 die soziale Frage 1850–1900", "Soziale Frage 1850-1900", ()),
    ],
)
def test_a_year_range_qualifies_the_topic(message: str, thema: str, parts: tuple[str, ...]) -> None:
    assert _read(message) == (thema, parts)


def test_a_question_count_is_still_no_topic() -> None:
    """„Frage“ names a topic only after an adjective („die deutsche Frage“), never in „10 Fragen“."""
    assert _read("Quiz Geschichte Klasse 8 Kolonialismus, 10 Fragen")[0] == "Kolonialismus"
    assert _read("H5P Quiz Geschichte Klasse 8, 10 Fragen")[0] is None


def test_a_year_after_a_preposition_keeps_it() -> None:
    assert _read("Deutsch Oberstufe Jg. 11 Klausur Epochenumbruch um 1900, 135 Minuten")[0] == "Epochenumbruch um 1900"


# --- the dialog: the answer read the same way, no question twice, a free reply is no topic (decision 037) --------


@pytest.mark.parametrize(
    ("turns", "thema", "parts"),
    [
        (
            ["Quiz Englisch Klasse 7, 8 Fragen", "gerund or infinitive"],
            "Gerund or infinitive",
            ["Gerund", "Infinitive"],
        ),
        (["Arbeitsblatt Deutsch Klasse 6", "Satzglieder bestimmen"], "Satzglieder", []),
        (["Quiz Deutsch Klasse 8, 10 Fragen", "„das“ oder „dass“"], "Das oder dass", []),
    ],
)
def test_the_answer_to_the_schwerpunkt_question(turns: list[str], thema: str, parts: list[str]) -> None:
    outcome = play(turns, offline_model("main"))
    assert outcome.tool == "generate_material" and outcome.call is not None, outcome.reply
    assert (outcome.call["thema"], outcome.call.get("unterthemen") or []) == (thema, parts)
    assert not outcome.repeated


def test_a_free_reply_to_the_schwerpunkt_question_is_no_topic() -> None:
    outcome = play(["Test Geschichte Klasse 9, 30 Minuten", "egal"], offline_model("main"))
    assert outcome.tool is None and outcome.asked == ["thema"]
    assert not outcome.repeated
