"""Edits of stored exams: every patch operation makes a new version (parent kept, files re-rendered, check rerun);
invalid patches are refused in German with nothing stored; regeneration; the chat flow with the offline model."""

from __future__ import annotations

import asyncio
import re
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from agents.deps import TurnContext
from core.app.errors import NotFoundError
from core.chat.turn import chat_turn
from core.editing.apply import apply_operations
from core.editing.errors import PatchError
from core.editing.form import form_operations
from core.editing.operators import fitting_operator
from core.editing.patch import patch_material
from core.editing.regenerate import regenerate_from_previous
from core.editing.values import scale_points
from core.editing.versions import material_versions
from core.language.edits import EditUnclear, parse_edit_request
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Klausur
from core.materials.patch_ops import (
    AddSubtask,
    AddTask,
    AufgabeNeu,
    KriteriumNeu,
    MoveSubtask,
    MoveTask,
    RegenerateInstruction,
    RemoveSubtask,
    RemoveTask,
    ReplaceText,
    RewriteErwartung,
    SetAfb,
    SetOperator,
    SetPoints,
    TeilaufgabeNeu,
)
from db import models as m
from db.repos.materials import get_material
from tests.core.editing.conftest import Exam, faults_now, stored

# --- one test per operation ----------------------------------------------------------------------------------------


def test_replace_text_of_a_subtask_and_a_task_title(exam: Exam) -> None:
    text = "Nenne die Regel für die Stromstärke in einer Reihenschaltung und in einer Parallelschaltung."
    out = patch_material(turn=exam.turn, material_id=exam.row.id, operations=[
        ReplaceText(ziel="2a", text=text), ReplaceText(ziel="2", feld="titel", text="Schaltungen im Vergleich")])
    _, k, schueler, lehrer = stored(exam, out)
    assert k.aufgaben[1].teilaufgaben[0].text == text and k.aufgaben[1].titel == "Schaltungen im Vergleich"
    assert text in schueler and "Schaltungen im Vergleich" in lehrer
    assert exam.teil("2a").text not in schueler
    assert out.faults == [] and any("2a: Aufgabentext neu formuliert" in c for c in out.changes)


def test_replace_text_can_replace_one_passage(exam: Exam) -> None:
    alt = exam.teil("2a").text.split()[1]
    out = patch_material(turn=exam.turn, material_id=exam.row.id,
                         operations=[ReplaceText(ziel="2a", alt=alt, text="XYZ-Wort")])
    _, k, schueler, _ = stored(exam, out)
    assert k.aufgaben[1].teilaufgaben[0].text == exam.teil("2a").text.replace(alt, "XYZ-Wort")
    assert "XYZ-Wort" in schueler


def test_set_points_scales_the_criteria_and_recomputes_the_key(exam: Exam) -> None:
    i, teil = next((i, t) for i, a in enumerate(exam.klausur.aufgaben) for t in a.teilaufgaben if t.afb == "II")
    ref = f"{i + 1}{teil.kennung}"
    out = patch_material(turn=exam.turn, material_id=exam.row.id,
                         operations=[SetPoints(ziel=ref, punkte=teil.punkte + 3)])
    new, k, schueler, lehrer = stored(exam, out)
    changed = next(t for t in k.aufgaben[i].teilaufgaben if t.kennung == teil.kennung)
    assert changed.punkte == teil.punkte + 3 == sum(c.punkte for c in changed.erwartung)
    assert len(changed.erwartung) == len(teil.erwartung) and all(c.punkte >= 1 for c in changed.erwartung)
    assert k.gesamtpunkte == exam.klausur.gesamtpunkte + 3
    assert k.notenschluessel[0].max_punkte == k.gesamtpunkte  # the key follows the new total
    assert f"({teil.punkte + 3} P.)" in schueler and f"Gesamtpunktzahl: {k.gesamtpunkte} Punkte" in lehrer
    assert all(str(exam.klausur.gesamtpunkte) + " Punkte" not in h for h in k.hinweise)
    assert new.validation == [] == faults_now(exam, k)


