"""Model names per role and their construction (agents.models.names/providers/registry), without network."""

from __future__ import annotations

import socket

import pytest
from pydantic_ai.models import Model
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.fallback import FallbackModel
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
from pydantic_ai.models.wrapper import WrapperModel

from agents.models.budget import BudgetedModel
from agents.models.calls import LoggedModel
from agents.models.limits import (
    RetryingModel,
)
from agents.models.names import (
    ANTHROPIC_HAIKU,
    ANTHROPIC_SONNET,
    OFFLINE_MODEL_NAME,
    ROLES,
    check_model_name,
    model_name_for_role,
)
from agents.models.providers import MAX_TOKENS
from agents.models.registry import build_model
from core.app.errors import UserError
from tests.agents.models.scripts import (
    offline_factory,
)


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    for role in ROLES:
        monkeypatch.delenv(f"WERKBANK_MODEL_{role.upper()}", raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("name", "provider", "model", "base_url"),
    [
        ("offline", "offline", OFFLINE_MODEL_NAME, None),
        ("anthropic:claude-sonnet-4-6", "anthropic", "claude-sonnet-4-6", None),
        ("openai:gpt-5.2", "openai", "gpt-5.2", None),
        ("openai-chat:gpt-4.1-mini", "openai-chat", "gpt-4.1-mini", None),
        ("ollama:llama3.2", "ollama", "llama3.2", "http://localhost:11434/v1"),
        ("openai-compatible:Qwen/Qwen3-8B@http://localhost:8000/v1", "openai-compatible", "Qwen/Qwen3-8B",
         "http://localhost:8000/v1"),
        ("openai-compatible:my-model@https://schule.example:1234/v1/", "openai-compatible", "my-model",
         "https://schule.example:1234/v1"),
    ],
)
def test_check_model_name_accepts(keys: pytest.MonkeyPatch, name: str, provider: str, model: str,
                                  base_url: str | None) -> None:
    keys.delenv("OLLAMA_BASE_URL", raising=False)
    spec = check_model_name(name)
    assert (spec.provider, spec.model, spec.base_url) == (provider, model, base_url)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("gemini:gemini-3-pro", "ist unbekannt"),
        ("claude-sonnet-4-6", "ist unbekannt"),
        ("anthropic:", "fehlt nach „anthropic:“ der Name des Modells"),
        ("openai-compatible:qwen", "openai-compatible:<modell>@<adresse>"),
        ("openai-compatible:qwen@localhost:8000/v1", "openai-compatible:<modell>@<adresse>"),
        ("openai-compatible:qwen@http://localhost:abc/v1", "Serveradresse"),
    ],
)
def test_check_model_name_refuses(keys: pytest.MonkeyPatch, name: str, expected: str) -> None:
    with pytest.raises(UserError) as info:
        check_model_name(name)
    assert expected in info.value.message


@pytest.mark.parametrize(("name", "var"), [("anthropic:claude-sonnet-4-6", "ANTHROPIC_API_KEY"),
                                           ("openai:gpt-5.2", "OPENAI_API_KEY"),
                                           ("openai-chat:gpt-4.1", "OPENAI_API_KEY")])
def test_check_model_name_names_the_missing_key(keys: pytest.MonkeyPatch, name: str, var: str) -> None:
    keys.delenv(var)
    with pytest.raises(UserError) as info:
        check_model_name(name)
    assert f"Bitte die Umgebungsvariable {var} setzen" in info.value.message


