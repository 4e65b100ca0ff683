"""The model registry: which pydantic-ai model answers for a role — the configured real model (with retries and the
offline fallback), the offline rule model, or a test/evaluation override — and the only importer of agents.offline.

`override_models(klausur=FunctionModel(...))` swaps models for the current context only (tests, evaluation runs);
unlike `Agent.override` it also reaches the specialists that the router starts inside a tool. The offline model is
told the subject lexicon by core (`core.language.lexicon`), as a real model is told the profile in its prompt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import Any

from pydantic_ai.models import Model
from pydantic_ai.models.function import FunctionModel

from agents.models.calls import LoggedModel
from agents.models.fallback import guard_model
from agents.models.names import OFFLINE, OFFLINE_MODEL_NAME, check_model_name, model_name_for_role
from agents.models.providers import LOCAL_PROVIDERS, construct_real_model
from agents.models.scoped import bound
from agents.offline import model as offline
from agents.offline.messages import Rules
from agents.offline.planner import rule_plan
from agents.planner import Plan
from core.language.lexicon import Lexicon, seeded_lexicon

_overrides: ContextVar[dict[str, Model] | None] = ContextVar("werkbank_model_overrides", default=None)


def lexicon() -> Lexicon:
    """The subject lexicon the offline model reads requests with (the seeded subject profiles)."""
    return seeded_lexicon()


def offline_rules(role: str) -> Rules:
    """The offline rules of `role` (also for tests and benchmarks that wrap or script them)."""
    return offline.offline_rules(role, lexicon())


def offline_model(role: str) -> FunctionModel:
    """The offline rule model of `role`: deterministic, streaming, free."""
    return offline.offline_model(role, lexicon())


def rules_model(rules: Rules, *, model_name: str = OFFLINE_MODEL_NAME) -> FunctionModel:
    """Any rules function as a streaming model, named like the offline model unless told otherwise (scripts)."""
    return offline.rules_model(rules, model_name=model_name)


def plan_by_rules(text: str, context: Mapping[str, Any] | None = None) -> Plan:
    """The offline planner's plan for a combined request (when the supervisor role runs offline: no agent run)."""
    return rule_plan(text, context, lexicon=lexicon())


def override_models(**models: Model) -> AbstractContextManager[dict[str, Model]]:
    """Use these models for their roles inside the block (tests, evaluations, the benchmark)."""
    return bound(_overrides, {**(_overrides.get() or {}), **models})


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
    local = check_model_name(name).provider in LOCAL_PROVIDERS
    return guard_model(construct_real_model(name, role), role, offline=offline(role), sleep=sleep, local=local)


def model_for(role: str) -> Model:
    overrides = _overrides.get() or {}
    if role in overrides:
        return LoggedModel(overrides[role], role=role)
    if model_name_for_role(role) == OFFLINE:
        # Offline runs are logged too: llm_calls then shows (estimated) tokens and latency for every turn.
        return LoggedModel(offline_model(role), role=role)
    return build_model(role, offline=offline_model)


def is_guarded(role: str) -> bool:
    """Whether `role` falls back to the offline model when its real model fails: not for a test/evaluation override
    (an evaluation measures its model, unguarded) and not when the role runs offline anyway."""
    return role not in (_overrides.get() or {}) and model_name_for_role(role) != OFFLINE


def planner_model() -> Model | None:
    """The planner's model: a test/evaluation override, else the configured real model falling back to the rule
    planner; None when the supervisor role runs offline — then `plan_by_rules` plans directly, without an agent run."""
    if "supervisor" in (_overrides.get() or {}):
        return model_for("supervisor")
    if model_name_for_role("supervisor") == OFFLINE:
        return None
    return build_model("supervisor", offline=lambda _role: offline.planner_model(lexicon()))
