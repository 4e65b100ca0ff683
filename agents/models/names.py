"""Model roles and model names: which name a role runs with (WERKBANK_MODEL, WERKBANK_MODEL_<ROLE>, the Anthropic
tiering) and whether a name can be used here (provider, API key, server address) — German errors if not."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from core.app.config import get_settings
from core.app.errors import UserError

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


def model_env() -> dict[str, str]:
    """Settings this module reads straight from the environment (to be moved into core.config.Settings):

    - WERKBANK_MODEL_<ROLE>               per-role model name (e.g. WERKBANK_MODEL_H5P=offline)
    - WERKBANK_OPENAI_COMPATIBLE_API_KEY  key for `openai-compatible:` servers (vLLM/LM Studio); default "not-needed"
    - OLLAMA_BASE_URL                     for `ollama:`; default http://localhost:11434/v1
    - ANTHROPIC_API_KEY / OPENAI_API_KEY  read by the providers themselves (names given in error messages)
    - ANTHROPIC_BASE_URL / OPENAI_BASE_URL  a proxy or gateway in front of the provider (default: the provider's API)
    """
    keys = [f"WERKBANK_MODEL_{r.upper()}" for r in ROLES]
    keys += [
        "WERKBANK_OPENAI_COMPATIBLE_API_KEY",
        "OLLAMA_BASE_URL",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OPENAI_BASE_URL",
    ]
    return {k: v.strip() for k in keys if (v := os.environ.get(k)) and v.strip()}


def _default_model_name() -> str:

    return get_settings().werkbank_model.strip() or OFFLINE


def _is_class(name: str, cls: str) -> bool:
    return name.startswith("anthropic:") and f"-{cls}-" in f"{name}-"


def model_name_for_role(role: str, *, default: str | None = None) -> str:
    """The model name configured for `role`: WERKBANK_MODEL_<ROLE>, else the Anthropic tier, else WERKBANK_MODEL."""
    if role not in ROLES:
        raise ValueError(f"unknown model role {role!r}; known: {', '.join(ROLES)}")
    if override := model_env().get(f"WERKBANK_MODEL_{role.upper()}"):
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
        base_url = model_env().get("OLLAMA_BASE_URL", DEFAULT_OLLAMA_URL)
        if not re.match(r"^https?://[^\s/]+", base_url):
            raise UserError(f"OLLAMA_BASE_URL „{base_url}“ ist keine gültige Adresse (z. B. {DEFAULT_OLLAMA_URL}).")
    key_var = _KEY_VARS[provider]
    if key_var and not model_env().get(key_var):
        raise UserError(
            f"Für das Modell „{name}“ fehlt der API-Schlüssel. Bitte die Umgebungsvariable {key_var} setzen "
            "(z. B. in der Datei .env) oder WERKBANK_MODEL=offline verwenden."
        )
    return ModelSpec(provider, model, base_url)
