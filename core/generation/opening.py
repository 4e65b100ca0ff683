"""The specialist's first request already holds what every run needs (decision 015): the subject profile with its
operators, the teacher's preferences and the composed draft — loaded by the server with the same tools a model would
call, so the model starts from them instead of spending two round trips (each re-sending the whole history) on it.
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.usage import RunUsage

from agents.compose_tool import COMPOSE_TOOLS
from agents.deps import SpecialistDeps
from agents.guard import GuardedToolset
from agents.models.registry import model_for
from agents.specialist_tools import SPECIALIST_TOOLS
from core.app.observability import report_unexpected

OPENING: tuple[tuple[str, dict[str, Any]], ...] = (
    ("get_context", {"scope": "profile", "depth": "relevant"}),
    ("get_context", {"scope": "preferences", "depth": "full"}),
    ("compose_draft", {}),
)
_TOOLSETS = (GuardedToolset(SPECIALIST_TOOLS), GuardedToolset(COMPOSE_TOOLS))  # as the agents run them


async def _call(ctx: RunContext[SpecialistDeps], name: str, args: dict[str, Any]) -> Any:  # noqa: ANN401
    """One tool call the way an agent run makes it: through the guard (its savepoint, its error handling)."""
    for toolset in _TOOLSETS:
        tools = await toolset.get_tools(ctx)
        if name in tools:
            return await toolset.call_tool(name, args, ctx, tools[name])
    raise KeyError(name)


async def opening(deps: SpecialistDeps, prompt: str) -> list[ModelRequest | ModelResponse] | None:
    """The history a specialist run starts from: the prompt, the tool calls of OPENING and their results. None when a
    tool failed: then the model calls the tools itself (a failing tool goes back to it as a retry)."""
    ctx = RunContext(deps=deps, model=model_for(deps.agent_type), usage=RunUsage())
    calls: list[ToolCallPart] = []
    returns: list[ToolReturnPart] = []
    try:
        for n, (name, args) in enumerate(OPENING, start=1):
            content = await _call(ctx, name, args)
            calls.append(ToolCallPart(name, args, tool_call_id=f"vorab_{n}"))
            returns.append(ToolReturnPart(name, content, tool_call_id=f"vorab_{n}"))
    except Exception as exc:  # noqa: BLE001 - a failed tool (rolled back by the guard): the model loads the context
        if not isinstance(exc, ModelRetry):  # the guard reported an unexpected failure already
            report_unexpected(exc, context="specialist opening")
        deps.entwurf = None
        return None
    return [ModelRequest(parts=[UserPromptPart(prompt)]),
            ModelResponse(parts=[TextPart("Vom System vorab geladen: Fachprofil, Präferenzen, Entwurf."), *calls]),
            ModelRequest(parts=returns)]