def test_model_per_role(keys: pytest.MonkeyPatch) -> None:
    opus = "anthropic:claude-opus-4-8"
    assert model_name_for_role("main", default=opus) == ANTHROPIC_SONNET
    assert model_name_for_role("differenzierung", default=opus) == ANTHROPIC_SONNET
    assert model_name_for_role("h5p", default=opus) == ANTHROPIC_HAIKU
    assert model_name_for_role("memory", default=opus) == ANTHROPIC_HAIKU
    assert model_name_for_role("supervisor", default=opus) == opus
    # a chosen Sonnet/Haiku default is kept for its own class
    assert model_name_for_role("klausur", default="anthropic:claude-sonnet-4-6") == "anthropic:claude-sonnet-4-6"
    assert model_name_for_role("learning", default="anthropic:claude-sonnet-4-6") == ANTHROPIC_HAIKU
    # other providers: the default for every role
    assert model_name_for_role("h5p", default="openai:gpt-5.2") == "openai:gpt-5.2"
    keys.setenv("WERKBANK_MODEL_H5P", "offline")
    keys.setenv("WERKBANK_MODEL_JUDGE", "openai:gpt-5.2")
    assert model_name_for_role("h5p", default=opus) == "offline"
    assert model_name_for_role("judge", default=opus) == "openai:gpt-5.2"
    with pytest.raises(ValueError):
        model_name_for_role("chef", default=opus)


def test_default_comes_from_settings(keys: pytest.MonkeyPatch) -> None:
    assert model_name_for_role("main") == "offline"  # tests/conftest.py sets WERKBANK_MODEL=offline


def _unwrap(model: Model) -> Model:
    while isinstance(model, WrapperModel):
        model = model.wrapped
    return model


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access during model construction")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.mark.parametrize(
    ("default", "role", "cls", "model_name"),
    [
        ("anthropic:claude-opus-4-8", "main", AnthropicModel, "claude-sonnet-5-5"),
        ("anthropic:claude-opus-4-8", "h5p", AnthropicModel, "claude-haiku-5-5"),
        ("openai:gpt-5.2", "main", OpenAIResponsesModel, "gpt-5.2"),
        ("openai-chat:gpt-4.1", "judge", OpenAIChatModel, "gpt-4.1"),
        ("ollama:llama3.2", "main", OpenAIChatModel, "llama3.2"),
        ("openai-compatible:Qwen/Qwen3-8B@http://localhost:8000/v1", "memory", OpenAIChatModel, "Qwen/Qwen3-8B"),
    ],
)
def test_build_model_real_without_network(keys: pytest.MonkeyPatch, no_network: None, default: str, role: str,
                                          cls: type[Model], model_name: str) -> None:
    model = build_model(role, offline=offline_factory, default=default)
    assert isinstance(model, FallbackModel) and len(model.models) == 2
    primary, backup = model.models
    assert isinstance(primary, BudgetedModel) and isinstance(primary.wrapped, RetryingModel)
    assert isinstance(primary.wrapped.wrapped, LoggedModel)
    real = _unwrap(primary)
    assert isinstance(real, cls) and real.model_name == model_name
    assert real.settings is not None and real.settings.get("max_retries") == 0  # RetryingModel is the one layer
    # every request carries an output cap for its role and the per-attempt deadlines of the turn budget
    assert real.settings.get("max_tokens") == MAX_TOKENS[role]
    assert (real.settings.get("timeout"), real.settings.get("request_timeout")) == (30, 45)
    assert isinstance(backup, LoggedModel) and backup.model_name == OFFLINE_MODEL_NAME
    if default.startswith("openai-compatible:"):
        assert real.base_url == "http://localhost:8000/v1/"


def test_build_model_offline_returns_the_offline_model(keys: pytest.MonkeyPatch) -> None:
    model = build_model("main", offline=offline_factory, default="offline")
    assert isinstance(model, FunctionModel) and model.model_name == OFFLINE_MODEL_NAME
    keys.setenv("WERKBANK_MODEL_SAFETY", "offline")
    assert isinstance(build_model("safety", offline=offline_factory, default="anthropic:claude-opus-4-8"),
                      FunctionModel)


def test_build_model_refuses_missing_key(keys: pytest.MonkeyPatch) -> None:
    keys.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(UserError, match="ANTHROPIC_API_KEY"):
        build_model("main", offline=offline_factory, default="anthropic:claude-sonnet-4-6")
