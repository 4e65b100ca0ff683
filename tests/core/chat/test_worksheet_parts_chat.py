"""A differentiated worksheet on the parts the teacher named, through the real chat (offline engine, database), on
the real bank (decision 066). Blind review, stop 25: „Reihenschaltung und Parallelschaltung von Lampen“ gave a sheet
on UND/ODER switch circuits with no note — „Schaltung“ and „Schalter hintereinander“ counted as the two parts."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy.orm import Session

from core.materials.differenzierung import DifferenziertesMaterial
from db.repos.materials import get_material
from tests.core.chat.test_request_chat import chat

LAMPEN = "Differenziertes Arbeitsblatt Physik Klasse {k}: Reihenschaltung und Parallelschaltung von Lampen"


def _sheet(db: Session, material_id: str | None) -> DifferenziertesMaterial:
    assert material_id
    return DifferenziertesMaterial.model_validate(get_material(db=db, material_id=uuid.UUID(material_id)).content)


def _tasks(sheet: DifferenziertesMaterial) -> str:
    return " ".join(t for n in sheet.niveaus for t in n.aufgaben)


def test_lamps_in_series_and_in_parallel_get_the_lamp_circuits_not_the_switches(db, as_teacher) -> None:  # noqa: ANN001
    """The bank's Klasse-7/8 task on lamps in series and in parallel is the sheet; no false „fehlt“ note."""
    made = chat(db, as_teacher, LAMPEN.format(k=7))[0][-1]
    sheet = _sheet(db, made.material_id)
    tasks = _tasks(sheet)
    assert "Reihenschaltung" in tasks and "Parallelschaltung" in tasks and "Lampe" in tasks, tasks
    assert "UND-Schaltung" not in tasks and "ODER-Schaltung" not in tasks, tasks
    assert not any("fehlt" in h for h in sheet.hinweise_lehrkraft), sheet.hinweise_lehrkraft


@pytest.mark.xfail(strict=True, reason=(
    "Premise gone (stop 26): the bank's new Klasse-7 lamp sheets (reihen-parallelschaltung d3/d4) are reachable from "
    "Klasse 6, so no grade is left where only the UND/ODER switch sheet fits; it now gets the lamp sheet (with a "
    "false „Reihenschaltung fehlt“ note). Needs a new premise: a topic whose reachable sheets match her words but "
    "cover none of the named parts."))
def test_a_sheet_on_switches_only_is_no_sheet_on_lamps_the_options_come_first(db, as_teacher) -> None:  # noqa: ANN001
    """In Klasse 6 the bank has only the UND/ODER switch task: no sheet is handed out as finished; the reply says what
    exists, and the sheet on it is option 1 — then with a note per missing part."""
    results, _ = chat(db, as_teacher, LAMPEN.format(k=6), "1")
    refusal, taken = results
    assert refusal.material_id is None, refusal.reply
    assert (
        "Zu „Reihenschaltung“ und „Parallelschaltung von Lampen“ habe ich keine geprüfte dreistufige Aufgabe "
        "für Klasse 6. Die passendsten vorhandenen behandeln „Schaltungen mit Schaltern“"
    ) in refusal.reply
    assert "(1) trotzdem das Arbeitsblatt zu „Schaltungen mit Schaltern“ erstellen" in refusal.reply, refusal.reply
    assert "Hochladen" in refusal.reply and "Sprachmodell" in refusal.reply
    assert "so verwenden" not in refusal.reply  # nothing was handed out
    sheet = _sheet(db, taken.material_id)
    for part in ("Reihenschaltung", "Parallelschaltung von Lampen"):
        assert (
            f"Zu „{part}“ habe ich keine geprüfte Aufgabe für Klasse 6 – dieser Teil fehlt." in sheet.hinweise_lehrkraft
        ), sheet.hinweise_lehrkraft


def test_a_sheet_on_the_named_topic_comes_directly_with_notes_on_the_parts_it_lacks(db, as_teacher) -> None:  # noqa: ANN001
    """Decision 063's withdrawn rule refused this sheet: its task is on Enzyme (the pH optimum), so it comes; the
    named parts no task treats are named as missing."""
    made = chat(
        db,
        as_teacher,
        "Differenziertes Arbeitsblatt Biologie Klasse 11: Enzyme (Schlüssel-Schloss-Prinzip, Temperatur)",
    )[0][-1]
    sheet = _sheet(db, made.material_id)
    assert "Enzym" in _tasks(sheet) + sheet.lernziel
    assert (
        "Zu „Schlüssel-Schloss-Prinzip“ habe ich keine geprüfte Aufgabe für Klasse 11 – dieser Teil fehlt."
        in sheet.hinweise_lehrkraft
    ), sheet.hinweise_lehrkraft


def test_a_frame_list_of_aspects_is_no_reason_to_refuse_a_sheet_on_the_topic(db, as_teacher) -> None:  # noqa: ANN001
    """„Ursachen, Verlauf und Folgen“ are aspects of the Kreuzzüge: a sheet on the motives of the crusaders comes
    directly, its motives count as the Ursachen, and the aspects it has no task on are named."""
    made = chat(
        db, as_teacher, "Differenziertes Arbeitsblatt Geschichte Klasse 7: Kreuzzüge – Ursachen, Verlauf und Folgen"
    )[0][-1]
    sheet = _sheet(db, made.material_id)
    assert "Kreuz" in _tasks(sheet) + sheet.lernziel
    notes = " ".join(sheet.hinweise_lehrkraft)
    assert "Zu „Ursachen“" not in notes, notes
    assert "Zu „Folgen“ habe ich keine geprüfte Aufgabe für Klasse 7 – dieser Teil fehlt." in notes, notes
