"""P1 `bench wissenskarte`: the map's SQL aggregate against the seed design's load-and-filter, acting as random
synthetic teachers — the map must stay fast and far ahead as the rows grow."""

from __future__ import annotations

import random
import statistics

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.ops.bench.common import AGENTS, FAECHER, measure, pct
from core.ops.bench.world import World
from db.repos.wissenskarte import wissenskarte_baseline, wissenskarte_facts
from db.session import Identity, apply_identity


def bench_wissenskarte(app: sa.Engine, world: World, queries: int) -> dict[str, float]:
    rng = random.Random(7)
    picks = [(rng.choice(world.teachers), rng.choice(AGENTS), rng.choice(FAECHER)) for _ in range(queries)]
    out: dict[str, float] = {}
    with Session(app) as db:
        for label, fn, n in (("map", wissenskarte_facts, queries), ("baseline", wissenskarte_baseline,
                                                                     max(10, queries // 10))):
            times = []
            for (tid, school, classes), agent, fach in picks[:n]:
                ident = Identity(teacher_id=tid, school_id=school, class_ids=tuple(classes))
                apply_identity(db.connection(), ident)
                times += measure(lambda: fn(db=db, identity=ident, agent_type=agent, fach=fach), 1)  # noqa: B023
                db.rollback()
            out[f"{label}_p50"] = statistics.median(times)
            out[f"{label}_p95"] = pct(times, 95)
    out["ratio"] = out["baseline_p50"] / out["map_p50"]
    return out


def line(r: dict[str, float]) -> str:
    return (f"{r['rows']:>9,} Zeilen · Karte p50 {r['map_p50']:.2f} ms p95 {r['map_p95']:.2f} ms · "
            f"Baseline p50 {r['baseline_p50']:.1f} ms · Faktor {r['ratio']:.0f}× · Laden {r['load_s']:.0f} s")


def table(results: list[dict[str, float]]) -> str:
    head = ("### P1 · Wissenskarte (SQL-Aggregat vs. Laden-und-Filtern)\n\n"
            "Goal: p50 ≤ 5 ms at 1M rows and ≥ 100× faster than the baseline.\n\n"
            "| rows | map p50 | map p95 | baseline p50 | baseline p95 | factor |\n"
            "|---:|---:|---:|---:|---:|---:|\n")
    return head + "".join(f"| {r['rows']:,} | {r['map_p50']:.2f} ms | {r['map_p95']:.2f} ms | "
                          f"{r['baseline_p50']:.1f} ms | {r['baseline_p95']:.1f} ms | {r['ratio']:.0f}× |\n"
                          for r in results)
