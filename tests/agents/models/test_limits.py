"""Limits, tool errors, timeouts and German model-error messages (agents.models.limits/errors)."""

from __future__ import annotations

import asyncio

import pytest
from pydantic_ai import Agent, ModelRetry, UsageLimitExceeded, UsageLimits
from pydantic_ai.exceptions import (
    ModelAuthenticationError,
    ModelConnectionError,
    ModelContextWindowExceededError,
    ModelHTTPError,
    RunTimedOut,
    UnexpectedModelBehavior,
)
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    ToolCallPart,
    ToolReturnPart,
)

from agents.models.errors import describe_model_error
from agents.models.limits import (
    DEFAULT_USAGE_LIMITS,
    TOOL_TIMEOUT_S,
    TURN_TIMEOUT_S,
    TurnTimeout,
    run_with_timeout,
)
from core.app.errors import UserError
from tests.agents.models.scripts import (
    SONNET,
    http_error,
    scripted,
    text,
)


def test_default_limits() -> None:
    assert DEFAULT_USAGE_LIMITS.tool_calls_limit == 10
    assert DEFAULT_USAGE_LIMITS.input_tokens_limit == 48_000
    assert DEFAULT_USAGE_LIMITS.output_tokens_limit == 24_000  # a whole exam, re-sent by two repairs
    assert (TURN_TIMEOUT_S, TOOL_TIMEOUT_S) == (120, 30)


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
