"""The script of the fake provider server: turns (replies and faults), quirks, recorded requests, and the OpenAI
Chat Completions / Anthropic Messages wire shapes (JSON bodies and SSE events) a reply is sent as.

See `tests/fakes/provider_server.py` for the server that plays them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Api = Literal["openai", "anthropic"]


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 10
    output_tokens: int = 5
    cached_tokens: int = 0


@dataclass(frozen=True)
class ToolCall:
    """A tool call in a reply. `args` is serialised as JSON; `raw_args` is sent verbatim (e.g. malformed JSON)."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    raw_args: str | None = None
    id: str | None = None

    @property
    def arguments(self) -> str:
        return self.raw_args if self.raw_args is not None else json.dumps(self.args, ensure_ascii=False)


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    `stream`: None follows the request's `stream` flag; True/False force the shape.
    `content_null`: OpenAI `"content": null` (Anthropic: an empty content list) besides any tool calls.
    `finish`: the finish/stop reason to send; by default tool_calls/tool_use after tool calls, else stop/end_turn.
    `chunk_chars`: text and tool arguments are streamed in pieces of this many characters.
    """

    text: str | None = None
    tool_calls: Sequence[ToolCall] = ()
    usage: Usage = Usage()
    stream: bool | None = None
    content_null: bool = False
    finish: str | None = None
    chunk_chars: int = 8


@dataclass(frozen=True)
class Fault:
    """One scripted failure. Build it with the class methods."""

    kind: Literal["http", "drop", "hang", "endless", "stream_error"]
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    after_events: int = 0
    seconds: float = 0.0

    @classmethod
    def http(cls, status: int, *, headers: dict[str, str] | None = None, body: Any = None) -> Fault:
        """An HTTP error response; `body` defaults to the API's own error shape for `status`."""
        return cls("http", status=status, headers=dict(headers or {}), body=body)

    @classmethod
    def stream_error(cls, status: int = 529, *, after_events: int = 2) -> Fault:
        """A 200 stream that reports an error event after `after_events` events (Anthropic: `event: error` with the
        error type of `status`, e.g. overloaded_error for 529; OpenAI-compatible servers: `data: {"error": ...}`)."""
        return cls("stream_error", status=status, after_events=after_events)

    @classmethod
    def drop(cls, *, after_events: int = 2) -> Fault:
        """A 200 stream (or a non-stream body) that breaks off: the connection is closed after `after_events`."""
        return cls("drop", after_events=after_events)

    @classmethod
    def hang(cls, seconds: float = 30.0) -> Fault:
        """Accept the request, send nothing for `seconds` (longer than the client timeout), then close."""
        return cls("hang", seconds=seconds)

    @classmethod
    def endless(cls, *, every: float = 0.05) -> Fault:
        """A 200 stream that never ends: a text delta every `every` seconds (until the client goes away)."""
        return cls("endless", seconds=every)


Turn = Reply | Fault


@dataclass(frozen=True)
class Quirks:
    """Emulate what a real OpenAI-compatible server rejects (before any scripted turn is consumed).

    `LLAMA_CPP_PYTHON` is llama-cpp-python 0.3.36's server as measured (docs/local-model.md): a 500 (its request
    validation errors are 500s, so the SDKs retry them) for an assistant message with `"content": null`, for an
    `allowed_tools` tool_choice, and — with `--chat_format chatml-function-calling` — for `tool_choice: "required"`
    (an `assert` in the handler, empty message).
    """

    reject_null_content: bool = False
    reject_tool_choice_required: bool = False
    reject_allowed_tools: bool = False

    def rejection(self, api: Api, body: dict[str, Any]) -> str | None:
        if api != "openai":
            return None
        if self.reject_null_content and any(
            m.get("role") == "assistant" and m.get("content") is None for m in body.get("messages", [])
        ):
            return "messages.content: Input should be a valid string (input: None)"
        choice = body.get("tool_choice")
        if self.reject_tool_choice_required and choice == "required":
            return ""
        if self.reject_allowed_tools and isinstance(choice, dict) and choice.get("type") == "allowed_tools":
            return "tool_choice: Input should be 'none', 'auto' or 'required'"
        return None


NO_QUIRKS = Quirks()
LLAMA_CPP_PYTHON = Quirks(reject_null_content=True, reject_tool_choice_required=True, reject_allowed_tools=True)


@dataclass
class RecordedRequest:
    api: Api
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float
    """`time.monotonic()` when the request arrived (tests measure the SDK's retry delays with it)."""
    turn: Turn | None

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))


# --------------------------------------------------------------------------------------------------------------------
# Wire shapes
# --------------------------------------------------------------------------------------------------------------------

_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
_OPENAI_ERROR_TYPES = {429: "rate_limit_exceeded", 400: "invalid_request_error", 401: "invalid_api_key"}


