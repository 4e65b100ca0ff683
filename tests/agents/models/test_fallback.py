"""The fallback chain (agents.models.fallback/limits): retries with Retry-After or backoff, quota errors straight to
the offline model, the German notice. Scripted FunctionModels only; no network, no database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic_ai import Agent
from pydantic_ai.exceptions import (
    FallbackExceptionGroup,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelHTTPError,
    ModelQuotaExceededError,
    ModelRateLimitError,
)
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agents.models.calls import collect_calls
from agents.models.errors import describe_model_error
from agents.models.fallback import fallback_notice, fallback_notices, guard_model
from agents.models.limits import (
    RetryingModel,
    retry_after_seconds,
)
from agents.models.names import (
    OFFLINE_MODEL_NAME,
)
from tests.agents.models.scripts import (
    SONNET,
    Script,
    Sleeps,
    http_date,
    http_error,
    offline_factory,
    scripted,
    text,
)


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
    assert notice == (  # a 500 is an answer: the server was reachable, so the notice must not say otherwise
        f"Hinweis: Das Sprachmodell {SONNET} hat mit einem Fehler geantwortet (Störung beim Anbieter); "
        "diese Antwort stammt vom Offline-Modell (regelbasiert)."
    )
    assert fallback_notices(log) == [
        f"Hinweis: Das Sprachmodell {SONNET} hat mit einem Fehler geantwortet (Störung beim Anbieter); "
        "das Offline-Modell (regelbasiert) hat übernommen für: Klausur-Assistent."
    ]
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
