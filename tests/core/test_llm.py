"""Model selection and guard rails (core.llm): retries, fallback, call log and cost, limits, German messages.

Every model here is a scripted FunctionModel driven by a table of replies; `ALLOW_MODEL_REQUESTS` is False
(tests/conftest.py), so a real provider request would fail the test. No database is needed.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from pydantic_ai import Agent, ModelRetry, UsageLimitExceeded, UsageLimits
from pydantic_ai.exceptions import (
    FallbackExceptionGroup,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelContextWindowExceededError,
    ModelHTTPError,
    ModelQuotaExceededError,
    ModelRateLimitError,
    RunTimedOut,
    UnexpectedModelBehavior,
)
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models import Model
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.fallback import FallbackModel
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
from pydantic_ai.usage import RequestUsage

from core import llm
from core.app.errors import UserError
from core.llm import (
    DEFAULT_USAGE_LIMITS,
    OFFLINE_MODEL_NAME,
    LoggedModel,
    RetryingModel,
    TurnTimeout,
    build_model,
    check_model_name,
    collect_calls,
    cost_usd,
    describe_model_error,
    fallback_notice,
    guard_model,
    model_name_for_role,
    price_for,
    retry_after_seconds,
    run_with_timeout,
)

SONNET = "claude-sonnet-4-6"

# --------------------------------------------------------------------------------------------------------------------
# Scripted models: each request takes the next row of a table (an exception to raise or a response to return).
# --------------------------------------------------------------------------------------------------------------------

Row = Exception | ModelResponse | Callable[[list[ModelMessage]], ModelResponse]


@dataclass
class Script:
    rows: Sequence[Row]
    calls: int = 0
    seen: list[list[ModelMessage]] = field(default_factory=list)

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        row = self.rows[min(self.calls, len(self.rows) - 1)]  # the last row repeats
        self.calls += 1
        self.seen.append(messages)
        if isinstance(row, Exception):
            raise row
        if isinstance(row, ModelResponse):
            return ModelResponse(parts=list(row.parts), usage=row.usage)
        return row(messages)


def scripted(rows: Sequence[Row], name: str = SONNET) -> tuple[FunctionModel, Script]:
    script = Script(rows)
    return FunctionModel(script, model_name=name), script


def text(content: str, usage: RequestUsage | None = None) -> ModelResponse:
    return ModelResponse(parts=[TextPart(content)], usage=usage or RequestUsage())


def offline_factory(role: str) -> Model:
    """Stands in for the lead's offline rule model."""
    return FunctionModel(lambda messages, info: text(f"Offline-Antwort ({role})."), model_name=OFFLINE_MODEL_NAME)


def http_error(status: int, body: object = None, headers: dict[str, str] | None = None) -> ModelHTTPError:
    return ModelHTTPError(status, SONNET, body, headers=headers)


class Sleeps(list[float]):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def http_date(delta: timedelta) -> str:
    return format_datetime(datetime.now(UTC) + delta, usegmt=True)


# --------------------------------------------------------------------------------------------------------------------
# Retries, fallback, notice
# --------------------------------------------------------------------------------------------------------------------


def test_429_three_times_then_success_retries_with_retry_after() -> None:
    real, script = scripted(
        [
            http_error(429, {"error": {"type": "rate_limit_error"}}, headers={"retry-after": "2"}),
            http_error(429, {"error": {"type": "rate_limit_error", "retry_after": 5}}),  # Retry-After in the body
            http_error(429, None, headers={"retry-after": http_date(timedelta(hours=1))}),  # HTTP date, capped
            text("Fertig: drei Aufgaben zu Brüchen."),
        ]
    )
    sleeps = Sleeps()
    agent = Agent(guard_model(real, "main", offline=offline_factory("main"), sleep=sleeps))
    with collect_calls() as log:
        result = agent.run_sync("Klassenarbeit Brüche")

    assert result.output == "Fertig: drei Aufgaben zu Brüchen."
    assert script.calls == 4
    assert sleeps == [2.0, 5.0, 30.0]
    assert [r.outcome for r in log.records] == ["retry", "retry", "retry", "ok"]
    assert [r.detail["attempt"] for r in log.records] == [1, 2, 3, 4]
    assert {r.model for r in log.records} == {SONNET} and {r.role for r in log.records} == {"main"}
    assert [r.detail["retry_after_s"] for r in log.records[:2]] == [2.0, 5.0]
    assert log.records[0].detail["status"] == 429 and log.records[0].detail["error_kind"] == "rate_limit"
    assert fallback_notice(result.all_messages()) is None


