"""The Wissenskarte graph as an ECharts option: a fixed radial layout (same picture on every load), labels only
where they cannot collide, entries sized by how often they were used and ringed when rated low.

Centre → the four scopes on an inner ring → their knowledge types on a middle ring → the entries on an outer ring,
each group in its own angular sector, so no two nodes share a place and nothing is hidden under the legend.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

LOW_QUALITY = 0.4  # an entry at or below this quality is ringed red: worth a look
RINGS = (0.0, 120.0, 230.0, 360.0)  # radius of centre, scopes, types, entries (chart units; the view fits them)
MIN_SLOTS = 4  # every group gets at least this many entry places of the circle, so type labels do not collide


def _size(times_used: int) -> int:
    """Entries by use: 8 px unused, +4 px per doubling, at most 24 px (60 of them fit the outer ring at 520 px)."""
    return min(24, 8 + round(4 * math.log2(1 + max(0, times_used))))


def _point(radius: float, angle: float) -> tuple[float, float]:
    return round(radius * math.cos(angle), 1), round(radius * math.sin(angle), 1)


def _quality(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def build(title: str, scopes: Mapping[str, str], types: Mapping[str, tuple[str, str]],
          counts: Sequence[tuple[str, str, int]], entries: Sequence[Any]) -> tuple[dict[str, Any], list[str | None]]:
    """(ECharts option, per node the knowledge id it opens or None). `entries` carry id, scope_type, knowledge_type,
    thema, description, quality_score, times_used."""
    categories = [{"name": "Karte", "itemStyle": {"color": "#263238"}},
                  {"name": "Bereich", "itemStyle": {"color": "#90a4ae"}}]
    cat = {}
    for kt, (label, colour) in types.items():
        cat[kt] = len(categories)
        categories.append({"name": label, "itemStyle": {"color": colour}})
    nodes: list[dict[str, Any]] = [{"id": "c", "name": title, "category": 0, "symbolSize": 46, "x": 0, "y": 0,
                                    "label": {"show": True, "fontWeight": "bold", "position": "bottom"}}]
    links: list[dict[str, str]] = []
    opens: list[str | None] = [None]
    shown_types = [(s, kt, n) for s, kt, n in counts if kt in cat and s in scopes]
    per_scope = {s: sum(n for sc, _, n in counts if sc == s) for s in scopes}
    groups = {(s, kt): [e for e in entries if (e.scope_type, e.knowledge_type) == (s, kt)] for s, kt, _ in shown_types}
    # every scope gets a sector proportional to what it will hold (at least one slot), in a fixed order
    def slots(group: tuple[str, str]) -> int:
        return max(MIN_SLOTS, len(groups[group]))

    weight = {s: max(MIN_SLOTS, sum(slots((sc, kt)) for sc, kt, _ in shown_types if sc == s)) for s in scopes}
    total, start = sum(weight.values()), -math.pi / 2
    for scope, label in scopes.items():
        span = 2 * math.pi * weight[scope] / total
        x, y = _point(RINGS[1], start + span / 2)
        nodes.append({"id": f"s:{scope}", "name": f"{label} ({per_scope[scope]:,})".replace(",", "."), "x": x,
                      "y": y, "category": 1, "symbolSize": 30, "label": {"show": True}})
        links.append({"source": "c", "target": f"s:{scope}"})
        opens.append(None)
        kinds = sorted(((kt, n) for sc, kt, n in shown_types if sc == scope), key=lambda t: list(types).index(t[0]))
        room = sum(slots((scope, kt)) for kt, _ in kinds) or 1
        pos = start
        for kt, n in kinds:
            members = groups[(scope, kt)]
            width = span * slots((scope, kt)) / room
            x, y = _point(RINGS[2], pos + width / 2)
            nodes.append({"id": f"t:{scope}:{kt}", "name": f"{types[kt][0]} ({n:,})".replace(",", "."), "x": x,
                          "y": y, "category": cat[kt], "symbolSize": 20, "label": {"show": True, "fontSize": 11}})
            links.append({"source": f"s:{scope}", "target": f"t:{scope}:{kt}"})
            opens.append(None)
            for i, e in enumerate(members):
                x, y = _point(RINGS[3], pos + width * (i + 0.5) / len(members))
                nodes.append(_entry_node(e, cat[e.knowledge_type], x, y))
                links.append({"source": f"t:{scope}:{kt}", "target": str(e.id)})
                opens.append(str(e.id))
            pos += width
        start += span
    return _option(categories, nodes, links), opens


def _entry_node(e: Any, category: int, x: float, y: float) -> dict[str, Any]:
    quality, used = float(e.quality_score), int(e.times_used or 0)
    name = " ".join((e.description or e.thema or "—").split())
    node = {"id": str(e.id), "name": name[:59] + "…" if len(name) > 60 else name, "category": category,
            "x": x, "y": y, "symbolSize": _size(used), "value": f"Qualität {_quality(quality)} · {used}× verwendet",
            "label": {"show": False}}
    if quality <= LOW_QUALITY:
        node["itemStyle"] = {"borderColor": "#c62828", "borderWidth": 3}
    return node


def _option(categories: list[dict[str, Any]], nodes: list[dict[str, Any]], links: list[dict[str, str]]
            ) -> dict[str, Any]:
    return {
        "tooltip": {"formatter": "{b}<br/>{c}"},
        "legend": [{"data": [c["name"] for c in categories[2:]], "top": 0}],
        "animation": False,
        "series": [{
            "type": "graph", "layout": "none", "roam": True, "draggable": False, "selectedMode": "single",
            "top": 50, "bottom": 30, "left": 40, "right": 40,  # room for the legend and the outer labels
            "categories": categories, "data": nodes, "links": links,
            "emphasis": {"focus": "adjacency", "label": {"show": True}},
            "lineStyle": {"color": "source", "opacity": 0.45},
            "select": {"itemStyle": {"borderColor": "#000", "borderWidth": 3}},
        }],
    }
