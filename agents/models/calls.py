"""The per-call log: one CallRecord per model request attempt (tokens, cost, latency, outcome), collected inside
`collect_calls()` by LoggedModel; the chat service persists them to `llm_calls`."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

from agents.models.errors import classify_error, status_code
from agents.models.pricing import price_for


@dataclass
class CallRecord:
    """One model request attempt, as the service writes it to `llm_calls`."""

    role: str
    model: str
    input_tokens: int
    output_tokens: int
    tokens_estimated: bool
    cost_usd: float | None
    latency_ms: int
    outcome: str  # 'ok' | 'retry' | error kind of the final failure (see classify_error)
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class CallLog:
    records: list[CallRecord] = field(default_factory=list)

    def add(self, record: CallRecord) -> None:
        self.records.append(record)

    @property
    def total_cost_usd(self) -> float:
        return round(sum(r.cost_usd or 0.0 for r in self.records), 6)

    @property
    def total_tokens(self) -> int:
        return sum(r.input_tokens + r.output_tokens for r in self.records)


_call_log: ContextVar[CallLog | None] = ContextVar("werkbank_call_log", default=None)
request_attempt: ContextVar[int] = ContextVar("werkbank_model_attempt", default=1)


@contextlib.contextmanager
def collect_calls() -> Iterator[CallLog]:
    """Collect a `CallRecord` for every model request made inside the block (also inside `agent.run_sync`)."""
    log = CallLog()
    token = _call_log.set(log)
    try:
        yield log
    finally:
        _call_log.reset(token)


def current_call_log() -> CallLog | None:
    return _call_log.get()


def _usage_is_estimated(model: Model, response: ModelResponse | None) -> bool:
    """FunctionModel/TestModel estimate tokens from text; real providers report them (unless they sent none)."""
    inner = model
    while isinstance(inner, WrapperModel):
        inner = inner.wrapped
    if isinstance(inner, FunctionModel | TestModel):
        return True
    return response is None or not response.usage.has_values() or bool(response.usage.unmeasured_requests)


StreamOpener = Callable[[], AbstractAsyncContextManager[StreamedResponse]]


class AttemptWrapper(WrapperModel):
    """A wrapper that acts around every request of the wrapped model: `around_request` gets the request as a call,
    `around_stream` a function that opens the stream (once per attempt). Subclasses implement both."""

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        return await self.around_request(lambda: self.wrapped.request(messages, model_settings,
                                                                      model_request_parameters))

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: Any = None,
    ) -> AsyncGenerator[StreamedResponse]:
        def open_stream() -> AbstractAsyncContextManager[StreamedResponse]:
            return self.wrapped.request_stream(messages, model_settings, model_request_parameters, run_context)

        async with self.around_stream(open_stream) as stream:
            yield stream

    async def around_request(self, call: Callable[[], Awaitable[ModelResponse]]) -> ModelResponse:
        raise NotImplementedError

    def around_stream(self, open_stream: StreamOpener) -> AbstractAsyncContextManager[StreamedResponse]:
        raise NotImplementedError


@dataclass(init=False)
class LoggedModel(AttemptWrapper):
    """Writes one `CallRecord` per request into the active `CallLog` (if any); changes nothing else."""

    role: str

    def __init__(self, wrapped: Model, *, role: str):
        super().__init__(wrapped)
        self.role = role

    def _record(
        self,
        started: float,
        response: ModelResponse | None,
        exc: BaseException | None,
        *,
        attempt: int,
        streamed: bool,
    ) -> CallRecord | None:
        log = _call_log.get()
        if log is None:
            return None
        model = (response.model_name if response is not None else None) or self.wrapped.model_name
        detail: dict[str, Any] = {"attempt": attempt, "provider": self.wrapped.system}
        if streamed:
            detail["streamed"] = True
        input_tokens = output_tokens = 0
        cost = None
        if response is not None:
            usage = response.usage
            input_tokens, output_tokens = usage.input_tokens, usage.output_tokens
            if usage.cache_read_tokens:
                detail["cache_read_tokens"] = usage.cache_read_tokens
        price, key, price_estimated = price_for(model)
        detail["price"] = key
        if price_estimated:
            detail["cost_estimated"] = True
        if price is not None:
            cost = round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 6)
        if exc is not None:
            detail["error"] = f"{type(exc).__name__}: {exc}"[:500]
            if (status := status_code(exc)) is not None:
                detail["status"] = status
        record = CallRecord(
            role=self.role,
            model=model,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            tokens_estimated=_usage_is_estimated(self.wrapped, response),
            cost_usd=cost,
            latency_ms=round((time.perf_counter() - started) * 1000),
            outcome="ok" if exc is None else classify_error(exc),
            detail=detail,
        )
        log.add(record)
        if exc is not None:
            with contextlib.suppress(AttributeError, TypeError):
                exc._werkbank_call_record = record  # type: ignore[attr-defined]  # RetryingModel marks 'retry'
        return record

    async def around_request(self, call: Callable[[], Awaitable[ModelResponse]]) -> ModelResponse:
        started, attempt = time.perf_counter(), request_attempt.get()
        try:
            response = await call()
        except Exception as exc:
            self._record(started, None, exc, attempt=attempt, streamed=False)
            raise
        self._record(started, response, None, attempt=attempt, streamed=False)
        return response

    @asynccontextmanager
    async def around_stream(self, open_stream: StreamOpener) -> AsyncGenerator[StreamedResponse]:
        started, attempt = time.perf_counter(), request_attempt.get()
        stream: StreamedResponse | None = None
        try:
            async with open_stream() as stream:
                yield stream
        except Exception as exc:
            # Before the first yield: the stream could not be opened. After it: the stream broke off (or the
            # consumer raised); the partial usage is recorded either way.
            partial = stream.get() if stream is not None else None
            record = self._record(started, partial, exc, attempt=attempt, streamed=True)
            if record is not None and stream is not None:
                record.detail["after_open"] = True
            raise
        assert stream is not None
        self._record(started, stream.get(), None, attempt=attempt, streamed=True)