def test_persistent_500_falls_back_to_offline_with_notice() -> None:
    real, script = scripted([http_error(500, {"error": {"message": "internal"}})])
    sleeps = Sleeps()
    agent = Agent(guard_model(real, "klausur", offline=offline_factory("klausur"), sleep=sleeps))
    with collect_calls() as log:
        result = agent.run_sync("Klassenarbeit Brüche")

    assert result.output == "Offline-Antwort (klausur)."
    assert script.calls == 4  # max 4 attempts
    assert len(sleeps) == 3
    for n, delay in enumerate(sleeps, start=1):  # exponential backoff with jitter, base 0.5 s
        full = 0.5 * 2 ** (n - 1)
        assert full / 2 <= delay <= full
    assert [r.outcome for r in log.records] == ["retry", "retry", "retry", "server_error", "ok"]
    assert log.records[-1].model == OFFLINE_MODEL_NAME
    notice = fallback_notice(result.all_messages())
    assert notice == (
        f"Hinweis: Das Sprachmodell {SONNET} war nicht erreichbar (Störung beim Anbieter); "
        "diese Antwort stammt vom Offline-Modell (regelbasiert)."
    )
    # The reason also survives persistence without a call log: it is read from ModelResponse.failed_attempts.
    assert fallback_notice(ModelMessagesTypeAdapter.validate_json(result.all_messages_json())) == notice


@pytest.mark.parametrize(
    "error",
    [
        http_error(429, {"error": {"code": "insufficient_quota", "message": "You exceeded your current quota."}}),
        http_error(402, {"error": {"message": "Payment required"}}),
        ModelHTTPError.for_category(ModelQuotaExceededError, status_code=400, model_name=SONNET,
                                    body={"error": {"type": "billing_error"}}),
    ],
    ids=["429-insufficient_quota", "402", "categorized"],
)
def test_quota_exhausted_is_not_retried_and_falls_back(error: ModelHTTPError) -> None:
    real, script = scripted([error, text("darf nicht kommen")])
    sleeps = Sleeps()
    agent = Agent(guard_model(real, "main", offline=offline_factory("main"), sleep=sleeps))
    with collect_calls() as log:
        result = agent.run_sync("Hallo")

    assert script.calls == 1 and sleeps == []
    assert result.output == "Offline-Antwort (main)."
    assert [r.outcome for r in log.records] == ["quota", "ok"]
    assert log.records[0].detail["not_retried"] is True
    notice = fallback_notice(result.all_messages())
    assert notice is not None
    assert "Kontingent bzw. Guthaben beim Anbieter aufgebraucht" in notice
    assert "Offline-Modell (regelbasiert)" in notice and "Administration" in notice


def test_connection_error_is_retried_and_auth_error_is_not() -> None:
    real, script = scripted([ModelConnectionError(SONNET, "connection reset"), TimeoutError(), text("Da bin ich.")])
    sleeps = Sleeps()
    result = Agent(guard_model(real, "main", offline=offline_factory("main"), sleep=sleeps)).run_sync("x")
    assert result.output == "Da bin ich." and script.calls == 3 and len(sleeps) == 2

    auth = ModelHTTPError.for_category(ModelAuthenticationError, status_code=401, model_name=SONNET)
    real, script = scripted([auth])
    result = Agent(guard_model(real, "main", offline=offline_factory("main"), sleep=Sleeps())).run_sync("x")
    assert script.calls == 1 and result.output == "Offline-Antwort (main)."
    assert "API-Schlüssel abgelehnt" in (fallback_notice(result.all_messages()) or "")


