"""A generation step that cannot do what was asked: the turn records the German reason, the tool says FEHLER.

Nothing is stored for a failed step; the main agent passes the reason on to the teacher.
"""

from __future__ import annotations

from agents.deps import TurnContext
from core.generation.outcomes import GenerationOutcome, TurnError


def fail(turn: TurnContext, message: str) -> GenerationOutcome:
    """Record `message` as the turn's error and return it as the tool's `FEHLER: …` text."""
    turn.outcomes.append(TurnError(message))
    return GenerationOutcome(kind="error", text=f"FEHLER: {message}")