def test_scale_points_keeps_the_sum_and_one_point_per_criterion() -> None:
    assert scale_points([1, 1, 1], 6) == [2, 2, 2]
    assert sum(scale_points([1, 2, 1, 1, 1], 9)) == 9
    assert scale_points([5, 1], 3) == [2, 1]
    with pytest.raises(ValueError):
        scale_points([1, 1, 1, 1], 3)


def test_fewer_points_than_criteria_needs_a_new_erwartungshorizont(exam: Exam) -> None:
    teil = max(exam.klausur.teilaufgaben(), key=lambda t: len(t.erwartung))
    ref = next(f"{a.nummer}{t.kennung}" for a in exam.klausur.aufgaben for t in a.teilaufgaben if t is teil)
    before = exam.count()
    with pytest.raises(PatchError, match="Erwartungshorizont mit weniger Kriterien"):
        patch_material(turn=exam.turn, material_id=exam.row.id, operations=[SetPoints(ziel=ref, punkte=1)])
    assert exam.count() == before


def test_fitting_operator_prefers_the_same_family() -> None:
    ops = {"Nennen": "I", "Beschreiben": "I", "Berechnen": "I", "Erklären": "II", "Bestimmen": "II",
           "Beurteilen": "III", "Planen": "III"}
    assert fitting_operator("Berechnen", "III", ops) == "Bestimmen"
    assert fitting_operator("Nennen", "III", ops) == "Beurteilen"
    assert fitting_operator("Beurteilen", "II", ops) == "Erklären"
    assert fitting_operator("Bestimmen", "I", ops) == "Berechnen"
    assert fitting_operator("Erklären", "III", ops) == "Erklären"  # lifted one level: still fits


def test_set_operator_rewrites_the_leading_verb(exam: Exam) -> None:
    teil = next(t for t in exam.klausur.teilaufgaben() if t.afb == "I")
    ref = next(f"{a.nummer}{t.kennung}" for a in exam.klausur.aufgaben for t in a.teilaufgaben if t is teil)
    neu, verb = ("Beschreiben", "Beschreibe") if teil.operator != "Beschreiben" else ("Nennen", "Nenne")
    out = patch_material(turn=exam.turn, material_id=exam.row.id, operations=[SetOperator(ziel=ref, operator=neu)])
    _, k, schueler, lehrer = stored(exam, out)
    changed = next(t for a in k.aufgaben for t in a.teilaufgaben if f"{a.nummer}{t.kennung}" == ref)
    # the verb that leads the sentence with the demand is the new one (a task may open with its situation)
    assert changed.operator == neu and re.search(rf"(^|[.!?:]\s+){verb}\b", changed.text), changed.text
    assert changed.text in schueler and f"{neu}, AFB {teil.afb}" in lehrer


def test_add_subtask_reletters_the_task(exam: Exam) -> None:
    neu = TeilaufgabeNeu(operator="nennen", text="Nenne zwei Stoffe, die den elektrischen Strom gut leiten.", afb="I",
                         erwartung=[KriteriumNeu(text="nennt ein Metall, z. B. Kupfer", punkte=1),
                                    KriteriumNeu(text="nennt Graphit oder eine Salzlösung", punkte=1)])
    out = patch_material(turn=exam.turn, material_id=exam.row.id,
                         operations=[AddSubtask(ziel="1", teilaufgabe=neu, position=1)])
    _, k, schueler, lehrer = stored(exam, out)
    teile = k.aufgaben[0].teilaufgaben
    assert [t.kennung for t in teile] == [chr(ord("a") + i) for i in range(len(teile))]
    assert teile[0].text == neu.text and teile[0].operator == "Nennen" and teile[0].punkte == 2
    assert teile[1].text == exam.klausur.aufgaben[0].teilaufgaben[0].text  # old 1a is now 1b
    assert neu.text in schueler and "nennt ein Metall, z. B. Kupfer" in lehrer
    assert k.gesamtpunkte == exam.klausur.gesamtpunkte + 2


def test_remove_subtask(exam: Exam) -> None:
    last = exam.klausur.aufgaben[1].teilaufgaben[-1]
    out = patch_material(turn=exam.turn, material_id=exam.row.id,
                         operations=[RemoveSubtask(ziel=f"2{last.kennung}")], force=True)
    _, k, schueler, _ = stored(exam, out)
    assert len(k.aufgaben[1].teilaufgaben) == len(exam.klausur.aufgaben[1].teilaufgaben) - 1
    assert last.text not in schueler and k.gesamtpunkte == exam.klausur.gesamtpunkte - last.punkte


