"""The driver of the knowledge benchmarks (P1 Wissenskarte, P2 search) at growing row counts: one synthetic
world in a database of its own, grown to each size, measured, and written to docs/benchmarks.md.

The database is dropped afterwards (1M rows take ~4 GB of disk) unless `keep`; with `reuse`, a kept database is
measured again without loading it anew (sizes below its row count are skipped, larger ones grown to)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.ops.bench import search, wissenskarte
from core.ops.bench.common import machine, write_section, written
from core.ops.bench.databases import analyze, app_engine, drop_database, empty_database, kept_database
from core.ops.bench.world import World
from db.repos import bench as bench_repo
from seeds.steps import SeedReport, step_subject_profiles

BENCH_DB = "werkbank_bench"
BENCHMARKS = {"wissenskarte": wissenskarte, "search": search}


def _world(teachers: int, reuse: bool) -> tuple[World, sa.Engine, sa.Engine]:
    """(world, owner engine, app engine): the kept database when `reuse` finds one, else a new one."""
    urls = kept_database(BENCH_DB) if reuse else None
    if urls:
        admin = sa.create_engine(urls[0], poolclass=sa.pool.NullPool)
        world = World.kept(admin, random.Random(3))
        print(f"Vorhandene Benchmark-Datenbank {BENCH_DB}: {world.rows:,} Zeilen, {world.n_teachers} Lehrkräfte")
        return world, admin, app_engine(urls[1])
    bench_admin, bench_app = empty_database(BENCH_DB)
    admin = sa.create_engine(bench_admin, poolclass=sa.pool.NullPool)
    with Session(admin) as db:
        step_subject_profiles(db, SeedReport())
        db.commit()
    world = World(admin, teachers, random.Random(3))
    world.create_people()
    return world, admin, app_engine(bench_app)


def run_bench(what: str, *, rows: list[int], teachers: int = 1000, queries: int = 200, write: bool = True,
              keep: bool = False, reuse: bool = False) -> None:
    print(f"Benchmark {what} · Maschine: {machine()}")
    bench = BENCHMARKS[what]
    world, admin, app = _world(teachers, reuse)
    results = []
    for target in sorted(rows):
        if target < world.rows:
            print(f"{target:>9,} Zeilen übersprungen: die vorhandene Datenbank hat schon {world.rows:,}")
            continue
        load_s = index_s = 0.0
        if target > world.rows:
            bench_repo.drop_bulk_indexes(engine=admin)
            load_s = world.grow(target)
            # The teacher-facing search ranks exactly (the global slice through its own indexes), so the table-wide
            # HNSW index is not on its path; building it at 1M rows takes longer than everything else here.
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
    if keep:
        print(f"Benchmark-Datenbank {BENCH_DB} bleibt erhalten ({world.rows:,} Zeilen; --reuse misst sie erneut).")
    else:
        drop_database(BENCH_DB)
    if write and results:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        section = (f"{bench.table(results)}\n*{stamp} · {machine()} · {len(world.teachers)} synthetic teachers, "
                   f"{queries} queries per size · `python -m core bench {what} --rows "
                   f"{','.join(str(r['rows']) for r in results)}`*\n")
        write_section(what, section)
        written()
