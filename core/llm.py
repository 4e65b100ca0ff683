"""Model selection per role and the guard rails around every model call.

What this module puts around a real model (pydantic-ai-slim 2.62)::

    FallbackModel(
        RetryingModel(LoggedModel(<real model>)),   # retries 429/5xx/connection errors with backoff
        LoggedModel(<offline rule model>),          # any provider failure ends here
    )

- `build_model(role, offline=...)` picks the model for a role (`WERKBANK_MODEL`, `WERKBANK_MODEL_<ROLE>`) and builds
  that chain; for `offline` it returns the offline model itself.
- `RetryingModel` is the only retry layer: real models are built with `ModelSettings(max_retries=0)`, so the SDKs
  don't retry behind our back. Quota/billing errors are never retried (waiting doesn't help) — they go straight to
  the fallback.
- `LoggedModel` writes one `CallRecord` per attempt into the `CallLog` opened with `collect_calls()`; the service
  persists them to `llm_calls`.
- `fallback_notice(messages)` tells the teacher when an answer came from the offline model although a real model
  was configured, and why.
- `DEFAULT_USAGE_LIMITS`, `TURN_TIMEOUT_S`, `TOOL_TIMEOUT_S`, `run_with_timeout` and `describe_model_error` are the
  per-turn limits and their German error messages.

Nothing here touches the network when a model is constructed; requests only happen when an agent runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import re
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit

from pydantic_ai import UsageLimits
from pydantic_ai.exceptions import (
    AgentRunError,
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
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.models.fallback import FallbackModel
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

from core.app.errors import UserError

T = TypeVar("T")

# --------------------------------------------------------------------------------------------------------------------
# Roles and model names
# --------------------------------------------------------------------------------------------------------------------

ROLES: Final = ("main", "klausur", "differenzierung", "h5p", "learning", "memory", "supervisor", "safety", "judge")

OFFLINE: Final = "offline"
OFFLINE_MODEL_NAME: Final = "offline-rules"
"""`model_name` of the offline rule model (a FunctionModel built by the caller's `offline` factory)."""

# Tiering when WERKBANK_MODEL is an Anthropic model and a role has no override of its own. Names are the newest of
# their class in pydantic_ai/models/_known_model_names.py (pydantic-ai-slim 2.62.0): claude-sonnet-5-5 after
# 4-5/4-6/5, claude-haiku-5-5 after 4-5. Roles not listed keep WERKBANK_MODEL as it is.
ANTHROPIC_SONNET: Final = "anthropic:claude-sonnet-5-5"
ANTHROPIC_HAIKU: Final = "anthropic:claude-haiku-5-5"
SONNET_ROLES: Final = frozenset({"main", "klausur", "differenzierung"})
HAIKU_ROLES: Final = frozenset({"h5p", "memory", "learning"})

# Provider prefix -> API key env var (None: no key needed).
_KEY_VARS: Final[dict[str, str | None]] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "openai-chat": "OPENAI_API_KEY",
    "ollama": None,
    "openai-compatible": None,
}
_COMPATIBLE_RE: Final = re.compile(r"^(?P<model>[^\s@]+)@(?P<url>https?://[^\s/?#@]+(?:/[^\s?#@]*)?)$")
DEFAULT_OLLAMA_URL: Final = "http://localhost:11434/v1"

# Per attempt; the whole turn is bounded by TURN_TIMEOUT_S. SDK retries off: RetryingModel is the one retry layer.
REAL_MODEL_SETTINGS: Final = ModelSettings(max_retries=0, timeout=60)


def _env() -> dict[str, str]:
    """Settings this module reads straight from the environment (to be moved into core.config.Settings):

    - WERKBANK_MODEL_<ROLE>               per-role model name (e.g. WERKBANK_MODEL_H5P=offline)
    - WERKBANK_OPENAI_COMPATIBLE_API_KEY  key for `openai-compatible:` servers (vLLM/LM Studio); default "not-needed"
    - OLLAMA_BASE_URL                     for `ollama:`; default http://localhost:11434/v1
    - ANTHROPIC_API_KEY / OPENAI_API_KEY  read by the providers themselves (names given in error messages)
    """
    keys = [f"WERKBANK_MODEL_{r.upper()}" for r in ROLES]
    keys += ["WERKBANK_OPENAI_COMPATIBLE_API_KEY", "OLLAMA_BASE_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"]
    return {k: v.strip() for k in keys if (v := os.environ.get(k)) and v.strip()}


