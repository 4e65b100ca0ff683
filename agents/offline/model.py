"""The offline rule model as a provider: per role a deterministic pydantic-ai FunctionModel that also streams, built
from its rules and the subject lexicon it is given. Same input, same output; the last fallback behind a real model."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from agents.models.names import OFFLINE_MODEL_NAME
from agents.offline.main_rules import main_rules
from agents.offline.messages import Rules
from agents.offline.planner import planner_rules
from agents.offline.specialist_rules import differenzierung_rules, h5p_rules, klausur_rules
from core.language.lexicon import Lexicon


def generic_rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Roles without their own rules answer plainly (never with an invented result)."""
    return ModelResponse(parts=[TextPart("Das kann das Offline-Modell nicht beantworten.")])


SPECIALIST_RULES: dict[str, Rules] = {"klausur": klausur_rules, "differenzierung": differenzierung_rules,
                                      "h5p": h5p_rules}


def offline_rules(role: str, lexicon: Lexicon) -> Rules:
    """The rules of `role`: the main agent's read requests with `lexicon`; roles without rules answer plainly."""
    if role == "main":
        return main_rules(lexicon)
    return SPECIALIST_RULES.get(role, generic_rules)


def _streamer(rules: Rules) -> Callable[[list[ModelMessage], AgentInfo], AsyncIterator[Any]]:
    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        response = rules(messages, info)
        calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
        texts = [p.content for p in response.parts if isinstance(p, TextPart)]
        if calls:
            yield {i: DeltaToolCall(name=c.tool_name, json_args=c.args_as_json_str(), tool_call_id=c.tool_call_id)
                   for i, c in enumerate(calls)}
        else:
            for word in re.split(r"(?<=\s)", "".join(texts)):
                yield word

    return stream


def rules_model(rules: Rules, *, model_name: str = OFFLINE_MODEL_NAME) -> FunctionModel:
    """A FunctionModel that also streams (the chat shows live steps), from any rules function (also test scripts)."""
    return FunctionModel(rules, stream_function=_streamer(rules), model_name=model_name)


def offline_model(role: str, lexicon: Lexicon) -> FunctionModel:
    return rules_model(offline_rules(role, lexicon))


def planner_model(lexicon: Lexicon) -> FunctionModel:
    """The rule planner as a model: the offline planner behind a real planner model."""
    return rules_model(planner_rules(lexicon))