def test_move_subtask(exam: Exam) -> None:
    teile = exam.klausur.aufgaben[1].teilaufgaben
    out = patch_material(turn=exam.turn, material_id=exam.row.id,
                         operations=[MoveSubtask(ziel=f"2{teile[-1].kennung}", position=1)])
    _, k, schueler, _ = stored(exam, out)
    moved = k.aufgaben[1].teilaufgaben
    assert moved[0].text == teile[-1].text and moved[0].kennung == "a" and moved[1].text == teile[0].text
    assert schueler.index(teile[-1].text) < schueler.index(teile[0].text)
    assert out.faults == []


def test_add_task(exam: Exam) -> None:
    aufgabe = AufgabeNeu(titel="Sicherungen im Haushalt", teilaufgaben=[TeilaufgabeNeu(
        operator="Erklären", afb="II", text="Erkläre, warum eine Sicherung bei Überlastung auslöst.",
        erwartung=[KriteriumNeu(text="Stromstärke steigt über den Nennwert", punkte=1),
                   KriteriumNeu(text="Schmelzdraht/Bimetall unterbricht den Stromkreis", punkte=2)])])
    out = patch_material(turn=exam.turn, material_id=exam.row.id, operations=[AddTask(aufgabe=aufgabe)])
    _, k, schueler, lehrer = stored(exam, out)
    assert [a.nummer for a in k.aufgaben] == list(range(1, len(exam.klausur.aufgaben) + 2))
    assert k.aufgaben[-1].titel == "Sicherungen im Haushalt" and k.aufgaben[-1].teilaufgaben[0].quellen
    assert "Sicherungen im Haushalt" in schueler and "Schmelzdraht/Bimetall" in lehrer


def test_remove_task_renumbers(exam: Exam) -> None:
    first = exam.klausur.aufgaben[0]
    out = patch_material(turn=exam.turn, material_id=exam.row.id, operations=[RemoveTask(ziel="1")], force=True)
    _, k, schueler, _ = stored(exam, out)
    assert [a.nummer for a in k.aufgaben] == list(range(1, len(exam.klausur.aufgaben)))
    assert k.aufgaben[0].titel == exam.klausur.aufgaben[1].titel
    assert first.teilaufgaben[0].text not in schueler


def test_move_task_swaps_two_tasks(exam: Exam) -> None:
    ops = parse_edit_request("Tausch Aufgabe 2 und 3")
    out = patch_material(turn=exam.turn, material_id=exam.row.id, operations=ops)
    _, k, schueler, _ = stored(exam, out)
    alt = [a.titel for a in exam.klausur.aufgaben]
    assert [a.titel for a in k.aufgaben] == [alt[0], alt[2], alt[1], *alt[3:]]
    assert [a.nummer for a in k.aufgaben] == list(range(1, len(alt) + 1))
    assert schueler.index(exam.klausur.aufgaben[2].teilaufgaben[0].text) < \
        schueler.index(exam.klausur.aufgaben[1].teilaufgaben[0].text)


def test_swapping_distant_tasks_uses_the_numbering_before_the_patch(exam: Exam) -> None:
    ops = parse_edit_request("Tausche Aufgabe 1 und 3")
    assert ops == [MoveTask(ziel="1", position=3), MoveTask(ziel="3", position=1)]
    new, _ = apply_operations(exam.klausur, ops, operatoren={})
    alt = [a.titel for a in exam.klausur.aufgaben]
    assert [a.titel for a in new.aufgaben] == [alt[2], alt[1], alt[0], *alt[3:]]


