"""The wire-level fault table: whole chat turns of the app against the loopback fake of the OpenAI Chat Completions
and Anthropic Messages APIs (tests/fakes/provider_server.py), with the app's own provider path — model names from
the environment, the registry, the fallback chain, the turn budget, the call log.

Each row: what the server does → what the teacher sees (model, reply, German notice), how long the turn took
(always below its limit) and which `llm_calls` rows the turn left. The budget is shrunk by environment variables
(turn 12 s, request 5 s, read 3 s), so a hang costs seconds, not minutes.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from pydantic_ai.models import override_allow_model_requests
from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import UserError
from core.chat.traces import conversation_trace
from core.chat.turn import ChatResult, chat_turn
from core.ops.bench.chat import EXAM_REQUEST
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER
from tests.fakes.provider_server import FakeProviderServer, Fault, Reply, ToolCall, Usage
from tests.pages.conftest import fresh_person

TURN_S, REQUEST_S, READ_S = 12.0, 5.0, 3.0
LOCAL = "fake-local"
SONNET = "claude-sonnet-4-6"
GERMAN = "Guten Tag! Ich helfe Ihnen gern bei Klausuren, Arbeitsblättern und Übungen für Ihre Klassen."
ENGLISH = "The 50 watts of work is what you can do with the energy of the system, and that is the answer for you."
VALIDATION_500 = {"error": {"message": "messages.content: Input should be a valid string", "type": "server_error"}}


@dataclass
class Turned:
    result: ChatResult | None
    error: UserError | None
    elapsed: float
    server: FakeProviderServer
    calls: list[tuple[str, str, str]]  # (role, model, outcome) of the turn's llm_calls rows, in order
    rows: list[dict]


@pytest.fixture
def provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key, value in {"WERKBANK_TURN_TIMEOUT_S": TURN_S, "WERKBANK_MODEL_TIMEOUT_S": REQUEST_S,
                       "WERKBANK_MODEL_READ_TIMEOUT_S": READ_S}.items():
        monkeypatch.setenv(key, str(value))
    # The SDKs are imported before a turn's clock starts: on a busy machine the first import of `anthropic` took
    # 6.8 s, more than the shrunk budget, and the first Anthropic test fell back to the offline model by chance.
    import pydantic_ai.models.anthropic  # noqa: F401
    import pydantic_ai.models.openai  # noqa: F401

    with override_allow_model_requests(True):  # the fake listens on 127.0.0.1 only
        yield


def turn(db: Session, as_teacher, monkeypatch: pytest.MonkeyPatch, script: list, *, api: str = "openai",  # noqa: ANN001
         role: str = "main", message: str = "Hallo", person: uuid.UUID | None = None) -> Turned:
    """One chat turn with `role` answered by the fake (every other role offline); as `person` in a committed unit of
    work when given (so the Sitzungen & Traces service can read it), else inside the test's transaction."""
    before = db.execute(sa.text("SELECT coalesce(max(id), 0) FROM llm_calls")).scalar_one()
    with FakeProviderServer(script) as server:
        if api == "openai":
            monkeypatch.setenv(f"WERKBANK_MODEL_{role.upper()}", f"openai-compatible:{LOCAL}@{server.openai_base_url}")
        else:
            monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
            monkeypatch.setenv("ANTHROPIC_BASE_URL", server.anthropic_base_url)
            monkeypatch.setenv(f"WERKBANK_MODEL_{role.upper()}", f"anthropic:{SONNET}")
        with contextlib.ExitStack() as stack:
            if person is None:
                session, ident, teacher = db, as_teacher(DEMO_TEACHER), find_teacher(db=db, ref=DEMO_TEACHER)
            else:
                session, teacher, ident = stack.enter_context(acting(person))
            started = time.monotonic()
            try:
                result, error = chat_turn(db=session, identity=ident, teacher=teacher, message=message), None
            except UserError as exc:
                result, error = None, exc
            elapsed = time.monotonic() - started
    rows = db.execute(sa.text("SELECT role, model, outcome, input_tokens, output_tokens, tokens_estimated, cost_usd, "
                              "detail, conversation_id FROM llm_calls WHERE id > :before ORDER BY id"),
                      {"before": before}).mappings().all()
    calls = [(r["role"], r["model"], r["outcome"]) for r in rows]
    return Turned(result, error, elapsed, server, calls, [dict(r) for r in rows])


def sent(t: Turned, n: int = 0) -> dict:
    return t.server.requests[n].body


# --------------------------------------------------------------------------------------------------------------------
# Success, retry
# --------------------------------------------------------------------------------------------------------------------


