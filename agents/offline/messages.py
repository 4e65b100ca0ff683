"""Reading the conversation as a model sees it: the teacher's prompts (with the reply before each), tool results,
JSON blocks in prompts; and writing the parts a model answers with (tool calls, the output tool)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo

from core.safety.service import unquoted_data

JSON_BLOCK = re.compile(r"```json\s*(\{.*?\})\s*```", re.S)
Rules = Callable[[list[ModelMessage], AgentInfo], ModelResponse]  # a rule model: messages -> the next response


@dataclass(frozen=True)
class Turn:
    """A teacher message and the assistant's reply just before it (the question it may answer)."""

    text: str
    reply_before: str = ""


def user_prompts(messages: list[ModelMessage]) -> list[str]:
    return [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts
            if isinstance(p, UserPromptPart) and isinstance(p.content, str)]


def teacher_turns(messages: list[ModelMessage]) -> list[Turn]:
    """The teacher's messages, each with the assistant's text reply just before it (the question it may answer)."""
    turns: list[Turn] = []
    reply = ""
    for m in messages:
        if isinstance(m, ModelResponse):
            texts = [p.content for p in m.parts if isinstance(p, TextPart)]
            if texts:
                reply = "".join(texts)
        else:
            for p in m.parts:
                if isinstance(p, UserPromptPart) and isinstance(p.content, str):
                    turns.append(Turn(p.content, reply))
    return turns


def tool_returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [p for m in messages if isinstance(m, ModelRequest) for p in m.parts
            if isinstance(p, ToolReturnPart) and getattr(p, "outcome", "success") != "retried"]


def text_of(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def json_returns(messages: list[ModelMessage], tool: str) -> list[Any]:
    """The JSON results of every call of `tool` (results that are no JSON are skipped)."""
    out = []
    for p in tool_returns(messages):
        if p.tool_name == tool:
            try:
                out.append(json.loads(unquoted_data(text_of(p.content))))
            except json.JSONDecodeError:
                continue
    return out


def tool_call(name: str, args: dict[str, Any]) -> ToolCallPart:
    return ToolCallPart(name, {k: v for k, v in args.items() if v is not None})


def say(text: str) -> ModelResponse:
    """The rule model's plain-text reply."""
    return ModelResponse(parts=[TextPart(text)])


def call(name: str, args: dict[str, Any]) -> ModelResponse:
    """The rule model calling one tool."""
    return ModelResponse(parts=[tool_call(name, args)])


def output_tool(info: AgentInfo, cls: type) -> str:
    """The name of the output tool for `cls` (an agent with several output types has one per type)."""
    names = [t.name for t in info.output_tools]
    for n in names:
        if n == f"final_result_{cls.__name__}":
            return n
    return names[0] if len(names) == 1 else f"final_result_{cls.__name__}"


def turn_returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    """The tool results since the teacher's last message (a swap „statt X lieber Y“ makes two)."""
    found: list[ToolReturnPart] = []
    for m in reversed(messages):
        if isinstance(m, ModelRequest):
            if any(isinstance(p, UserPromptPart) for p in m.parts):
                break
            found[:0] = [p for p in m.parts if isinstance(p, ToolReturnPart)]
    return found