def test_streamed_run_is_retried_while_opening() -> None:
    """With an event stream handler the agent streams; errors while opening the stream are retried too."""
    script = Script([http_error(503, headers={"retry-after": "1"}), text("Gestreamt.")])

    async def stream(messages: list[ModelMessage], info: AgentInfo):
        response = script(messages, info)
        yield response.parts[0].content  # type: ignore[union-attr]

    real = FunctionModel(stream_function=stream, model_name=SONNET)
    sleeps = Sleeps()
    events: list[object] = []

    async def handler(ctx: object, stream_events) -> None:  # noqa: ANN001
        async for event in stream_events:
            events.append(event)

    with collect_calls() as log:
        result = Agent(guard_model(real, "main", offline=offline_factory("main"), sleep=sleeps)).run_sync(
            "x", event_stream_handler=handler
        )
    assert result.output == "Gestreamt." and sleeps == [1.0] and events
    assert [r.outcome for r in log.records] == ["retry", "ok"]
    assert log.records[-1].detail["streamed"] is True


def test_all_models_failing_gives_german_message() -> None:
    real, _ = scripted([http_error(503)])
    broken_offline, _ = scripted([ModelHTTPError(500, OFFLINE_MODEL_NAME)], name=OFFLINE_MODEL_NAME)
    agent = Agent(guard_model(real, "main", offline=broken_offline, sleep=Sleeps()))
    with pytest.raises(FallbackExceptionGroup) as info:
        agent.run_sync("x")
    assert describe_model_error(info.value).startswith("Der KI-Anbieter ist gerade nicht erreichbar")


def test_retry_after_sources() -> None:
    assert retry_after_seconds(http_error(429, headers={"retry-after": "0.2"})) == pytest.approx(0.2)
    assert retry_after_seconds(http_error(429, headers={"retry-after-ms": "1500"})) == pytest.approx(1.5)
    assert retry_after_seconds(http_error(429, {"retry_after": "7"})) == 7.0
    assert 55 <= (retry_after_seconds(http_error(429, {"error": {"retry_after": http_date(timedelta(minutes=1))}}))
                  or 0) <= 60
    assert retry_after_seconds(http_error(429, {"error": {"message": "Please try again in 350ms."}})) == 0.35
    assert retry_after_seconds(ModelRateLimitError(SONNET, "slow", retry_after=3.0)) == 3.0
    assert retry_after_seconds(http_error(429)) is None


def test_retrying_model_backoff_is_deterministic_with_fixed_jitter() -> None:
    real, _ = scripted([http_error(502)])
    sleeps = Sleeps()
    model = RetryingModel(real, sleep=sleeps, rng=lambda: 0.5)
    with pytest.raises(ModelHTTPError):
        Agent(model).run_sync("x")
    assert sleeps == [0.375, 0.75, 1.5]


# --------------------------------------------------------------------------------------------------------------------
# Limits, tools, timeouts, German messages
# --------------------------------------------------------------------------------------------------------------------


def test_default_limits() -> None:
    assert DEFAULT_USAGE_LIMITS.tool_calls_limit == 10
    assert DEFAULT_USAGE_LIMITS.input_tokens_limit == 48_000
    assert DEFAULT_USAGE_LIMITS.output_tokens_limit == 24_000  # a whole exam, re-sent by two repairs
    assert (llm.TURN_TIMEOUT_S, llm.TOOL_TIMEOUT_S) == (120, 30)


def _looping_agent() -> Agent:
    model, _ = scripted([ModelResponse(parts=[ToolCallPart("suche_lehrplan", {"fach": "Mathe"})])])
    agent = Agent(model)

    @agent.tool_plain
    def suche_lehrplan(fach: str) -> str:
        """Lehrplan-Abschnitt zu einem Fach."""
        return f"{fach}: Brüche, Dezimalzahlen"

    return agent


