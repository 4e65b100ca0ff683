"""Two runs side by side: per-case deltas, checks whose verdict flipped (with B's reason), totals, cost
and latency, and the pass rates per check for a chart."""

from __future__ import annotations

import difflib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.models.names import OFFLINE
from core.app.acting import acting
from core.evaluation.formats import fmt_num, fmt_pct, fmt_usd
from core.evaluation.results import CaseResult
from core.evaluation.runs import RunInfo, load_run, require_product
from core.evaluation.suites import TYP_NAMEN
from core.materials.dates import SCHOOL_TZ


@dataclass(frozen=True)
class Comparison:
    a: RunInfo
    b: RunInfo
    cases: list[dict[str, Any]]  # per case side by side
    flips: list[dict[str, str]]  # checks whose verdict changed from A to B
    totals: list[dict[str, Any]]  # Kennzahl | A | B | Δ
    chart: list[dict[str, Any]]  # pass rate per check and run (for a grouped bar chart)
    diffs: list[tuple[str, str]] = field(default_factory=list)  # (case, unified diff of A's and B's output)
    same_output: int = 0  # cases whose output is identical in A and B

    @property
    def meaningful(self) -> bool:
        """Only runs with a real model say something about a prompt; offline runs test code and knowledge base."""
        return self.a.model != OFFLINE and self.b.model != OFFLINE

    @property
    def verdict(self) -> str:
        qa, qb = float(self.a.summary.get("quote", 0)), float(self.b.summary.get("quote", 0))
        better = sum(1 for f in self.flips if f["B"] == "✓")
        worse = sum(1 for f in self.flips if f["B"] == "✗")
        if not self.meaningful:
            which = "Beide Läufe sind" if self.a.model == self.b.model == OFFLINE else "Ein Lauf ist"
            return (f"Nicht aussagekräftig: {which} offline gelaufen – sie prüfen Code und Wissensbasis, nicht den "
                    f"Prompt. {fmt_pct(qa)} → {fmt_pct(qb)} bestanden, {self.same_output} von {len(self.cases)} "
                    "Fällen mit gleicher Ausgabe. Für einen Prompt-Vergleich beide Läufe mit einem echten Modell.")
        trend = "besser" if qb > qa else "schlechter" if qb < qa else "gleich"
        return (f"B ist {trend}: {fmt_pct(qa)} → {fmt_pct(qb)} bestanden; {better} Prüfungen neu bestanden, "
                f"{worse} neu nicht bestanden; {len(self.diffs)} Fälle mit anderer Ausgabe.")


def _output_text(case: CaseResult | None) -> list[str]:
    """What a case produced, as lines to diff: the answers of its turns and the material's summary."""
    if case is None:
        return []
    lines = [f"{t.art}: {t.antwort}" for t in case.verlauf]
    if case.fehler and not any(t.art == "fehler" for t in case.verlauf):
        lines.append(f"fehler: {case.fehler}")
    if case.ausgabe:
        lines += json.dumps(case.ausgabe, ensure_ascii=False, indent=1, sort_keys=True).splitlines()
    return lines


def output_diffs(a: RunInfo, b: RunInfo) -> tuple[list[tuple[str, str]], int]:
    """Per case the unified diff of A's and B's output (only where they differ), and how many are identical."""
    by_a, by_b = {c.name: c for c in a.cases}, {c.name: c for c in b.cases}
    diffs, same = [], 0
    for name in [*by_a, *(n for n in by_b if n not in by_a)]:
        la, lb = _output_text(by_a.get(name)), _output_text(by_b.get(name))
        if la == lb:
            same += 1
            continue
        diffs.append((name, "\n".join(difflib.unified_diff(la, lb, "A", "B", lineterm="", n=1))))
    return diffs, same


