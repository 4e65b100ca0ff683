"""Stored histories outlive the code that wrote them: frozen real ones still resume, broken or old ones fail safely.

fixtures/*_v1.json were captured once (capture_fixtures.py) from a paused Klausur Rückfrage and its main
conversation, and are never regenerated: they stand for what schools' databases hold. If a pydantic-ai upgrade (or
a change to MaterialRequest, ClarificationRequest or the deps snapshot) stops them from loading, the tests here fail —
then either keep the old JSON loading or bump SESSION_SCHEMA_VERSION (old sessions then expire with a German
message) and capture a new version next to the old one.

Extends tests/core/generation/test_rueckfrage_sessions.py (a "kaputt" history, schema_version 0).
"""

from __future__ import annotations

import copy
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelRequest, UserPromptPart
from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from core.generation.sessions import SESSION_SCHEMA_VERSION
from core.materials.replies import ClarificationRequest
from core.materials.request import MaterialRequest
from db import models as m
from db.repos.teachers import find_teacher
from db.session import Identity, act_as
from tests.conftest import DEMO_TEACHER
from tests.reliability.conftest import ASK, load_fixture

MAIN = load_fixture("main_conversation_v1.json")
PAUSED = load_fixture("klausur_session_v1.json")
RESTORE_FAILED = ("Die gespeicherte Rückfrage ließ sich nicht mehr laden (das Format hat sich geändert). Bitte stellen "
                  "Sie die Anfrage neu — es geht nichts verloren, was schon fertig war.")
UPGRADE_HINT = ("A stored history captured with pydantic-ai {v} no longer loads. Stored Rückfragen and conversations "
                "in schools' databases would break: keep the old JSON loading, or bump SESSION_SCHEMA_VERSION and "
                "capture new fixtures (python -m tests.reliability.capture_fixtures --version N).")


def _prompts(history: list[Any]) -> list[str]:
    return [p.content for msg in ModelMessagesTypeAdapter.validate_python(history) if isinstance(msg, ModelRequest)
            for p in msg.parts if isinstance(p, UserPromptPart)]


def _cited_rows(db: Session) -> None:
    """The good practices and Lehrplan excerpts the frozen run found, under the ids it saw.

    In a school's database a paused run cites rows of that same database; the fixture comes from another one, so
    the rows are put back from the frozen tool returns themselves (the source check demands they exist).
    """
    for msg in PAUSED["message_history"]:
        for part in msg["parts"]:
            if part.get("part_kind") != "tool-return" or part["tool_name"] not in ("get_good_practices",
                                                                                   "search_curriculum"):
                continue
            for item in json.loads(part["content"]):
                ref = uuid.UUID(item["ref"])
                if part["tool_name"] == "get_good_practices" and db.get(m.AgentKnowledge, ref) is None:
                    db.add(m.AgentKnowledge(
                        id=ref, agent_type="klausur", scope_type="global", fach="physik", thema=item["thema"],
                        knowledge_type="good_practice", content=item["inhalt"], description=item["titel"],
                        quality_score=item["qualitaet"], source="system"))
                elif part["tool_name"] == "search_curriculum" and db.get(m.CurriculumChunk, ref) is None:
                    titel, _, land = item["titel"].rpartition(" (")
                    db.add(m.CurriculumChunk(
                        id=ref, scope_type="global", bundesland=land.rstrip(")"), schulform="Gymnasium",
                        fach="physik", klassenstufen=item["klassenstufen"], themenfeld=item["themenfeld"],
                        thema=titel, kompetenz=item["text"], quelle="Eingefrorene Sitzung", abschnitt=titel))
    db.flush()


def _load(db: Session, teacher: m.Teacher, *, history: list[Any] | None = None, **session: Any) -> uuid.UUID:
    """The frozen conversation and its paused session, stored for `teacher` as they were stored back then."""
    act_as(db, Identity.system())
    _cited_rows(db)
    conv = m.Conversation(teacher_id=teacher.id, title="Eingefroren", history=MAIN["history"] if history is None
                          else history)
    db.add(conv)
    db.flush()
    fields = {k: copy.deepcopy(PAUSED[k]) for k in ("agent_type", "schema_version", "clarification_count", "question",
                                                    "request", "deps", "message_history")}
    db.add(m.AgentSession(id=uuid.UUID(PAUSED["id"]), teacher_id=teacher.id, conversation_id=conv.id,
                          status="waiting", expires_at=datetime.now(UTC) + timedelta(hours=1),
                          **{**fields, **session}))
    db.flush()
    return conv.id


def _session(db: Session) -> m.AgentSession:
    act_as(db, Identity.system())
    row = db.get(m.AgentSession, uuid.UUID(PAUSED["id"]), populate_existing=True)
    assert row is not None
    return row


def test_frozen_fixtures_are_one_paused_rueckfrage() -> None:
    assert MAIN["session_id"] == PAUSED["id"]
    assert f"[session:{PAUSED['id']}]" in json.dumps(MAIN["history"], ensure_ascii=False)
    assert PAUSED["schema_version"] == SESSION_SCHEMA_VERSION == 1