def _default_model_name() -> str:
    from core.app.config import get_settings

    return get_settings().werkbank_model.strip() or OFFLINE


def _is_class(name: str, cls: str) -> bool:
    return name.startswith("anthropic:") and f"-{cls}-" in f"{name}-"


def model_name_for_role(role: str, *, default: str | None = None) -> str:
    """The model name configured for `role`: WERKBANK_MODEL_<ROLE>, else the Anthropic tier, else WERKBANK_MODEL."""
    if role not in ROLES:
        raise ValueError(f"unknown model role {role!r}; known: {', '.join(ROLES)}")
    if override := _env().get(f"WERKBANK_MODEL_{role.upper()}"):
        return override
    name = (default if default is not None else _default_model_name()).strip() or OFFLINE
    if name.startswith("anthropic:"):
        if role in SONNET_ROLES and not _is_class(name, "sonnet"):
            return ANTHROPIC_SONNET
        if role in HAIKU_ROLES and not _is_class(name, "haiku"):
            return ANTHROPIC_HAIKU
    return name


@dataclass(frozen=True)
class ModelSpec:
    provider: str  # offline | anthropic | openai | openai-chat | ollama | openai-compatible
    model: str
    base_url: str | None = None


def check_model_name(name: str) -> ModelSpec:
    """Parse and check a model name; raise `core.errors.UserError` (German) if it cannot be used here."""
    name = (name or "").strip()
    if name == OFFLINE:
        return ModelSpec(OFFLINE, OFFLINE_MODEL_NAME)
    forms = (
        "Erlaubt sind: offline, anthropic:<modell>, openai:<modell>, openai-chat:<modell>, ollama:<modell> "
        "oder openai-compatible:<modell>@<http(s)://server/v1>."
    )
    provider, sep, model = name.partition(":")
    if not sep or provider not in _KEY_VARS:
        raise UserError(f"Der Modellname „{name}“ ist unbekannt. {forms}")
    model = model.strip()
    if not model:
        raise UserError(f"Im Modellnamen „{name}“ fehlt nach „{provider}:“ der Name des Modells. {forms}")
    base_url = None
    if provider == "openai-compatible":
        m = _COMPATIBLE_RE.match(model)
        if not m:
            raise UserError(
                f"Der Modellname „{name}“ ist ungültig. Für einen eigenen Server bitte "
                "„openai-compatible:<modell>@<adresse>“ angeben, z. B. "
                "„openai-compatible:Qwen/Qwen3-8B@http://localhost:8000/v1“."
            )
        model, base_url = m["model"], m["url"].rstrip("/")
        try:
            urlsplit(base_url).port  # noqa: B018  # raises ValueError for a port that is not a number
        except ValueError:
            raise UserError(f"Die Serveradresse „{base_url}“ im Modellnamen „{name}“ ist ungültig.") from None
    elif provider == "ollama":
        base_url = _env().get("OLLAMA_BASE_URL", DEFAULT_OLLAMA_URL)
        if not re.match(r"^https?://[^\s/]+", base_url):
            raise UserError(f"OLLAMA_BASE_URL „{base_url}“ ist keine gültige Adresse (z. B. {DEFAULT_OLLAMA_URL}).")
    key_var = _KEY_VARS[provider]
    if key_var and not _env().get(key_var):
        raise UserError(
            f"Für das Modell „{name}“ fehlt der API-Schlüssel. Bitte die Umgebungsvariable {key_var} setzen "
            "(z. B. in der Datei .env) oder WERKBANK_MODEL=offline verwenden."
        )
    return ModelSpec(provider, model, base_url)


