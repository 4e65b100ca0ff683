"""Issue #10, decision 037: the reader keeps every named part — the parts named before „zum Thema Y“ and the
labelled parts of a language exam — and a free reply („Standard passt“, „egal“) is never a topic. Read with the
seeded subject lexicon, as the offline model reads them."""

from __future__ import annotations

import pytest

from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract, read_topic
from core.language.suggestions import suggestion_by_label


def _read(message: str) -> tuple[str | None, tuple[str, ...]]:
    e = extract(message, topic_terms=seeded_lexicon().terms)
    return e.thema, tuple(u.casefold() for u in e.unterthemen)


@pytest.mark.parametrize(("message", "parts"), [
    # „X und Vokabeln zum Thema Y“: X is asked for as much as Y; „Vokabeln“ is the kind of task on Y
    ("Klassenarbeit Englisch Klasse 8 reported speech und Vokabeln zum Thema school life, 45 Minuten",
     ("reported speech", "school life")),
    ("Test Englisch Klasse 7 simple past und Vokabeln zum Thema holidays", ("simple past", "holidays")),
    ("Arbeitsblatt Deutsch Klasse 7 Kommasetzung und Wortarten zum Thema Tiere",
     ("kommasetzung", "wortarten", "tiere")),
    # labelled parts: the labels are no parts
    ("Klassenarbeit Englisch Klasse 8: Grammatik: reported speech, Wortschatz: school life",
     ("reported speech", "school life")),
    ("Klassenarbeit Englisch Klasse 9, Grammatik: passive, Vokabeln: media, 45 Minuten", ("passive", "media")),
    ("Test Englisch Klasse 7 (Grammatik: simple past; Wortschatz: holidays)", ("simple past", "holidays")),
])
def test_every_named_part_is_kept(message: str, parts: tuple[str, ...]) -> None:
    thema, unterthemen = _read(message)
    assert unterthemen == parts, (thema, unterthemen)
    assert thema and not any(w in thema for w in ("Vokabeln", "Grammatik", "Wortschatz")), thema


@pytest.mark.parametrize(("message", "thema"), [
    ("Klassenarbeit Englisch Klasse 8 zum Thema school life", "School Life"),
    ("Dialektische Erörterung zum Thema Handyverbot, Klasse 9", "Erörterung: Handyverbot"),
    ("Klassenarbeit Physik Klasse 9, Thema: Auftrieb", "Auftrieb"),
])
def test_a_single_topic_stays_one(message: str, thema: str) -> None:
    assert _read(message) == (thema, ())


@pytest.mark.parametrize("reply", ["Standard passt", "ok, dann so", "egal", "Wie vorgeschlagen", "passt so, danke"])
def test_a_free_reply_is_no_topic(reply: str) -> None:
    assert _read(reply)[0] is None
    assert read_topic(reply, topic_terms=seeded_lexicon().terms) == (None, ())


@pytest.mark.parametrize("topic", ["Standardabweichung", "Normalverteilung"])
def test_a_topic_that_only_starts_like_a_reply_word_stays(topic: str) -> None:
    assert _read(topic)[0] == topic


def test_what_the_teacher_rejects_is_no_topic() -> None:
    """Review s22 #8: „Nein, School life passt nicht. Dann bitte nur some/any …“ built „Übung: School“."""
    thema, _ = _read("Nein, School life passt nicht. Dann bitte nur some/any mit Essen und Getränken.")
    assert thema is None or "School" not in thema, thema
    assert _read("Arbeitsblatt Deutsch 7: Warum passt das Komma nicht? Kommasetzung")[0] == "Kommasetzung"


AFB = ["30/40/30 (Standard im Fachprofil)", "20/50/30 (mehr Anwendung)", "40/40/20 (mehr Reproduktion)"]


@pytest.mark.parametrize(("answer", "picked"), [
    ("egal", AFB[0]), ("ist mir egal", AFB[0]), ("egal, Standard", AFB[0]),
    ("egal, aber mehr Anwendung", AFB[1]), ("nicht den Standard", None)])
def test_egal_leaves_the_choice_to_the_standard(answer: str, picked: str | None) -> None:
    """Review s22 #17: „egal“ alone was not understood as an answer to the AFB question, „egal, Standard“ was."""
    assert suggestion_by_label(answer, AFB) == picked