def test_local_server_answers_with_max_tokens_and_the_compatible_profile(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Reply(text=GERMAN, usage=Usage(812, 23))])

    assert t.result is not None and t.result.reply == GERMAN and t.result.model == LOCAL
    assert t.result.notices == [] and t.elapsed < TURN_S
    body = sent(t)
    assert body["max_tokens"] == 2000 and "max_completion_tokens" not in body  # a local model stops in time
    assert body["tool_choice"] == "auto" and body["stream"] is True
    assert t.calls == [("main", LOCAL, "ok")]
    [row] = t.rows
    assert (row["input_tokens"], row["output_tokens"], row["tokens_estimated"]) == (812, 23, False)
    assert float(row["cost_usd"]) == 0 and row["detail"]["price"] == "local"  # tokens shown, local costs nothing


def test_anthropic_answers_with_prompt_caching_and_a_priced_call(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Reply(text=GERMAN, usage=Usage(3000, 40, cached_tokens=2000))],
             api="anthropic")

    assert t.result is not None and t.result.model == SONNET and t.result.notices == []
    body = sent(t)
    assert body["max_tokens"] == 2000  # not the model's 64k-128k maximum
    assert "cache_control" in json.dumps(body["tools"][-1]), "tool definitions are cached"
    [row] = t.rows
    assert row["outcome"] == "ok" and row["tokens_estimated"] is False
    # Anthropic's input_tokens leave the cache read out; the row counts all 5000 sent, 2000 of them from the cache
    assert (row["input_tokens"], row["detail"].get("cache_read_tokens")) == (5000, 2000)
    # 3000 fresh at $3/M + 2000 cached at a tenth of that + 40 out at $15/M — the cache read is priced, not ignored
    assert float(row["cost_usd"]) == pytest.approx((3000 * 3 + 2000 * 0.3 + 40 * 15) / 1e6, abs=2e-6)


@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_429_with_retry_after_is_waited_for_then_answered(db, as_teacher, monkeypatch, provider, api) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Fault.http(429, headers={"retry-after": "1"}), Reply(text=GERMAN)],
             api=api)

    assert t.result is not None and t.result.reply == GERMAN and t.result.notices == []
    assert 1.0 <= t.server.requests[1].at - t.server.requests[0].at < 2.0
    model = LOCAL if api == "openai" else SONNET
    assert t.calls == [("main", model, "retry"), ("main", model, "ok")]
    assert t.rows[0]["detail"]["retry_after_s"] == 1.0


def test_anthropic_529_overloaded_is_retried(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Fault.http(529), Reply(text=GERMAN)], api="anthropic")

    assert t.result is not None and t.result.model == SONNET and t.result.notices == []
    assert t.calls == [("main", SONNET, "retry"), ("main", SONNET, "ok")]


def test_content_null_is_asked_again_for_text(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Reply(content_null=True), Reply(text=GERMAN)])

    assert t.result is not None and t.result.reply == GERMAN and t.result.notices == []
    assert [c[2] for c in t.calls] == ["ok", "ok"] and len(t.server.requests) == 2


# --------------------------------------------------------------------------------------------------------------------
# Fallback to the offline model, with a notice that says what happened
# --------------------------------------------------------------------------------------------------------------------

FALLBACKS = [
    pytest.param("openai", [Fault.http(500, body=VALIDATION_500)],
                 "hat mit einem Fehler geantwortet (Störung beim Anbieter)", ["server_error"], 1,
                 id="deterministic-500-not-retried"),
    pytest.param("openai", [Fault.http(500)] * 8, "hat mit einem Fehler geantwortet", None, None,
                 id="500-retried-then-fallback"),
    pytest.param("anthropic", [Fault.stream_error(529, after_events=3)],
                 "war nicht erreichbar (Anbieter überlastet)", ["overloaded"], 1, id="anthropic-529-in-stream"),
    pytest.param("openai", [Fault.drop(after_events=3)], "war nicht erreichbar (keine Verbindung zum Anbieter)",
                 ["connection"], 1, id="broken-stream"),
    pytest.param("openai", [Fault.hang(30)] * 3, "war nicht erreichbar (Zeitüberschreitung)", None, 2, id="hang"),
    pytest.param("openai", [Fault.endless(every=0.05)], "war nicht erreichbar (Zeitüberschreitung)", ["timeout"], 1,
                 id="endless-stream"),
    pytest.param("openai", [Reply(text=ENGLISH)] * 3, "hat keine brauchbare Antwort geliefert", ["ok", "ok"], 2,
                 id="english-nonsense"),
]


@pytest.mark.parametrize(("api", "script", "notice", "real_outcomes", "requests"), FALLBACKS)
def test_failures_end_offline_within_the_turn_with_an_accurate_notice(  # noqa: PLR0913
    db, as_teacher, monkeypatch, provider, api, script, notice, real_outcomes, requests,  # noqa: ANN001
) -> None:
    t = turn(db, as_teacher, monkeypatch, script, api=api)

    assert t.error is None and t.result is not None, t.error
    assert t.result.model == "offline-rules" and t.result.reply
    assert t.elapsed < TURN_S  # the offline model answered inside the turn's limit
    model = LOCAL if api == "openai" else SONNET
    [shown] = t.result.notices
    assert shown.startswith(f"Hinweis: Das Sprachmodell {model} {notice}"), shown
    assert shown.endswith("das Offline-Modell (regelbasiert) hat übernommen für: Assistent.")
    real = [c[2] for c in t.calls if c[1] == model]
    if real_outcomes is not None:
        assert real == real_outcomes
    assert real and t.calls[-1] == ("main", "offline-rules", "ok")
    assert any("Offline-Modell übernimmt" in s for s in t.result.steps)  # the trace names the fallback
    if requests is not None:
        assert len(t.server.requests) == requests


