"""Follow-ups about the material just made, with the rule model: the files again in a format, a value swapped in one
sub-task, an earlier version back — none of them starts a new material or is stored as a rating."""

from __future__ import annotations

import re
import uuid

import sqlalchemy as sa
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import override_models, rules_model
from core.chat.turn import chat_turn
from core.editing.patch import refusal
from core.materials.klausur import Klausur
from db import models as m
from db.repos.materials import get_material
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def _ratings(db: Session) -> int:
    return db.scalar(sa.select(sa.func.count()).select_from(m.Rating)) or 0


def test_the_exam_as_pdf_offers_its_pdf_files_without_a_new_exam(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    assert first.material_id, first.reply
    again = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                      message="kannst du mir die klausur auch als pdf geben?")
    assert "Für welches Fach" not in again.reply and again.session_id is None
    assert ".pdf" in again.reply and "PDF" in again.reply, again.reply
    assert again.material_id == first.material_id  # the same exam, no new one
    assert any(f["filename"].endswith(".pdf") for f in again.files), again.files


def test_a_value_swapped_in_1a_changes_the_text_and_makes_version_2(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    exam = Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(first.material_id)).content)
    found = [(a, t, v) for a in exam.aufgaben for t in a.teilaufgaben
             if (v := re.search(r"(?<![\d,])(\d+(?:,\d+)?) ?(Ω|V|A|W|mA|kΩ)\b", t.text))]
    assert found, [t.text for t in exam.teilaufgaben()]  # a Stromkreis exam names a value somewhere
    aufgabe, teil, value = found[0]
    ref, old, unit = f"{aufgabe.nummer}{teil.label}", value.group(1), value.group(2)
    new = "24" if old != "24" else "48"
    edited = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                       message=f"und in {ref} bitte {new} {unit} statt {old} {unit}")
    assert "Grundschul" not in edited.reply and edited.material_id != first.material_id, edited.reply
    row = get_material(db=db, material_id=uuid.UUID(edited.material_id))
    assert row.version == 2 and row.parent_id == uuid.UUID(first.material_id)
    new_text = next(t for a in Klausur.model_validate(row.content).aufgaben if a.nummer == aufgabe.nummer
                    for t in a.teilaufgaben if t.label == teil.label).text
    assert f"{new} {unit}" in new_text or f"{new}{unit}" in new_text, new_text
    assert new_text.count(value.group(0)) == teil.text.count(value.group(0)) - 1, new_text


def test_back_to_version_1_restores_it_as_a_new_version_and_is_no_rating(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    v1 = get_material(db=db, material_id=uuid.UUID(first.material_id))
    relative = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                         message="Aufgabe 1 bitte 2 Punkte mehr")
    assert relative.material_id is None and "insgesamt" in relative.reply, relative.reply  # asks, never sets 2
    second = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                       message="Titel von Aufgabe 1: Schaltungen im Alltag")
    assert second.material_id and second.material_id != first.material_id, second.reply
    ratings = _ratings(db)
    back = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                     message="bitte zurück zu version 1")
    assert back.material_id not in (first.material_id, second.material_id), back.reply
    row = get_material(db=db, material_id=uuid.UUID(back.material_id))
    assert row.version == 3 and row.content == v1.content
    assert "Version 1" in back.reply and "wiederhergestellt" in back.reply, back.reply
    assert _ratings(db) == ratings  # not stored as feedback


def test_an_unknown_version_is_named_with_the_versions_there_are(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    back = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                     message="zurück zu Version 7 bitte")
    assert "Version 7 gibt es" in back.reply and "vorhanden: 1" in back.reply, back.reply


def test_a_real_model_sees_the_versions_in_its_context_and_restores_with_the_tool(db: Session, as_teacher) -> None:  # noqa: ANN001
    """The tool design for a real model: the conversation's material and its versions are in the instructions, and
    `restore_material_version` is offered; a scripted model uses exactly what it was told."""
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    second = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                       message="Titel von Aufgabe 1: Schaltungen im Alltag")
    assert second.material_id, second.reply
    seen: dict[str, object] = {}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
        if returns:
            return ModelResponse(parts=[TextPart(str(returns[0].content))])
        seen["tools"] = {t.name for t in info.function_tools}
        seen["instructions"] = messages[-1].instructions or ""
        listed = re.search(r"\[material:([0-9a-f-]{36})\] „[^“]+“ \(klausur\), Version 2; frühere Versionen: "
                           r"Version 1 \[material:([0-9a-f-]{36})\]", str(seen["instructions"]))
        assert listed, seen["instructions"]
        seen["ids"] = listed.groups()
        return ModelResponse(parts=[ToolCallPart("restore_material_version",
                                                 {"material_id": listed.group(1), "version": 1})])

    with override_models(main=rules_model(model, model_name="claude-sonnet-4-6")):
        back = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                         message="Bitte wieder die erste Fassung")
    assert {"restore_material_version", "show_material_files"} <= seen["tools"]  # type: ignore[operator]
    assert seen["ids"] == (second.material_id, first.material_id)
    row = get_material(db=db, material_id=uuid.UUID(back.material_id))
    assert row.version == 3 and row.content == get_material(db=db, material_id=uuid.UUID(first.material_id)).content


def test_a_refused_edit_tells_the_teacher_the_shares_without_the_hint_meant_for_the_model() -> None:
    fault = ("AFB I: Anteil 17,4 % (8 Punkte von 46), Ziel 30 % ± 10 Prozentpunkte. Bei 46 Punkten wären das etwa "
             "14 Punkte auf AFB I; verschiebe Punkte oder Teilaufgaben zwischen den AFB.")
    text = refusal([fault])
    assert "etwa 14 Punkte auf AFB I." in text and "verschiebe" not in text
    assert "Es wurde nichts gespeichert" in text


def test_the_reply_says_when_gruppe_b_could_not_be_made(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher,
                  message="Klausur Geschichte Klasse 9 zur Weimarer Republik, 45 Minuten, AFB 30/40/30, Gruppe A und B")
    assert r.material_id, r.reply
    assert "schueler_b_docx" not in {f["kind"] for f in r.files}  # no task with numbers to re-draw
    assert "Gruppe A/B nicht möglich" in r.reply and "beide Gruppen wären gleich" in r.reply, r.reply
