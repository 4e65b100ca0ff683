"""The second half of a swap follow-up („Statt der Normalverteilung lieber mehr zum Hypothesentest“): once the
strike made its version, the named sub-topic is added to that version in the same turn."""

from __future__ import annotations

import re

from pydantic_ai.messages import ModelResponse, ToolReturnPart

from agents.offline.messages import call, text_of
from core.language.additions import wants_swap

_MATERIAL = re.compile(r"\[material:([0-9a-fA-F-]{36})\]")


def swap_addition(returns: list[ToolReturnPart], text: str) -> ModelResponse | None:
    """After the first half of a swap („statt X lieber Y“) struck X: add Y to the version it made."""
    swap = wants_swap(text)
    struck = next((p for p in returns if p.tool_name == "remove_topic_tasks"), None)
    if swap is None or struck is None or not (mm := _MATERIAL.search(text_of(struck.content))):
        return None
    return call("add_bank_task", {"material_id": mm.group(1), "thema": swap[1]})