def test_rewrite_erwartung_sets_the_points_from_the_criteria(exam: Exam) -> None:
    teil = exam.teil("2a")
    out = patch_material(turn=exam.turn, material_id=exam.row.id, operations=[RewriteErwartung(ziel="2a", erwartung=[
        KriteriumNeu(text="Reihenschaltung: überall dieselbe Stromstärke", punkte=2),
        KriteriumNeu(text="Parallelschaltung: an allen Zweigen dieselbe Spannung", punkte=2),
        KriteriumNeu(text="verwendet Formelzeichen korrekt", punkte=1)])], force=True)
    _, k, _, lehrer = stored(exam, out)
    changed = k.aufgaben[1].teilaufgaben[0]
    assert changed.punkte == 5 and [c.punkte for c in changed.erwartung] == [2, 2, 1]
    assert "verwendet Formelzeichen korrekt" in lehrer and teil.erwartung[0].text not in lehrer
    assert any("Erwartungshorizont neu gefasst (3 Kriterien" in c for c in out.changes)


# --- refused patches: German message, nothing stored ---------------------------------------------------------------


@pytest.mark.parametrize(("operations", "message"), [
    ([SetPoints(ziel="2b", punkte=0)], "mindestens 1 Punkt"),
    ([SetPoints(ziel="7c", punkte=3)], "Aufgabe 7c gibt es nicht"),
    ([SetPoints(ziel="2z", punkte=3)], "Teilaufgabe 2z gibt es nicht"),
    ([SetPoints(ziel="2", punkte=3)], "mehrere Teilaufgaben"),
    ([ReplaceText(ziel="2a", text="   ")], "ist leer"),
    ([ReplaceText(ziel="2a", alt="gibt es nicht im Text", text="x")], "kommt im bisherigen Text nicht vor"),
    ([SetAfb(ziel="2b", afb="IV")], "„IV“ ist kein Anforderungsbereich"),
    ([SetOperator(ziel="2a", operator="Tanzen")], "kennt die Operatorenliste für Physik nicht"),
    ([RewriteErwartung(ziel="2a", erwartung=[KriteriumNeu(text="x", punkte=0)])], "mindestens 1 Punkt"),
    ([RewriteErwartung(ziel="2a", erwartung=[])], "mindestens ein Kriterium"),
    ([MoveTask(ziel="2", position=9)], "Stelle 9 gibt es nicht"),
    ([RemoveTask(ziel="2"), SetPoints(ziel="2a", punkte=3)], "schon gestrichen"),
    ([ReplaceText(ziel="Aufgabe zwei", text="x")], "keine Aufgabenangabe"),
    ([], "keine Änderung"),
    ([MoveTask(ziel="2", position=2)], "keinen Unterschied"),
])
def test_invalid_patches_are_refused_in_german_and_nothing_is_stored(exam: Exam, operations, message) -> None:  # noqa: ANN001
    before = exam.count()
    with pytest.raises(PatchError, match=message):
        patch_material(turn=exam.turn, material_id=exam.row.id, operations=operations, force=True)
    assert exam.count() == before
    assert get_material(db=exam.turn.db, material_id=exam.row.id).content == exam.content


def test_the_last_task_cannot_be_removed() -> None:
    k = Klausur(titel="T", fach="Physik", klassenstufe=8, thema="X", dauer_minuten=10, niveau="Sek I", aufgaben=[
        {"nummer": 1, "titel": "A", "teilaufgaben": [{"label": "a", "operator": "Nennen", "text": "Nenne X.",
                                                       "afb": "I", "punkte": 1,
                                                       "erwartung": [{"text": "X", "punkte": 1}]}]}])
    with pytest.raises(PatchError, match="einzige Aufgabe"):
        apply_operations(k, [RemoveTask(ziel="1")], operatoren={})
    with pytest.raises(PatchError, match="einzige Teilaufgabe"):
        apply_operations(k, [RemoveSubtask(ziel="1a")], operatoren={})