def test_tool_call_limit_gives_german_message() -> None:
    with pytest.raises(UsageLimitExceeded) as info:
        _looping_agent().run_sync("Plane die Einheit", usage_limits=UsageLimits(tool_calls_limit=2))
    assert describe_model_error(info.value) == (
        "Der Assistent hat für diese Anfrage zu viele Arbeitsschritte gebraucht (Limit für Werkzeug-Aufrufe). "
        "Bitte die Anfrage genauer fassen oder in Teilschritte aufteilen."
    )


def test_token_limit_gives_german_message() -> None:
    with pytest.raises(UsageLimitExceeded) as info:
        _looping_agent().run_sync("Plane die Einheit", usage_limits=UsageLimits(input_tokens_limit=60))
    assert describe_model_error(info.value) == (
        "Die Anfrage war zu umfangreich für einen Durchgang (Token-Limit). Bitte kürzer fassen oder in Teilen anfragen."
    )


def _tool_parts(messages: list[ModelMessage]) -> tuple[list[ToolReturnPart], list[ToolReturnPart]]:
    """(successful returns, retries) in the last request. In 2.62 a tool's ModelRetry comes back as the call's own
    ToolReturnPart with outcome='retried' (RetryPromptPart is deprecated and only loaded from old histories)."""
    last = messages[-1]
    parts = [p for p in last.parts if isinstance(p, ToolReturnPart)] if isinstance(last, ModelRequest) else []
    return [p for p in parts if p.outcome == "success"], [p for p in parts if p.outcome == "retried"]


def test_tool_error_goes_back_to_the_model_which_recovers() -> None:
    """A tool raising ModelRetry: the model gets the error message and calls the tool differently."""

    def rules(messages: list[ModelMessage]) -> ModelResponse:
        returns, retries = _tool_parts(messages)
        if returns:
            return text(f"Schnitt: {returns[0].content}")
        if retries:  # read the error and correct the argument
            assert "unbekannt" in str(retries[0].content)
            assert retries[0].retry is not None and retries[0].retry.cause == "model_retry"
            return ModelResponse(parts=[ToolCallPart("notenschnitt", {"klasse": "7b"})])
        return ModelResponse(parts=[ToolCallPart("notenschnitt", {"klasse": "7 B"})])

    model, script = scripted([rules, rules, rules])
    agent = Agent(model)

    @agent.tool_plain
    def notenschnitt(klasse: str) -> str:
        """Notenschnitt einer Klasse."""
        if klasse != "7b":
            raise ModelRetry(f"Klasse {klasse!r} unbekannt; bekannt sind: 7a, 7b.")
        return "2,4"

    result = agent.run_sync("Notenschnitt 7b?")
    assert result.output == "Schnitt: 2,4" and script.calls == 3
    retried = [p for m in result.all_messages() for p in m.parts
               if isinstance(p, ToolReturnPart) and p.outcome == "retried"]
    assert len(retried) == 1 and retried[0].tool_name == "notenschnitt"


def test_plain_tool_exception_is_not_sent_to_the_model() -> None:
    """Only ModelRetry goes back to the model; any other exception ends the run (tools must convert)."""
    model, _ = scripted([ModelResponse(parts=[ToolCallPart("kaputt", {})]), text("nie")])
    agent = Agent(model)

    @agent.tool_plain
    def kaputt() -> str:
        raise ValueError("Datei fehlt")

    with pytest.raises(ValueError, match="Datei fehlt"):
        agent.run_sync("x")