def construct_real_model(name: str) -> Model:
    """Build the provider model for `name` without any network traffic (the SDK clients connect lazily)."""
    spec = check_model_name(name)
    env = _env()
    if spec.provider == OFFLINE:
        raise ValueError("construct_real_model() is for real models; use the offline factory for 'offline'")
    if spec.provider == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(
            spec.model, provider=AnthropicProvider(api_key=env["ANTHROPIC_API_KEY"]), settings=REAL_MODEL_SETTINGS
        )
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    if spec.provider == "openai":  # 'openai:' is the Responses API in 2.62
        provider = OpenAIProvider(api_key=env["OPENAI_API_KEY"])
        return OpenAIResponsesModel(spec.model, provider=provider, settings=REAL_MODEL_SETTINGS)
    if spec.provider == "openai-chat":
        provider = OpenAIProvider(api_key=env["OPENAI_API_KEY"])
        return OpenAIChatModel(spec.model, provider=provider, settings=REAL_MODEL_SETTINGS)
    if spec.provider == "ollama":
        from pydantic_ai.providers.ollama import OllamaProvider

        return OpenAIChatModel(
            spec.model, provider=OllamaProvider(base_url=spec.base_url), settings=REAL_MODEL_SETTINGS
        )
    provider = OpenAIProvider(
        base_url=spec.base_url, api_key=env.get("WERKBANK_OPENAI_COMPATIBLE_API_KEY", "not-needed")
    )
    return OpenAIChatModel(spec.model, provider=provider, settings=REAL_MODEL_SETTINGS)


def build_model(
    role: str,
    *,
    offline: Callable[[str], Model],
    default: str | None = None,
    sleep: Callable[[float], Awaitable[None]] | None = None,
) -> Model:
    """The model for `role`: `offline(role)` for `offline`, else the guarded real model (see `guard_model`).

    Raises `core.errors.UserError` when the configured name cannot be used (unknown provider, missing API key).
    """
    name = model_name_for_role(role, default=default)
    if name == OFFLINE:
        return offline(role)
    return guard_model(construct_real_model(name), role, offline=offline(role), sleep=sleep)


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


# --------------------------------------------------------------------------------------------------------------------
# Error classification, Retry-After
# --------------------------------------------------------------------------------------------------------------------

RETRY_STATUS: Final = frozenset({429, 500, 502, 503, 504, 529})
_QUOTA_MARKERS: Final = (
    "insufficient_quota",
    "billing",
    "credit balance",
    "current quota",
    "payment_required",
    "payment required",
    "out of credits",
)


def _status(exc: BaseException) -> int | None:
    return exc.status_code if isinstance(exc, ModelHTTPError) else None


def _error_text(exc: BaseException) -> str:
    parts = [str(exc)]
    if isinstance(exc, ModelAPIError):
        parts += [str(exc.provider_error_code or ""), str(exc.provider_error_type or ""), str(exc.body or "")]
    return " ".join(parts).lower()


def is_quota_error(exc: BaseException) -> bool:
    """Quota, credits or billing exhausted: waiting won't help, so no retry."""
    if isinstance(exc, ModelQuotaExceededError) or _status(exc) == 402:
        return True
    if isinstance(exc, ModelAPIError):
        text = _error_text(exc)
        return any(marker in text for marker in _QUOTA_MARKERS)
    return False


def classify_error(exc: BaseException) -> str:
    """A short, stable kind for logs and notices (also used as `CallRecord.outcome` of a failed attempt)."""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        return classify_error(exc.exceptions[0])
    status = _status(exc)
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


def _classify_error_text(text: str) -> str:
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


def is_retryable(exc: BaseException) -> bool:
    """429/500/502/503/504/529 and connection/timeout errors — but never quota/billing errors."""
    if is_quota_error(exc):
        return False
    if isinstance(exc, ModelHTTPError):
        if exc.provider_retry_hint is False:  # provider said `x-should-retry: false`
            return False
        return exc.status_code in RETRY_STATUS
    if isinstance(exc, ModelRateLimitError | ModelUnavailableError | ModelServerError | ModelConnectionError):
        return True  # categorized errors without an HTTP status (e.g. reported inside a stream)
    if isinstance(exc, AgentRunError):  # RunTimedOut, UsageLimitExceeded, ModelRequestTimeout (deadline) ...
        return False
    return isinstance(exc, TimeoutError | ConnectionError)


