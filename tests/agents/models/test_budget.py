"""The turn's time budget: timeouts that add up with the offline reserve, the deadline a request gets, and a real
model skipped once it failed in the turn."""

from __future__ import annotations

import pytest
from pydantic_ai import Agent
from pydantic_ai.exceptions import ModelHTTPError

from agents.models.budget import Timeouts, configured_timeouts, turn_budget
from agents.models.calls import collect_calls
from agents.models.errors import is_deterministic_error
from agents.models.fallback import fallback_notices, guard_model
from agents.models.names import OFFLINE_MODEL_NAME
from agents.models.registry import offline_model, rules_model

SONNET = "claude-sonnet-4-6"


def test_defaults_fit_one_retry_after_a_timeout_and_the_offline_reserve() -> None:
    t = configured_timeouts()
    assert (t.turn_s, t.request_s, t.read_s, t.reserve_s) == (120, 45, 30, 15)
    assert t.request_s + t.reserve_s < t.turn_s


@pytest.mark.parametrize(("env", "expected"), [
    ({"WERKBANK_TURN_TIMEOUT_S": "30"}, Timeouts(30, 20, 20, 10)),  # reserve ≤ a third, request ≤ turn − reserve
    ({"WERKBANK_MODEL_TIMEOUT_S": "200", "WERKBANK_MODEL_READ_TIMEOUT_S": "300"}, Timeouts(120, 105, 105, 15)),
    ({"WERKBANK_MODEL_TIMEOUT_S": "abc", "WERKBANK_MODEL_READ_TIMEOUT_S": "-1"}, Timeouts(120, 45, 30, 15)),
])
def test_configured_timeouts_are_made_consistent(monkeypatch: pytest.MonkeyPatch, env: dict,
                                                 expected: Timeouts) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert configured_timeouts() == expected


def test_a_model_that_failed_is_skipped_for_the_rest_of_the_turn() -> None:
    calls = []

    def broken(messages, info):  # noqa: ANN001, ANN202
        calls.append(1)
        raise ModelHTTPError(401, SONNET, {"error": {"message": "invalid x-api-key"}})

    async def no_sleep(_: float) -> None:
        return None

    model = guard_model(rules_model(broken, model_name=SONNET), "main", offline=offline_model("main"), sleep=no_sleep)
    with turn_budget() as budget, collect_calls() as log:
        Agent(model).run_sync("Hallo")
        Agent(model).run_sync("Noch einmal")
    assert len(calls) == 1 and budget.down == {SONNET: "auth"}  # the second run went offline without asking
    assert [r.outcome for r in log.records] == ["auth", "ok", "ok"]
    assert {r.model for r in log.records[1:]} == {OFFLINE_MODEL_NAME}
    assert fallback_notices(log) == [
        f"Hinweis: Das Sprachmodell {SONNET} hat die Anfrage abgelehnt (API-Schlüssel abgelehnt); das Offline-Modell "
        "(regelbasiert) hat übernommen für: Assistent. Bitte die Administration informieren."
    ]


def test_a_validation_500_is_deterministic_and_a_plain_500_is_not() -> None:
    body = {"error": {"message": "messages.content: Input should be a valid string"}}
    assert is_deterministic_error(ModelHTTPError(500, "local", body))
    assert not is_deterministic_error(ModelHTTPError(500, "local", {"error": {"message": "internal"}}))
    assert not is_deterministic_error(ModelHTTPError(400, "local", body))
