"""The time budget of a turn, so that the offline fallback always fits: a real model gets at most `request_s` per
request (its retries included) and never more than the turn has left minus a reserve for the offline model; a
real model that failed once in a turn is not tried again in that turn (its next request goes offline at once).

Defaults (`WERKBANK_TURN_TIMEOUT_S` 120, `WERKBANK_MODEL_TIMEOUT_S` 45, `WERKBANK_MODEL_READ_TIMEOUT_S` 30) fit one
retry after a timeout: 30 s + 15 s < 45 s, and 45 s + 15 s reserve < 120 s even when the turn's second request
(after a specialist run) hits the same dead server — it is skipped. Local CPU servers may need longer values.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import ModelRequestParameters, StreamedResponse
from pydantic_ai.settings import ModelSettings

from agents.models.calls import AttemptWrapper, StreamOpener
from agents.models.errors import ModelSkipped
from agents.models.scoped import bound

log = logging.getLogger(__name__)

TURN_TIMEOUT_S: Final = 120
REQUEST_TIMEOUT_S: Final = 45
READ_TIMEOUT_S: Final = 30
OFFLINE_RESERVE_S: Final = 15
MIN_ATTEMPT_S: Final = 1.0
"""Below this, a real model is not asked at all: the answer could not arrive in time."""

# Kinds of a final failure (see errors.classify_error) after which the model counts as down for the rest of the turn.
DOWN_KINDS: Final = frozenset(
    {
        "timeout",
        "connection",
        "server_error",
        "unavailable",
        "overloaded",
        "rate_limit",
        "quota",
        "auth",
        "not_found",
        "invalid_output",
    }
)


def _seconds(name: str, default: float) -> float:
    raw = (os.environ.get(name) or "").strip().replace(",", ".")
    if not raw:
        return float(default)
    try:
        value = float(raw)
    except ValueError:
        log.warning("%s=%r is not a number of seconds; using %s", name, raw, default)
        return float(default)
    if not math.isfinite(value) or value <= 0:
        log.warning("%s=%r must be positive; using %s", name, raw, default)
        return float(default)
    return value


@dataclass(frozen=True)
class Timeouts:
    turn_s: float = TURN_TIMEOUT_S
    request_s: float = REQUEST_TIMEOUT_S  # one request to a real model, retries and backoff included
    read_s: float = READ_TIMEOUT_S  # one HTTP attempt: connecting and each read (the SDK's `timeout`)
    reserve_s: float = OFFLINE_RESERVE_S  # kept free in every turn for the offline model to answer

    def consistent(self) -> Timeouts:
        """Values that add up: reserve ≤ a third of the turn, request ≤ turn − reserve, read ≤ request."""
        reserve = min(self.reserve_s, self.turn_s / 3)
        request = min(self.request_s, self.turn_s - reserve)
        return Timeouts(turn_s=self.turn_s, request_s=request, read_s=min(self.read_s, request), reserve_s=reserve)


def configured_timeouts() -> Timeouts:
    """The timeouts from the environment (WERKBANK_TURN_TIMEOUT_S, WERKBANK_MODEL_TIMEOUT_S,
    WERKBANK_MODEL_READ_TIMEOUT_S), made consistent."""
    return Timeouts(
        turn_s=_seconds("WERKBANK_TURN_TIMEOUT_S", TURN_TIMEOUT_S),
        request_s=_seconds("WERKBANK_MODEL_TIMEOUT_S", REQUEST_TIMEOUT_S),
        read_s=_seconds("WERKBANK_MODEL_READ_TIMEOUT_S", READ_TIMEOUT_S),
    ).consistent()


@dataclass
class TurnBudget:
    """One turn's clock and the real models that already failed in it."""

    timeouts: Timeouts
    started: float = field(default_factory=time.monotonic)
    down: dict[str, str] = field(default_factory=dict)  # model name -> kind of its failure

    @property
    def remaining(self) -> float:
        return self.timeouts.turn_s - (time.monotonic() - self.started)

    def allowance(self) -> float:
        """Seconds the next request to a real model may take: its own limit, but never into the offline reserve."""
        return max(0.0, min(self.timeouts.request_s, self.remaining - self.timeouts.reserve_s))

    def mark_down(self, model: str, kind: str) -> None:
        if kind in DOWN_KINDS:
            self.down.setdefault(model, kind)


_budget: ContextVar[TurnBudget | None] = ContextVar("werkbank_turn_budget", default=None)


def turn_budget(timeouts: Timeouts | None = None) -> AbstractContextManager[TurnBudget]:
    """Start a turn's clock for the requests made inside the block (also inside specialist runs)."""
    return bound(_budget, TurnBudget(timeouts or configured_timeouts()))


def current_budget() -> TurnBudget | None:
    return _budget.get()


class BudgetedModel(AttemptWrapper):
    """The real model inside the fallback chain, kept to the turn's budget: skipped (ModelSkipped → the offline
    model answers at once) when it already failed in this turn or too little time is left, and otherwise given a
    request deadline (`request_timeout`, started by FallbackModel when the request starts) that ends before the
    offline reserve. Outside a turn budget it changes nothing."""

    def _start_request_deadline(self, model_settings: ModelSettings | None) -> Any:
        # pydantic-ai's hook (FallbackModel starts each model's deadline through it): the turn's allowance wins over
        # the model's own `request_timeout`.
        budget = current_budget()
        if budget is not None:
            model_settings = ModelSettings(
                **{**(model_settings or {}), "request_timeout": max(MIN_ATTEMPT_S, budget.allowance())}
            )
        return super()._start_request_deadline(model_settings)

    def _check(self) -> None:
        budget = current_budget()
        if budget is None:
            return
        if (kind := budget.down.get(self.model_name)) is not None:
            raise ModelSkipped(self.model_name, kind)
        if budget.allowance() < MIN_ATTEMPT_S:
            raise ModelSkipped(self.model_name, "timeout")

    def sending(self, messages: list[ModelMessage], model_request_parameters: ModelRequestParameters) -> None:
        self._check()  # before every request and stream: skipped at once when down or out of time

    async def around_request(self, call: Callable[[], Awaitable[ModelResponse]]) -> ModelResponse:
        return await call()

    def around_stream(self, open_stream: StreamOpener) -> AbstractAsyncContextManager[StreamedResponse]:
        return open_stream()
