"""Präferenzen page: a saved form changes the next exam; bad input gets German messages and saves nothing."""

from __future__ import annotations

import uuid

import pytest

from core.app.acting import acting
from core.chat.turn import chat_turn
from core.materials.klausur import Klausur
from core.materials.service import material_view
from db import models as m
from db.repos.knowledge import preference_row
from db.session import Identity, unit_of_work
from tests.conftest import fixed_uuid
from tests.pages.conftest import app_as, fresh_person

PAGE = "views/praeferenzen.py"
K = "pf_physik_klausur_"  # widget keys of the physik × Klausur form


def _submit(at):  # noqa: ANN001, ANN202
    return next(b for b in at.button if b.label == "Speichern").click().run()


def _stored(teacher_id: uuid.UUID, agent: str = "klausur") -> dict | None:
    with unit_of_work(Identity.system()) as db:
        row = preference_row(db=db, teacher_id=teacher_id, agent_type=agent, fach="physik")
        return dict(row.content) if row is not None else None


def test_a_preference_edit_changes_the_next_generated_exam(database) -> None:  # noqa: ANN001
    teacher_id = fresh_person(person_id=fixed_uuid("teacher"))  # her id seeds the generated numbers: the same exam
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    at.number_input(key=K + "anzahl").set_value(3)
    for i, share in enumerate((20, 50, 30), 1):
        at.number_input(key=f"{K}afb{i}").set_value(share)
    _submit(at)
    assert not at.exception
    assert any("Gespeichert: Aufgabenanzahl, AFB-Zielverteilung" in s.value for s in at.success)
    shown = "\n".join(md.value for md in at.markdown)
    assert "Aufgaben 3 · _selbst eingetragen am" in shown and "AFB-Ziel 20/50/30 · _selbst eingetragen am" in shown

    with acting(teacher_id) as (db, teacher, identity):
        result = chat_turn(db=db, identity=identity, teacher=teacher,
                           message="Klausur Physik für die 10a zu Stromkreisen, 45 Minuten")
        assert result.session_id is None and result.material_id, result.reply  # no Rückfrage: the AFB is known
        view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(result.material_id))
    exam = Klausur.model_validate(view["content"])
    assert len(exam.aufgaben) == 3
    for afb, target in (("I", 20), ("II", 50), ("III", 30)):
        assert abs(view["afb_anteile"][afb] - target) <= 10, view["afb_anteile"]


def test_own_grading_thresholds_reach_the_teacher_settings(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, PAGE)
    at.radio(key=K + "ns").set_value("eigene Schwellen")
    for n, v in enumerate((90, 80, 65, 50, 25), 1):
        at.number_input(key=f"{K}ns{n}").set_value(v)
    _submit(at)
    assert not at.exception
    assert any("Notenschlüssel" in s.value for s in at.success)
    assert any("eigene Schwellen 90/80/65/50/25" in c.value for c in at.caption)
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.Teacher, teacher_id).settings["notenschluessel_sek1"] == {
            "1": 90, "2": 80, "3": 65, "4": 50, "5": 25}
    assert _stored(teacher_id)["notenschluessel"] == {"1": 90, "2": 80, "3": 65, "4": 50, "5": 25}

    at.radio(key=K + "ns").set_value("Standard")
    _submit(at)
    assert not at.exception
    with unit_of_work(Identity.system()) as db:
        assert "notenschluessel_sek1" not in db.get(m.Teacher, teacher_id).settings
    assert any("Standard 92/81/67/50/30" in c.value for c in at.caption)


def test_lists_and_texts_are_saved_and_can_be_shortened_again(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, PAGE)
    at.text_area(key=K + "vermeiden").set_value("Induktion\n\nHalbleiter\n")
    at.text_area(key=K + "stil").set_value("Alltagskontexte")
    at.selectbox(key=K + "bonus").set_value(True)
    _submit(at)
    assert not at.exception
    assert _stored(teacher_id)["dinge_vermeiden"] == ["Induktion", "Halbleiter"]
    at.text_area(key=K + "vermeiden").set_value("Halbleiter")
    _submit(at)
    assert not at.exception
    stored = _stored(teacher_id)
    assert stored["dinge_vermeiden"] == ["Halbleiter"] and stored["bonusaufgabe"] is True
    assert "Vermeiden Halbleiter · _selbst eingetragen" in "\n".join(md.value for md in at.markdown)


@pytest.mark.parametrize(("fill", "message"), [
    ({"afb1": 30, "afb2": 40, "afb3": 20}, "ergeben zusammen 90 %, nötig sind genau 100 %"),
    ({"afb1": 30, "afb2": 70}, "Bitte auch AFB III ausfüllen"),
    ({"rt1": 70, "rt2": 20}, "Rechnung:Theorie: Die Anteile ergeben zusammen 90 %"),
    ({"vermeiden": "Induktion\ninduktion"}, "„induktion“ steht doppelt in Dinge vermeiden"),
    ({"frei": "x" * 130}, "Weitere Wünsche: „" + "x" * 30 + "…“ ist zu lang (130 Zeichen, höchstens 120)"),
    ({"ns": "eigene Schwellen", "ns2": 95}, "Note 2 (95 %) ist nicht kleiner als Note 1 (92 %)"),
])
def test_bad_input_gets_a_german_message_and_nothing_is_saved(teacher_id, fill, message) -> None:  # noqa: ANN001
    at = app_as(teacher_id, PAGE)
    at.number_input(key=K + "anzahl").set_value(5)  # a valid value in the same form is not saved either
    for name, value in fill.items():
        widget = at.text_area(key=K + name) if name in ("vermeiden", "frei", "stil") else (
            at.radio(key=K + name) if name == "ns" else at.number_input(key=K + name))
        widget.set_value(value)
    _submit(at)
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors and errors[0].startswith("Nichts gespeichert — bitte korrigieren:"), errors
    assert message in errors[0], errors[0]
    assert not at.success
    assert _stored(teacher_id) is None


def test_each_subject_and_material_type_has_its_own_form(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, PAGE)
    at.selectbox(key="pf_agent").set_value("h5p").run()
    assert not at.exception
    assert not [r for r in at.radio if r.label == "Notenschlüssel"]  # thresholds only for exams
    at.number_input(key="pf_physik_h5p_anzahl").set_value(6)
    _submit(at)
    assert not at.exception
    assert _stored(teacher_id, "h5p")["aufgaben_anzahl"] == 6 and _stored(teacher_id) is None
    at.selectbox(key="pf_agent").set_value("klausur").run()
    assert at.number_input(key=K + "anzahl").value is None
    assert any("noch nichts gespeichert" in i.value for i in at.info)