def test_form_operations_turn_the_form_into_a_patch() -> None:
    k = Klausur(titel="T", fach="Physik", klassenstufe=8, thema="X", dauer_minuten=10, niveau="Sek I", aufgaben=[
        {"nummer": n, "titel": f"A{n}", "teilaufgaben": [
            {"label": label, "operator": "Nennen", "text": "Nenne X.", "afb": "I", "punkte": 1,
             "erwartung": [{"text": "X", "punkte": 1}]} for label in "ab"]} for n in (1, 2)])
    assert form_operations("punkte", "1b", " 4 ", k) == [SetPoints(ziel="1b", punkte=4)]
    assert form_operations("zurueck", "2a", "", k) == [MoveSubtask(ziel="2a", position=2)]
    assert form_operations("aufgabe_vor", "2b", "", k) == [MoveTask(ziel="2", position=1)]
    assert form_operations("aufgabe_streichen", "2b", "", k) == [RemoveTask(ziel="2")]
    refused = (("punkte", "1a", "vier", "ganze Zahl"), ("vor", "1a", "", "erster Stelle"),
               ("aufgabe_zurueck", "2a", "", "letzter Stelle"), ("afb", "1a", "", "Neuer Wert"))
    for aktion, ziel, wert, message in refused:
        with pytest.raises(PatchError, match=message):
            form_operations(aktion, ziel, wert, k)


def test_another_teachers_material_cannot_be_patched(exam: Exam, db: Session) -> None:
    other = db.scalar(sa.select(m.Teacher).where(m.Teacher.id != exam.turn.teacher.id, m.Teacher.role == "teacher"))
    turn = TurnContext(db=db, identity=exam.turn.identity, teacher=other)
    with pytest.raises(NotFoundError):
        patch_material(turn=turn, material_id=exam.row.id, operations=[SetPoints(ziel="1a", punkte=5)])


def test_versions_form_a_chain_with_their_files(exam: Exam) -> None:
    v2 = patch_material(turn=exam.turn, material_id=exam.row.id, operations=[SetPoints(ziel="1a", punkte=5)])
    v3 = patch_material(turn=exam.turn, material_id=v2.material_id, operations=[SetPoints(ziel="1a", punkte=6)])
    assert v3.version == 3 and v3.parent_id == v2.material_id
    versions = material_versions(db=exam.turn.db, teacher=exam.turn.teacher, material_id=v3.material_id)
    assert [v.version for v in versions] == [3, 2, 1]
    assert [v.id for v in versions] == [v3.material_id, v2.material_id, exam.row.id]
    assert all(len(v.files) == 4 for v in versions) and versions[2].files[0].data in exam.files.values()
    assert versions[0].aenderungen == v3.changes and versions[2].aenderungen == []


# --- regeneration ---------------------------------------------------------------------------------------------------


def regenerate(exam: Exam, instruction: str):  # noqa: ANN201
    return asyncio.run(regenerate_from_previous(turn=exam.turn, material_id=exam.row.id, instruction=instruction))


def test_regenerate_with_a_shorter_duration(exam: Exam) -> None:
    out = regenerate(exam, "Die Klausur soll nur 30 Minuten dauern")
    new, k, schueler, _ = stored(exam, out)
    assert k.dauer_minuten == 30 and k.gesamtpunkte < exam.klausur.gesamtpunkte
    assert "Dauer: 30 Minuten" in schueler and new.request["dauer_minuten"] == 30
    assert new.validation == [] and any("Dauer 45 → 30 Minuten" in c for c in out.changes)


def test_regenerate_one_task_easier_leaves_the_other_tasks(exam: Exam) -> None:
    out = regenerate(exam, "Mach Aufgabe 3 leichter")
    new, k, schueler, _ = stored(exam, out)
    rang = {"I": 1, "II": 2, "III": 3}
    for alt, neu in zip(exam.klausur.aufgaben[2].teilaufgaben, k.aufgaben[2].teilaufgaben, strict=True):
        assert rang[neu.afb] == max(1, rang[alt.afb] - 1) and neu.punkte == alt.punkte
        assert sum(c.punkte for c in neu.erwartung) == neu.punkte
    for i, (alt, neu) in enumerate(zip(exam.klausur.aufgaben, k.aufgaben, strict=True)):
        if i != 2:
            assert alt.model_dump() == neu.model_dump()
    replaced = [t for t in k.aufgaben[2].teilaufgaben if t.text not in {x.text for x in exam.klausur.teilaufgaben()}]
    for t in replaced:  # real easier tasks from the knowledge base, with their source
        assert t.text in schueler and any(q.art == "good_practice" for q in t.quellen)
    assert new.request["bearbeitung"]["art"] == "regenerate"


