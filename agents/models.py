"""Which model answers for a role: the configured one (with retries and the offline fallback) or offline.

`override_models(klausur=FunctionModel(...))` swaps models for the current context only (tests, evaluation runs);
unlike `Agent.override` it also reaches the specialists that the router starts inside a tool.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from pydantic_ai.models import Model

from agents.offline import offline_model

_overrides: ContextVar[dict[str, Model] | None] = ContextVar("werkbank_model_overrides", default=None)


@contextlib.contextmanager
def override_models(**models: Model) -> Iterator[None]:
    token = _overrides.set({**(_overrides.get() or {}), **models})
    try:
        yield
    finally:
        _overrides.reset(token)


def model_for(role: str) -> Model:
    from core.llm import OFFLINE, LoggedModel, build_model, model_name_for_role

    overrides = _overrides.get() or {}
    if role in overrides:
        return LoggedModel(overrides[role], role=role)
    if model_name_for_role(role) == OFFLINE:
        # Offline runs are logged too: llm_calls then shows (estimated) tokens and latency for every turn.
        return LoggedModel(offline_model(role), role=role)
    return build_model(role, offline=offline_model)