def _parse_retry_after_value(value: Any) -> float | None:
    """Seconds from a Retry-After value: number of seconds (int/float/str) or an HTTP date."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) and value >= 0 else None
    raw = str(value).strip()
    with contextlib.suppress(ValueError):
        seconds = float(raw)
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


_BODY_KEYS: Final = ("retry_after", "retry-after", "retryAfter", "retry_after_seconds")
_TRY_AGAIN_RE: Final = re.compile(r"try again in (\d+(?:\.\d+)?)\s*(ms|s)\b", re.IGNORECASE)


def retry_after_seconds(exc: BaseException) -> float | None:
    """How long the provider asked us to wait: `retry_after` parsed by pydantic-ai (retry-after-ms / Retry-After
    headers), else the raw header (also fractional seconds, which 2.62 ignores), else the body (`retry_after` at the
    top level or under `error`), else 'try again in 20s' in the message."""
    if not isinstance(exc, ModelAPIError):
        return None
    if exc.retry_after is not None:
        return exc.retry_after
    headers = getattr(exc, "headers", None) or {}
    if (seconds := _parse_retry_after_value(headers.get("retry-after"))) is not None:
        return seconds
    body = exc.body
    if isinstance(body, dict):
        for container in (body, body.get("error")):
            if isinstance(container, dict):
                for key in _BODY_KEYS:
                    if (seconds := _parse_retry_after_value(container.get(key))) is not None:
                        return seconds
                if (ms := _parse_retry_after_value(container.get("retry_after_ms"))) is not None:
                    return ms / 1000
    if m := _TRY_AGAIN_RE.search(f"{exc} {body or ''}"):
        return float(m[1]) / (1000 if m[2].lower() == "ms" else 1)
    return None


# --------------------------------------------------------------------------------------------------------------------
# Call log and prices
# --------------------------------------------------------------------------------------------------------------------


@dataclass
class CallRecord:
    """One model request attempt, as the service writes it to `llm_calls`."""

    role: str
    model: str
    input_tokens: int
    output_tokens: int
    tokens_estimated: bool
    cost_usd: float | None
    latency_ms: int
    outcome: str  # 'ok' | 'retry' | error kind of the final failure (see classify_error)
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class CallLog:
    records: list[CallRecord] = field(default_factory=list)

    def add(self, record: CallRecord) -> None:
        self.records.append(record)

    @property
    def total_cost_usd(self) -> float:
        return round(sum(r.cost_usd or 0.0 for r in self.records), 6)

    @property
    def total_tokens(self) -> int:
        return sum(r.input_tokens + r.output_tokens for r in self.records)


_call_log: ContextVar[CallLog | None] = ContextVar("werkbank_call_log", default=None)
_attempt: ContextVar[int] = ContextVar("werkbank_model_attempt", default=1)


@contextlib.contextmanager
def collect_calls() -> Iterator[CallLog]:
    """Collect a `CallRecord` for every model request made inside the block (also inside `agent.run_sync`)."""
    log = CallLog()
    token = _call_log.set(log)
    try:
        yield log
    finally:
        _call_log.reset(token)


def current_call_log() -> CallLog | None:
    return _call_log.get()


# Prices in USD per 1 million tokens (input, output).
# Source: genai-prices 0.2.3 — the price data bundled with pydantic-ai-slim 2.62.0 — read on 2026-11-22; base tier
# (no long-context tier, no prompt-cache or batch discounts: cached input is billed at the full input price here,
# so costs are an upper bound). THESE PRICES MUST BE CHECKED against anthropic.com/pricing and openai.com/api/pricing
# before anyone relies on them; update PRICES_AS_OF together with the table.
PRICES_AS_OF: Final = "2026-11-22"
MODEL_PRICES: Final[dict[str, tuple[float, float]]] = {
    # Anthropic — Opus
    "claude-opus-5-5": (4.0, 20.0),
    "claude-opus-5": (5.0, 25.0),
    "claude-opus-4-8": (5.0, 25.0),
    "claude-opus-4-7": (5.0, 25.0),
    "claude-opus-4-6": (5.0, 25.0),
    "claude-opus-4-5": (5.0, 25.0),
    "claude-opus-4-1": (15.0, 75.0),
    # Anthropic — Sonnet
    "claude-sonnet-5-5": (2.0, 10.0),
    "claude-sonnet-5": (2.0, 10.0),
    "claude-sonnet-4-6": (3.0, 15.0),
    "claude-sonnet-4-5": (3.0, 15.0),
    "claude-sonnet-4": (3.0, 15.0),
    # Anthropic — Haiku
    "claude-haiku-5-5": (0.1, 0.5),
    "claude-haiku-4-5": (1.0, 5.0),
    # OpenAI — gpt-4.x
    "gpt-4": (30.0, 60.0),
    "gpt-4-turbo": (10.0, 30.0),
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-2024-05-13": (5.0, 15.0),
    "gpt-4o-mini": (0.15, 0.6),
    "gpt-4.1": (2.0, 8.0),
    "gpt-4.1-mini": (0.4, 1.6),
    "gpt-4.1-nano": (0.1, 0.4),
    # OpenAI — gpt-5.x
    "gpt-5": (1.25, 10.0),
    "gpt-5-mini": (0.25, 2.0),
    "gpt-5-nano": (0.05, 0.4),
    "gpt-5-pro": (15.0, 120.0),
    "gpt-5.1": (1.25, 10.0),
    "gpt-5.2": (1.75, 14.0),
    "gpt-5.2-pro": (21.0, 168.0),
    "gpt-5.3": (1.75, 14.0),
    "gpt-5.4": (2.5, 15.0),
    "gpt-5.4-mini": (0.75, 4.5),
    "gpt-5.4-nano": (0.2, 1.25),
    "gpt-5.5": (5.0, 30.0),
    "gpt-5.5-pro": (30.0, 180.0),
    "gpt-5.6-luna": (0.2, 1.2),
    "gpt-5.6-terra": (2.0, 12.0),
    "gpt-5.6-sol": (4.0, 20.0),
    # OpenAI — gpt-6.x
    "gpt-6-luna": (0.1, 0.5),
    "gpt-6-sol": (2.0, 10.0),
    "gpt-6-astra": (10.0, 50.0),
    "gpt-6.1-sol": (2.0, 10.0),
}
# A model of a known family but not in the table: priced like a typical member, with `cost_estimated` in detail.
FAMILY_PRICES: Final[dict[str, tuple[float, float]]] = {
    "claude-opus": (5.0, 25.0),
    "claude-sonnet": (3.0, 15.0),
    "claude-haiku": (1.0, 5.0),
    "gpt-4": (2.5, 10.0),
    "gpt-5": (2.5, 15.0),
    "gpt-6": (2.0, 10.0),
}


def price_for(model_name: str) -> tuple[tuple[float, float] | None, str, bool]:
    """((input, output) USD per 1M tokens or None, table key used, price_estimated) for a model name."""
    if model_name == OFFLINE_MODEL_NAME:
        return (0.0, 0.0), "offline", False
    name = model_name.rpartition(":")[2].lower()  # 'anthropic:claude-…' -> 'claude-…'
    keys = [k for k in MODEL_PRICES if name == k or name.startswith(k + "-")]
    if keys:
        key = max(keys, key=len)
        return MODEL_PRICES[key], key, False
    for family, price in FAMILY_PRICES.items():
        if name.startswith(family):
            return price, f"family:{family}", True
    return None, "unknown", True


def cost_usd(model_name: str, input_tokens: int, output_tokens: int) -> float | None:
    price, _, _ = price_for(model_name)
    if price is None:
        return None
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 6)


def _usage_is_estimated(model: Model, response: ModelResponse | None) -> bool:
    """FunctionModel/TestModel estimate tokens from text; real providers report them (unless they sent none)."""
    inner = model
    while isinstance(inner, WrapperModel):
        inner = inner.wrapped
    if isinstance(inner, FunctionModel | TestModel):
        return True
    return response is None or not response.usage.has_values() or bool(response.usage.unmeasured_requests)


# --------------------------------------------------------------------------------------------------------------------
# Wrappers
# --------------------------------------------------------------------------------------------------------------------


@dataclass(init=False)
class LoggedModel(WrapperModel):
    """Writes one `CallRecord` per request into the active `CallLog` (if any); changes nothing else."""

    role: str

    def __init__(self, wrapped: Model, *, role: str):
        super().__init__(wrapped)
        self.role = role

    def _record(
        self,
        started: float,
        response: ModelResponse | None,
        exc: BaseException | None,
        *,
        attempt: int,
        streamed: bool,
    ) -> CallRecord | None:
        log = _call_log.get()
        if log is None:
            return None
        model = (response.model_name if response is not None else None) or self.wrapped.model_name
        detail: dict[str, Any] = {"attempt": attempt, "provider": self.wrapped.system}
        if streamed:
            detail["streamed"] = True
        input_tokens = output_tokens = 0
        cost = None
        if response is not None:
            usage = response.usage
            input_tokens, output_tokens = usage.input_tokens, usage.output_tokens
            if usage.cache_read_tokens:
                detail["cache_read_tokens"] = usage.cache_read_tokens
        price, key, price_estimated = price_for(model)
        detail["price"] = key
        if price_estimated:
            detail["cost_estimated"] = True
        if price is not None:
            cost = round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 6)
        if exc is not None:
            detail["error"] = f"{type(exc).__name__}: {exc}"[:500]
            if (status := _status(exc)) is not None:
                detail["status"] = status
        record = CallRecord(
            role=self.role,
            model=model,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            tokens_estimated=_usage_is_estimated(self.wrapped, response),
            cost_usd=cost,
            latency_ms=round((time.perf_counter() - started) * 1000),
            outcome="ok" if exc is None else classify_error(exc),
            detail=detail,
        )
        log.add(record)
        if exc is not None:
            with contextlib.suppress(AttributeError, TypeError):
                exc._werkbank_call_record = record  # type: ignore[attr-defined]  # RetryingModel marks 'retry'
        return record

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        started, attempt = time.perf_counter(), _attempt.get()
        try:
            response = await self.wrapped.request(messages, model_settings, model_request_parameters)
        except Exception as exc:
            self._record(started, None, exc, attempt=attempt, streamed=False)
            raise
        self._record(started, response, None, attempt=attempt, streamed=False)
        return response

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: Any = None,
    ) -> AsyncGenerator[StreamedResponse]:
        started, attempt = time.perf_counter(), _attempt.get()
        stream: StreamedResponse | None = None
        try:
            async with self.wrapped.request_stream(
                messages, model_settings, model_request_parameters, run_context
            ) as stream:
                yield stream
        except Exception as exc:
            # Before the first yield: the stream could not be opened. After it: the stream broke off (or the
            # consumer raised); the partial usage is recorded either way.
            partial = stream.get() if stream is not None else None
            record = self._record(started, partial, exc, attempt=attempt, streamed=True)
            if record is not None and stream is not None:
                record.detail["after_open"] = True
            raise
        assert stream is not None
        self._record(started, stream.get(), None, attempt=attempt, streamed=True)


@dataclass(init=False)
class RetryingModel(WrapperModel):
    """Retries 429/500/502/503/504/529 and connection/timeout errors, honouring Retry-After (capped), else
    exponential backoff with jitter. Quota/billing errors are raised at once so the FallbackModel takes over.

    Streams are retried while they are being opened (that is where HTTP status errors surface); an error after the
    first event propagates. `sleep` is injectable so tests don't wait.
    """

    max_attempts: int
    base_delay: float
    max_delay: float

    def __init__(
        self,
        wrapped: Model,
        *,
        max_attempts: int = 4,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        rng: Callable[[], float] = random.random,
    ):
        super().__init__(wrapped)
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._sleep = sleep if sleep is not None else asyncio.sleep
        self._rng = rng

    def backoff(self, attempt: int) -> float:
        """Exponential backoff with 'equal jitter': base·2^(n-1), of which the upper half is random."""
        delay = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return delay / 2 + self._rng() * delay / 2

    def _next_delay(self, exc: Exception, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None to give up (and re-raise)."""
        record: CallRecord | None = getattr(exc, "_werkbank_call_record", None)
        if attempt >= self.max_attempts or not is_retryable(exc):
            if record is not None:
                record.detail["gave_up" if is_retryable(exc) else "not_retried"] = True
            return None
        retry_after = retry_after_seconds(exc)
        delay = min(retry_after, self.max_delay) if retry_after is not None else self.backoff(attempt)
        if record is not None:
            record.outcome = "retry"
            record.detail.update(error_kind=classify_error(exc), sleep_s=round(delay, 3))
            if retry_after is not None:
                record.detail["retry_after_s"] = round(retry_after, 3)
        return delay

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        attempt = 1
        while True:
            token = _attempt.set(attempt)
            try:
                return await self.wrapped.request(messages, model_settings, model_request_parameters)
            except Exception as exc:
                delay = self._next_delay(exc, attempt)
                if delay is None:
                    raise
            finally:
                _attempt.reset(token)
            await self._sleep(delay)
            attempt += 1

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: Any = None,
    ) -> AsyncGenerator[StreamedResponse]:
        attempt = 1
        while True:
            stack = AsyncExitStack()
            token = _attempt.set(attempt)
            try:
                stream = await stack.enter_async_context(
                    self.wrapped.request_stream(messages, model_settings, model_request_parameters, run_context)
                )
            except Exception as exc:
                await stack.aclose()
                delay = self._next_delay(exc, attempt)
                if delay is None:
                    raise
            else:
                break
            finally:
                _attempt.reset(token)
            await self._sleep(delay)
            attempt += 1
        async with stack:
            yield stream