def test_hang_gets_one_retry_and_the_fallback_fits_the_budget(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Fault.hang(30)] * 3)

    first, second = t.server.requests
    assert second.at - first.at >= READ_S  # the read timeout, then one retry — cut by the 5 s request deadline
    assert REQUEST_S - 0.2 <= t.elapsed < TURN_S


def test_a_cut_off_answer_is_named(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    t = turn(db, as_teacher, monkeypatch, [Reply(text=GERMAN[:60], finish="length")])

    assert t.result is not None and t.result.model == LOCAL
    assert t.result.notices == [
        f"Hinweis: Die Antwort des Sprachmodells {LOCAL} (Assistent) wurde an der Längengrenze von 2000 Tokens "
        "abgeschnitten und kann unvollständig sein. Bitte die Anfrage kürzer fassen oder in Teilen stellen."
    ]
    assert t.rows[0]["detail"]["finish_reason"] == "length"


def test_invalid_tool_json_goes_back_to_the_model_and_the_turn_succeeds(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    broken = Reply(tool_calls=[ToolCall("remember", raw_args='{"fact": "Ich unterrichte ')])
    t = turn(db, as_teacher, monkeypatch, [broken, Reply(text=GERMAN)])

    assert t.result is not None and t.result.reply == GERMAN and t.result.notices == []
    assert "json_invalid" in json.dumps(sent(t, 1)["messages"])
    # the tool call goes back with content "" — llama-cpp-python rejects null (tripwire for CompatibleChatModel)
    [echoed] = [m for m in sent(t, 1)["messages"] if m["role"] == "assistant"]
    assert echoed["content"] == "" and echoed["tool_calls"]


# --------------------------------------------------------------------------------------------------------------------
# The specialist's fallback, and a turn that fails
# --------------------------------------------------------------------------------------------------------------------


def test_specialist_fallback_reaches_the_notice_and_the_trace(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    broken = Reply(tool_calls=[ToolCall("final_result_Klausur", raw_args='{"titel": "Optik", "aufgaben": [')])
    person = fresh_person()
    t = turn(db, as_teacher, monkeypatch, [broken] * 8, role="klausur", message=EXAM_REQUEST, person=person)

    assert t.result is not None and t.result.material_id, t.result
    assert sent(t)["max_tokens"] == 8000
    assert t.result.notices == [
        f"Hinweis: Das Sprachmodell {LOCAL} hat keine brauchbare Antwort geliefert (Antwort wiederholt ungültig oder "
        "nicht auf Deutsch); das Offline-Modell (regelbasiert) hat übernommen für: Klausur-Assistent."
    ]
    step = f"Klausur-Assistent: Sprachmodell {LOCAL} hat keine brauchbare Antwort geliefert"
    assert any(s.startswith(step) for s in t.result.steps)
    # Sitzungen & Traces shows the turn with its notice and the fallback step, and the calls of both models
    trace = conversation_trace(teacher_id=person, conversation_id=t.result.conversation_id)
    [logged] = trace.turns
    assert logged.notices == t.result.notices and any(s.startswith(step) for s in logged.steps)
    [(heading, spec_steps)] = logged.specialists  # the offline run that made the exam, step by step
    assert heading.endswith("Lauf ohne Rückfrage") and any(s.tool_name == "compose_draft" for s in spec_steps)
    assert [(c["Rolle"], c["Modell"]) for c in trace.calls if c["Rolle"] == "klausur"][0] == ("klausur", LOCAL)
    klausur = [c for c in t.calls if c[0] == "klausur"]
    assert klausur[0][1] == LOCAL and klausur[-1] == ("klausur", "offline-rules", "ok")
    assert t.elapsed < TURN_S


def test_a_failed_turn_keeps_its_model_calls(db, as_teacher, monkeypatch, provider) -> None:  # noqa: ANN001
    monkeypatch.setenv("WERKBANK_TURN_TIMEOUT_S", "3")  # reserve 1 s: too little to answer again offline
    t = turn(db, as_teacher, monkeypatch, [Fault.endless(every=0.05)])

    assert t.result is None and t.error is not None
    assert "Zeitlimit" in t.error.message and "erneut versuchen" in t.error.message
    assert t.elapsed < 3.5
    row = t.rows[-1]
    assert (row["role"], row["model"], row["outcome"]) == ("main", LOCAL, "timeout")
    assert row["conversation_id"] is None  # the turn's new conversation was not stored
    assert row["detail"]["streamed"] is True and row["detail"]["after_open"] is True
