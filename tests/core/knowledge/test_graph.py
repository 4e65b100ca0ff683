"""The Wissenskarte graph: the same picture on every load, no two nodes on top of each other, entries sized by use
and ringed when rated low; the card names what it shortened instead of dropping it."""

from __future__ import annotations

import itertools
import math
import uuid
from types import SimpleNamespace

from core.knowledge.graph import LOW_QUALITY, build
from core.knowledge.inspector import SCOPES, TYPES
from core.knowledge.wissenskarte import format_preferences


def _entries(n: int) -> list[SimpleNamespace]:
    kinds = [("teacher", "good_practice"), ("global", "good_practice"), ("global", "operator_list"),
             ("school", "note"), ("teacher", "example")]
    return [SimpleNamespace(id=uuid.UUID(int=i + 1), scope_type=kinds[i % 5][0], knowledge_type=kinds[i % 5][1],
                            thema=f"Thema {i}", description=f"Eine recht lange Beschreibung des Eintrags {i}",
                            quality_score=(i % 10) / 10, times_used=i * 3) for i in range(n)]


COUNTS = [("teacher", "good_practice", 40), ("global", "good_practice", 700), ("global", "operator_list", 1),
          ("school", "note", 3), ("teacher", "example", 12)]


def test_the_layout_is_fixed_and_nothing_overlaps() -> None:
    entries = _entries(60)
    first, opens = build("Physik · Klausur", SCOPES, TYPES, COUNTS, entries)
    again, _ = build("Physik · Klausur", SCOPES, TYPES, COUNTS, list(entries))
    assert first == again  # same input, same picture: no force simulation
    series = first["series"][0]
    assert series["layout"] == "none" and not series["draggable"]
    nodes = series["data"]
    assert len(nodes) == len(opens) == 1 + 4 + len(COUNTS) + 60
    for a, b in itertools.combinations(nodes, 2):
        gap = math.dist((a["x"], a["y"]), (b["x"], b["y"]))
        assert gap >= (a["symbolSize"] + b["symbolSize"]) / 2, (a["name"], b["name"], gap)
    assert first["legend"][0]["top"] == 0 and series["top"] >= 40  # the legend sits above the nodes


def test_entries_are_sized_by_use_and_low_rated_ones_are_ringed() -> None:
    option, opens = build("Physik · Klausur", SCOPES, TYPES, COUNTS, _entries(20))
    nodes = {n["id"]: n for n in option["series"][0]["data"]}
    unused, busy = nodes[str(uuid.UUID(int=1))], nodes[str(uuid.UUID(int=20))]
    assert unused["symbolSize"] < busy["symbolSize"] and "57× verwendet" in busy["value"]
    low = [n for n in nodes.values() if n.get("itemStyle", {}).get("borderColor") == "#c62828"]
    assert low and all(float(n["value"].split()[1].replace(",", ".")) <= LOW_QUALITY for n in low)
    assert opens[0] is None and str(uuid.UUID(int=1)) in opens


def test_the_card_counts_the_preferences_it_shortened() -> None:
    prefs = {"aufgaben_anzahl": 4, "teilaufgaben": True, "bonusaufgabe": False, "afb_ziel": {"I": 30, "II": 40,
             "III": 30}, "punkte_pro_minute": 1.5, "stil": "knapp", "dinge_vermeiden": ["Induktion"],
             "frei": ["Weitere Wünsche: Diagramme", "Kontext Alltag"]}
    text = format_preferences(prefs)
    assert text.startswith("Aufgaben 4; Teilaufgaben ja; Bonusaufgabe nein; AFB-Ziel 30/40/30")
    assert text.endswith("(+3 weitere Präferenzen → get_context('preferences'))")
    assert "Vermeiden" not in text  # shortened — and said so
    assert format_preferences({"aufgaben_anzahl": 3}) == "Aufgaben 3"
