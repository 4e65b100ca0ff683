"""The driver of the knowledge benchmarks (P1 Wissenskarte, P2 search) at growing row counts: one synthetic
world in a database of its own, grown to each size, measured, and written to docs/benchmarks.md."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.ops.bench import search, wissenskarte
from core.ops.bench.common import machine, write_section, written
from core.ops.bench.databases import analyze, app_engine, empty_database
from core.ops.bench.world import World
from db.repos import bench as bench_repo
from seeds.steps import SeedReport, step_subject_profiles

BENCH_DB = "werkbank_bench"
BENCHMARKS = {"wissenskarte": wissenskarte, "search": search}


def run_bench(what: str, *, rows: list[int], teachers: int = 1000, queries: int = 200, write: bool = True) -> None:
    print(f"Benchmark {what} · Maschine: {machine()}")
    bench = BENCHMARKS[what]
    bench_admin, bench_app = empty_database(BENCH_DB)
    admin = sa.create_engine(bench_admin, poolclass=sa.pool.NullPool)
    app = app_engine(bench_app)
    with Session(admin) as db:
        step_subject_profiles(db, SeedReport())
        db.commit()
    world = World(admin, teachers, random.Random(3))
    world.create_people()
    results = []
    for target in sorted(rows):
        bench_repo.drop_bulk_indexes(engine=admin)
        load_s = world.grow(target)
        # The teacher-facing search ranks exactly (the global slice through its own indexes), so the table-wide HNSW
        # index is not on its path; building it at 1M rows takes longer than everything else here.
        index_s = analyze(admin, rebuild_index=False)
        res = (wissenskarte.bench_wissenskarte(app, world, queries) if what == "wissenskarte"
               else search.bench_search(app, world, queries))
        res.update(rows=target, load_s=load_s, index_s=index_s)
        results.append(res)
        print(bench.line(res), flush=True)
    if what == "search" and len(results) > 1:
        print(search.growth(results))
    admin.dispose()
    app.dispose()
    if write:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        section = (f"{bench.table(results)}\n*{stamp} · {machine()} · {teachers} synthetic teachers, {queries} "
                   f"queries per size · `python -m core bench {what} --rows "
                   f"{','.join(str(r['rows']) for r in results)}`*\n")
        write_section(what, section)
        written()
