"""Forged and foreign Rückfrage ids: whatever session id reaches continue_material_generation (a confused or
prompt-injected model passes it through), only the teacher's own waiting session can be continued.

Runs the whole turn (guard, router, chat_turn) with a scripted main model; extends the router-level check in
tests/core/generation/test_rueckfrage_sessions.py. Conversation ids from outside are covered by test_bad_input.py.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import sqlalchemy as sa
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import offline_rules, override_models, rules_model
from core.chat.turn import chat_turn
from db import models as m
from db.repos.teachers import find_teacher
from db.session import Identity, act_as
from tests.conftest import DEMO_TEACHER
from tests.reliability.conftest import ASK

ANNA = "anna.berger@demo-gymnasium.de"
INVALID = "Diese Rückfrage kenne ich nicht (ungültige Sitzungs-ID). Bitte die Anfrage neu stellen."
NOT_YOURS = "Diese Rückfrage gehört nicht zu Ihrem Konto oder existiert nicht (mehr)."


@dataclass
class ForgingMainModel:
    """The main agent's model as a table: first it continues `session_id`, then the offline rules present the result."""

    session_id: str
    calls: int = 0

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.calls += 1
        if self.calls == 1:
            return ModelResponse(parts=[ToolCallPart("continue_material_generation",
                                                     {"session_id": self.session_id, "answer": "30/40/30"})])
        return offline_rules("main")(messages, info)


def _sessions(db: Session) -> list[tuple[uuid.UUID, str, int]]:
    act_as(db, Identity.system())
    return db.execute(sa.select(m.AgentSession.id, m.AgentSession.status, m.AgentSession.revision)
                      .order_by(m.AgentSession.id)).all()


def test_only_the_teachers_own_waiting_rueckfrage_can_be_continued(db: Session, as_teacher) -> None:  # noqa: ANN001
    anna_ident = as_teacher(ANNA)
    anna = find_teacher(db=db, ref=ANNA)
    foreign = chat_turn(db=db, identity=anna_ident, teacher=anna, message=ASK).session_id
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    own = chat_turn(db=db, identity=ident, teacher=teacher, message=ASK)
    assert foreign and own.session_id
    sessions_before = _sessions(db)
    materials_before = db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial))

    forged = {
        "random uuid": (str(uuid.uuid4()), NOT_YOURS),
        "nil uuid": ("00000000-0000-0000-0000-000000000000", NOT_YOURS),
        "another teacher's session": (foreign, NOT_YOURS),
        "another teacher's session as URN": (f"urn:uuid:{foreign}", NOT_YOURS),
        "another teacher's session in braces, upper case": ("{" + foreign.upper() + "}", NOT_YOURS),
        "SQL": ("'; DROP TABLE agent_sessions; --", INVALID),
        "SQL after a real id": (f"{own.session_id}' OR '1'='1", INVALID),
        "NUL byte after a real id": (f"{own.session_id}\x00", INVALID),
        "empty": ("", INVALID),
        "blank": ("  \t ", INVALID),
        "100,000 digits": ("9" * 100_000, INVALID),
    }
    for what, (session_id, expected) in forged.items():
        act_as(db, ident)
        model = ForgingMainModel(session_id)
        with override_models(main=rules_model(model)):
            r = chat_turn(db=db, identity=ident, teacher=teacher, message="30/40/30")
        assert model.calls == 2, what
        assert (r.reply, r.material_id, r.session_id) == (expected, None, None), what

    assert _sessions(db) == sessions_before  # nobody's Rückfrage was claimed, expired or changed
    assert db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial)) == materials_before
    act_as(db, ident)
    answered = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=own.conversation_id,
                         message="30/40/30")
    assert answered.material_id, answered.reply
