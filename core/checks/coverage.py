"""Topic indexes for the checks, from a Fach's coverage map (or, where none exists yet, its Themenfelder)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.checks.topics import TopicIndex, TopicInfo


def topic_infos(topics: Iterable[Mapping[str, Any]], themenfelder: Mapping[str, list[str]]) -> list[TopicInfo]:
    """Coverage-map topics (dicts with id, thema, themenfeld, klassenstufen, unterthemen, schlagworte)."""
    return [TopicInfo(id=t["id"], thema=t["thema"], themenfeld=t.get("themenfeld", ""),
                      klassenstufen=tuple(t.get("klassenstufen") or ()), unterthemen=tuple(t.get("unterthemen") or ()),
                      schlagworte=tuple(t.get("schlagworte") or ()),
                      extra=tuple(themenfelder.get(t.get("themenfeld", ""), ())),
                      generatoren=tuple(t.get("generatoren") or ()))
            for t in topics]


def field_infos(themenfelder: Mapping[str, list[str]]) -> list[TopicInfo]:
    """Each Themenfeld as one topic (no grades): the fallback before a coverage map exists."""
    return [TopicInfo(id=f"feld:{name}", thema=name, themenfeld=name, schlagworte=tuple(terms))
            for name, terms in themenfelder.items()]


def build_index(topics: Iterable[Mapping[str, Any]], themenfelder: Mapping[str, list[str]]) -> TopicIndex:
    infos = topic_infos(topics, themenfelder)
    return TopicIndex(infos or field_infos(themenfelder))