# --------------------------------------------------------------------------------------------------------------------
# Fallback notice
# --------------------------------------------------------------------------------------------------------------------

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
        reason = _classify_error_text(attempt.error or "")
        if (log := _call_log.get()) is not None:
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


# --------------------------------------------------------------------------------------------------------------------
# Limits, timeouts and German error messages
# --------------------------------------------------------------------------------------------------------------------

DEFAULT_USAGE_LIMITS: Final = UsageLimits(tool_calls_limit=10, input_tokens_limit=48_000, output_tokens_limit=24_000)
TURN_TIMEOUT_S: Final = 120
TOOL_TIMEOUT_S: Final = 30
"""Per tool call. pydantic-ai 2.62 supports it natively: `Agent(tool_timeout=TOOL_TIMEOUT_S)` or
`@agent.tool(timeout=...)`; a tool that takes longer becomes a retry prompt to the model, not an exception."""


class TurnTimeout(UserError, TimeoutError):
    """A turn (or another awaited step) took longer than allowed."""

    def __init__(self, seconds: float):
        super().__init__(
            f"Die Antwort hat zu lange gedauert (Zeitlimit {seconds:g} s). "
            "Bitte erneut versuchen oder die Anfrage kürzer fassen."
        )
        self.seconds = seconds


async def run_with_timeout(coro: Awaitable[T], seconds: float) -> T:
    """Await `coro`, raising `TurnTimeout` after `seconds`.

    For agent runs prefer `agent.run(..., timeout=TURN_TIMEOUT_S)`: it raises `RunTimedOut`, whose `all_messages()`
    keeps what the run completed. This helper is for everything else (and for the sync/async glue around runs).
    """
    try:
        async with asyncio.timeout(seconds):
            return await coro
    except TimeoutError as exc:
        if isinstance(exc, RunTimedOut | TurnTimeout):
            raise
        raise TurnTimeout(seconds) from exc


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


__all__ = [
    "ANTHROPIC_HAIKU",
    "ANTHROPIC_SONNET",
    "DEFAULT_USAGE_LIMITS",
    "FAMILY_PRICES",
    "MODEL_PRICES",
    "OFFLINE",
    "OFFLINE_MODEL_NAME",
    "PRICES_AS_OF",
    "ROLES",
    "TOOL_TIMEOUT_S",
    "TURN_TIMEOUT_S",
    "CallLog",
    "CallRecord",
    "FallbackInfo",
    "LoggedModel",
    "ModelSpec",
    "RetryingModel",
    "TurnTimeout",
    "build_model",
    "check_model_name",
    "classify_error",
    "collect_calls",
    "construct_real_model",
    "cost_usd",
    "current_call_log",
    "describe_model_error",
    "fallback_info",
    "fallback_notice",
    "guard_model",
    "is_quota_error",
    "is_retryable",
    "model_name_for_role",
    "price_for",
    "retry_after_seconds",
    "run_with_timeout",
]
