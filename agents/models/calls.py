"""The per-call log: one CallRecord per model request attempt (tokens, cost, latency, outcome, finish reason) and
one FallbackEvent per role that fell back to the offline model, collected inside `collect_calls()` by LoggedModel
and the fallback chain; the chat service persists the records to `llm_calls` and shows the events as notices.

Token counts are the provider's when it reported them; otherwise (offline model, a stream without usage) an
estimate of everything a real model would be sent — instructions, history and tool schemas — marked as estimated."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager
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
from agents.models.names import OFFLINE_MODEL_NAME
from agents.models.pricing import call_cost, price_for
from agents.models.scoped import bound
from core.language.tokens import estimate_tokens


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


@dataclass(frozen=True)
class FallbackEvent:
    """A role's request answered by the offline model instead of the configured real model."""

    role: str
    model: str  # the real model that failed or was skipped
    reason: str  # kind, see classify_error; 'invalid_output' when its answers never passed validation


@dataclass
class CallLog:
    records: list[CallRecord] = field(default_factory=list)
    fallbacks: list[FallbackEvent] = field(default_factory=list)
    notify: Callable[[str], None] | None = None  # the turn's step reporter (live status and stored trace)

    def add(self, record: CallRecord) -> None:
        self.records.append(record)

    def fell_back(self, event: FallbackEvent, step: str) -> None:
        """Record a fallback once per (role, model) and report it as a step."""
        if any(e.role == event.role and e.model == event.model for e in self.fallbacks):
            return
        self.fallbacks.append(event)
        if self.notify is not None:
            with contextlib.suppress(Exception):  # a failing display never stops the work
                self.notify(step)

    @property
    def total_cost_usd(self) -> float:
        return round(sum(r.cost_usd or 0.0 for r in self.records), 6)

    @property
    def total_tokens(self) -> int:
        return sum(r.input_tokens + r.output_tokens for r in self.records)


_call_log: ContextVar[CallLog | None] = ContextVar("werkbank_call_log", default=None)
request_attempt: ContextVar[int] = ContextVar("werkbank_model_attempt", default=1)


def collect_calls(notify: Callable[[str], None] | None = None) -> AbstractContextManager[CallLog]:
    """Collect a `CallRecord` for every model request made inside the block (also inside `agent.run_sync`)."""
    return bound(_call_log, CallLog(notify=notify))


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


def _sent_text(part: Any) -> str:
    """A message part as a provider receives it: content or tool name + arguments, no pydantic-ai metadata."""
    if getattr(part, "part_kind", "") in ("tool-call", "builtin-tool-call"):
        return part.tool_name + part.args_as_json_str()
    content = getattr(part, "content", "")
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)


def estimate_input_tokens(messages: list[ModelMessage], params: ModelRequestParameters | None) -> int:
    """What a real model would be sent: the current instructions, tool and output schemas, and the whole history."""
    instructions = next((m.instructions for m in reversed(messages) if getattr(m, "instructions", None)), "") or ""
    tools = [] if params is None else [*params.function_tools, *params.output_tools]
    schemas = [{"name": t.name, "description": t.description, "parameters": t.parameters_json_schema} for t in tools]
    sent = [instructions, json.dumps(schemas, ensure_ascii=False) if schemas else ""]
    sent += [_sent_text(p) for m in messages for p in m.parts]
    return estimate_tokens("".join(sent))


def estimate_output_tokens(response: ModelResponse) -> int:
    return estimate_tokens("".join(_sent_text(p) for p in response.parts))


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
        self.sending(messages, model_request_parameters)
        return await self.around_request(
            lambda: self.wrapped.request(messages, model_settings, model_request_parameters)
        )

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

        self.sending(messages, model_request_parameters)
        async with self.around_stream(open_stream) as stream:
            yield stream

    def sending(self, messages: list[ModelMessage], model_request_parameters: ModelRequestParameters) -> None:
        """Called before every request and stream with what is sent (LoggedModel estimates tokens from it)."""

    async def around_request(self, call: Callable[[], Awaitable[ModelResponse]]) -> ModelResponse:
        raise NotImplementedError

    def around_stream(self, open_stream: StreamOpener) -> AbstractAsyncContextManager[StreamedResponse]:
        raise NotImplementedError


@dataclass(init=False)
class LoggedModel(AttemptWrapper):
    """Writes one `CallRecord` per request into the active `CallLog` (if any); changes nothing else."""

    role: str
    local: bool  # a model on the school's own server: tokens shown, cost 0

    def __init__(self, wrapped: Model, *, role: str, local: bool = False):
        super().__init__(wrapped)
        self.role = role
        self.local = local
        self._sent: ContextVar[tuple[list[ModelMessage], ModelRequestParameters] | None] = ContextVar(
            "werkbank_sent", default=None
        )

    def sending(self, messages: list[ModelMessage], model_request_parameters: ModelRequestParameters) -> None:
        self._sent.set((messages, model_request_parameters))  # read when the request's record is written

    def _tokens(self, response: ModelResponse | None, estimated: bool) -> tuple[int, int]:
        # Reported (or scripted in a test) usage stays; the offline model's and a silent stream's are estimated here.
        if response is not None and response.usage.has_values() and response.model_name != OFFLINE_MODEL_NAME:
            return response.usage.input_tokens, response.usage.output_tokens
        sent = self._sent.get()
        tokens_in = estimate_input_tokens(*sent) if sent is not None else 0
        return tokens_in, estimate_output_tokens(response) if response is not None else 0

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
        estimated = _usage_is_estimated(self.wrapped, response)
        input_tokens, output_tokens = self._tokens(response, estimated)
        cache_read = cache_write = 0
        if response is not None:
            cache_read, cache_write = response.usage.cache_read_tokens, response.usage.cache_write_tokens
            detail.update(
                {k: v for k, v in (("cache_read_tokens", cache_read), ("cache_write_tokens", cache_write)) if v}
            )
            if response.finish_reason and response.finish_reason != "stop":
                detail["finish_reason"] = response.finish_reason
        _, key, price_estimated = price_for(model)
        detail["price"] = "local" if self.local else key
        if price_estimated and not self.local:
            detail["cost_estimated"] = True
        cost = (
            0.0
            if self.local
            else call_cost(model, input_tokens, output_tokens, cache_read=cache_read, cache_write=cache_write)
        )
        if exc is not None:
            detail["error"] = f"{type(exc).__name__}: {exc}"[:500]
            if (status := status_code(exc)) is not None:
                detail["status"] = status
        record = CallRecord(
            role=self.role,
            model=model,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            tokens_estimated=estimated,
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
        except asyncio.CancelledError:  # a request deadline or the turn's limit cut it off: still a call
            self._record(
                started, None, TimeoutError("request cancelled at its deadline"), attempt=attempt, streamed=False
            )
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
        except asyncio.CancelledError:
            partial = stream.get() if stream is not None else None
            self._record(
                started, partial, TimeoutError("stream cancelled at its deadline"), attempt=attempt, streamed=True
            )
            raise
        assert stream is not None
        self._record(started, stream.get(), None, attempt=attempt, streamed=True)
