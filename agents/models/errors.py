"""Model errors: a short stable kind for logs and notices (rate_limit, quota, timeout …), also for errors stored as
text in persisted messages, and a German message that says what the teacher can do."""

from __future__ import annotations

import re
from typing import Final

from pydantic_ai.exceptions import (
    ContentFilterError,
    FallbackExceptionGroup,
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelContextWindowExceededError,
    ModelHTTPError,
    ModelNotFoundError,
    ModelOverloadedError,
    ModelQuotaExceededError,
    ModelRateLimitError,
    ModelRequestRejectedError,
    ModelRequestTimeout,
    ModelServerError,
    ModelTimeoutError,
    ModelUnavailableError,
    RunTimedOut,
    UnexpectedModelBehavior,
    UsageLimitExceeded,
)

from core.app.errors import UserError

_QUOTA_MARKERS: Final = (
    "insufficient_quota",
    "billing",
    "credit balance",
    "current quota",
    "payment_required",
    "payment required",
    "out of credits",
)


class ModelSkipped(ModelAPIError):
    """A real model not asked in this turn: it failed earlier in the turn (`kind` of that failure), or the turn has
    no time left for it ('timeout'). The fallback chain then answers with the offline model at once."""

    def __init__(self, model_name: str, kind: str):
        super().__init__(model_name, f"skipped in this turn ({kind})")
        self.kind = kind


# Bodies of a 500 that is a request-validation error (llama-cpp-python answers those with 500): deterministic,
# so retrying is pointless.
_VALIDATION_MARKERS: Final = (
    "input should be",
    "validation error",
    "field required",
    "value_error",
    "type_error",
    "unprocessable",
    "extra inputs are not permitted",
)


def is_deterministic_error(exc: BaseException) -> bool:
    """A 500 whose body says the request itself was invalid (a local server's validation error)."""
    if not isinstance(exc, ModelHTTPError) or exc.status_code != 500:
        return False
    text = _error_text(exc)
    return any(marker in text for marker in _VALIDATION_MARKERS)


class ModelFailure(UserError):
    """A turn that the model side could not answer: the German message for the teacher plus the kind of failure
    (classify_error), so an evaluation can tell a model that was not reachable from a model that answered badly."""

    def __init__(self, message: str, *, kind: str):
        super().__init__(message)
        self.kind = kind

    @property
    def unreachable(self) -> bool:
        """The provider did not serve the request at all (an evaluation then has no result to score)."""
        return self.kind in UNREACHABLE_KINDS


UNREACHABLE_KINDS: Final = frozenset({"timeout", "connection", "unavailable", "overloaded", "rate_limit", "quota",
                                      "auth", "not_found"})


def status_code(exc: BaseException) -> int | None:
    return exc.status_code if isinstance(exc, ModelHTTPError) else None


def _error_text(exc: BaseException) -> str:
    parts = [str(exc)]
    if isinstance(exc, ModelAPIError):
        parts += [str(exc.provider_error_code or ""), str(exc.provider_error_type or ""), str(exc.body or "")]
    return " ".join(parts).lower()


def is_quota_error(exc: BaseException) -> bool:
    """Quota, credits or billing exhausted: waiting won't help, so no retry."""
    if isinstance(exc, ModelQuotaExceededError) or status_code(exc) == 402:
        return True
    if isinstance(exc, ModelAPIError):
        text = _error_text(exc)
        return any(marker in text for marker in _QUOTA_MARKERS)
    return False


def classify_error(exc: BaseException) -> str:
    """A short, stable kind for logs and notices (also used as `CallRecord.outcome` of a failed attempt)."""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        return classify_error(exc.exceptions[0])
    if isinstance(exc, ModelSkipped):
        return exc.kind
    status = status_code(exc)
    if is_quota_error(exc):
        return "quota"
    if isinstance(exc, ModelRateLimitError) or status == 429:
        return "rate_limit"
    if isinstance(exc, ModelOverloadedError) or status == 529:
        return "overloaded"
    if isinstance(exc, ModelUnavailableError) or status == 503:
        return "unavailable"
    if isinstance(exc, ModelContextWindowExceededError):
        return "context_window"
    if isinstance(exc, ModelAuthenticationError) or status in (401, 403):
        return "auth"
    if isinstance(exc, ModelNotFoundError) or status == 404:
        return "not_found"
    if isinstance(exc, ModelTimeoutError | ModelRequestTimeout | TimeoutError) or status in (408, 504):
        return "timeout"
    if isinstance(exc, ModelConnectionError | ConnectionError):
        return "connection"
    if isinstance(exc, ModelServerError) or (status is not None and status >= 500):
        return "server_error"
    if isinstance(exc, ModelRequestRejectedError) or (status is not None and 400 <= status < 500):
        return "rejected"
    if isinstance(exc, ContentFilterError):
        return "content_filter"
    if isinstance(exc, UnexpectedModelBehavior):
        return "unexpected"
    return "error"


