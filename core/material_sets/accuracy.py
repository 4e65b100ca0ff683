"""How well the offline rules decompose combined requests: labelled cases (seeds/eval/combined.yaml) against
the rule plan — the same parts (type, Fach, Klassenstufe), matching topic keywords and the same dependencies."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from agents.models.registry import plan_by_rules
from agents.planner import Plan, normalized, plan_faults
from core.language.text import fold_loose


def _keywords_match(keywords: Sequence[str], thema: str | None) -> bool:
    t = fold_loose(thema or "")
    return all(fold_loose(k) in t for k in keywords)


def case_correct(case: Mapping[str, Any], p: Plan) -> tuple[bool, str]:
    """One labelled case (seeds/eval/combined.yaml): the same (material_type, fach, klassenstufe) parts, topic
    keywords that match, and the same dependency edges — under some matching of expected to planned parts."""
    expected = list(case["parts"])
    got = p.parts
    if len(expected) != len(got):
        return False, f"{len(got)} statt {len(expected)} Teile"
    got_edges = {(g.key, d) for g in got for d in g.depends_on}
    reason = "Teile passen nicht"
    for perm in itertools.permutations(range(len(got))):
        pairs = list(zip(expected, (got[i] for i in perm), strict=True))
        if all((e["material_type"], e["fach"], e["klassenstufe"]) == (g.material_type, g.fach, g.klassenstufe)
               and _keywords_match(e.get("thema") or [], g.thema) for e, g in pairs):
            keymap = {e["key"]: g.key for e, g in pairs}
            want = {(keymap[e["key"]], keymap[d]) for e in expected for d in e.get("depends_on") or []}
            if want == got_edges:
                return True, ""
            reason = f"Abhängigkeiten {sorted(got_edges)} statt {sorted(want)}"
    return False, reason


def decomposition_accuracy(cases: Sequence[Mapping[str, Any]]) -> tuple[float, list[tuple[str, str]]]:
    """Share of cases the offline rules decompose correctly, and the failures (case id, why)."""
    failures = []
    for case in cases:
        draft = plan_by_rules(case["text"], case.get("context"))
        p = normalized(draft) if draft.parts and not plan_faults(draft) else draft
        ok, why = case_correct(case, p)
        if not ok:
            failures.append((str(case.get("id", case["text"][:40])), why))
    return (1 - len(failures) / len(cases)) if cases else 0.0, failures
