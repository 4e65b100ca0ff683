"""The per-call log and its cost (agents.models.calls/pricing): what LoggedModel records for llm_calls."""

from __future__ import annotations

import pytest
from pydantic_ai import Agent
from pydantic_ai.usage import RequestUsage

from agents.models.calls import CallRecord, LoggedModel, collect_calls, current_call_log
from agents.models.names import (
    OFFLINE_MODEL_NAME,
)
from agents.models.pricing import MODEL_PRICES, cost_usd, price_for
from tests.agents.models.scripts import (
    SONNET,
    offline_factory,
    scripted,
    text,
)


def test_cost_of_a_sonnet_response_from_the_table() -> None:
    real, _ = scripted([text("Antwort", RequestUsage(input_tokens=1000, output_tokens=500))], name=SONNET)
    with collect_calls() as log:
        Agent(LoggedModel(real, role="main")).run_sync("x")
    (record,) = log.records
    price_in, price_out = MODEL_PRICES[SONNET]
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
    assert current_call_log() is None
    Agent(LoggedModel(offline_factory("main"), role="main")).run_sync("x")  # must not fail without a log


def test_call_record_fields_match_llm_calls() -> None:
    assert [f for f in CallRecord.__dataclass_fields__] == [
        "role", "model", "input_tokens", "output_tokens", "tokens_estimated", "cost_usd", "latency_ms", "outcome",
        "detail",
    ]