# Error type names as `ModelRequestAttempt.error` spells them ('ModelRateLimitError: ...').
_KIND_BY_TYPE: Final = {
    "ModelQuotaExceededError": "quota",
    "ModelRateLimitError": "rate_limit",
    "ModelOverloadedError": "overloaded",
    "ModelUnavailableError": "unavailable",
    "ModelContextWindowExceededError": "context_window",
    "ModelAuthenticationError": "auth",
    "ModelNotFoundError": "not_found",
    "ModelTimeoutError": "timeout",
    "ModelRequestTimeout": "timeout",
    "TimeoutError": "timeout",
    "ModelConnectionError": "connection",
    "ConnectionError": "connection",
    "ModelServerError": "server_error",
    "ModelRequestRejectedError": "rejected",
    "ContentFilterError": "content_filter",
    "UnexpectedModelBehavior": "unexpected",
}


def classify_error_text(text: str) -> str:
    """Classify an error recorded as text (`ModelRequestAttempt.error`), e.g. from persisted messages."""
    type_name = text.split(":", 1)[0].strip()
    lowered = text.lower()
    if type_name == "ModelQuotaExceededError" or any(m in lowered for m in _QUOTA_MARKERS):
        return "quota"
    if kind := _KIND_BY_TYPE.get(type_name):
        return kind
    if m := re.search(r"status_code: (\d{3})", text):
        return classify_error(ModelHTTPError(int(m[1]), "?"))
    return "error"


_MESSAGES_DE: Final = {
    "quota": "Das Kontingent beim KI-Anbieter ist aufgebraucht. Bitte die Administration informieren; bis dahin "
    "antwortet die Werkbank mit dem Offline-Modell.",
    "rate_limit": "Der KI-Anbieter meldet zu viele Anfragen. Bitte in einer Minute erneut versuchen.",
    "overloaded": "Der KI-Anbieter ist gerade überlastet. Bitte in einigen Minuten erneut versuchen.",
    "unavailable": "Der KI-Anbieter ist gerade nicht erreichbar. Bitte in einigen Minuten erneut versuchen.",
    "server_error": "Beim KI-Anbieter ist eine Störung aufgetreten. Bitte später erneut versuchen.",
    "timeout": "Die Antwort hat zu lange gedauert (Zeitlimit). Bitte erneut versuchen oder die Anfrage kürzer fassen.",
    "connection": "Keine Verbindung zum KI-Anbieter. Bitte die Internetverbindung prüfen und erneut versuchen.",
    "auth": "Der API-Schlüssel wurde vom KI-Anbieter abgelehnt. Bitte die Administration bitten, den Schlüssel "
    "zu prüfen.",
    "not_found": "Das eingestellte Sprachmodell kennt der Anbieter nicht. Bitte die Administration bitten, "
    "WERKBANK_MODEL zu prüfen.",
    "context_window": "Das Gespräch ist zu lang für das Sprachmodell. Bitte ein neues Gespräch beginnen oder "
    "weniger Material auf einmal anhängen.",
    "rejected": "Der KI-Anbieter hat die Anfrage abgelehnt. Bitte die Anfrage umformulieren.",
    "content_filter": "Der Inhaltsfilter des KI-Anbieters hat die Antwort blockiert. Bitte die Anfrage umformulieren.",
    "unexpected": "Das Sprachmodell hat unerwartet geantwortet (z. B. wiederholt ungültige Angaben). Bitte die "
    "Anfrage erneut senden oder anders formulieren.",
    "error": "Beim Sprachmodell ist ein Fehler aufgetreten. Bitte erneut versuchen.",
}


def describe_model_error(exc: BaseException) -> str:
    """A short German message that says what went wrong and what the teacher can do."""
    if isinstance(exc, FallbackExceptionGroup | BaseExceptionGroup) and exc.exceptions:
        return describe_model_error(exc.exceptions[0])
    if isinstance(exc, UsageLimitExceeded):
        text = str(exc)
        if "tool_calls_limit" in text:
            return (
                "Der Assistent hat für diese Anfrage zu viele Arbeitsschritte gebraucht (Limit für Werkzeug-Aufrufe). "
                "Bitte die Anfrage genauer fassen oder in Teilschritte aufteilen."
            )
        if "request_limit" in text:
            return (
                "Der Assistent hat zu viele Anläufe gebraucht (Limit für Modellaufrufe). "
                "Bitte die Anfrage genauer fassen oder in Teilschritte aufteilen."
            )
        if "cost_limit" in text:
            return "Das Kostenlimit für diese Anfrage ist erreicht. Bitte kürzer fassen oder in Teilen anfragen."
        return (
            "Die Anfrage war zu umfangreich für einen Durchgang (Token-Limit). "
            "Bitte kürzer fassen oder in Teilen anfragen."
        )
    if isinstance(exc, UserError):
        return exc.message
    if isinstance(exc, RunTimedOut | TimeoutError):
        return _MESSAGES_DE["timeout"]
    return _MESSAGES_DE.get(classify_error(exc), _MESSAGES_DE["error"])
