"""Ratings are explicit (decision 071): after a finished exam, „Standard passt“, „danke“ or praise store nothing in
the learning tables; praise gets one question „merken?“, and only a yes or an explicit rating („5 Sterne“) stores —
and then only the tasks that pass the content gate. A real model that reads stars into praise stores nothing either."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import override_models, rules_model
from core.chat.turn import chat_turn
from core.checks.gate import task_findings
from core.checks.views import views
from core.materials.klausur import Klausur
from db import models as m
from db.repos.materials import get_material
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"
ASKED = "Soll ich mir dieses Material merken"
NOTHING = "Gespeichert habe ich dazu nichts"


def _learned(db: Session, teacher_id: uuid.UUID) -> dict[str, int]:
    """What the learning loop wrote for this teacher: ratings, own good practices, preference rows (with revisions)."""
    ak = m.AgentKnowledge
    own = sa.and_(ak.scope_type == "teacher", ak.scope_id == teacher_id)
    return {
        "ratings": db.scalar(sa.select(sa.func.count()).select_from(m.Rating).where(m.Rating.teacher_id == teacher_id)),
        "good_practices": db.scalar(
            sa.select(sa.func.count()).select_from(ak).where(own, ak.knowledge_type == "good_practice")
        ),
        "preference_revisions": db.scalar(
            sa.select(sa.func.coalesce(sa.func.sum(ak.revision), 0)).where(own, ak.knowledge_type == "preference")
        ),
    }


def _exam(db: Session, as_teacher):  # noqa: ANN001, ANN202
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    assert first.material_id and first.session_id is None, first.reply

    def say(text: str):  # noqa: ANN202
        return chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id, message=text)

    return teacher, first, say


def test_vague_words_and_praise_after_an_exam_store_nothing_and_praise_is_asked_about_once(
    db: Session,
    as_teacher,  # noqa: ANN001
) -> None:
    teacher, first, say = _exam(db, as_teacher)
    before = _learned(db, teacher.id)
    for text in ("Standard passt", "danke", "ok danke", "passt schon"):
        r = say(text)
        assert NOTHING in r.reply and ASKED not in r.reply and r.material_id is None, (text, r.reply)
    praised = say("Super, genau so!")
    assert ASKED in praised.reply and "ohne Ihr Ja speichere ich nichts" in praised.reply, praised.reply
    for text in ("Standard passt", "Toll!"):  # no yes: nothing stored, and the question is not asked again
        r = say(text)
        assert NOTHING in r.reply and ASKED not in r.reply, (text, r.reply)
    assert _learned(db, teacher.id) == before
    db.expire_all()
    assert get_material(db=db, material_id=uuid.UUID(first.material_id)).rating is None


def test_a_no_to_the_question_stores_nothing(db: Session, as_teacher) -> None:  # noqa: ANN001
    teacher, _, say = _exam(db, as_teacher)
    before = _learned(db, teacher.id)
    assert ASKED in say("Perfekt, vielen Dank!").reply
    no = say("Nein danke")
    assert "ich speichere nichts" in no.reply, no.reply
    assert _learned(db, teacher.id) == before


def test_a_yes_to_the_question_stores_the_rating_and_the_tasks(db: Session, as_teacher) -> None:  # noqa: ANN001
    teacher, first, say = _exam(db, as_teacher)
    before = _learned(db, teacher.id)
    assert ASKED in say("Super, genau so!").reply
    yes = say("Ja, bitte")
    after = _learned(db, teacher.id)
    assert "Bewertung gespeichert (5 Sterne)" in yes.reply and "bewährten Aufgaben gespeichert" in yes.reply, yes.reply
    assert after["ratings"] == before["ratings"] + 1 and after["good_practices"] > before["good_practices"]
    db.expire_all()
    assert get_material(db=db, material_id=uuid.UUID(first.material_id)).rating == 5


def test_an_explicit_rating_stores_only_the_tasks_that_pass_the_content_gate(db: Session, as_teacher) -> None:  # noqa: ANN001
    teacher, first, say = _exam(db, as_teacher)
    row = get_material(db=db, material_id=uuid.UUID(first.material_id))
    content = Klausur.model_validate(row.content)
    content.aufgaben[0].teilaufgaben[0].text = "Bearbeite die Aufgabe."  # says nothing: must never be learned
    row.content = content.model_dump(mode="json")
    db.flush()
    failing = {v.ref for v in views(content) if task_findings([v], thema=content.thema)}
    filler = f"{content.aufgaben[0].nummer}{content.aufgaben[0].teilaufgaben[0].kennung}"
    assert filler in failing
    before = _learned(db, teacher.id)
    rated = say("Bewertung: 4/5")
    assert "Bewertung gespeichert (4 Sterne)" in rated.reply and filler in rated.reply, rated.reply
    stored = db.scalars(
        sa.select(m.AgentKnowledge.external_id).where(m.AgentKnowledge.external_id.like(f"material:{row.id}:%"))
    ).all()
    refs = {s.rsplit(":", 1)[-1] for s in stored}
    assert refs and not refs & failing and filler not in refs, refs
    assert len(refs) == sum(len(a.teilaufgaben) for a in content.aufgaben) - len(failing)
    assert _learned(db, teacher.id)["good_practices"] == before["good_practices"] + len(refs)


def test_a_model_that_reads_stars_into_praise_stores_nothing(db: Session, as_teacher) -> None:  # noqa: ANN001
    """The rule is in the service, not only in the offline rules: praise with stars=5 from a model is no rating."""
    teacher, first, _ = _exam(db, as_teacher)
    before = _learned(db, teacher.id)
    returned: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
        if returns:
            returned.append(str(returns[0].content))
            return ModelResponse(parts=[TextPart(str(returns[0].content))])
        return ModelResponse(
            parts=[
                ToolCallPart(
                    "record_feedback", {"material_id": first.material_id, "feedback": "Super, genau so!", "stars": 5}
                )
            ]
        )

    ident = as_teacher(DEMO_TEACHER)
    with override_models(main=rules_model(model, model_name="claude-sonnet-4-6")):
        chat_turn(
            db=db, identity=ident, teacher=teacher, conversation_id=first.conversation_id, message="Super, genau so!"
        )
    assert returned and "Gespeichert habe ich nichts" in returned[0], returned
    assert _learned(db, teacher.id) == before
