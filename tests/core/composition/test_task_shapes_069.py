"""Decision 069: a kind of task the teacher names („mit Kartenarbeit“, „analysis of a newspaper article plus
comment“) is named as missing when no chosen task is of that kind — and only then."""

from __future__ import annotations

from core.composition.shapes import missing
from core.materials.blocks import MaterialBlock
from tests.core.composition.exam_requests import lgs_task as _task

TABLE = MaterialBlock(titel="M1 Klimadaten Kairo", art="tabelle", quelle="nach Atlaskarten, vereinfacht")
MAP = MaterialBlock(titel="M2 Atlaskarte Klimazonen der Erde", art="darstellung", text="(Kartenskizze)")


def test_map_work_is_missing_without_a_map_and_found_with_one() -> None:
    asked = "Klassenarbeit Geographie Klasse 7 Klimazonen mit Kartenarbeit, 45 Minuten"
    table_only = [_task("a", "Werte M1 aus: Beschreibe den Jahresgang der Temperatur.", TABLE)]
    assert missing(asked, table_only) == ["Kartenarbeit"]  # a table made from atlas maps is no map work
    with_map = [*table_only, _task("b", "Beschreibe mithilfe von M2 die Lage der Tropen.", MAP)]
    assert missing(asked, with_map) == []


def test_nothing_is_missing_when_no_kind_was_named() -> None:
    assert missing("Klassenarbeit Geographie Klasse 7 Klimazonen, 45 Minuten", [_task("a", "Nenne zwei Zonen.")]) == []


def test_newspaper_analysis_and_comment_are_each_checked() -> None:
    asked = "Englisch Klausur Jgst. 11: Thema Globalisation – analysis of a newspaper article plus comment"
    speech = [_task("a", "Write a speech for a youth climate summit.")]
    assert missing(asked, speech) == ["Analyse eines Zeitungsartikels", "Kommentar"]
    article = MaterialBlock(titel="M1 Newspaper article: Fast fashion", art="sachtext", text="…")
    both = [
        _task(
            "b",
            "Analyse how the author of the article presents fast fashion.",
            article,
        ),
        _task("c", "Comment on the author's claim that consumers are to blame."),
    ]
    assert missing(asked, both) == []


def test_a_word_problem_is_a_situation_with_its_numbers() -> None:
    asked = "Mathe Klasse 7 Klassenarbeit Prozentrechnung mit Textaufgabe, 45 Minuten"
    bare = [_task("a", "Berechne 15 % von 240 €.")]
    assert missing(asked, bare) == ["Textaufgabe"]
    story = [
        _task(
            "b",
            "Ein Fahrrad kostet im Laden 480 €. Im Sommerschlussverkauf wird der Preis um 15 % gesenkt. "
            "Lea hat 400 € gespart. Prüfe, ob ihr Geld reicht, und berechne den neuen Preis.",
        )
    ]
    assert missing(asked, story) == []
