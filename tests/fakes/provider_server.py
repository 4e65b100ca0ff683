"""A loopback fake of the OpenAI Chat Completions and Anthropic Messages HTTP APIs, driven by scripted turns.

Real provider classes (pydantic-ai's `OpenAIChatModel`, `AnthropicModel`, and the openai/anthropic SDKs under them)
talk to it over HTTP on 127.0.0.1, so tests see what the wire does: SSE framing, status codes and headers, SDK
retries, client timeouts, broken connections. Stdlib only (`http.server` in a thread).

Each model request (POST .../chat/completions or .../messages) consumes the next scripted turn:

- `Reply(text=..., tool_calls=[ToolCall(...)], usage=Usage(...))`: an answer, streamed as SSE when the request
  asked for `stream: true` (or when `Reply.stream` forces it), else one JSON body, in the API's own shapes.
- `Fault.http(429, headers={"retry-after": "1"})`, `Fault.stream_error(529)`, `Fault.drop(after_events=3)`,
  `Fault.hang(30)`, `Fault.endless()`: the failures real providers and local servers produce.

A request that finds no scripted turn left gets a 400 (not retried by the SDKs) that names the problem.
`quirks=LLAMA_CPP_PYTHON` makes the server reject what llama-cpp-python's server rejects (with a 500).
Every request is recorded (`server.requests`) so tests can assert `max_tokens`, `tool_choice` and the messages sent.

    with FakeProviderServer([Reply(text="Hallo")]) as server:
        model = OpenAIChatModel("fake", provider=OpenAIProvider(base_url=server.openai_base_url, api_key="x"))
"""

from __future__ import annotations

import itertools
import json
import socket
import struct
import threading
import time
from collections.abc import Iterable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes.provider_turns import (
    LLAMA_CPP_PYTHON,
    NO_QUIRKS,
    Api,
    Fault,
    Quirks,
    RecordedRequest,
    Reply,
    ToolCall,
    Turn,
    Usage,
    anthropic_events,
    anthropic_message,
    error_body,
    openai_chunks,
    openai_completion,
)

__all__ = [
    "LLAMA_CPP_PYTHON",
    "NO_QUIRKS",
    "FakeProviderServer",
    "Fault",
    "Quirks",
    "RecordedRequest",
    "Reply",
    "ToolCall",
    "Turn",
    "Usage",
]

MAX_ENDLESS_S = 120.0
"""An endless stream stops by itself after this long, so a test that forgets its timeout cannot hang CI forever."""


# --------------------------------------------------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------------------------------------------------


