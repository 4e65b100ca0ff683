"""core.knowledge.preferences: the typed form (German messages), what is stored where, and where each value
came from."""

from __future__ import annotations

import uuid

import pytest

from core.app.acting import acting
from core.app.errors import UserError
from core.chat.turn import chat_turn
from core.knowledge.learning import upsert_preferences
from core.knowledge.preferences import PreferenceForm, load_preferences, save_preferences, validate_form
from core.knowledge.wissenskarte import build_wissenskarte
from core.materials.klausur import Klausur
from db import models as m
from db.repos.knowledge import preference_row
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person


@pytest.fixture
def teacher(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person()


def _stored(teacher_id: uuid.UUID, agent: str = "klausur") -> dict | None:
    with unit_of_work(Identity.system()) as db:
        row = preference_row(db=db, teacher_id=teacher_id, agent_type=agent, fach="physik")
        return dict(row.content) if row is not None else None


# --- the form, without a database ---------------------------------------------------------------------------------


def test_a_full_form_becomes_the_stored_shape_the_builder_reads() -> None:
    form = validate_form({
        "aufgaben_anzahl": 4, "teilaufgaben": True, "bonusaufgabe": False, "rechnung_theorie": [60, 40],
        "notenschluessel": [92, 81, 67, 50, 30], "stil": "  Alltagsnah  ",
        "dinge_vermeiden": "Induktion\n\n Halbleiter ",
        "afb_ziel": [20, 50, 30], "punkte_pro_minute": 1.25, "frei": ["Skizze zu Aufgabe 1"],
    })
    assert form.stored() == {
        "aufgaben_anzahl": 4, "teilaufgaben": True, "bonusaufgabe": False, "rechnung_theorie_ratio": "60:40",
        "afb_ziel": {"I": 20, "II": 50, "III": 30}, "punkte_pro_minute": 1.25,
        "notenschluessel": {"1": 92, "2": 81, "3": 67, "4": 50, "5": 30}, "stil": "Alltagsnah",
        "dinge_vermeiden": ["Induktion", "Halbleiter"], "frei": ["Skizze zu Aufgabe 1"],
    }


def test_an_empty_form_means_no_wishes() -> None:
    assert PreferenceForm().stored()["aufgaben_anzahl"] is None
    stored = validate_form({"afb_ziel": [None, None, None], "rechnung_theorie": [None, None], "stil": "   ",
                            "dinge_vermeiden": ""}).stored()
    assert all(v in (None, []) for v in stored.values())


@pytest.mark.parametrize(("form", "message"), [
    ({"aufgaben_anzahl": 13}, "Aufgabenanzahl: bitte einen Wert von 1 bis 12 eingeben"),
    ({"aufgaben_anzahl": 0}, "Aufgabenanzahl: bitte einen Wert von 1 bis 12 eingeben"),
    ({"aufgaben_anzahl": "drei"}, "Aufgabenanzahl: bitte eine ganze Zahl eingeben"),
    ({"aufgaben_anzahl": 3.5}, "Aufgabenanzahl: bitte eine ganze Zahl eingeben"),
    ({"aufgaben_anzahl": True}, "Aufgabenanzahl: bitte eine ganze Zahl eingeben"),
    ({"punkte_pro_minute": 2.5}, "Punkte pro Minute: bitte einen Wert von 0,5 bis 2,0 eingeben"),
    ({"punkte_pro_minute": "viel"}, "Punkte pro Minute: bitte eine Zahl eingeben"),
    ({"teilaufgaben": "ja"}, "Teilaufgaben: bitte „ja“, „nein“ oder „keine Vorgabe“ wählen"),
    ({"stil": "x" * 301}, "Stil: höchstens 300 Zeichen"),
    ({"dinge_vermeiden": ["Induktion", ""]}, "Eintrag 2 ist leer"),
    ({"dinge_vermeiden": ["Induktion", "INDUKTION"]}, "„INDUKTION“ steht doppelt in Dinge vermeiden"),
    ({"dinge_vermeiden": ["a" * 81]}, "ist zu lang (81 Zeichen, höchstens 80)"),
    ({"dinge_vermeiden": [f"Punkt {i}" for i in range(11)]}, "Höchstens 10 Einträge (jetzt 11)"),
    ({"dinge_vermeiden": 5}, "Dinge vermeiden: bitte eine Liste angeben"),
    ({"afb_ziel": [30, 40, 40]}, "AFB-Zielverteilung: Die Anteile ergeben zusammen 110 %"),
    ({"afb_ziel": [30, None, 70]}, "Bitte auch AFB II ausfüllen"),
    ({"afb_ziel": [30, 70]}, "Bitte genau 3 Anteile angeben"),
    ({"afb_ziel": [-10, 60, 50]}, "AFB I muss zwischen 0 und 100 % liegen"),
    ({"rechnung_theorie": [60, 30]}, "Rechnung:Theorie: Die Anteile ergeben zusammen 90 %"),
    ({"notenschluessel": [92, 81, None, 50, 30]}, "Bitte alle fünf Schwellen angeben"),
    ({"notenschluessel": [92, 81, 81, 50, 30]}, "Note 3 (81 %) ist nicht kleiner als Note 2 (81 %)"),
    ({"notenschluessel": [120, 81, 67, 50, 30]}, "Note 1: die Schwelle muss zwischen 1 und 100 % liegen"),
    ({"lieblingsfarbe": "blau"}, "lieblingsfarbe: unbekanntes Feld"),
])
def test_bad_input_is_named_in_german(form: dict, message: str) -> None:
    with pytest.raises(UserError) as err:
        validate_form(form)
    assert err.value.message.startswith("Nichts gespeichert — bitte korrigieren:")
    assert message in err.value.message, err.value.message


def test_several_faults_are_listed_together() -> None:
    with pytest.raises(UserError) as err:
        validate_form({"aufgaben_anzahl": 20, "afb_ziel": [50, 50, 50], "stil": "x" * 400})
    assert err.value.message.count("\n- ") == 3


def test_a_form_that_is_no_mapping_is_refused() -> None:
    with pytest.raises(UserError, match="konnten nicht gelesen werden"):
        validate_form([1, 2, 3])  # type: ignore[arg-type]


# --- saving and loading -------------------------------------------------------------------------------------------


def test_saving_stores_values_with_their_source_and_the_map_shows_them(teacher: uuid.UUID) -> None:
    result = save_preferences(teacher_id=teacher, agent_type="klausur", fach="Physik",
                              form={"aufgaben_anzahl": 3, "afb_ziel": [20, 50, 30], "dinge_vermeiden": "Induktion"})
    assert result.changed == ["Aufgabenanzahl", "AFB-Zielverteilung", "Dinge vermeiden"]
    stored = _stored(teacher)
    assert stored["aufgaben_anzahl"] == 3 and stored["afb_ziel"] == {"I": 20, "II": 50, "III": 30}
    assert stored["quellen"]["aufgaben_anzahl"].startswith("selbst eingetragen am ")
    assert "stil" not in stored  # untouched empty fields are not written
    with acting(teacher) as (db, _, identity):
        text = build_wissenskarte(db=db, identity=identity, agent_type="klausur", fach="physik").text
    assert "Präferenzen: Aufgaben 3; AFB-Ziel 20/50/30; Vermeiden: Induktion" in text

    state = load_preferences(teacher_id=teacher, agent_type="klausur", fach="physik")
    assert state.form.aufgaben_anzahl == 3 and state.form.afb_ziel == [20, 50, 30]
    assert [(v.label, v.value) for v in state.stored] == [("Aufgaben", "3"), ("AFB-Ziel", "20/50/30"),
                                                          ("Vermeiden", "Induktion")]


def test_unchanged_values_keep_where_they_came_from(teacher: uuid.UUID) -> None:
    with acting(teacher) as (db, t, _):
        upsert_preferences(db=db, teacher=t, agent_type="klausur", fach="physik",
                           updates={"aufgaben_anzahl": 4, "afb_ziel": {"I": 30, "II": 40, "III": 30}},
                           source="Bewertung 5★ von „Stromkreise“ am 01.12.2026")
    state = load_preferences(teacher_id=teacher, agent_type="klausur", fach="physik")
    form = state.form.model_dump()
    form["aufgaben_anzahl"] = 5
    save_preferences(teacher_id=teacher, agent_type="klausur", fach="physik", form=form)
    quellen = _stored(teacher)["quellen"]
    assert quellen["afb_ziel"] == "Bewertung 5★ von „Stromkreise“ am 01.12.2026"
    assert quellen["aufgaben_anzahl"].startswith("selbst eingetragen am ")
    again = save_preferences(teacher_id=teacher, agent_type="klausur", fach="physik", form={**form})
    assert again.changed == [] and "Keine Änderungen" in again.message


def test_chat_wishes_show_up_in_the_form(teacher: uuid.UUID) -> None:
    with acting(teacher) as (db, t, _):
        upsert_preferences(db=db, teacher=t, agent_type="klausur", fach="physik",
                           updates={"rechnung_theorie_ratio": "60:40", "afb_verteilung": [20, 40, 40],
                                    "dinge_vermeiden": ["Induktion"], "aufgaben_anzahl": 40},
                           source="Chat am 02.12.2026")
    state = load_preferences(teacher_id=teacher, agent_type="klausur", fach="physik")
    assert state.form.rechnung_theorie == [60, 40] and state.form.afb_ziel == [20, 40, 40]
    assert state.form.dinge_vermeiden == ["Induktion"]
    assert state.form.aufgaben_anzahl is None  # a stored value that no longer validates starts empty
    assert {v.label: v.quelle for v in state.stored}["Rechnung:Theorie"] == "Chat am 02.12.2026"


def test_bad_input_saves_nothing(teacher: uuid.UUID) -> None:
    with pytest.raises(UserError):
        save_preferences(teacher_id=teacher, agent_type="klausur", fach="physik",
                         form={"aufgaben_anzahl": 3, "afb_ziel": [10, 10, 10]})
    with pytest.raises(UserError, match="Unbekannte Material-Art"):
        save_preferences(teacher_id=teacher, agent_type="quiz", fach="physik", form={"aufgaben_anzahl": 3})
    with pytest.raises(UserError, match="Unbekanntes Fach"):
        save_preferences(teacher_id=teacher, agent_type="klausur", fach="Alchemie", form={"aufgaben_anzahl": 3})
    assert _stored(teacher) is None


def test_own_thresholds_make_the_next_exams_notenschluessel(teacher: uuid.UUID) -> None:
    save_preferences(teacher_id=teacher, agent_type="klausur", fach="physik",
                     form={"notenschluessel": [90, 80, 65, 50, 25], "afb_ziel": [30, 40, 30]})
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.Teacher, teacher).settings["notenschluessel_sek1"] == {
            "1": 90, "2": 80, "3": 65, "4": 50, "5": 25}
    state = load_preferences(teacher_id=teacher, agent_type="klausur", fach="physik")
    assert state.schwellen == [90, 80, 65, 50, 25] and "eigene Schwellen 90/80/65/50/25" in state.notenschluessel_gilt

    with acting(teacher) as (db, t, identity):
        result = chat_turn(db=db, identity=identity, teacher=t,
                           message="Klausur Physik für die 10a zu Stromkreisen, 45 Minuten")
        assert result.material_id, result.reply
        row = db.get(m.GeneratedMaterial, uuid.UUID(result.material_id))
        exam = Klausur.model_validate(row.content)
    assert exam.notenschema.art == "sek1_6" and exam.notenschema.schwellen_prozent == [90, 80, 65, 50, 25]

    save_preferences(teacher_id=teacher, agent_type="klausur", fach="physik", form={"notenschluessel": None})
    with unit_of_work(Identity.system()) as db:
        assert "notenschluessel_sek1" not in db.get(m.Teacher, teacher).settings
    assert _stored(teacher)["notenschluessel"] is None