def test_tool_timeout_is_native_in_pydantic_ai() -> None:
    """`@agent.tool(timeout=...)` (or Agent(tool_timeout=...)) turns a slow tool into a retry prompt."""

    def rules(messages: list[ModelMessage]) -> ModelResponse:
        _, retries = _tool_parts(messages)
        if retries:
            assert "Timed out after 0.05 seconds" in str(retries[0].content)
            return text("Die Suche dauerte zu lange.")
        return ModelResponse(parts=[ToolCallPart("langsam", {})])

    model, _ = scripted([rules])
    agent = Agent(model)

    @agent.tool_plain(timeout=0.05)
    async def langsam() -> str:
        await asyncio.sleep(5)
        return "nie"

    assert agent.run_sync("x").output == "Die Suche dauerte zu lange."


def test_run_with_timeout_raises_typed_error() -> None:
    async def slow() -> str:
        await asyncio.sleep(5)
        return "nie"

    async def fast() -> str:
        return "ok"

    with pytest.raises(TurnTimeout) as info:
        asyncio.run(run_with_timeout(slow(), 0.05))
    assert isinstance(info.value, TimeoutError) and isinstance(info.value, UserError)
    assert "zu lange gedauert" in describe_model_error(info.value)
    assert asyncio.run(run_with_timeout(fast(), 1)) == "ok"


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (RunTimedOut("x"), "Die Antwort hat zu lange gedauert"),
        (http_error(429), "zu viele Anfragen"),
        (http_error(429, {"error": {"code": "insufficient_quota"}}), "Kontingent"),
        (http_error(529), "überlastet"),
        (http_error(500), "Störung"),
        (ModelConnectionError(SONNET, "reset"), "Keine Verbindung"),
        (ModelHTTPError.for_category(ModelAuthenticationError, status_code=401, model_name=SONNET), "API-Schlüssel"),
        (ModelHTTPError.for_category(ModelContextWindowExceededError, status_code=400, model_name=SONNET),
         "neues Gespräch"),
        (UnexpectedModelBehavior("Exceeded maximum retries (1) for output validation"), "unerwartet"),
        (UserError("Eigene Meldung."), "Eigene Meldung."),
        (ValueError("?"), "Beim Sprachmodell ist ein Fehler aufgetreten"),
    ],
)
def test_describe_model_error(error: BaseException, expected: str) -> None:
    assert expected in describe_model_error(error)


# --------------------------------------------------------------------------------------------------------------------
# Call log and cost
# --------------------------------------------------------------------------------------------------------------------


def test_cost_of_a_sonnet_response_from_the_table() -> None:
    real, _ = scripted([text("Antwort", RequestUsage(input_tokens=1000, output_tokens=500))], name=SONNET)
    with collect_calls() as log:
        Agent(LoggedModel(real, role="main")).run_sync("x")
    (record,) = log.records
    price_in, price_out = llm.MODEL_PRICES[SONNET]
    assert record.cost_usd == pytest.approx((1000 * price_in + 500 * price_out) / 1_000_000)
    assert record.cost_usd == pytest.approx(0.0105)  # 3 $ / 15 $ per million tokens (as of PRICES_AS_OF)
    assert (record.input_tokens, record.output_tokens) == (1000, 500)
    assert record.outcome == "ok" and record.latency_ms >= 0 and record.detail["price"] == SONNET
    assert record.tokens_estimated is True  # a FunctionModel's usage never comes from a provider
    assert log.total_cost_usd == pytest.approx(0.0105)


def test_offline_calls_cost_nothing_and_are_estimated() -> None:
    with collect_calls() as log:
        Agent(LoggedModel(offline_factory("h5p"), role="h5p")).run_sync("Erstelle ein Quiz")
    (record,) = log.records
    assert record.model == OFFLINE_MODEL_NAME and record.role == "h5p"
    assert record.cost_usd == 0.0 and record.tokens_estimated is True and record.input_tokens > 0


