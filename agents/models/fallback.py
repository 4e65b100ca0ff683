"""The fallback chain around a real model — FallbackModel(RetryingModel(LoggedModel(real)), LoggedModel(offline)) —
and the German notice when an answer came from the offline model although a real model was configured."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final

from pydantic_ai.exceptions import (
    AgentRunError,
    ModelAPIError,
    UnexpectedModelBehavior,
)
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model
from pydantic_ai.models.fallback import FallbackModel

from agents.models.calls import LoggedModel, current_call_log
from agents.models.errors import classify_error_text
from agents.models.limits import RetryingModel
from agents.models.names import OFFLINE_MODEL_NAME


def guard_model(
    real: Model,
    role: str,
    *,
    offline: Model,
    sleep: Callable[[float], Awaitable[None]] | None = None,
    max_attempts: int = 4,
) -> FallbackModel:
    """`FallbackModel(RetryingModel(LoggedModel(real)), LoggedModel(offline))`; any provider failure ends offline."""
    primary = RetryingModel(LoggedModel(real, role=role), max_attempts=max_attempts, sleep=sleep)
    return FallbackModel(primary, LoggedModel(offline, role=role), fallback_on=_falls_back)


def _falls_back(exc: Exception) -> bool:
    """Provider failures fall back to the offline model; run-level errors (limits, cancellation) don't."""
    if isinstance(exc, ModelAPIError | UnexpectedModelBehavior):
        return True
    if isinstance(exc, AgentRunError):
        return False
    return isinstance(exc, TimeoutError | ConnectionError)


REASONS_DE: Final = {
    "rate_limit": "Anfragelimit des Anbieters erreicht",
    "quota": "Kontingent bzw. Guthaben beim Anbieter aufgebraucht",
    "overloaded": "Anbieter überlastet",
    "unavailable": "Anbieter vorübergehend nicht verfügbar",
    "server_error": "Störung beim Anbieter",
    "timeout": "Zeitüberschreitung",
    "connection": "keine Verbindung zum Anbieter",
    "auth": "API-Schlüssel abgelehnt",
    "not_found": "Modell beim Anbieter unbekannt",
    "context_window": "Gesprächsverlauf zu lang für das Modell",
    "rejected": "Anfrage vom Anbieter abgelehnt",
    "content_filter": "Inhaltsfilter des Anbieters",
    "unexpected": "unerwartete Antwort des Modells",
    "error": "Fehler beim Anbieter",
}


@dataclass(frozen=True)
class FallbackInfo:
    model: str  # the real model that failed
    reason: str  # kind, see classify_error
    error: str | None


def fallback_info(messages: Sequence[ModelMessage]) -> FallbackInfo | None:
    """The last response the offline model gave in place of a failed real model, with the reason.

    Reads `ModelResponse.failed_attempts` (recorded by FallbackModel and persisted with the messages); when a
    `collect_calls()` log is active, the wrappers' own classification of the final failure is preferred.
    """
    for message in reversed(messages):
        if not isinstance(message, ModelResponse) or message.model_name != OFFLINE_MODEL_NAME:
            continue
        failed = [a for a in (message.failed_attempts or []) if a.model_name != OFFLINE_MODEL_NAME]
        if not failed:
            continue
        attempt = failed[-1]
        reason = classify_error_text(attempt.error or "")
        if (log := current_call_log()) is not None:
            finals = [r for r in log.records if r.model == attempt.model_name and r.outcome not in ("ok", "retry")]
            if finals:
                reason = finals[-1].outcome
        return FallbackInfo(model=attempt.model_name, reason=reason, error=attempt.error)
    return None


def fallback_notice(messages: Sequence[ModelMessage]) -> str | None:
    """German notice for the teacher when (part of) the answer came from the offline model, else None."""
    info = fallback_info(messages)
    if info is None:
        return None
    reason = REASONS_DE.get(info.reason, REASONS_DE["error"])
    notice = (
        f"Hinweis: Das Sprachmodell {info.model} war nicht erreichbar ({reason}); "
        "diese Antwort stammt vom Offline-Modell (regelbasiert)."
    )
    if info.reason in ("quota", "auth"):
        notice += " Bitte die Administration informieren."
    return notice
