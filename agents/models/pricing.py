"""Prices per million tokens (input, output) and the cost of a call; the offline model costs nothing, an unknown model
of a known family is priced like a typical member (marked as estimated)."""

from __future__ import annotations

from typing import Final

from agents.models.names import OFFLINE_MODEL_NAME

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


CACHE_READ_FACTOR: Final = 0.1
CACHE_WRITE_FACTOR: Final = 1.25


def cost_usd(model_name: str, input_tokens: int, output_tokens: int) -> float | None:
    return call_cost(model_name, input_tokens, output_tokens)


def call_cost(
    model_name: str, input_tokens: int, output_tokens: int, *, cache_read: int = 0, cache_write: int = 0
) -> float | None:
    """USD for one call; `input_tokens` includes the cached ones (as pydantic-ai counts them), which are priced at
    the cache read/write factors. None when the model has no known price; a local model (`openai-compatible:`,
    `ollama:`) costs 0."""
    price, _, _ = price_for(model_name)
    if price is None:
        return None
    fresh = max(0, input_tokens - cache_read - cache_write)
    tokens_in = fresh + cache_read * CACHE_READ_FACTOR + cache_write * CACHE_WRITE_FACTOR
    return round((tokens_in * price[0] + output_tokens * price[1]) / 1_000_000, 6)
