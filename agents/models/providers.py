"""Real provider models from a checked model name (Anthropic, OpenAI, Ollama, OpenAI-compatible servers), built
without network traffic, with the settings every request needs: `max_tokens` per role (a local model otherwise
streams to the end of its context), the per-attempt read `timeout` and the request deadline of the turn budget
(`agents.models.budget`), no SDK retries (RetryingModel is the one retry layer), and Anthropic prompt caching of
the tool definitions and instructions. `build_model` wraps them in the fallback chain."""

from __future__ import annotations

from typing import Any, Final

from pydantic_ai.models import Model
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.profiles.openai import OpenAIModelProfile
from pydantic_ai.settings import ModelSettings

from agents.models.budget import Timeouts, configured_timeouts
from agents.models.names import OFFLINE, check_model_name, model_env

# Output cap per role in tokens (decision 008/015): enough for the largest valid answer of the role (a Klausur with
# Erwartungshorizont is ~2.5k tokens as JSON, retries resend it), small enough that a degenerate model stops soon.
MAX_TOKENS: Final[dict[str, int]] = {
    "main": 2_000,
    "klausur": 8_000,
    "differenzierung": 6_000,
    "h5p": 4_000,
    "learning": 1_000,
    "memory": 800,
    "supervisor": 1_500,
    "safety": 500,
    "judge": 1_000,
}
DEFAULT_MAX_TOKENS: Final = 2_000
LOCAL_PROVIDERS: Final = frozenset({"openai-compatible", "ollama"})  # the school's own server: cost 0

# What a local OpenAI-compatible server (llama.cpp, llama-cpp-python, vLLM, Ollama's /v1) can do (docs/local-model.md
# §6): `max_tokens` instead of `max_completion_tokens` (llama-cpp-python ignores the latter), tool_choice "auto"
# instead of "required" (a 500 from llama-cpp-python, not enforced by llama-server; output validators and retries
# carry the structure), a filtered tool list instead of `allowed_tools` (a 500 from llama-cpp-python).
COMPATIBLE_PROFILE: Final = OpenAIModelProfile(
    openai_chat_supports_max_completion_tokens=False,
    supports_forced_tool_choice=False,
    openai_chat_supports_allowed_tools=False,
)


def real_model_settings(role: str, timeouts: Timeouts | None = None, *, provider: str = "") -> ModelSettings:
    """The settings of a real model for `role`: output cap, read timeout, request deadline, no SDK retries."""
    t = timeouts or configured_timeouts()
    settings = ModelSettings(
        max_tokens=MAX_TOKENS.get(role, DEFAULT_MAX_TOKENS),
        timeout=t.read_s,
        request_timeout=t.request_s,
        max_retries=0,
    )
    if provider == "anthropic":
        # Cache the stable prefix (tool definitions, instructions) — not each one-off conversation (decision 015).
        settings["cache"] = {"messages": False}
    return settings


class CompatibleChatModel(OpenAIChatModel):
    """OpenAIChatModel for `openai-compatible:` servers: sends `""` instead of `null` as the content of an assistant
    message that only calls tools (llama-cpp-python rejects null with a 500). Overrides a pydantic-ai internal
    (`_map_messages`); tests/agents/models/test_providers.py is the tripwire for upgrades."""

    async def _map_messages(self, *args: Any, **kwargs: Any) -> Any:
        messages = await super()._map_messages(*args, **kwargs)
        for message in messages:
            if message.get("role") == "assistant" and message.get("content") is None:
                message["content"] = ""
        return messages


def construct_real_model(name: str, role: str = "main", *, timeouts: Timeouts | None = None) -> Model:
    """Build the provider model for `name` (as `role` uses it) without any network traffic."""
    spec = check_model_name(name)
    env = model_env()
    if spec.provider == OFFLINE:
        raise ValueError("construct_real_model() is for real models; use the offline factory for 'offline'")
    settings = real_model_settings(role, timeouts, provider=spec.provider)
    # The SDK modules are imported when a model of theirs is built: each is heavy and only one is needed.
    if spec.provider == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        provider = AnthropicProvider(api_key=env["ANTHROPIC_API_KEY"], base_url=env.get("ANTHROPIC_BASE_URL"))
        return AnthropicModel(spec.model, provider=provider, settings=settings)
    from pydantic_ai.models.openai import OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    if spec.provider == "openai":  # 'openai:' is the Responses API in 2.62
        provider = OpenAIProvider(api_key=env["OPENAI_API_KEY"], base_url=env.get("OPENAI_BASE_URL"))
        return OpenAIResponsesModel(spec.model, provider=provider, settings=settings)
    if spec.provider == "openai-chat":
        provider = OpenAIProvider(api_key=env["OPENAI_API_KEY"], base_url=env.get("OPENAI_BASE_URL"))
        return OpenAIChatModel(spec.model, provider=provider, settings=settings)
    if spec.provider == "ollama":
        from pydantic_ai.providers.ollama import OllamaProvider

        return OpenAIChatModel(spec.model, provider=OllamaProvider(base_url=spec.base_url), settings=settings)
    provider = OpenAIProvider(
        base_url=spec.base_url, api_key=env.get("WERKBANK_OPENAI_COMPATIBLE_API_KEY", "not-needed")
    )
    return CompatibleChatModel(spec.model, provider=provider, profile=COMPATIBLE_PROFILE, settings=settings)