def compare_runs(*, teacher_id: uuid.UUID, run_a: uuid.UUID | str, run_b: uuid.UUID | str) -> Comparison:
    """Two runs side by side: per-case deltas, flipped checks with B's reason, averages, cost and latency."""
    require_product(teacher_id)
    with acting(teacher_id) as (db, _, _):
        a, b = load_run(db, run_a), load_run(db, run_b)
    by_a, by_b = {c.name: c for c in a.cases}, {c.name: c for c in b.cases}
    names = list(by_a) + [n for n in by_b if n not in by_a]
    cases, flips = [], []
    for name in names:
        ca, cb = by_a.get(name), by_b.get(name)
        qa = ca.passed / ca.total if ca and ca.total else None
        qb = cb.passed / cb.total if cb and cb.total else None
        changed = []
        if ca and cb:
            for check in list(ca.checks) + [k for k in cb.checks if k not in ca.checks]:
                va, vb = ca.checks.get(check), cb.checks.get(check)
                if va is not None and vb is not None and va.ok == vb.ok:
                    continue
                sign = lambda v: "–" if v is None else "✓" if v.ok else "✗"  # noqa: E731
                changed.append(f"{check} {sign(va)}→{sign(vb)}")
                flips.append({"Fall": name, "Prüfung": check, "A": sign(va), "B": sign(vb),
                              "Grund in A": va.grund if va else "", "Grund in B": vb.grund if vb else ""})
        cases.append({"Fall": name, "Typ": TYP_NAMEN.get((ca or cb).typ, ""),  # type: ignore[union-attr]
                      "A": f"{ca.passed}/{ca.total}" if ca else "–", "B": f"{cb.passed}/{cb.total}" if cb else "–",
                      "Δ Quote": round(qb - qa, 3) if qa is not None and qb is not None else None,
                      "Umgeschlagen": ", ".join(changed) or "–",
                      "Dauer A (s)": ca.dauer_s if ca else None, "Dauer B (s)": cb.dauer_s if cb else None,
                      "Kosten A (USD)": ca.kosten_usd if ca else None, "Kosten B (USD)": cb.kosten_usd if cb else None})
    sa_, sb = a.summary, b.summary

    def metric(label: str, key: str, fmt: Callable[[Any], str]) -> dict[str, Any]:
        va, vb = sa_.get(key, 0) or 0, sb.get(key, 0) or 0
        delta = vb - va if isinstance(va, int | float) and isinstance(vb, int | float) else None
        return {"Kennzahl": label, "A": fmt(va), "B": fmt(vb),
                "Δ": ("+" if delta and delta > 0 else "") + fmt(delta) if delta is not None else "–"}

    totals = [metric("Bestanden (Quote)", "quote", lambda v: fmt_pct(float(v))),
              metric("Prüfungen bestanden", "bestanden", str), metric("Prüfungen gesamt", "pruefungen", str),
              metric("Fälle fertig", "faelle_fertig", str), metric("Fälle mit Fehler", "faelle_fehler", str),
              metric("Dauer je Fall (s, Mittel)", "dauer_s_mittel", lambda v: f"{float(v):.2f}".replace(".", ",")),
              metric("Tokens ein", "input_tokens", fmt_num), metric("Tokens aus", "output_tokens", fmt_num),
              metric("Kosten (USD)", "kosten_usd", lambda v: fmt_usd(float(v)))]
    for key in sorted(set(sa_.get("werte", {})) | set(sb.get("werte", {}))):
        va, vb = sa_.get("werte", {}).get(key), sb.get("werte", {}).get(key)
        totals.append({"Kennzahl": f"Ø {key}", "A": "–" if va is None else f"{va:g}".replace(".", ","),
                       "B": "–" if vb is None else f"{vb:g}".replace(".", ","),
                       "Δ": "–" if va is None or vb is None else f"{vb - va:+.3g}".replace(".", ",")})
    chart = []
    for run, tag in ((a, "A"), (b, "B")):
        for check, rate in (run.summary.get("quoten") or {}).items():
            when = run.started_at.astimezone(SCHOOL_TZ).strftime("%d.%m. %H:%M")
            chart.append({"Prüfung": check, "Lauf": f"{tag}: {run.short} ({when})", "Quote": float(rate)})
    diffs, same = output_diffs(a, b)
    return Comparison(a=a, b=b, cases=cases, flips=flips, totals=totals, chart=chart, diffs=diffs, same_output=same)
