"""core.chat.traces: a stored pydantic-ai history as readable steps, model-call totals, and who may read a trace."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    RetryInfo,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.chat.traces import BODY_LIMIT, call_rows, conversation_trace, my_sessions, trace_steps
from core.chat.turn import chat_turn
from tests.pages.conftest import fresh_person


def stored(messages: list) -> list:  # noqa: ANN001
    """Exactly what core.chat writes to conversations.history."""
    return json.loads(ModelMessagesTypeAdapter.dump_json(messages))


HISTORY = stored([
    ModelRequest(parts=[SystemPromptPart("Du bist die Werkbank."), UserPromptPart("Klausur Physik 10a")],
                 instructions="Antworte auf Deutsch."),
    ModelResponse(parts=[ThinkingPart("Ich brauche den Router."),
                         ToolCallPart("generate_material", {"fach": "Phsyik"}, tool_call_id="c1")],
                  model_name="claude-test"),
    ModelRequest(parts=[ToolReturnPart("generate_material", "Unbekanntes Fach „Phsyik“.", tool_call_id="c1",
                                       outcome="retried",
                                       retry=RetryInfo(cause="model_retry", attempt=1, max_retries=3))],
                 instructions="Antworte auf Deutsch."),
    ModelResponse(parts=[ToolCallPart("generate_material", '{"fach": "Physik"}', tool_call_id="c2")],
                  model_name="claude-test"),
    ModelRequest(parts=[ToolReturnPart("generate_material", {"material_id": "m1", "dateien": 2},
                                       tool_call_id="c2")],
                 instructions="Antworte auf Deutsch. Heute: Montag."),
    ModelResponse(parts=[TextPart("Fertig: Klausur Stromkreise.")], model_name="claude-test"),
])


def test_a_stored_history_reads_as_steps_in_order() -> None:
    steps = trace_steps(HISTORY)
    assert [s.kind for s in steps] == ["instructions", "system", "user", "thinking", "tool_call", "retry",
                                       "tool_call", "instructions", "tool_return", "text"]
    assert [s.nummer for s in steps] == list(range(1, 11))
    assert steps[2].body == "Klausur Physik 10a"
    assert steps[4].label == "🔧 Werkzeugaufruf: `generate_material`" and steps[4].tool_name == "generate_material"
    assert json.loads(steps[4].body) == {"fach": "Phsyik"} and steps[4].is_json
    assert steps[6].is_json and json.loads(steps[6].body) == {"fach": "Physik"}  # args given as a JSON string
    assert steps[7].label == "⚙️ Anweisungen an das Modell (geändert)"  # unchanged instructions are not repeated
    assert json.loads(steps[8].body) == {"material_id": "m1", "dateien": 2}
    assert steps[9].label == "💬 Antwort · claude-test" and steps[9].model == "claude-test"


def test_a_retried_tool_return_is_marked_as_a_retry_with_its_attempt() -> None:
    retry = trace_steps(HISTORY)[5]
    assert retry.kind == "retry" and retry.outcome == "retried" and retry.tool_name == "generate_material"
    assert retry.label == "↺ Wiederholung angefordert: `generate_material` (Versuch 1 von 3)"
    assert retry.body == "Unbekanntes Fach „Phsyik“."


def test_legacy_retry_prompts_and_unknown_parts_still_show() -> None:
    history = [
        {"kind": "request", "parts": [
            {"part_kind": "retry-prompt", "tool_name": "generate_material", "tool_call_id": "x",
             "content": [{"type": "missing", "loc": ["fach"], "msg": "Field required", "input": {}}]},
            {"part_kind": "retry-prompt", "tool_name": None, "content": "Bitte als Klausur antworten."},
            {"part_kind": "hologram", "content": "neu"},
        ]},
        "kaputt",
        {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_name": "x`](javascript:alert(1))",
                                        "args": "{nicht json"}]},
    ]
    steps = trace_steps(history)
    assert steps[0].label == "↺ Wiederholung angefordert: `generate_material`"
    assert steps[0].body == "fach: Field required"
    assert steps[1].label == "↺ Wiederholung angefordert (Ausgabe)" and steps[1].body == "Bitte als Klausur antworten."
    assert steps[2].kind == "other" and steps[2].label == "• hologram" and "neu" in steps[2].body
    assert steps[3].kind == "other" and "kaputt" in steps[3].body
    assert steps[4].body == "{nicht json" and not steps[4].is_json
    assert "`" not in steps[4].tool_name and "(" not in steps[4].tool_name  # a model-made name stays inert


def test_file_prompts_show_a_marker_not_their_bytes_and_long_bodies_are_clipped() -> None:
    history = stored([ModelRequest(parts=[UserPromptPart(["Bitte auswerten:", BinaryContent(b"\x00" * 50,
                                                                                            media_type="image/png")])]),
                      ModelResponse(parts=[TextPart("x" * (BODY_LIMIT + 500))])])
    prompt, answer = trace_steps(history)
    assert prompt.body == "Bitte auswerten:\n[binary: image/png]"
    assert answer.body.startswith("x" * BODY_LIMIT) and "gekürzt" in answer.body and len(answer.body) < BODY_LIMIT + 60
    assert trace_steps([]) == []


def test_call_totals_flag_estimated_tokens_and_unknown_prices() -> None:
    at = datetime(2026, 11, 22, 9, 30, tzinfo=UTC)
    calls = [
        SimpleNamespace(created_at=at, role="main", model="claude-test", input_tokens=1200, output_tokens=300,
                        tokens_estimated=False, cost_usd=0.01234, latency_ms=800, outcome="ok",
                        detail={"cost_known": True}),
        SimpleNamespace(created_at=at, role="klausur", model="eigenes-modell", input_tokens=100, output_tokens=50,
                        tokens_estimated=True, cost_usd=0, latency_ms=200, outcome="retry",
                        detail={"cost_known": False}),
    ]
    rows, totals = call_rows(calls)
    assert rows[0]["Zeit"] == "10:30:00" and rows[0]["Kosten (USD)"] == 0.0123
    assert rows[0]["Zählung"] == "gemeldet" and rows[1]["Zählung"] == "geschätzt"
    assert rows[1]["Kosten (USD)"] is None
    assert (totals.calls, totals.input_tokens, totals.output_tokens, totals.latency_ms) == (2, 1300, 350, 1000)
    assert totals.estimated and totals.cost_unknown and totals.cost_usd == 0.0123


def test_a_trace_of_someone_elses_conversation_is_not_found(database) -> None:  # noqa: ANN001
    owner, stranger = fresh_person(), fresh_person(name="Fremd")
    with acting(owner) as (db, teacher, identity):
        r = chat_turn(db=db, identity=identity, teacher=teacher,
                      message="Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    own = conversation_trace(teacher_id=owner, conversation_id=r.conversation_id)
    assert any(s.tool_name == "generate_material" for s in own.steps) and own.totals.calls >= 1
    with pytest.raises(NotFoundError, match="gibt es nicht"):
        conversation_trace(teacher_id=stranger, conversation_id=r.conversation_id)
    with pytest.raises(NotFoundError):
        conversation_trace(teacher_id=owner, conversation_id=uuid.uuid4())


def test_an_unknown_session_status_is_refused_in_german(database) -> None:  # noqa: ANN001
    with pytest.raises(UserError, match="Unbekannter Status"):
        my_sessions(teacher_id=fresh_person(), status="pending")