def test_regenerate_the_whole_exam_easier_shifts_the_afb_target(exam: Exam) -> None:
    out = regenerate(exam, "Mach die Klausur leichter")
    new, k, _, _ = stored(exam, out)
    assert new.request["afb_ziel_verwendet"] == {"I": 40, "II": 40, "III": 20}
    assert k.afb_punkte["I"] / k.gesamtpunkte > exam.klausur.afb_punkte["I"] / exam.klausur.gesamtpunkte
    assert new.validation == [] and any("30/40/30 → 40/40/20" in c for c in out.changes)


def test_regenerate_with_more_calculation_tasks(exam: Exam) -> None:
    from core.editing.rework import is_calculation

    def rechnungen(k: Klausur) -> int:
        return sum(is_calculation(t.operator, [c.text for c in t.erwartung]) for t in k.teilaufgaben())

    out = regenerate(exam, "Bitte mehr Rechenaufgaben")
    _, k, _, _ = stored(exam, out)
    assert rechnungen(k) > rechnungen(exam.klausur)
    assert k.afb_punkte == exam.klausur.afb_punkte  # swapped at the same AFB and points


def test_regenerate_without_effect_stores_nothing(exam: Exam) -> None:
    before = exam.count()
    with pytest.raises(PatchError, match="dieselbe Fassung"):
        regenerate(exam, "Bitte nochmal neu erzeugen")
    assert exam.count() == before


# --- reading German requests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Gib Aufgabe 1b 6 Punkte", [SetPoints(ziel="1b", punkte=6)]),
    ("6 Punkte für 1b bitte", [SetPoints(ziel="1b", punkte=6)]),
    ("Aufgabe 2 bitte als AFB III", [SetAfb(ziel="2", afb="III")]),
    ("2b als AFB IV", [SetAfb(ziel="2b", afb="IV")]),
    ("Streich Aufgabe 4", [RemoveTask(ziel="4")]),
    ("Bitte 2c löschen", [RemoveSubtask(ziel="2c")]),
    ("Tausch Aufgabe 2 und 3", [MoveTask(ziel="2", position=3)]),
    ("Tausche 2a und 2b", [MoveSubtask(ziel="2a", position=2)]),
    ("Setz Aufgabe 3 an den Anfang", [MoveTask(ziel="3", position=1)]),
    ("Ändere den Operator von 2a auf Erklären", [SetOperator(ziel="2a", operator="Erklären")]),
    ("Formulier 2a verständlicher: Nenne die Regeln.", [ReplaceText(ziel="2a", text="Nenne die Regeln.")]),
    ("Titel von Aufgabe 2: Schaltungen", [ReplaceText(ziel="2", feld="titel", text="Schaltungen")]),
    ("Erwartungshorizont 2a: nennt die Formel (1 P.); rechnet richtig (2 P.)", [RewriteErwartung(
        ziel="2a", erwartung=[KriteriumNeu(text="nennt die Formel", punkte=1),
                              KriteriumNeu(text="rechnet richtig", punkte=2)])]),
    ("Mach Aufgabe 3 leichter", RegenerateInstruction(anweisung="Mach Aufgabe 3 leichter", aufgabe=3,
                                                      richtung="leichter")),
    ("Kannst du 2b etwas anspruchsvoller machen?", RegenerateInstruction(
        anweisung="Kannst du 2b etwas anspruchsvoller machen?", aufgabe=2, teil="b", richtung="schwerer")),
    ("Die Klausur soll nur 30 Minuten dauern", RegenerateInstruction(
        anweisung="Die Klausur soll nur 30 Minuten dauern", dauer_minuten=30)),
    ("Bitte kürzer", RegenerateInstruction(anweisung="Bitte kürzer", laenge="kuerzer")),
    ("Bitte mehr Rechenaufgaben", RegenerateInstruction(anweisung="Bitte mehr Rechenaufgaben", rechnen="mehr")),
    ("Super, genau so!", None),
    ("zu schwer", None),
    ("Aufgabe 3 ist zu schwer", None),
    ("Aufgabe 2 hat 19 Punkte", None),
    ("30/40/30 bitte", None),
    ("Klausur Physik Klasse 10 zu Optik, 45 Minuten", None),
])
def test_parse_edit_request(text: str, expected) -> None:  # noqa: ANN001
    assert parse_edit_request(text) == expected


