"""The limits around every run: usage limits and timeouts per turn and per tool, and the one retry layer
(RetryingModel: 429/5xx/connection errors with Retry-After or backoff; quota errors are never retried)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import re
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Final, TypeVar

from pydantic_ai import UsageLimits
from pydantic_ai.exceptions import (
    AgentRunError,
    ModelAPIError,
    ModelConnectionError,
    ModelHTTPError,
    ModelRateLimitError,
    ModelServerError,
    ModelUnavailableError,
    RunTimedOut,
)
from pydantic_ai.messages import ModelResponse
from pydantic_ai.models import Model, StreamedResponse

from agents.models.budget import TURN_TIMEOUT_S as TURN_LIMIT_S
from agents.models.calls import AttemptWrapper, CallRecord, StreamOpener, request_attempt
from agents.models.errors import classify_error, is_deterministic_error, is_quota_error
from core.app.errors import UserError

T = TypeVar("T")

RETRY_STATUS: Final = frozenset({429, 500, 502, 503, 504, 529})


def is_retryable(exc: BaseException) -> bool:
    """429/500/502/503/504/529 and connection/timeout errors — but never quota/billing errors, and never a 500 that
    is a request-validation error (deterministic; llama-cpp-python sends those as 500)."""
    if is_quota_error(exc) or is_deterministic_error(exc):
        return False
    if isinstance(exc, ModelHTTPError):
        if exc.provider_retry_hint is False:  # provider said `x-should-retry: false`
            return False
        return exc.status_code in RETRY_STATUS
    if isinstance(exc, ModelRateLimitError | ModelUnavailableError | ModelServerError | ModelConnectionError):
        return True  # categorized errors without an HTTP status (e.g. reported inside a stream)
    if isinstance(exc, AgentRunError):  # RunTimedOut, UsageLimitExceeded, ModelRequestTimeout (deadline) ...
        return False
    return isinstance(exc, TimeoutError | ConnectionError)


def _parse_retry_after_value(value: Any) -> float | None:
    """Seconds from a Retry-After value: number of seconds (int/float/str) or an HTTP date."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) and value >= 0 else None
    raw = str(value).strip()
    with contextlib.suppress(ValueError):
        seconds = float(raw)
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


_BODY_KEYS: Final = ("retry_after", "retry-after", "retryAfter", "retry_after_seconds")
_TRY_AGAIN_RE: Final = re.compile(r"try again in (\d+(?:\.\d+)?)\s*(ms|s)\b", re.IGNORECASE)


def retry_after_seconds(exc: BaseException) -> float | None:
    """How long the provider asked us to wait: `retry_after` parsed by pydantic-ai (retry-after-ms / Retry-After
    headers), else the raw header (also fractional seconds, which 2.62 ignores), else the body (`retry_after` at the
    top level or under `error`), else 'try again in 20s' in the message."""
    if not isinstance(exc, ModelAPIError):
        return None
    if exc.retry_after is not None:
        return exc.retry_after
    headers = getattr(exc, "headers", None) or {}
    if (seconds := _parse_retry_after_value(headers.get("retry-after"))) is not None:
        return seconds
    body = exc.body
    if isinstance(body, dict):
        for container in (body, body.get("error")):
            if isinstance(container, dict):
                for key in _BODY_KEYS:
                    if (seconds := _parse_retry_after_value(container.get(key))) is not None:
                        return seconds
                if (ms := _parse_retry_after_value(container.get("retry_after_ms"))) is not None:
                    return ms / 1000
    if m := _TRY_AGAIN_RE.search(f"{exc} {body or ''}"):
        return float(m[1]) / (1000 if m[2].lower() == "ms" else 1)
    return None


