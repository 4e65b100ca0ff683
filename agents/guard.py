"""Tool guard: an unexpected failure inside a tool goes back to the model as a retry instead of ending the run.

The tool runs inside a savepoint, so a failed tool leaves no half-written rows and no aborted transaction behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelAPIError
from pydantic_ai.toolsets import WrapperToolset
from pydantic_ai.toolsets.abstract import ToolsetTool

from core.app.errors import UserError
from core.app.observability import report_unexpected


def _session(deps: Any) -> Any:
    turn = getattr(deps, "turn", deps)
    return getattr(turn, "db", None)


@dataclass
class GuardedToolset(WrapperToolset[Any]):
    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any],
                        tool: ToolsetTool[Any]) -> Any:
        db = _session(ctx.deps)
        savepoint = db.begin_nested() if db is not None else None
        try:
            result = await self.wrapped.call_tool(name, tool_args, ctx, tool)
        except (ModelRetry, CallDeferred, ApprovalRequired, ModelAPIError):
            # ModelAPIError: a specialist's model failed beyond its fallback (or unguarded, in an evaluation) — the
            # turn's offline rerun (core.chat.turn) or the evaluation's abort handles it, not the main model.
            if savepoint is not None and savepoint.is_active:
                savepoint.rollback()
            raise
        except UserError as exc:
            if savepoint is not None and savepoint.is_active:
                savepoint.rollback()
            raise ModelRetry(exc.message) from exc
        except Exception as exc:
            if savepoint is not None and savepoint.is_active:
                savepoint.rollback()
            error_id = report_unexpected(exc, context=f"tool {name}")
            raise ModelRetry(f"Das Werkzeug {name} ist fehlgeschlagen ({type(exc).__name__}, Fehler-ID {error_id}). "
                             "Versuche es mit anderen Angaben oder ohne dieses Werkzeug.") from exc
        if savepoint is not None and savepoint.is_active:
            savepoint.commit()
        return result