def test_price_lookup() -> None:
    assert price_for("anthropic:claude-haiku-4-5-20251001")[:2] == ((1.0, 5.0), "claude-haiku-4-5")
    assert price_for("gpt-5-mini-2025-08-07")[1] == "gpt-5-mini"
    assert price_for("gpt-4o-mini")[1] == "gpt-4o-mini"
    assert price_for("gpt-5.2-chat-latest")[1] == "gpt-5.2"
    assert price_for("claude-sonnet-9")[1:] == ("family:claude-sonnet", True)
    assert price_for("llama3.2") == (None, "unknown", True)
    assert cost_usd("llama3.2", 10, 10) is None
    assert cost_usd(OFFLINE_MODEL_NAME, 10_000, 10_000) == 0.0


def test_no_log_outside_collect_calls() -> None:
    assert llm.current_call_log() is None
    Agent(LoggedModel(offline_factory("main"), role="main")).run_sync("x")  # must not fail without a log


def test_call_record_fields_match_llm_calls() -> None:
    assert [f for f in llm.CallRecord.__dataclass_fields__] == [
        "role", "model", "input_tokens", "output_tokens", "tokens_estimated", "cost_usd", "latency_ms", "outcome",
        "detail",
    ]


# --------------------------------------------------------------------------------------------------------------------
# Model names and construction
# --------------------------------------------------------------------------------------------------------------------


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    for role in llm.ROLES:
        monkeypatch.delenv(f"WERKBANK_MODEL_{role.upper()}", raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("name", "provider", "model", "base_url"),
    [
        ("offline", "offline", OFFLINE_MODEL_NAME, None),
        ("anthropic:claude-sonnet-4-6", "anthropic", "claude-sonnet-4-6", None),
        ("openai:gpt-5.2", "openai", "gpt-5.2", None),
        ("openai-chat:gpt-4.1-mini", "openai-chat", "gpt-4.1-mini", None),
        ("ollama:llama3.2", "ollama", "llama3.2", "http://localhost:11434/v1"),
        ("openai-compatible:Qwen/Qwen3-8B@http://localhost:8000/v1", "openai-compatible", "Qwen/Qwen3-8B",
         "http://localhost:8000/v1"),
        ("openai-compatible:my-model@https://llm.schule.example:1234/v1/", "openai-compatible", "my-model",
         "https://llm.schule.example:1234/v1"),
    ],
)
def test_check_model_name_accepts(keys: pytest.MonkeyPatch, name: str, provider: str, model: str,
                                  base_url: str | None) -> None:
    keys.delenv("OLLAMA_BASE_URL", raising=False)
    spec = check_model_name(name)
    assert (spec.provider, spec.model, spec.base_url) == (provider, model, base_url)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("gemini:gemini-3-pro", "ist unbekannt"),
        ("claude-sonnet-4-6", "ist unbekannt"),
        ("anthropic:", "fehlt nach „anthropic:“ der Name des Modells"),
        ("openai-compatible:qwen", "openai-compatible:<modell>@<adresse>"),
        ("openai-compatible:qwen@localhost:8000/v1", "openai-compatible:<modell>@<adresse>"),
        ("openai-compatible:qwen@http://localhost:abc/v1", "Serveradresse"),
    ],
)
def test_check_model_name_refuses(keys: pytest.MonkeyPatch, name: str, expected: str) -> None:
    with pytest.raises(UserError) as info:
        check_model_name(name)
    assert expected in info.value.message


@pytest.mark.parametrize(("name", "var"), [("anthropic:claude-sonnet-4-6", "ANTHROPIC_API_KEY"),
                                           ("openai:gpt-5.2", "OPENAI_API_KEY"),
                                           ("openai-chat:gpt-4.1", "OPENAI_API_KEY")])
def test_check_model_name_names_the_missing_key(keys: pytest.MonkeyPatch, name: str, var: str) -> None:
    keys.delenv(var)
    with pytest.raises(UserError) as info:
        check_model_name(name)
    assert f"Bitte die Umgebungsvariable {var} setzen" in info.value.message


