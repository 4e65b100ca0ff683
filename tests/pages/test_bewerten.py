"""Schülerantwort prüfen: the page runs alone, offers the teacher's exams, shows the checklist as a suggestion with
evidence and a point range, answers bad input in German — and keeps the pupil's answer out of the database."""

from __future__ import annotations

import uuid

import pytest
from streamlit.testing.v1 import AppTest

from tests.core.assessment.test_assessment import database_rows_containing, physik_exam, store
from tests.pages.conftest import ROOT, fresh_person

PAGE = str(ROOT / "views" / "bewerten.py")


@pytest.fixture(autouse=True)
def page_known(monkeypatch) -> None:  # noqa: ANN001
    import views.ui

    monkeypatch.setitem(views.ui.PAGE_ROLES, "bewerten", {"teacher"})


def page_as(person: uuid.UUID) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["persona_id"] = str(person)
    return at.run()


def check(at: AppTest, answer: str) -> AppTest:
    at.text_area(key="bw_answer").set_value(answer)
    return next(b for b in at.button if b.label == "Antwort prüfen").click().run()


def shown(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.error, *at.subheader]
    return "\n".join(p.value for p in parts)


def test_without_an_exam_the_page_points_to_the_chat(teacher_id) -> None:  # noqa: ANN001
    at = page_as(teacher_id)
    assert not at.exception
    assert any("noch keine Klausur" in i.value and "Chat" in i.value for i in at.info)
    assert any("Vorschlag — die Bewertung liegt bei Ihnen." in i.value for i in at.info)


def test_the_checklist_shows_evidence_and_a_point_range_as_a_suggestion(teacher_id) -> None:  # noqa: ANN001
    store(teacher_id, physik_exam("Ältere Arbeit").model_dump(mode="json"), minutes_ago=30)
    store(teacher_id, physik_exam("Neueste Arbeit").model_dump(mode="json"))
    at = page_as(teacher_id)
    assert not at.exception
    exam_box = at.selectbox(key="bw_exam")
    assert exam_box.options[0].startswith("Neueste Arbeit") and exam_box.options[1].startswith("Ältere Arbeit")
    assert any("weder gespeichert noch an ein Sprachmodell geschickt" in c.value for c in at.caption)

    task_box = next(s for s in at.selectbox if s.key.startswith("bw_task_"))
    task_box.set_value("2a").run()
    at = check(at, "Ich nehme R = U / I.\nR = 6 : 0,25 = 24")
    assert not at.exception
    text = shown(at)
    assert "Vorschlag: 2–3 von 4 Punkten" in text  # formula yes (1), values without units partly (0–1, 1–1)
    assert "Vorschlag — die Bewertung liegt bei Ihnen." in text
    assert "✅ erfüllt" in text and "🟡 teilweise" in text
    assert "> Ich nehme R = U / I\\." in text  # the evidence, quoted literally (markdown escaped)
    assert "24 Ω \\(ohne Einheit\\)" in text


def test_bad_input_is_answered_in_german(teacher_id) -> None:  # noqa: ANN001
    store(teacher_id, physik_exam().model_dump(mode="json"))
    at = page_as(teacher_id)
    at = check(at, "   ")
    assert not at.exception
    assert [e.value for e in at.error] == ["Die Schülerantwort ist leer. Bitte den Text der Antwort einfügen oder eine "
                                           "TXT- oder DOCX-Datei hochladen."]
    at = check(at, "R = 24 Ω. " * 4999 + "R = 24 Ω!!")
    assert not at.exception
    assert any("50.000 Zeichen zu lang" in e.value for e in at.error)
    assert not at.subheader  # no checklist


def test_the_pupils_answer_stays_out_of_the_database_and_can_be_cleared(teacher_id) -> None:  # noqa: ANN001
    store(teacher_id, physik_exam().model_dump(mode="json"))
    marker = f"Schülerin{uuid.uuid4().hex[:8]}"
    at = check(page_as(teacher_id), f"{marker}: Das Voltmeter kommt parallel zur Lampe.")
    assert not at.exception and at.subheader
    assert database_rows_containing(marker) == {}
    at = next(b for b in at.button if b.label == "Eingabe leeren").click().run()
    assert at.text_area(key="bw_answer").value == ""


def test_a_curator_cannot_open_the_page(database) -> None:  # noqa: ANN001
    at = page_as(fresh_person(role="curator", name="Test Kuratorin"))
    assert not at.exception
    assert any("nicht freigegeben" in w.value for w in at.warning)


def test_the_page_runs_inside_the_app_frame(teacher_id) -> None:  # noqa: ANN001
    from tests.pages.conftest import app_as

    store(teacher_id, physik_exam().model_dump(mode="json"))
    at = app_as(teacher_id, "views/bewerten.py")
    assert not at.exception
    assert [t.value for t in at.title] == ["Schülerantwort prüfen"]
    assert at.selectbox(key="bw_exam").options[0].startswith("Klassenarbeit Stromkreise · 9b · ")