@pytest.mark.parametrize("what", ["main conversation", "paused specialist run"])
def test_frozen_histories_still_load_with_this_pydantic_ai(what: str) -> None:
    history = MAIN["history"] if what == "main conversation" else PAUSED["message_history"]
    try:
        messages = ModelMessagesTypeAdapter.validate_python(history)
    except Exception as exc:  # noqa: BLE001 - the message says what to do, whatever broke
        pytest.fail(f"{what}: {UPGRADE_HINT.format(v=PAUSED['captured']['pydantic_ai'])}\n{exc}")
    assert len(messages) == len(history)
    # What the current code writes from them loads again (a round trip through today's format).
    again = ModelMessagesTypeAdapter.validate_json(ModelMessagesTypeAdapter.dump_json(messages))
    assert len(again) == len(history)
    MaterialRequest.model_validate(PAUSED["request"])
    ClarificationRequest.model_validate(PAUSED["question"])


def test_frozen_rueckfrage_resumes_with_the_current_code(db: Session, as_teacher) -> None:  # noqa: ANN001
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    conversation_id = _load(db, teacher)
    ident = as_teacher(DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=conversation_id,
                  message="den zweiten Vorschlag")
    assert r.material_id, (r.reply, r.steps)
    assert r.reply.startswith("Fertig: **"), r.reply
    session = _session(db)
    assert session.status == "completed" and str(session.result_material_id) == r.material_id
    material = db.get(m.GeneratedMaterial, uuid.UUID(r.material_id))
    # The frozen question's second suggestion and the frozen request's AFB wish both reached the material.
    assert material.request["afb_ziel_verwendet"] == {"I": 20, "II": 50, "III": 30}
    assert material.request["afb_wuensche"] == [{"thema": "Induktion", "afb": "III"}]
    assert len(r.files) == 4  # Schüler- und Lehrerfassung, each as DOCX and PDF
    # The main conversation went on from the frozen history instead of starting over.
    conv = db.get(m.Conversation, conversation_id, populate_existing=True)
    assert _prompts(conv.history) == [*MAIN["captured"]["turns"], "den zweiten Vorschlag"]


def _newer_part(history: list[Any]) -> list[Any]:
    history = copy.deepcopy(history)
    history[-1]["parts"][0]["part_kind"] = "hologram"  # a part kind this pydantic-ai does not know
    return history


def _unknown_message(history: list[Any]) -> list[Any]:
    history = copy.deepcopy(history)
    history[0]["kind"] = "telepathy"
    return history


@pytest.mark.parametrize("change", [
    pytest.param({"message_history": {"kind": "request"}}, id="history-not-a-list"),
    pytest.param({"message_history": _newer_part(PAUSED["message_history"])}, id="part-of-a-newer-pydantic-ai"),
    pytest.param({"message_history": _unknown_message(PAUSED["message_history"])}, id="unknown-message-kind"),
    pytest.param({"request": {"fach": "physik"}}, id="request-missing-fields"),
    pytest.param({"request": {**PAUSED["request"], "dauer_minuten": "lange"}}, id="request-wrong-type"),
    pytest.param({"deps": {"rueckfragen": "viele"}}, id="deps-snapshot-garbage"),
    pytest.param({"schema_version": SESSION_SCHEMA_VERSION + 1}, id="newer-schema-version"),
])
def test_unloadable_rueckfrage_expires_with_a_german_message_and_the_next_request_works(
        db: Session, as_teacher, change: dict[str, Any]) -> None:  # noqa: ANN001
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    conversation_id = _load(db, teacher, **change)
    act_as(db, Identity.system())
    before = db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial))
    ident = as_teacher(DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=conversation_id, message="30/40/30")
    assert r.reply == RESTORE_FAILED and r.material_id is None
    assert _session(db).status == "expired"
    assert db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial)) == before
    act_as(db, ident)
    again = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=conversation_id, message=ASK)
    assert again.session_id and again.session_id != PAUSED["id"], again.reply


def test_empty_stored_history_is_treated_as_unloadable(db: Session, as_teacher) -> None:  # noqa: ANN001
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    conversation_id = _load(db, teacher, message_history=[])
    ident = as_teacher(DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=conversation_id, message="30/40/30")
    assert r.reply == RESTORE_FAILED
    assert _session(db).status == "expired"


@pytest.mark.parametrize("history", [
    pytest.param([{"kind": "kaputt", "parts": "nichts"}], id="garbage"),
    pytest.param(_newer_part(MAIN["history"]), id="part-of-a-newer-pydantic-ai"),
])
def test_unloadable_conversation_history_starts_afresh_without_losing_the_log(
        db: Session, as_teacher, history: list[Any]) -> None:  # noqa: ANN001
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    conversation_id = _load(db, teacher, history=history)
    for role, content in (("user", MAIN["captured"]["turns"][0]), ("assistant", "Gern — eine Klausur …")):
        db.add(m.ConversationMessage(conversation_id=conversation_id, teacher_id=teacher.id, role=role,
                                     content=content))
    db.flush()
    ident = as_teacher(DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=conversation_id, message="Hallo")
    assert r.reply.startswith("Hallo! Ich erstelle mit Ihnen Klausuren"), r.reply
    act_as(db, Identity.system())
    conv = db.get(m.Conversation, conversation_id, populate_existing=True)
    assert _prompts(conv.history) == ["Hallo"]  # the stored history is valid again (and starts afresh)
    log = db.scalars(sa.select(m.ConversationMessage.content).where(
        m.ConversationMessage.conversation_id == conversation_id).order_by(m.ConversationMessage.id)).all()
    assert log[0] == MAIN["captured"]["turns"][0] and len(log) == 4  # the readable log is kept
    assert _session(db).status == "waiting"  # the open Rückfrage is not lost; the chat page still offers it
