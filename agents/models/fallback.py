"""The fallback chain around a real model — FallbackModel(BudgetedModel(RetryingModel(LoggedModel(real))),
LoggedModel(offline)) — and the German notices when (part of) an answer came from the offline model although a real
model was configured, or a real model's answer was cut off at its output limit."""

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

from agents.models.budget import BudgetedModel, current_budget
from agents.models.calls import CallLog, FallbackEvent, LoggedModel, current_call_log
from agents.models.errors import classify_error, classify_error_text
from agents.models.limits import RetryingModel
from agents.models.names import OFFLINE_MODEL_NAME
from agents.models.providers import DEFAULT_MAX_TOKENS, MAX_TOKENS


def guard_model(
    real: Model,
    role: str,
    *,
    offline: Model,
    sleep: Callable[[float], Awaitable[None]] | None = None,
    max_attempts: int = 4,
    local: bool = False,
) -> FallbackModel:
    """`FallbackModel(BudgetedModel(RetryingModel(LoggedModel(real))), LoggedModel(offline))`: any provider
    failure ends offline, within the turn's time budget; each fallback is logged as a FallbackEvent of `role`."""
    primary = BudgetedModel(
        RetryingModel(LoggedModel(real, role=role, local=local), max_attempts=max_attempts, sleep=sleep)
    )

    def falls_back(exc: Exception) -> bool:
        if not _falls_back(exc):
            return False
        model = getattr(exc, "model_name", None) or real.model_name
        note_fallback(role, model, classify_error(exc))
        return True

    return FallbackModel(primary, LoggedModel(offline, role=role), fallback_on=falls_back)


def note_fallback(role: str, model: str, reason: str) -> None:
    """Record that `role` was answered offline instead of by `model`: the model counts as down for the rest of the
    turn (budget), and the turn's notices and steps name it (call log)."""
    if (budget := current_budget()) is not None:
        budget.mark_down(model, "invalid_output" if reason == "unexpected" else reason)
    if (log := current_call_log()) is not None:
        reason_de = REASONS_DE.get(reason, REASONS_DE["error"])
        log.fell_back(
            FallbackEvent(role, model, reason),
            f"{ROLE_NAMES_DE.get(role, role)}: Sprachmodell {model} {_verb(reason)} ({reason_de}) "
            "→ Offline-Modell übernimmt",
        )


def _falls_back(exc: Exception) -> bool:
    """Provider failures fall back to the offline model; run-level errors (limits, cancellation) don't."""
    if isinstance(exc, ModelAPIError | UnexpectedModelBehavior):
        return True
    if isinstance(exc, AgentRunError):
        return False
    return isinstance(exc, TimeoutError | ConnectionError)


ROLE_NAMES_DE: Final = {
    "main": "Assistent",
    "klausur": "Klausur-Assistent",
    "differenzierung": "Differenzierungs-Assistent",
    "h5p": "H5P-Assistent",
    "supervisor": "Planer",
    "learning": "Lernfunktion",
    "memory": "Notizen",
    "safety": "Schutzprüfung",
    "judge": "LLM-Richter",
}
_UNREACHABLE: Final = frozenset({"timeout", "connection", "unavailable", "overloaded", "rate_limit"})
_REFUSED: Final = frozenset({"auth", "quota", "not_found", "rejected", "context_window", "content_filter"})


def _verb(reason: str) -> str:
    """What happened, in words that are true for the reason (a 500 is an answer, not 'nicht erreichbar')."""
    if reason in _UNREACHABLE:
        return "war nicht erreichbar"
    if reason in _REFUSED:
        return "hat die Anfrage abgelehnt"
    if reason in ("invalid_output", "unexpected"):
        return "hat keine brauchbare Antwort geliefert"
    return "hat mit einem Fehler geantwortet"


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
    "invalid_output": "Antwort wiederholt ungültig oder nicht auf Deutsch",
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
    return _notice(info.model, info.reason, "diese Antwort stammt vom Offline-Modell (regelbasiert).")


def _notice(model: str, reason: str, tail: str) -> str:
    reason_de = REASONS_DE.get(reason, REASONS_DE["error"])
    notice = f"Hinweis: Das Sprachmodell {model} {_verb(reason)} ({reason_de}); {tail}"
    if reason in ("quota", "auth", "not_found"):
        notice += " Bitte die Administration informieren."
    return notice


def fallback_notices(log: CallLog) -> list[str]:
    """One German notice per failed real model of the turn, naming every role the offline model answered for."""
    # One notice per model; its first failure's reason is the one that took it out of the turn.
    reasons: dict[str, str] = {}
    roles: dict[str, list[str]] = {}
    for event in log.fallbacks:
        reasons.setdefault(event.model, event.reason)
        roles.setdefault(event.model, []).append(ROLE_NAMES_DE.get(event.role, event.role))
    return [
        _notice(
            model,
            reason,
            f"das Offline-Modell (regelbasiert) hat übernommen für: {', '.join(dict.fromkeys(roles[model]))}.",
        )
        for model, reason in reasons.items()
    ]


def length_notices(log: CallLog) -> list[str]:
    """A notice for every real model whose answer stopped at its `max_tokens` (finish reason 'length')."""
    cut = dict.fromkeys(
        (r.model, r.role)
        for r in log.records
        if r.detail.get("finish_reason") == "length" and r.model != OFFLINE_MODEL_NAME
    )
    return [
        f"Hinweis: Die Antwort des Sprachmodells {model} ({ROLE_NAMES_DE.get(role, role)}) wurde an der "
        f"Längengrenze von {MAX_TOKENS.get(role, DEFAULT_MAX_TOKENS)} Tokens abgeschnitten und kann unvollständig "
        "sein. Bitte die Anfrage kürzer fassen oder in Teilen stellen."
        for model, role in cut
    ]
