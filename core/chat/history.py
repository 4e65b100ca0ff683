"""A conversation's history kept to a token budget: the latest turns go along in full, older ones as one short
summary (the teacher's requests and the answers' first lines). Without it every turn of a long conversation sends
the whole history and, past the model's limit, even "Hallo" fails as "zu umfangreich"."""

from __future__ import annotations

import json

from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    UserPromptPart,
)

CHARS_PER_TOKEN = 3.2  # as the token budget measurements (docs/decisions/008-token-budget.md)
SUMMARY_HEAD = "Zusammenfassung des bisherigen Gesprächs (ältere Teile gekürzt):"
SUMMARY_CHARS = 2_000


def load_history(raw: list[dict] | None) -> list[ModelMessage]:
    """A stored history as pydantic-ai messages (raises pydantic's ValidationError if it no longer loads)."""
    return ModelMessagesTypeAdapter.validate_python(raw or [])


def dump_history(messages: list[ModelMessage]) -> list[dict]:
    """Pydantic-ai messages as JSON-ready data for the conversation row."""
    return json.loads(ModelMessagesTypeAdapter.dump_json(messages))


def werkbank_reply(reply: str) -> ModelResponse:
    """A reply the app gives itself (refusal, partial answer), recorded as if the model had said it."""
    return ModelResponse(parts=[TextPart(reply)], model_name="werkbank")


def with_exchange(history: list[ModelMessage], text: str, reply: str) -> list[ModelMessage]:
    """The history plus one request the model never saw and the app's own reply to it."""
    return [*history, ModelRequest(parts=[UserPromptPart(text)]), werkbank_reply(reply)]


def estimated_tokens(messages: list[ModelMessage]) -> int:
    return int(len(ModelMessagesTypeAdapter.dump_json(messages)) / CHARS_PER_TOKEN)


def _turn_starts(history: list[ModelMessage]) -> list[int]:
    """Where a teacher's turn begins (a request with the teacher's words): cutting there keeps every tool call
    next to its result."""
    return [i for i, m in enumerate(history)
            if isinstance(m, ModelRequest) and any(isinstance(p, UserPromptPart) for p in m.parts)]


def _line(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _summary(older: list[ModelMessage]) -> str:
    lines: list[str] = []
    for m in older:
        if isinstance(m, ModelRequest):
            for p in m.parts:
                if isinstance(p, UserPromptPart) and isinstance(p.content, str) and \
                        p.content.startswith(SUMMARY_HEAD):
                    lines += p.content.splitlines()[1:]  # an earlier summary: its lines go on as they are
                elif isinstance(p, UserPromptPart) and isinstance(p.content, str):
                    lines.append(f"- Lehrkraft: {_line(p.content, 160)}")
        elif isinstance(m, ModelResponse):
            texts = [p.content for p in m.parts if isinstance(p, TextPart) and p.content.strip()]
            if texts:
                lines.append(f"- Assistent: {_line(texts[-1], 120)}")
    body, size = [], 0
    for line in reversed(lines):  # the most recent of the older turns matter most
        if size + len(line) > SUMMARY_CHARS:
            break
        body.insert(0, line)
        size += len(line) + 1
    return "\n".join([SUMMARY_HEAD, *body])


def trim_history(history: list[ModelMessage], budget_tokens: int) -> list[ModelMessage]:
    """`history` when it fits `budget_tokens`; else a summary of the older turns plus the latest turns that fit
    (at least the last one)."""
    if not history or estimated_tokens(history) <= budget_tokens:
        return history
    starts = _turn_starts(history)
    if not starts:
        return []
    keep = starts[-1]
    for i in reversed(starts[:-1]):
        if estimated_tokens(history[i:]) > budget_tokens * 0.8:
            break
        keep = i
    older = history[:keep]
    return [ModelRequest(parts=[UserPromptPart(_summary(older))]),
            ModelResponse(parts=[TextPart("Verstanden, ich berücksichtige den bisherigen Verlauf.")],
                          model_name="werkbank"),
            *history[keep:]]

