"""Assessment aid: a checklist from the Erwartungshorizont with evidence and a point range — a suggestion that reads
the teacher's own exams only, refuses bad input in German, and stores nothing of the pupil's answer."""

from __future__ import annotations

import io
import json
import logging
import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.app.errors import NotFoundError, UserError
from core.assessment.rules import RuleAssessor
from core.assessment.service import (
    HINWEIS,
    MAX_ANSWER_CHARS,
    Assessment,
    CriterionCheck,
    answer_from_upload,
    assess,
    exam_choices,
)
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from db import models as m
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person
from tests.stored import rows_containing

SEEDS = Path(__file__).resolve().parents[3] / "seeds" / "data"


def physik_exam(titel: str = "Klassenarbeit Stromkreise") -> Klausur:
    return Klausur(
        titel=titel, fach="Physik", klassenstufe=9, klasse="9b", thema="Stromkreise", dauer_minuten=45,
        niveau="Sek I",
        aufgaben=[
            Aufgabe(nummer=1, titel="Messen", teilaufgaben=[
                Teilaufgabe(label="a", operator="Beschreiben", afb="I", punkte=4,
                            text="Beschreibe, wie man Stromstärke und Spannung an einer Lampe misst.",
                            erwartung=[Kriterium(text="Amperemeter wird in Reihe zur Lampe in den Stromkreis "
                                                      "geschaltet (Stromkreis dafür auftrennen).", punkte=1),
                                       Kriterium(text="Voltmeter wird parallel zur Lampe an deren Anschlüsse "
                                                      "geschaltet.", punkte=1),
                                       Kriterium(text="Einheit der Stromstärke: Ampere (A).", punkte=1),
                                       Kriterium(text="Einheit der Spannung: Volt (V).", punkte=1)]),
            ]),
            Aufgabe(nummer=2, titel="Ohmsches Gesetz", teilaufgaben=[
                Teilaufgabe(label="a", operator="Berechnen", afb="II", punkte=4,
                            text="Berechne den Widerstand einer Lampe bei 6,0 V und 0,25 A.",
                            erwartung=[Kriterium(text="Ansatz R = U / I notiert.", punkte=1),
                                       Kriterium(text="Einsetzen mit Einheiten: R = 6,0 V / 0,25 A.", punkte=1),
                                       Kriterium(text="Ergebnis R = 24 Ω mit Einheit.", punkte=2)]),
                Teilaufgabe(label="b", operator="Beurteilen", afb="III", punkte=2,
                            text="Beurteile, ob die Lampe ein ohmscher Widerstand ist.",
                            erwartung=[Kriterium(text="Begründetes Urteil.", punkte=2)]),
            ]),
        ])


def store(person: uuid.UUID, content: dict, *, material_type: str = "klausur", minutes_ago: int = 0,
          titel: str | None = None) -> uuid.UUID:
    with unit_of_work(Identity.system()) as db:
        row = m.GeneratedMaterial(teacher_id=person, material_type=material_type, fach="physik", klassenstufe=9,
                                  thema="Stromkreise", titel=titel or content.get("titel", "Material"),
                                  content=content, created_at=datetime.now(UTC) - timedelta(minutes=minutes_ago))
        db.add(row)
        db.flush()
        return row.id