def error_body(api: Api, status: int, message: str) -> dict[str, Any]:
    if api == "anthropic":
        return {"type": "error", "error": {"type": _ANTHROPIC_ERROR_TYPES.get(status, "api_error"), "message": message}}
    kind = _OPENAI_ERROR_TYPES.get(status, "server_error")
    return {"error": {"message": message, "type": kind, "code": kind, "param": None}}


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _openai_finish(reply: Reply) -> str:
    return reply.finish or ("tool_calls" if list(reply.tool_calls) else "stop")


def _anthropic_stop(reply: Reply) -> str:
    return reply.finish or ("tool_use" if list(reply.tool_calls) else "end_turn")


def _call_id(api: Api, n: int, call: ToolCall) -> str:
    return call.id or (f"call_{n}" if api == "openai" else f"toolu_{n:02d}")


def openai_completion(reply: Reply, model: str, rid: str) -> dict[str, Any]:
    calls = list(reply.tool_calls)
    message: dict[str, Any] = {"role": "assistant", "content": None if reply.content_null else (reply.text or "")}
    if calls:
        message["tool_calls"] = [
            {"id": _call_id("openai", i, c), "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for i, c in enumerate(calls, 1)
        ]
    u = reply.usage
    return {
        "id": rid,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _openai_finish(reply), "logprobs": None}],
        "usage": {
            "prompt_tokens": u.input_tokens,
            "completion_tokens": u.output_tokens,
            "total_tokens": u.input_tokens + u.output_tokens,
            "prompt_tokens_details": {"cached_tokens": u.cached_tokens},
        },
    }


def openai_chunks(reply: Reply, model: str, rid: str, *, include_usage: bool) -> Iterator[dict[str, Any]]:
    base = {"id": rid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}

    yield chunk({"role": "assistant", "content": None if reply.content_null else ""})
    if reply.text and not reply.content_null:
        for piece in _pieces(reply.text, reply.chunk_chars):
            yield chunk({"content": piece})
    for i, call in enumerate(reply.tool_calls):
        head = {"index": i, "id": _call_id("openai", i + 1, call), "type": "function"}
        yield chunk({"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]})
        for piece in _pieces(call.arguments, reply.chunk_chars):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, _openai_finish(reply))
    if include_usage:
        u = reply.usage
        usage = {"prompt_tokens": u.input_tokens, "completion_tokens": u.output_tokens}
        usage["total_tokens"] = u.input_tokens + u.output_tokens
        yield {**base, "choices": [], "usage": usage}


def anthropic_message(reply: Reply, model: str, rid: str) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text and not reply.content_null:
        content.append({"type": "text", "text": reply.text})
    for i, call in enumerate(reply.tool_calls, 1):
        try:
            tool_input: Any = json.loads(call.arguments)
        except ValueError:
            tool_input = call.arguments  # not an object: the closest a JSON body gets to "malformed arguments"
        block = {"type": "tool_use", "id": _call_id("anthropic", i, call), "name": call.name, "input": tool_input}
        content.append(block)
    return {
        "id": rid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": _anthropic_stop(reply),
        "stop_sequence": None,
        "usage": {
            "input_tokens": reply.usage.input_tokens,
            "output_tokens": reply.usage.output_tokens,
            "cache_read_input_tokens": reply.usage.cached_tokens,
            "cache_creation_input_tokens": 0,
        },
    }


def anthropic_events(reply: Reply, model: str, rid: str) -> Iterator[tuple[str, dict[str, Any]]]:
    start = anthropic_message(Reply(usage=reply.usage), model, rid) | {"content": [], "stop_reason": None}
    start["usage"] = {**start["usage"], "output_tokens": 1}
    yield "message_start", {"type": "message_start", "message": start}
    yield "ping", {"type": "ping"}
    index = 0
    if reply.text and not reply.content_null:
        text_block = {"type": "text", "text": ""}
        yield "content_block_start", {"type": "content_block_start", "index": 0, "content_block": text_block}
        for piece in _pieces(reply.text, reply.chunk_chars):
            delta = {"type": "text_delta", "text": piece}
            yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        index = 1
    for n, call in enumerate(reply.tool_calls, 1):
        block = {"type": "tool_use", "id": _call_id("anthropic", n, call), "name": call.name, "input": {}}
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": block}
        for piece in _pieces(call.arguments, reply.chunk_chars):
            delta = {"type": "input_json_delta", "partial_json": piece}
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
        index += 1
    delta = {"stop_reason": _anthropic_stop(reply), "stop_sequence": None}
    usage = {"output_tokens": reply.usage.output_tokens}
    yield "message_delta", {"type": "message_delta", "delta": delta, "usage": usage}
    yield "message_stop", {"type": "message_stop"}
