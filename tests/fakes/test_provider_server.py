"""pydantic-ai's real provider models (OpenAIChatModel, AnthropicModel) against the loopback fake, over HTTP.

No app code: a plain `Agent` with one tool and one output type, so these tests pin down what the SDKs and
pydantic-ai 2.62 do on the wire (retries, delays, timeouts, error types) — the facts the app's provider code builds on.
Every test bounds its own run time (`run_agent(..., within=...)`) and a hard `asyncio` limit stops a hang.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import BaseModel
from pydantic_ai import Agent
from pydantic_ai.exceptions import (
    ModelConnectionError,
    ModelHTTPError,
    ModelOverloadedError,
    ModelRateLimitError,
    ModelRequestTimeout,
    ModelServerError,
    ModelTimeoutError,
    UnexpectedModelBehavior,
)
from pydantic_ai.messages import ModelMessage, ModelRequest, RetryPromptPart, ToolReturnPart
from pydantic_ai.models import Model, override_allow_model_requests
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.anthropic import AnthropicProvider
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.settings import ModelSettings

from agents.models.providers import CompatibleChatModel
from tests.fakes.provider_server import LLAMA_CPP_PYTHON, FakeProviderServer, Fault, Reply, ToolCall, Turn, Usage

APIS = ("openai", "anthropic")
ANTHROPIC_MODEL = "claude-haiku-4-5"  # a known name, so the profile (max output 64000) is the real one
HARD_LIMIT_S = 20.0


class Wetter(BaseModel):
    stadt: str
    grad: int


TOOL_TURN = Reply(tool_calls=[ToolCall("temperatur", {"stadt": "Berlin"})], usage=Usage(11, 3))
FINAL_TURN = Reply(tool_calls=[ToolCall("final_result", {"stadt": "Berlin", "grad": 21})], usage=Usage(20, 4))
BROKEN_JSON = '{"stadt": "Berlin", "grad": '


@pytest.fixture(autouse=True)
def _loopback_requests_allowed() -> Iterator[None]:
    # tests/conftest.py forbids model requests; these go to 127.0.0.1 only.
    with override_allow_model_requests(True):
        yield


def make_model(api: str, server: FakeProviderServer, **settings: Any) -> Model:
    model_settings = ModelSettings(**settings) if settings else None
    if api == "openai":
        provider = OpenAIProvider(base_url=server.openai_base_url, api_key="test-key")
        return OpenAIChatModel("fake-chat", provider=provider, settings=model_settings)
    provider = AnthropicProvider(base_url=server.anthropic_base_url, api_key="test-key")
    return AnthropicModel(ANTHROPIC_MODEL, provider=provider, settings=model_settings)


def weather_agent(model: Model, output_type: type = Wetter) -> Agent[None, Any]:
    agent: Agent[None, Any] = Agent(model, output_type=output_type)

    @agent.tool_plain
    def temperatur(stadt: str) -> int:
        """Die aktuelle Temperatur einer Stadt in Grad Celsius."""
        return 21

    return agent


@dataclass
class Outcome:
    output: Any = None
    error: BaseException | None = None
    elapsed: float = 0.0
    messages: list[ModelMessage] = field(default_factory=list)
    usage: Any = None


def run_agent(
    api: str,
    turns: list[Turn],
    *,
    within: float,
    stream: bool = False,
    output_type: type = Wetter,
    check: Callable[[FakeProviderServer], None] | None = None,
    **settings: Any,
) -> tuple[Outcome, FakeProviderServer]:
    """Run the weather agent once against a fresh fake; assert it ended within `within` seconds."""
    outcome = Outcome()
    with FakeProviderServer(turns) as server:
        agent = weather_agent(make_model(api, server, **settings), output_type)

        async def go() -> None:
            if stream:
                async with agent.run_stream("Wie warm ist es in Berlin?") as result:
                    outcome.output = await result.get_output()
                    outcome.usage = result.usage
                    outcome.messages = result.all_messages()
            else:
                result = await agent.run("Wie warm ist es in Berlin?")
                outcome.output, outcome.usage, outcome.messages = result.output, result.usage, result.all_messages()

        started = time.monotonic()
        try:
            asyncio.run(asyncio.wait_for(go(), HARD_LIMIT_S))
        except Exception as exc:  # the outcome under test
            outcome.error = exc
        outcome.elapsed = time.monotonic() - started
    assert outcome.elapsed < within, f"took {outcome.elapsed:.2f}s (limit {within}s): {outcome.error!r}"
    return outcome, server


def gaps(server: FakeProviderServer) -> list[float]:
    """Seconds between consecutive requests as the server saw them (the SDK's retry delays)."""
    times = [r.at for r in server.requests]
    return [b - a for a, b in zip(times, times[1:], strict=False)]


# --------------------------------------------------------------------------------------------------------------------
# Success: tool call, output tool, usage, what is sent
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", APIS)
def test_tool_call_then_output_tool_succeeds_with_usage(api: str, stream: bool) -> None:
    outcome, server = run_agent(api, [TOOL_TURN, FINAL_TURN], stream=stream, within=5)

    assert outcome.error is None
    assert outcome.output == Wetter(stadt="Berlin", grad=21)
    assert (outcome.usage.input_tokens, outcome.usage.output_tokens, outcome.usage.requests) == (31, 7, 2)
    first, second = (r.body for r in server.requests)
    if api == "openai":
        assert first["tool_choice"] == "required"  # an output type without text output forces a tool
        assert "max_tokens" not in first and "max_completion_tokens" not in first  # nothing bounds the answer
        assert first["stream"] is stream
        if stream:
            assert first["stream_options"] == {"include_usage": True}
        assistant = second["messages"][1]
        assert assistant["content"] is None and assistant["tool_calls"][0]["function"]["name"] == "temperatur"
        assert second["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "21"}
    else:
        assert first["tool_choice"] == {"type": "any"}
        assert first["max_tokens"] == 64000  # the model's maximum output when max_tokens is not set
        assert first["stream"] is True  # even agent.run(): the SDK refuses 64000 tokens without streaming
        tool_result = second["messages"][2]["content"][0]
        assert tool_result["type"] == "tool_result" and tool_result["is_error"] is False
    assert {t["name"] if api == "anthropic" else t["function"]["name"] for t in first["tools"]} == {
        "temperatur",
        "final_result",
    }


@pytest.mark.parametrize("api", APIS)
def test_text_output_sends_tool_choice_auto_and_explicit_max_tokens(api: str) -> None:
    outcome, server = run_agent(api, [Reply(text="Es sind 21 Grad.")], output_type=str, max_tokens=500, within=5)

    assert outcome.output == "Es sind 21 Grad."
    body = server.requests[0].body
    if api == "openai":
        assert body["tool_choice"] == "auto"
        assert body["max_completion_tokens"] == 500 and "max_tokens" not in body
    else:
        assert body["tool_choice"] == {"type": "auto"}
        assert body["max_tokens"] == 500 and body["stream"] is False


# --------------------------------------------------------------------------------------------------------------------
# HTTP errors: 429, 529, 500 — the SDKs retry on their own (2 retries, 0.5 s then 1 s, jitter -0..25 %)
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_429_with_retry_after_is_retried_after_that_delay(api: str) -> None:
    outcome, server = run_agent(api, [Fault.http(429, headers={"retry-after": "1"}), FINAL_TURN], within=4)

    assert outcome.output == Wetter(stadt="Berlin", grad=21)
    assert len(server.requests) == 2
    assert 0.9 <= gaps(server)[0] < 1.6


@pytest.mark.parametrize("api", APIS)
def test_429_without_header_gives_up_after_two_backed_off_retries(api: str) -> None:
    outcome, server = run_agent(api, [Fault.http(429)] * 3 + [FINAL_TURN], within=5)

    assert isinstance(outcome.error, ModelRateLimitError) and outcome.error.status_code == 429
    assert len(server.requests) == 3 and server.remaining == 1
    first, second = gaps(server)
    assert 0.3 <= first < 0.9 and 0.7 <= second < 1.6  # 0.5 s and 1 s, each minus up to 25 % jitter


@pytest.mark.parametrize("api", APIS)
def test_max_retries_zero_makes_a_single_attempt(api: str) -> None:
    outcome, server = run_agent(api, [Fault.http(429), FINAL_TURN], max_retries=0, within=2)

    assert isinstance(outcome.error, ModelRateLimitError)
    assert len(server.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_long_retry_after_openai_gives_up_anthropic_waits(api: str) -> None:
    # openai caps Retry-After at 120 s and does not retry above it; anthropic waits as long as it is told
    # (only `request_timeout`, pydantic-ai's own deadline, ends the wait).
    outcome, server = run_agent(
        api, [Fault.http(429, headers={"retry-after": "300"}), FINAL_TURN], request_timeout=1.0, within=3
    )

    assert len(server.requests) == 1
    if api == "openai":
        assert isinstance(outcome.error, ModelRateLimitError) and outcome.elapsed < 1
    else:
        assert isinstance(outcome.error, ModelRequestTimeout) and outcome.elapsed >= 0.95


@pytest.mark.parametrize("api", APIS)
def test_x_should_retry_false_is_obeyed(api: str) -> None:
    outcome, server = run_agent(api, [Fault.http(429, headers={"x-should-retry": "false"}), FINAL_TURN], within=2)

    assert isinstance(outcome.error, ModelRateLimitError) and len(server.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_529_overloaded_is_retried_then_succeeds(api: str) -> None:
    outcome, server = run_agent(api, [Fault.http(529), FINAL_TURN], within=3)

    assert outcome.output == Wetter(stadt="Berlin", grad=21) and len(server.requests) == 2


def test_anthropic_529_without_retries_is_model_overloaded_error() -> None:
    outcome, _ = run_agent("anthropic", [Fault.http(529)], max_retries=0, within=2)

    assert isinstance(outcome.error, ModelOverloadedError) and outcome.error.status_code == 529


@pytest.mark.parametrize("api", APIS)
def test_500_is_retried_then_model_server_error(api: str) -> None:
    outcome, server = run_agent(api, [Fault.http(500)] * 2, max_retries=1, within=3)

    assert isinstance(outcome.error, ModelServerError) and outcome.error.status_code == 500
    assert len(server.requests) == 2


@pytest.mark.parametrize("api", APIS)
def test_exhausted_script_is_a_400_that_is_not_retried(api: str) -> None:
    outcome, server = run_agent(api, [], within=2)

    assert isinstance(outcome.error, ModelHTTPError) and outcome.error.status_code == 400
    assert "no scripted turn left" in json.dumps(outcome.error.body)
    assert len(server.requests) == 1


# --------------------------------------------------------------------------------------------------------------------
# Streams that fail after the 200: no SDK retry
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_error_event_inside_a_stream_is_raised_without_retry(api: str) -> None:
    outcome, server = run_agent(api, [Fault.stream_error(529, after_events=3), FINAL_TURN], stream=True, within=2)

    assert len(server.requests) == 1
    if api == "anthropic":  # the error type names the status: overloaded_error -> 529
        assert isinstance(outcome.error, ModelOverloadedError) and outcome.error.status_code == 529
    else:  # an OpenAI SDK stream error carries no status; pydantic-ai calls it a 500
        assert isinstance(outcome.error, ModelServerError) and outcome.error.status_code == 500


@pytest.mark.parametrize("api", APIS)
def test_broken_stream_is_a_connection_error_without_retry(api: str) -> None:
    outcome, server = run_agent(api, [Fault.drop(after_events=3), FINAL_TURN], stream=True, within=2)

    assert isinstance(outcome.error, ModelConnectionError)
    assert len(server.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_broken_non_stream_body_is_retried_by_the_sdk(api: str) -> None:
    # Anthropic needs an explicit max_tokens, else agent.run() streams (see the first test).
    outcome, server = run_agent(api, [Fault.drop(), FINAL_TURN], max_tokens=1000, within=3)

    assert outcome.output == Wetter(stadt="Berlin", grad=21)
    assert len(server.requests) == 2 and not server.requests[0].stream


# --------------------------------------------------------------------------------------------------------------------
# Time: a hang (client timeout) and an endless stream (only request_timeout ends it)
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_hang_ends_in_client_timeout_after_one_attempt(api: str) -> None:
    outcome, server = run_agent(api, [Fault.hang(10), FINAL_TURN], timeout=0.5, max_retries=0, within=2)

    assert isinstance(outcome.error, ModelTimeoutError)
    assert outcome.elapsed >= 0.45 and len(server.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_hang_timeouts_are_retried_by_the_sdk(api: str) -> None:
    outcome, server = run_agent(api, [Fault.hang(10), FINAL_TURN], timeout=0.5, max_retries=1, within=3)

    assert outcome.output == Wetter(stadt="Berlin", grad=21)
    assert len(server.requests) == 2 and gaps(server)[0] >= 0.8  # 0.5 s timeout + ~0.4-0.5 s backoff


@pytest.mark.parametrize("api", APIS)
def test_endless_stream_is_ended_only_by_request_timeout(api: str) -> None:
    # `timeout` is per read and never fires while chunks keep coming; `request_timeout` covers the whole stream.
    outcome, server = run_agent(
        api, [Fault.endless(every=0.05)], stream=True, output_type=str, timeout=0.3, request_timeout=1.0, within=3
    )

    assert isinstance(outcome.error, ModelRequestTimeout)
    assert outcome.elapsed >= 0.95 and len(server.requests) == 1


# --------------------------------------------------------------------------------------------------------------------
# Malformed answers: invalid tool JSON, content null
# --------------------------------------------------------------------------------------------------------------------


def _retries(messages: list[ModelMessage]) -> list[ToolReturnPart | RetryPromptPart]:
    """The parts that sent a validation error back to the model. In 2.62 a tool call whose arguments don't validate
    comes back as `ToolReturnPart(outcome='retried', retry=RetryInfo(cause='validation_error'))`; older versions and
    other causes use `RetryPromptPart`."""
    return [
        p
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, RetryPromptPart) or (isinstance(p, ToolReturnPart) and p.outcome == "retried")
    ]


@pytest.mark.parametrize("api", APIS)
def test_invalid_tool_json_becomes_a_retry_prompt(api: str) -> None:
    broken = Reply(tool_calls=[ToolCall("temperatur", raw_args=BROKEN_JSON)])
    outcome, server = run_agent(api, [broken, TOOL_TURN, FINAL_TURN], max_tokens=1000, within=3)

    assert outcome.output == Wetter(stadt="Berlin", grad=21)
    [retry] = _retries(outcome.messages)
    assert isinstance(retry, ToolReturnPart) and retry.tool_name == "temperatur"
    assert retry.retry is not None and retry.retry.cause == "validation_error"
    sent = json.dumps(server.requests[1].body["messages"])
    assert "json_invalid" in sent
    if api == "openai":  # the broken arguments are echoed back wrapped, so the request itself stays valid JSON
        assert "INVALID_JSON" in sent
    if api == "anthropic":
        assert server.requests[1].body["messages"][-1]["content"][0]["is_error"] is True


@pytest.mark.parametrize("api", APIS)
def test_invalid_output_tool_json_is_retried_by_run_but_not_by_run_stream(api: str) -> None:
    broken = Reply(tool_calls=[ToolCall("final_result", raw_args=BROKEN_JSON)])
    ran, _ = run_agent(api, [broken, FINAL_TURN], max_tokens=1000, within=3)
    streamed, server = run_agent(api, [broken, FINAL_TURN], stream=True, within=3)

    assert ran.output == Wetter(stadt="Berlin", grad=21) and len(_retries(ran.messages)) == 1
    assert isinstance(streamed.error, UnexpectedModelBehavior)
    assert "retries are not supported in `run_stream()`" in str(streamed.error)
    assert len(server.requests) == 1


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", APIS)
def test_content_null_without_tool_calls_is_asked_again_for_text(api: str, stream: bool) -> None:
    outcome, server = run_agent(
        api, [Reply(content_null=True), Reply(text="Hallo!")], output_type=str, stream=stream, within=3
    )

    assert outcome.output == "Hallo!" and len(server.requests) == 2
    # pydantic-ai appends its request as a *system* message after the user turn — some chat templates reject that.
    last = server.requests[1].body["messages"][-1]
    if api == "openai":
        assert last == {"role": "system", "content": "Please return text or call a tool."}
    else:
        assert last["role"] == "user" and "Please return text or call a tool." in last["content"][0]["text"]


@pytest.mark.parametrize("api", APIS)
def test_content_null_beside_a_tool_call_is_fine(api: str) -> None:
    outcome, _ = run_agent(api, [Reply(content_null=True, tool_calls=FINAL_TURN.tool_calls)], within=2)

    assert outcome.output == Wetter(stadt="Berlin", grad=21)


# --------------------------------------------------------------------------------------------------------------------
# A local llama-cpp-python server's quirks (Quirks.LLAMA_CPP_PYTHON) and the client settings that get past them
# --------------------------------------------------------------------------------------------------------------------

LOCAL_SERVER_PROFILE = {
    "openai_chat_supports_max_completion_tokens": False,  # llama-cpp-python ignores max_completion_tokens
    "supports_forced_tool_choice": False,  # send tool_choice "auto" instead of "required"
    "openai_chat_supports_allowed_tools": False,
}


@pytest.mark.parametrize(
    ("model_class", "profile", "failing_request"),
    [
        (OpenAIChatModel, None, 1),  # tool_choice "required" -> 500
        (OpenAIChatModel, LOCAL_SERVER_PROFILE, 2),  # the tool call sent back with content null -> 500
        (CompatibleChatModel, LOCAL_SERVER_PROFILE, None),
    ],
    ids=["default-profile", "local-profile", "local-profile-and-empty-content"],
)
def test_llama_cpp_python_quirks(model_class: type[OpenAIChatModel], profile: Any, failing_request: int | None) -> None:
    with FakeProviderServer([TOOL_TURN, FINAL_TURN], quirks=LLAMA_CPP_PYTHON) as server:
        provider = OpenAIProvider(base_url=server.openai_base_url, api_key="test-key")
        settings = ModelSettings(max_tokens=100, max_retries=0)
        agent = weather_agent(model_class("local", provider=provider, profile=profile, settings=settings))
        started = time.monotonic()
        try:
            output, error = agent.run_sync("Wie warm ist es in Berlin?").output, None
        except ModelServerError as exc:
            output, error = None, exc
        assert time.monotonic() - started < 3

    bodies = [r.body for r in server.requests]
    if failing_request is None:
        assert output == Wetter(stadt="Berlin", grad=21)
        assert bodies[1]["messages"][1]["content"] == ""
    else:
        assert error is not None and error.status_code == 500 and len(bodies) == failing_request
    if profile is None:
        assert bodies[0]["tool_choice"] == "required" and bodies[0]["max_completion_tokens"] == 100
    else:
        assert bodies[0]["tool_choice"] == "auto" and bodies[0]["max_tokens"] == 100
        assert "max_completion_tokens" not in bodies[0]