@pytest.fixture
def teacher(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person()


@pytest.fixture
def exam_id(teacher: uuid.UUID) -> uuid.UUID:
    return store(teacher, physik_exam().model_dump(mode="json"))


def test_a_good_answer_gets_a_checklist_with_evidence_and_the_full_range(teacher, exam_id):  # noqa: ANN001
    answer = "Ich nehme R = U / I.\nR = 6,0 V / 0,25 A = 24 Ω. Die Lampe hat also 24 Ohm."
    result = assess(teacher_id=teacher, material_id=exam_id, task_ref="2a", pupil_answer=answer)
    assert isinstance(result, Assessment)
    assert [c.met for c in result.checks] == ["yes", "yes", "yes"]
    assert result.checks[0].evidence == ["Ich nehme R = U / I."]
    assert result.checks[2].evidence == ["R = 6,0 V / 0,25 A = 24 Ω."]  # quoted verbatim from the answer
    assert (result.punkte_min, result.punkte_max, result.max_punkte) == (4, 4, 4)
    assert result.spanne == "4 von 4 Punkten"
    assert result.hinweis == HINWEIS == "Vorschlag — die Bewertung liegt bei Ihnen."
    assert (result.task_ref, result.klausur, result.assessor) == ("2a", "Klassenarbeit Stromkreise", "regelbasiert")


def test_missing_units_and_a_missing_formula_make_a_range(teacher, exam_id):  # noqa: ANN001
    result = assess(teacher_id=teacher, material_id=exam_id, task_ref="2a", pupil_answer="6 : 0.25 = 24")
    assert [c.met for c in result.checks] == ["no", "partly", "partly"]
    assert result.checks[2].gefunden == ["24 Ω (ohne Einheit)"]
    assert result.checks[0].fehlt == ["Formel R = U / I"]
    assert (result.punkte_min, result.punkte_max) == (1, 2)  # 0 + (0–1) + (1–1)
    assert result.spanne == "1–2 von 4 Punkten"


def test_terms_are_found_in_other_word_forms_compounds_and_with_typos(teacher, exam_id):  # noqa: ANN001
    answer = ("Das Amperemeter schaltet man in Reihe mit der Lampe, dafür muss man den Stromkreis öffnen. "
              "Das Voltmeter kommt parallel zur Lampe. Die Stärke des Stroms misst man in Ampere, die Spannung "
              "in Volt. Der Wiederstand spielt keine Rolle.")
    result = assess(teacher_id=teacher, material_id=exam_id, task_ref="1a", pupil_answer=answer)
    assert [c.met for c in result.checks] == ["yes", "yes", "yes", "yes"]
    assert result.checks[1].evidence == ["Das Voltmeter kommt parallel zur Lampe."]
    assert "Stromstärke" in result.checks[2].gefunden  # 'Stärke des Stroms'
    assert result.checks[1].fehlt == ["Anschlüsse"]


def test_an_unrelated_answer_finds_nothing_and_says_so(teacher, exam_id):  # noqa: ANN001
    result = assess(teacher_id=teacher, material_id=exam_id, task_ref="1a",
                    pupil_answer="Photosynthese findet in den Chloroplasten statt.")
    assert [c.met for c in result.checks] == ["no"] * 4
    assert all(c.evidence == [] for c in result.checks)
    assert result.spanne == "0 von 4 Punkten"
    assert any("zu keinem Kriterium" in n and "bitte selbst lesen" in n for n in result.notes)


def test_a_criterion_without_checkable_content_is_left_to_the_teacher(teacher, exam_id):  # noqa: ANN001
    result = assess(teacher_id=teacher, material_id=exam_id, task_ref="2b", pupil_answer="Ja, weil R konstant ist.")
    (check,) = result.checks
    assert not check.automatisch and (check.punkte_min, check.punkte_max) == (0, 2)
    assert any("offen gelassen" in n for n in result.notes)


@pytest.mark.parametrize("ref", ["2a", "2 a", "2a)", "Aufgabe 2a", "2A", " Teilaufgabe 2 a) "])
def test_the_task_ref_is_read_leniently(teacher, exam_id, ref: str):  # noqa: ANN001
    assert assess(teacher_id=teacher, material_id=exam_id, task_ref=ref, pupil_answer="R = 24 Ω").task_ref == "2a"


def test_bad_input_gets_german_messages(teacher, exam_id):  # noqa: ANN001
    def message(**kw) -> str:  # noqa: ANN003
        args = {"teacher_id": teacher, "material_id": exam_id, "task_ref": "2a", "pupil_answer": "R = 24 Ω"} | kw
        with pytest.raises(UserError) as exc:
            assess(**args)
        return exc.value.message

    assert message(pupil_answer="   \n ").startswith("Die Schülerantwort ist leer.")
    too_long = message(pupil_answer="R = 24 Ω. " * 4999 + "R = 24 Ω!!")  # 50 000 characters
    assert "50.000 Zeichen zu lang" in too_long and f"{MAX_ANSWER_CHARS:,}".replace(",", ".") in too_long
    assert "Teilaufgabe 2a" in too_long
    assert message(task_ref="7c") == ("Die Teilaufgabe „7c“ gibt es in dieser Klausur nicht. Vorhanden sind: 1a, 2a, "
                                      "2b.")
    assert message(material_id="kein-material").startswith("Diese Klausur gibt es nicht.")
    assert message(material_id=uuid.uuid4()) == ("Diese Klausur gibt es nicht (oder sie gehört einer anderen "
                                                 "Lehrkraft).")
    andere = fresh_person(name="Andere Lehrkraft")
    with pytest.raises(NotFoundError, match="gehört einer anderen Lehrkraft"):
        assess(teacher_id=andere, material_id=exam_id, task_ref="2a", pupil_answer="R = 24 Ω")
    quiz = store(teacher, {"titel": "Quiz", "fach": "Physik", "klassenstufe": 9, "thema": "x", "fragen": []},
                 material_type="h5p")
    assert message(material_id=quiz).startswith("Das gewählte Material ist keine Klausur")


def test_a_pupils_answer_is_neither_stored_nor_logged(teacher, exam_id, caplog):  # noqa: ANN001
    marker = f"Geheimantwort{uuid.uuid4().hex[:8]}"
    with caplog.at_level(logging.DEBUG):
        assess(teacher_id=teacher, material_id=exam_id, task_ref="2a", pupil_answer=f"{marker}: R = 24 Ω")
        with pytest.raises(UserError):
            assess(teacher_id=teacher, material_id=exam_id, task_ref="9z", pupil_answer=marker)
    assert marker not in caplog.text
    assert database_rows_containing(marker) == {}


def database_rows_containing(text: str) -> dict[str, int]:
    """Every table of the application schema, searched row by row for `text` (as the owner: RLS cannot hide it)."""
    return rows_containing(text)


def test_exam_choices_list_the_teachers_exams_latest_first_with_their_subtasks(teacher):  # noqa: ANN001
    older = store(teacher, physik_exam("Ältere Arbeit").model_dump(mode="json"), minutes_ago=60)
    newer = store(teacher, physik_exam("Neuere Arbeit").model_dump(mode="json"))
    store(teacher, {"titel": "Quiz"}, material_type="h5p")
    store(fresh_person(), physik_exam("Fremde Arbeit").model_dump(mode="json"))
    choices = exam_choices(teacher_id=teacher)
    assert [c.id for c in choices] == [newer, older]
    assert choices[0].label.startswith("Neuere Arbeit · 9b · ")
    assert [t.ref for t in choices[0].tasks] == ["1a", "2a", "2b"]
    assert choices[0].tasks[1].label == "2a) Berechnen · AFB II · 4 Punkte"
    assert choices[0].tasks[1].erwartung[2] == "Ergebnis R = 24 Ω mit Einheit. (2 Punkte)"


def test_an_answer_can_come_from_a_txt_or_docx_file_but_not_from_a_photo():
    from docx import Document

    assert answer_from_upload(filename="antwort.txt", data="R = 24 Ω\n".encode()) == "R = 24 Ω\n"
    doc = Document()
    doc.add_paragraph("Das Amperemeter wird in Reihe geschaltet.")
    buffer = io.BytesIO()
    doc.save(buffer)
    assert answer_from_upload(filename="Antwort.DOCX", data=buffer.getvalue()) == \
        "Das Amperemeter wird in Reihe geschaltet."
    with pytest.raises(UserError, match="TXT- oder DOCX-Datei"):
        answer_from_upload(filename="foto.jpg", data=b"\xff\xd8\xff")
    with pytest.raises(UserError, match="kein Text"):
        answer_from_upload(filename="leer.txt", data=b"   ")
    with pytest.raises(UserError, match="kein Word-Dokument"):
        answer_from_upload(filename="falsch.docx", data=b"nur Text")


def test_another_assessor_can_be_plugged_in(teacher, exam_id):  # noqa: ANN001
    class Scripted:
        name = "Testmodell"

        def check(self, *, task: Teilaufgabe, material: str | None, answer: str) -> list[CriterionCheck]:
            return [CriterionCheck(k.text, k.punkte, "partly", [answer], [], [], 0, k.punkte) for k in task.erwartung]

    result = assess(teacher_id=teacher, material_id=exam_id, task_ref="2a", pupil_answer="R = 24 Ω",
                    assessor=Scripted())
    assert result.assessor == "Testmodell" and result.spanne == "0–4 von 4 Punkten"


# --- the rule-based assessor on the seeded good practices ------------------------------------------------------------


def seeded_tasks() -> list[tuple[str, Teilaufgabe]]:
    tasks = []
    for path in sorted(SEEDS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for gp in data.get("good_practices", []):
            tasks.append((data["fach"], Teilaufgabe(
                label="a", operator=gp["operator"], text=gp["aufgabe"], afb=gp["afb"], punkte=gp["punkte"],
                erwartung=[Kriterium(text=c["kriterium"], punkte=c["punkte"]) for c in gp["erwartung"]])))
    return tasks


def test_seeded_tasks_recognise_their_own_erwartungshorizont_and_not_another_subjects():
    """Calibration: the model answer (the criteria themselves) must be found; an answer to a task of another subject
    must not be taken for a fulfilled criterion."""
    assessor = RuleAssessor()
    tasks = seeded_tasks()
    own = [c.met for _, t in tasks for c in assessor.check(task=t, material=None,
                                                           answer="\n".join(k.text for k in t.erwartung))]
    rng = random.Random(7)
    foreign: list[str] = []
    for fach, t in tasks:
        other = rng.choice([o for f, o in tasks if f != fach])
        answer = "\n".join([other.text, *(k.text for k in other.erwartung)])
        foreign += [c.met for c in assessor.check(task=t, material=None, answer=answer)]
    print(f"\nEigener Erwartungshorizont: {own.count('yes')} von {len(own)} Kriterien erfüllt; "
          f"fremdes Fach: {foreign.count('yes')} erfüllt, {foreign.count('partly')} teilweise von {len(foreign)}")
    assert own.count("yes") >= 0.95 * len(own) and "no" not in own
    assert foreign.count("yes") <= 0.005 * len(foreign) and foreign.count("partly") <= 0.03 * len(foreign)