def test_an_edit_wish_without_the_new_wording_asks_for_it() -> None:
    with pytest.raises(EditUnclear, match="Wie soll 2a genau lauten"):
        parse_edit_request("Formulier 2a verständlicher")


def test_parse_checks_task_references_against_the_material(exam: Exam) -> None:
    with pytest.raises(EditUnclear, match="Aufgabe 7c gibt es in dieser Klausur nicht"):
        parse_edit_request("Gib 7c 3 Punkte", exam.klausur)


# --- the chat flow (offline main model) ----------------------------------------------------------------------------


def test_chat_afb_change_makes_a_new_version_and_says_what_changed(exam: Exam) -> None:
    t = exam.turn
    r = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                  message="2a bitte als AFB III")
    assert r.material_id and r.material_id != str(exam.row.id), r.reply
    new = get_material(db=t.db, material_id=uuid.UUID(r.material_id))
    assert new.parent_id == exam.row.id and new.version == 2
    assert Klausur.model_validate(new.content).aufgaben[1].teilaufgaben[0].afb == "III"
    assert "Version 2" in r.reply and "2a: AFB I → III" in r.reply
    assert "Prüfhinweis" not in r.reply and "Version 1 bleibt" in r.reply
    assert {f["kind"] for f in r.files} == {"schueler_docx", "lehrer_docx", "schueler_pdf", "lehrer_pdf"}

    # the next edit works on the newest version, and praise then rates the edited version
    punkte = Klausur.model_validate(new.content).aufgaben[0].teilaufgaben[0].punkte + 1  # (rebalancing may set 1a)
    r2 = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                   message=f"Gib Aufgabe 1a {punkte} Punkte")
    v3 = get_material(db=t.db, material_id=uuid.UUID(r2.material_id))
    assert v3.parent_id == new.id and v3.version == 3 and "1a:" in r2.reply
    r3 = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                   message="5 Sterne")  # a rating in the chat is explicit (decision 071)
    assert "Danke" in r3.reply
    t.db.expire_all()
    assert get_material(db=t.db, material_id=v3.id).rating == 5
    assert get_material(db=t.db, material_id=exam.row.id).rating is None


def test_chat_make_task_easier(exam: Exam) -> None:
    t = exam.turn
    r = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                  message="Mach Aufgabe 3 leichter")
    assert r.material_id and r.material_id != str(exam.row.id), r.reply
    new = get_material(db=t.db, material_id=uuid.UUID(r.material_id))
    assert new.parent_id == exam.row.id
    k = Klausur.model_validate(new.content)
    before = exam.klausur.aufgaben[2]
    assert sum(AFB_STUFEN.index(x.afb) for x in k.aufgaben[2].teilaufgaben) < \
        sum(AFB_STUFEN.index(x.afb) for x in before.teilaufgaben)
    assert "Version 2" in r.reply and "3a" in r.reply and "→ I" in r.reply


def test_chat_asks_for_the_wording_and_keeps_complaints_as_feedback(exam: Exam) -> None:
    t = exam.turn
    before = exam.count()
    r = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                  message="Formulier 2a verständlicher")
    assert "Wie soll 2a genau lauten" in r.reply and r.material_id is None
    r = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                  message="Aufgabe 3 ist zu schwer")
    assert "Danke" in r.reply and r.material_id is None
    r = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                  message="Gib Aufgabe 7c 3 Punkte")
    assert "7c gibt es nicht" in r.reply
    assert exam.count() == before


def test_chat_shorter_exam_is_regenerated(exam: Exam) -> None:
    t = exam.turn
    r = chat_turn(db=t.db, identity=t.identity, teacher=t.teacher, conversation_id=t.conversation_id,
                  message="Die Klausur soll nur 30 Minuten dauern")
    new = get_material(db=t.db, material_id=uuid.UUID(r.material_id))
    assert new.parent_id == exam.row.id and Klausur.model_validate(new.content).dauer_minuten == 30
    assert "30 Min." in r.reply and "Dauer 45 → 30 Minuten" in r.reply