def test_model_per_role(keys: pytest.MonkeyPatch) -> None:
    opus = "anthropic:claude-opus-4-8"
    assert model_name_for_role("main", default=opus) == llm.ANTHROPIC_SONNET
    assert model_name_for_role("differenzierung", default=opus) == llm.ANTHROPIC_SONNET
    assert model_name_for_role("h5p", default=opus) == llm.ANTHROPIC_HAIKU
    assert model_name_for_role("memory", default=opus) == llm.ANTHROPIC_HAIKU
    assert model_name_for_role("supervisor", default=opus) == opus
    # a chosen Sonnet/Haiku default is kept for its own class
    assert model_name_for_role("klausur", default="anthropic:claude-sonnet-4-6") == "anthropic:claude-sonnet-4-6"
    assert model_name_for_role("learning", default="anthropic:claude-sonnet-4-6") == llm.ANTHROPIC_HAIKU
    # other providers: the default for every role
    assert model_name_for_role("h5p", default="openai:gpt-5.2") == "openai:gpt-5.2"
    keys.setenv("WERKBANK_MODEL_H5P", "offline")
    keys.setenv("WERKBANK_MODEL_JUDGE", "openai:gpt-5.2")
    assert model_name_for_role("h5p", default=opus) == "offline"
    assert model_name_for_role("judge", default=opus) == "openai:gpt-5.2"
    with pytest.raises(ValueError):
        model_name_for_role("chef", default=opus)


def test_default_comes_from_settings(keys: pytest.MonkeyPatch) -> None:
    assert model_name_for_role("main") == "offline"  # tests/conftest.py sets WERKBANK_MODEL=offline


def _unwrap(model: Model) -> Model:
    while isinstance(model, llm.WrapperModel):
        model = model.wrapped
    return model


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access during model construction")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.mark.parametrize(
    ("default", "role", "cls", "model_name"),
    [
        ("anthropic:claude-opus-4-8", "main", AnthropicModel, "claude-sonnet-5-5"),
        ("anthropic:claude-opus-4-8", "h5p", AnthropicModel, "claude-haiku-5-5"),
        ("openai:gpt-5.2", "main", OpenAIResponsesModel, "gpt-5.2"),
        ("openai-chat:gpt-4.1", "judge", OpenAIChatModel, "gpt-4.1"),
        ("ollama:llama3.2", "main", OpenAIChatModel, "llama3.2"),
        ("openai-compatible:Qwen/Qwen3-8B@http://localhost:8000/v1", "memory", OpenAIChatModel, "Qwen/Qwen3-8B"),
    ],
)
def test_build_model_real_without_network(keys: pytest.MonkeyPatch, no_network: None, default: str, role: str,
                                          cls: type[Model], model_name: str) -> None:
    model = build_model(role, offline=offline_factory, default=default)
    assert isinstance(model, FallbackModel) and len(model.models) == 2
    primary, backup = model.models
    assert isinstance(primary, RetryingModel) and isinstance(primary.wrapped, LoggedModel)
    real = _unwrap(primary)
    assert isinstance(real, cls) and real.model_name == model_name
    assert real.settings is not None and real.settings.get("max_retries") == 0  # RetryingModel is the one layer
    assert isinstance(backup, LoggedModel) and backup.model_name == OFFLINE_MODEL_NAME
    if default.startswith("openai-compatible:"):
        assert real.base_url == "http://localhost:8000/v1/"


def test_build_model_offline_returns_the_offline_model(keys: pytest.MonkeyPatch) -> None:
    model = build_model("main", offline=offline_factory, default="offline")
    assert isinstance(model, FunctionModel) and model.model_name == OFFLINE_MODEL_NAME
    keys.setenv("WERKBANK_MODEL_SAFETY", "offline")
    assert isinstance(build_model("safety", offline=offline_factory, default="anthropic:claude-opus-4-8"),
                      FunctionModel)


def test_build_model_refuses_missing_key(keys: pytest.MonkeyPatch) -> None:
    keys.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(UserError, match="ANTHROPIC_API_KEY"):
        build_model("main", offline=offline_factory, default="anthropic:claude-sonnet-4-6")
