"""Real provider models from a checked model name (Anthropic, OpenAI, Ollama, OpenAI-compatible servers), built
without network traffic; `build_model` wraps them in the fallback chain."""

from __future__ import annotations

from typing import Final

from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings

from agents.models.names import OFFLINE, check_model_name, model_env

# Per attempt; the whole turn is bounded by TURN_TIMEOUT_S. SDK retries off: RetryingModel is the one retry layer.
REAL_MODEL_SETTINGS: Final = ModelSettings(max_retries=0, timeout=60)


def construct_real_model(name: str) -> Model:
    """Build the provider model for `name` without any network traffic (the SDK clients connect lazily)."""
    spec = check_model_name(name)
    env = model_env()
    if spec.provider == OFFLINE:
        raise ValueError("construct_real_model() is for real models; use the offline factory for 'offline'")
    # The SDK modules are imported when a model of theirs is built: each is heavy and only one is needed.
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