class _ClientGone(Exception):
    pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  # keep pytest output clean
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "fake"}]})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:  # noqa: N802
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        path = self.path.split("?", 1)[0].rstrip("/")
        api: Api | None = None
        if path.endswith("/chat/completions"):
            api = "openai"
        elif path.endswith("/messages"):
            api = "anthropic"
        else:
            self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._json(400, error_body(api, 400, "request body is not JSON"))
            return
        fake = self.server.fake
        headers = {k.lower(): v for k, v in self.headers.items()}
        rejection = fake.quirks.rejection(api, body)
        if rejection is not None:
            fake.requests.append(RecordedRequest(api, self.path, headers, body, time.monotonic(), None))
            payload = {"error": {"message": rejection, "type": "internal_server_error", "param": None, "code": None}}
            self._json(500, payload)
            return
        turn = fake.next_turn()
        fake.requests.append(RecordedRequest(api, self.path, headers, body, time.monotonic(), turn))
        try:
            self._answer(api, body, turn, rid=f"fake-{len(fake.requests)}")
        except (_ClientGone, BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    # -- answers -----------------------------------------------------------------------------------------------------

    def _answer(self, api: Api, body: dict[str, Any], turn: Turn | None, *, rid: str) -> None:
        model = str(body.get("model") or "fake")
        if turn is None:
            msg = f"FakeProviderServer: no scripted turn left for request {len(self.server.fake.requests)}"
            self._json(400, error_body(api, 400, msg))
            return
        if isinstance(turn, Fault):
            self._fault(api, body, turn, model=model, rid=rid)
            return
        stream = turn.stream if turn.stream is not None else bool(body.get("stream"))
        if not stream:
            payload = openai_completion(turn, model, rid) if api == "openai" else anthropic_message(turn, model, rid)
            self._json(200, payload)
            return
        self._start_sse()
        for event in self._events(api, body, turn, model, rid):
            self._chunk(event)
        self._end_sse(api)

    def _events(self, api: Api, body: dict[str, Any], reply: Reply, model: str, rid: str) -> Iterator[bytes]:
        if api == "openai":
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            for data in openai_chunks(reply, model, rid, include_usage=include_usage):
                yield f"data: {json.dumps(data)}\n\n".encode()
        else:
            for name, data in anthropic_events(reply, model, rid):
                yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()

    def _fault(self, api: Api, body: dict[str, Any], fault: Fault, *, model: str, rid: str) -> None:
        stop = self.server.fake.stopping
        if fault.kind == "http":
            payload = fault.body if fault.body is not None else error_body(api, fault.status, f"fake {fault.status}")
            self._json(fault.status, payload, headers=fault.headers)
        elif fault.kind == "hang":
            stop.wait(fault.seconds)
            self._abort()
        elif fault.kind == "drop":
            text = "Dies ist eine Antwort, die mitten im Satz abbricht, weil die Verbindung " * 3
            reply = Reply(text=text)
            if not body.get("stream"):
                shape = openai_completion if api == "openai" else anthropic_message
                data = json.dumps(shape(reply, model, rid))
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2].encode())
                self.wfile.flush()
            else:
                self._start_sse()
                for event in itertools.islice(self._events(api, body, reply, model, rid), fault.after_events):
                    self._chunk(event)
            self._abort()
        elif fault.kind == "stream_error":
            self._start_sse()
            reply = Reply(text="Das wird nichts.")
            for event in itertools.islice(self._events(api, body, reply, model, rid), fault.after_events):
                self._chunk(event)
            payload = json.dumps(error_body(api, fault.status, f"fake {fault.status} in stream"))
            frame = f"event: error\ndata: {payload}\n\n" if api == "anthropic" else f"data: {payload}\n\n"
            self._chunk(frame.encode())
            self._end_sse(api)
        elif fault.kind == "endless":
            self._start_sse()
            start = iter(self._events(api, body, Reply(text="Los"), model, rid))
            # OpenAI: the role chunk; Anthropic: message_start, ping, content_block_start.
            for event in itertools.islice(start, 1 if api == "openai" else 3):
                self._chunk(event)
            deadline = time.monotonic() + MAX_ENDLESS_S
            n = 0
            while not stop.is_set() and time.monotonic() < deadline:
                n += 1
                if api == "openai":
                    data = {"id": rid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
                    data["choices"] = [{"index": 0, "delta": {"content": f" und {n}"}, "finish_reason": None}]
                    self._chunk(f"data: {json.dumps(data)}\n\n".encode())
                else:
                    delta = {"type": "text_delta", "text": f" und {n}"}
                    data = {"type": "content_block_delta", "index": 0, "delta": delta}
                    self._chunk(f"event: content_block_delta\ndata: {json.dumps(data)}\n\n".encode())
                stop.wait(fault.seconds)
            self._abort()

    # -- low-level writing ------------------------------------------------------------------------------------------

    def _json(self, status: int, payload: Any, *, headers: dict[str, str] | None = None) -> None:
        data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _start_sse(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

    def _chunk(self, data: bytes) -> None:
        try:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGone from exc

    def _end_sse(self, api: Api) -> None:
        if api == "openai":
            self._chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _abort(self) -> None:
        """Close the connection at once, without finishing the response (RST rather than a clean end)."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeProviderServer


class FakeProviderServer:
    """The loopback server. Use as a context manager; `openai_base_url` / `anthropic_base_url` point clients at it."""

    def __init__(self, turns: Iterable[Turn] = (), *, quirks: Quirks = NO_QUIRKS):
        self._turns: list[Turn] = list(turns)
        self.quirks = quirks
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self.stopping = threading.Event()
        self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        # A short poll interval: `shutdown()` waits for the serve loop to notice, 0.5 s by default — per test.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-provider", daemon=True
        )

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def openai_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def script(self, *turns: Turn) -> None:
        """Append turns to the script."""
        with self._lock:
            self._turns.extend(turns)

    def next_turn(self) -> Turn | None:
        with self._lock:
            return self._turns.pop(0) if self._turns else None

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._turns)

    def start(self) -> FakeProviderServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
