"""The specialist's first request already holds what every run needs (decision 015): the subject profile with its
operators, the teacher's preferences and the composed draft — loaded by the server with the same tools a model would
call, so the model starts from them instead of spending two round trips (each re-sending the whole history) on it.
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.usage import RunUsage

from agents.compose_tool import compose_draft
from agents.deps import SpecialistDeps
from agents.models.registry import model_for
from agents.specialist_tools import get_context
from core.app.observability import report_unexpected

OPENING: tuple[tuple[str, dict[str, Any]], ...] = (
    ("get_context", {"scope": "profile", "depth": "relevant"}),
    ("get_context", {"scope": "preferences", "depth": "full"}),
    ("compose_draft", {}),
)
_TOOLS = {"get_context": get_context, "compose_draft": compose_draft}


async def opening(deps: SpecialistDeps, prompt: str) -> list[ModelRequest | ModelResponse] | None:
    """The history a specialist run starts from: the prompt, the tool calls of OPENING and their results. None when a
    tool failed: then the model calls the tools itself (a failing tool goes back to it as a retry)."""
    ctx = RunContext(deps=deps, model=model_for(deps.agent_type), usage=RunUsage())
    calls: list[ToolCallPart] = []
    returns: list[ToolReturnPart] = []
    savepoint = deps.turn.db.begin_nested()
    try:
        for n, (name, args) in enumerate(OPENING, start=1):
            content = await _TOOLS[name](ctx, **args)
            calls.append(ToolCallPart(name, args, tool_call_id=f"vorab_{n}"))
            returns.append(ToolReturnPart(name, content, tool_call_id=f"vorab_{n}"))
    except Exception as exc:  # noqa: BLE001 - any failure: the model loads the context itself
        if savepoint.is_active:
            savepoint.rollback()
        report_unexpected(exc, context="specialist opening")
        deps.entwurf = None
        return None
    if savepoint.is_active:
        savepoint.commit()
    return [ModelRequest(parts=[UserPromptPart(prompt)]),
            ModelResponse(parts=[TextPart("Vom System vorab geladen: Fachprofil, Präferenzen, Entwurf."), *calls]),
            ModelRequest(parts=returns)]