@dataclass(init=False)
class RetryingModel(AttemptWrapper):
    """Retries 429/500/502/503/504/529 and connection/timeout errors, honouring Retry-After (capped), else
    exponential backoff with jitter. Quota/billing errors are raised at once so the FallbackModel takes over; a
    timeout is retried at most once (a second wait of the same length would eat the turn's fallback reserve).

    Streams are retried while they are being opened (that is where HTTP status errors surface); an error after the
    first event propagates. `sleep` is injectable so tests don't wait.
    """

    max_attempts: int
    base_delay: float
    max_delay: float

    def __init__(
        self,
        wrapped: Model,
        *,
        max_attempts: int = 4,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        rng: Callable[[], float] = random.random,
    ):
        super().__init__(wrapped)
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._sleep = sleep if sleep is not None else asyncio.sleep
        self._rng = rng

    def backoff(self, attempt: int) -> float:
        """Exponential backoff with 'equal jitter': base·2^(n-1), of which the upper half is random."""
        delay = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return delay / 2 + self._rng() * delay / 2

    def _next_delay(self, exc: Exception, attempt: int, timeouts: list[int]) -> float | None:
        """Seconds to wait before the next attempt, or None to give up (and re-raise). `timeouts` counts this
        request's timeouts so far (a one-element list the loop owns)."""
        record: CallRecord | None = getattr(exc, "_werkbank_call_record", None)
        if classify_error(exc) == "timeout":
            timeouts[0] += 1
        if attempt >= self.max_attempts or not is_retryable(exc) or timeouts[0] > 1:
            if record is not None:
                record.detail["gave_up" if is_retryable(exc) else "not_retried"] = True
            return None
        retry_after = retry_after_seconds(exc)
        delay = min(retry_after, self.max_delay) if retry_after is not None else self.backoff(attempt)
        if record is not None:
            record.outcome = "retry"
            record.detail.update(error_kind=classify_error(exc), sleep_s=round(delay, 3))
            if retry_after is not None:
                record.detail["retry_after_s"] = round(retry_after, 3)
        return delay

    async def around_request(self, call: Callable[[], Awaitable[ModelResponse]]) -> ModelResponse:
        attempt, timeouts = 1, [0]
        while True:
            token = request_attempt.set(attempt)
            try:
                return await call()
            except Exception as exc:
                delay = self._next_delay(exc, attempt, timeouts)
                if delay is None:
                    raise
            finally:
                request_attempt.reset(token)
            await self._sleep(delay)
            attempt += 1

    @asynccontextmanager
    async def around_stream(self, open_stream: StreamOpener) -> AsyncGenerator[StreamedResponse]:
        attempt, timeouts = 1, [0]
        while True:
            stack = AsyncExitStack()
            token = request_attempt.set(attempt)
            try:
                stream = await stack.enter_async_context(open_stream())
            except Exception as exc:
                await stack.aclose()
                delay = self._next_delay(exc, attempt, timeouts)
                if delay is None:
                    raise
            else:
                break
            finally:
                request_attempt.reset(token)
            await self._sleep(delay)
            attempt += 1
        async with stack:
            yield stream


DEFAULT_USAGE_LIMITS: Final = UsageLimits(tool_calls_limit=10, input_tokens_limit=48_000, output_tokens_limit=24_000)
TURN_TIMEOUT_S: Final = TURN_LIMIT_S
TOOL_TIMEOUT_S: Final = 30
"""Per tool call. pydantic-ai 2.62 supports it natively: `Agent(tool_timeout=TOOL_TIMEOUT_S)` or
`@agent.tool(timeout=...)`; a tool that takes longer becomes a retry prompt to the model, not an exception."""


class TurnTimeout(UserError, TimeoutError):
    """A turn (or another awaited step) took longer than allowed."""

    def __init__(self, seconds: float):
        super().__init__(
            f"Die Antwort hat zu lange gedauert (Zeitlimit {seconds:g} s). "
            "Bitte erneut versuchen oder die Anfrage kürzer fassen."
        )
        self.seconds = seconds


async def run_with_timeout(coro: Awaitable[T], seconds: float) -> T:
    """Await `coro`, raising `TurnTimeout` after `seconds`.

    For agent runs prefer `agent.run(..., timeout=TURN_TIMEOUT_S)`: it raises `RunTimedOut`, whose `all_messages()`
    keeps what the run completed. This helper is for everything else (and for the sync/async glue around runs).
    """
    try:
        async with asyncio.timeout(seconds):
            return await coro
    except TimeoutError as exc:
        if isinstance(exc, RunTimedOut | TurnTimeout):
            raise
        raise TurnTimeout(seconds) from exc
