"""A writing form named on a kind of text is the exam's named part (decision 072), through the real chat (offline
engine, database) on the real bank. Lead review, stop 26: „Deutsch 7 Klassenarbeit Inhaltsangabe zu einer
Kurzgeschichte, 45 min“ was read as the topic „Kurzgeschichte“ and gave small tasks on two stories — no
Inhaltsangabe, although the bank holds Klasse-7 Inhaltsangaben of Kurzgeschichten."""

from __future__ import annotations

import uuid

from core.language.request.extract import extract
from core.materials.klausur import Klausur
from db.repos.materials import get_material
from tests.core.chat.test_request_chat import chat


def test_the_form_on_a_kind_of_text_is_a_named_part_and_a_named_work_is_left_alone() -> None:
    for text, thema, part in (
        ("Deutsch 7 Klassenarbeit Inhaltsangabe zu einer Kurzgeschichte, 45 min", "Kurzgeschichte", "Inhaltsangabe"),
        ("Deutsch 7: Inhaltsangabe einer Kurzgeschichte", "Kurzgeschichte", "Inhaltsangabe"),
        ("Klassenarbeit Deutsch Klasse 9: Charakterisierung einer Figur aus einer Kurzgeschichte, 90 Minuten",
         "Kurzgeschichte", "Charakterisierung"),
        ("Klassenarbeit Kurzgeschichten Klasse 7 mit Inhaltsangabe, 45 Minuten", "Kurzgeschichten", "Inhaltsangabe"),
    ):
        e = extract(text)
        assert (e.thema, e.unterthemen) == (thema, (part,)), (text, e.thema, e.unterthemen)
    named = extract("Klassenarbeit Deutsch 8: Inhaltsangabe zu „Zwei Stationen“, 45 Minuten")
    assert "Zwei Stationen" in (named.thema or ""), named.thema


def test_an_inhaltsangabe_exam_has_the_inhaltsangabe_to_write(db, as_teacher) -> None:  # noqa: ANN001
    made = chat(db, as_teacher, "Deutsch 7 Klassenarbeit Inhaltsangabe zu einer Kurzgeschichte, 45 min, AFB 25/45/30")
    result = made[0][-1]
    assert result.material_id, result.reply
    exam = Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(result.material_id)).content)
    texts = [t.text for t in exam.teilaufgaben()]
    writing = [t for t in texts if t.startswith("Verfasse eine Inhaltsangabe")]
    assert writing, texts
    assert "Kurzgeschichte" in writing[0], writing
