"""The model registry: which pydantic-ai model answers for a role — the configured real model (with retries and the
offline fallback), the offline rule model, or a test/evaluation override — and the only importer of agents.offline.

`override_models(klausur=FunctionModel(...))` swaps models for the current context only (tests, evaluation runs);
unlike `Agent.override` it also reaches the specialists that the router starts inside a tool.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar

from pydantic_ai.models import Model

from agents.models.calls import LoggedModel
from agents.models.fallback import guard_model
from agents.models.names import OFFLINE, model_name_for_role
from agents.models.providers import construct_real_model
from agents.offline import offline_model

_overrides: ContextVar[dict[str, Model] | None] = ContextVar("werkbank_model_overrides", default=None)


@contextlib.contextmanager
def override_models(**models: Model) -> Iterator[None]:
    token = _overrides.set({**(_overrides.get() or {}), **models})
    try:
        yield
    finally:
        _overrides.reset(token)


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


def model_for(role: str) -> Model:
    overrides = _overrides.get() or {}
    if role in overrides:
        return LoggedModel(overrides[role], role=role)
    if model_name_for_role(role) == OFFLINE:
        # Offline runs are logged too: llm_calls then shows (estimated) tokens and latency for every turn.
        return LoggedModel(offline_model(role), role=role)
    return build_model(role, offline=offline_model)
