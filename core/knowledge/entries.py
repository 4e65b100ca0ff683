"""Knowledge rows as text: what gets embedded and full-text indexed for a good practice, example or chunk.

Seeds, imports and the learning loop all go through `knowledge_text`, so one task reads the same everywhere.
"""

from __future__ import annotations

from typing import Any

# Content keys that hold the task itself, in the order they matter for retrieval.
_TEXT_KEYS = ("aufgabe", "text", "frage", "lernziel", "material", "beschreibung", "kontext")


def _flatten(value: Any, out: list[str], depth: int = 0) -> None:
    if depth > 4 or len(out) > 200:
        return
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _flatten(v, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _flatten(v, out, depth + 1)


def knowledge_text(*, content: dict[str, Any], thema: str | None = None, description: str | None = None) -> str:
    """The text a knowledge row is found by: topic, summary, then the task's own words."""
    parts = [thema or "", str(content.get("themenfeld") or ""), description or ""]
    for key in _TEXT_KEYS:
        value = content.get(key)
        if isinstance(value, str):
            parts.append(value)
    if not any(isinstance(content.get(k), str) for k in _TEXT_KEYS):
        rest: list[str] = []
        _flatten(content, rest)
        parts.extend(rest)
    return " ".join(p.strip() for p in parts if p and p.strip())


def quality_from_stars(stars: int, *, previous: float | None = None, count: int = 0) -> float:
    """1..5 stars -> 0..1 quality; with earlier ratings, the running mean (each rating counts the same)."""
    score = (min(max(stars, 1), 5) - 1) / 4
    if previous is None or count <= 0:
        return round(score, 3)
    return round((previous * count + score) / (count + 1), 3)
