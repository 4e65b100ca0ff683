"""Long conversations stay within the history token budget (older turns summarised), and a malformed waiting
Rückfrage row no longer blocks its conversation: it is expired and the turn goes on."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelRequest, ModelResponse, TextPart, UserPromptPart
from sqlalchemy.orm import Session

from agents.models.registry import offline_rules, override_models, rules_model
from core.app.config import get_settings
from core.chat.history import SUMMARY_HEAD, estimated_tokens, trim_history
from core.chat.turn import chat_turn, open_question
from db import models as m
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

LONG = "Bitte eine ausführliche Klausur zu Stromkreisen mit vielen Teilaufgaben und Material. " * 60


def _long_history(turns: int) -> list:
    out = []
    for i in range(turns):
        out += [ModelRequest(parts=[UserPromptPart(f"Anfrage {i}: {LONG}")]),
                ModelResponse(parts=[TextPart(f"Antwort {i}: " + "Hier ist der Entwurf. " * 200)])]
    return out


def test_trim_keeps_the_latest_turns_and_summarises_the_rest() -> None:
    history = _long_history(40)
    assert estimated_tokens(history) > 60_000
    trimmed = trim_history(history, 12_000)
    assert estimated_tokens(trimmed) <= 12_000
    summary = trimmed[0].parts[0].content
    first_kept = int(trimmed[2].parts[0].content.split(":")[0].split()[1])
    assert summary.startswith(SUMMARY_HEAD) and f"Lehrkraft: Anfrage {first_kept - 1}:" in summary
    assert trimmed[-2].parts[0].content.startswith("Anfrage 39") and trimmed[-1] is history[-1]
    assert trim_history(trimmed, 12_000) == trimmed  # a trimmed history that fits stays as it is
    short = _long_history(2)
    assert trim_history(short, 12_000) is short


def test_hallo_after_forty_long_turns_is_answered_and_sends_only_the_budget(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message="Hallo")
    conv = db.get(m.Conversation, first.conversation_id)
    conv.history = json.loads(ModelMessagesTypeAdapter.dump_json(_long_history(40)))
    db.flush()
    sent: list[int] = []
    rules = offline_rules("main")

    def recording(messages, info):  # noqa: ANN001, ANN202
        sent.append(estimated_tokens(messages))
        return rules(messages, info)

    with override_models(main=rules_model(recording)):
        r = chat_turn(db=db, identity=ident, teacher=teacher, message="Hallo", conversation_id=conv.id)
    assert r.reply and "umfangreich" not in r.reply
    budget = get_settings().werkbank_history_token_budget
    print(f"\nnach 40 langen Runden gesendet: {max(sent)} Token (Budget {budget})")
    assert sent and max(sent) <= budget + 1_000  # the history budget plus this turn's request
    db.expire_all()  # the turn saved through an UPDATE statement
    stored = ModelMessagesTypeAdapter.validate_python(db.get(m.Conversation, conv.id).history)
    assert estimated_tokens(stored) <= budget + 2_000  # what is stored does not grow without end either


def test_a_malformed_waiting_session_is_expired_and_does_not_block(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    first = chat_turn(db=db, identity=ident, teacher=teacher, message="Hallo")
    broken = m.AgentSession(teacher_id=teacher.id, conversation_id=first.conversation_id, agent_type="klausur",
                            question=["kein", "Objekt"], status="waiting",
                            expires_at=datetime.now(UTC) + timedelta(hours=1))
    db.add(broken)
    db.flush()
    assert open_question(db=db, conversation_id=first.conversation_id) is None
    r = chat_turn(db=db, identity=ident, teacher=teacher, message="Hallo, noch da?",
                  conversation_id=first.conversation_id)
    assert r.reply and "interner Fehler" not in r.reply and "Error" not in r.reply
    status = db.scalar(sa.select(m.AgentSession.status).where(m.AgentSession.id == broken.id))
    assert status == "expired"
