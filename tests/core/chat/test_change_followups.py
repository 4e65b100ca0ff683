"""Follow-ups that change the exam just made (teacher review, stop 20): „Da fehlt die Zinsrechnung. Bitte noch eine
Aufgabe zur Zinsrechnung ergänzen.“ adds a reviewed bank task; „Die Klassenarbeit muss 90 Minuten dauern. Bitte
das ganze Thema … nehmen“ makes a longer version — neither asks again what the conversation already knows."""

from __future__ import annotations

import uuid

from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import override_models, rules_model
from core.chat.turn import ChatResult, chat_turn
from core.materials.klausur import Klausur
from db.models import Teacher
from db.repos.knowledge import knowledge_by_ids
from db.repos.materials import get_material
from db.repos.teachers import find_teacher
from db.session import Identity
from tests.agents.models.scripts import text
from tests.conftest import DEMO_TEACHER

# The review's exam named „Prozentrechnung und Zinsrechnung“; the bank holds few Zins tasks without material up to
# Klasse 7/8, which such an exam may already use all of (then the follow-up says so: see the test of a topic without
# tasks). An exam on Prozentrechnung leaves them for the teacher's follow-up.
EXAM = "Klassenarbeit Mathe Klasse 7 zur Prozentrechnung, 45 Minuten, AFB 40/40/20"
ADD = "Da fehlt die Zinsrechnung. Bitte noch eine Aufgabe zur Zinsrechnung ergänzen."


def _exam(db: Session, material_id: str | None) -> Klausur:
    assert material_id
    return Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(material_id)).content)


def _bank_topics(db: Session, ident, k: Klausur) -> dict[str, dict]:  # noqa: ANN001
    refs = [uuid.UUID(q.ref) for t in k.teilaufgaben() for q in t.quellen if q.art == "good_practice"]
    return {str(i): (row.content or {}) for i, row in knowledge_by_ids(db=db, identity=ident, ids=refs).items()}


def _first_exam(db: Session, as_teacher) -> tuple[Identity, Teacher, ChatResult]:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    assert first.material_id, first.reply
    return ident, teacher, first


def test_noch_eine_aufgabe_zur_zinsrechnung_adds_a_bank_task_as_version_2(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident, teacher, first = _first_exam(db, as_teacher)
    v1 = _exam(db, first.material_id)
    added = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id, message=ADD)
    assert "Für welche Klasse" not in added.reply and added.session_id is None, added.reply
    assert added.material_id and added.material_id != first.material_id, added.reply
    row = get_material(db=db, material_id=uuid.UUID(added.material_id))
    assert row.version == 2 and row.parent_id == uuid.UUID(first.material_id)
    v2 = Klausur.model_validate(row.content)
    assert "ergänzen" not in v2.titel and v2.titel == v1.titel  # the teacher's verb is no topic
    assert len(v2.aufgaben) == len(v1.aufgaben) + 1
    neu = v2.aufgaben[-1]
    bank = _bank_topics(db, ident, Klausur(**{**v2.model_dump(), "aufgaben": [neu]}))
    assert bank and all(c.get("topic") == "zinsrechnung" and c.get("klassenstufe", 7) <= 7 for c in bank.values()), bank
    assert v2.gesamtpunkte == v1.gesamtpunkte + neu.punkte
    assert f"Ergänzt aus der geprüften Aufgabensammlung: „{neu.titel}“" in added.reply, added.reply
    assert "Notenschlüssel: neu berechnet" in added.reply and "Version 2" in added.reply, added.reply


def test_a_topic_the_bank_has_nothing_on_is_said_and_nothing_is_stored(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident, teacher, first = _first_exam(db, as_teacher)
    none = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                     message="Bitte noch eine Aufgabe zur Kurvendiskussion ergänzen")
    assert none.material_id is None and "Für welche Klasse" not in none.reply, none.reply
    assert "zu „Kurvendiskussion“ für Klasse 7 keine weitere Aufgabe" in none.reply, none.reply
    assert "nichts gespeichert" in none.reply


def test_a_longer_duration_naming_fach_and_material_is_a_new_version_not_a_new_request(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident, teacher, first = _first_exam(db, as_teacher)
    longer = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id,
                       message="Die Klassenarbeit in Mathe muss 90 Minuten dauern")
    assert "Für welche Klasse" not in longer.reply and longer.session_id is None, longer.reply
    assert longer.material_id and longer.material_id != first.material_id, longer.reply
    row = get_material(db=db, material_id=uuid.UUID(longer.material_id))
    assert row.version == 2 and row.parent_id == uuid.UUID(first.material_id)
    assert row.request["dauer_minuten"] == 90 and row.request["fach"].casefold() == "mathematik", row.request
    assert row.request["klassenstufe"] == 7
    assert "Dauer 45 → 90 Minuten" in longer.reply, longer.reply
    assert _exam(db, longer.material_id).gesamtpunkte > _exam(db, first.material_id).gesamtpunkte


def test_a_real_model_adds_the_bank_task_with_the_material_in_its_context(db: Session, as_teacher) -> None:  # noqa: ANN001
    """The tool design for a real model: the conversation's material is in the instructions and `add_bank_task`
    is offered; a scripted model calls it with the id it was told and the teacher's topic."""
    ident, teacher, first = _first_exam(db, as_teacher)
    seen: dict[str, object] = {}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if returned := [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]:
            return text(str(returned[0].content))  # the tool's summary as the reply
        seen["tools"] = {t.name for t in info.function_tools}
        instructions = messages[-1].instructions or ""
        assert f"[material:{first.material_id}]" in instructions, instructions
        return ModelResponse(parts=[ToolCallPart("add_bank_task", {"material_id": first.material_id,
                                                                   "thema": "Zinsrechnung"})])

    with override_models(main=rules_model(model, model_name="claude-sonnet-4-6")):
        added = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id, message=ADD)
    assert "add_bank_task" in seen["tools"], seen  # type: ignore[operator]
    assert added.material_id, added.reply
    row = get_material(db=db, material_id=uuid.UUID(added.material_id))
    assert row.version == 2 and len(Klausur.model_validate(row.content).aufgaben) == len(
        _exam(db, first.material_id).aufgaben) + 1
