"""Follow-ups about the current material that are no planned edit (agents/offline/edit_plan.py): an earlier version
back, a task or part of the topic added, its files in a format, a value swapped in one sub-task — and the second half
of a swap („Statt der Normalverteilung lieber mehr zum Hypothesentest“) once the strike made its version."""

from __future__ import annotations

import re

from pydantic_ai.messages import ModelResponse, ToolReturnPart

from agents.offline.messages import call, text_of
from core.language.additions import wants_addition, wants_removal, wants_swap
from core.language.followups import value_swap, wants_added_part, wants_added_task, wants_format, wants_version

_MATERIAL = re.compile(r"\[material:([0-9a-fA-F-]{36})\]")


def follow_up(text: str, target: str, kind: str) -> ModelResponse | None:
    """A follow-up about the current material that is no patch: an earlier version back, a task or a part of the topic
    added, its files in a format, a value swapped in one sub-task ("in 1a bitte 24 Ω statt 12 Ω")."""
    if (version := wants_version(text)) is not None:
        return call("restore_material_version", {"material_id": target, "version": version})
    if swap := wants_swap(text):  # „Statt der Normalverteilung lieber mehr zum Hypothesentest“: strike, then add
        return call("remove_topic_tasks", {"material_id": target, "thema": swap[0]})
    if removed := wants_removal(text):  # „Bitte die Normalverteilung weglassen“
        return call("remove_topic_tasks", {"material_id": target, "thema": removed})
    if addition := wants_addition(text):  # „Bitte auch das going-to-future aufnehmen“
        return call("add_bank_task", {"material_id": target, "thema": addition.thema,
                                      **({"dauer_minuten": addition.minuten} if addition.minuten else {})})
    added, thema = wants_added_task(text)
    if added:
        return call("add_bank_task", {"material_id": target, **({"thema": thema} if thema else {})})
    if part := wants_added_part(text):  # „Bitte noch eine reading comprehension zu Australia ergänzen“
        if kind == "klausur":
            return call("add_bank_task", {"material_id": target, "thema": part})
        return call("regenerate_from_previous", {"material_id": target, "instruction": text})
    if fmt := wants_format(text):
        return call("show_material_files", {"material_id": target, "format": "docx" if fmt == "word" else fmt})
    if swap := value_swap(text):
        return call("patch_material_task", {"material_id": target, "operations": [swap.model_dump(exclude_none=True)],
                                             "force": True})
    return None


def swap_addition(returns: list[ToolReturnPart], text: str) -> ModelResponse | None:
    """After the first half of a swap („statt X lieber Y“) struck X: add Y to the version it made."""
    swap = wants_swap(text)
    struck = next((p for p in returns if p.tool_name == "remove_topic_tasks"), None)
    if swap is None or struck is None or not (mm := _MATERIAL.search(text_of(struck.content))):
        return None
    return call("add_bank_task", {"material_id": mm.group(1), "thema": swap[1]})
