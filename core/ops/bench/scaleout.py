"""P5 `bench load --processes 1,2`: the same teachers served by 1, 2, … app processes against one PostgreSQL (the
embedded one, or an external one through DATABASE_URL) — throughput per setting, the ratio, and the consistency
count (nothing lost, nothing twice) after every setting."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from core.ops.bench.common import machine, write_section, written
from core.ops.bench.databases import fresh_database
from core.ops.bench.load import LOAD_DB, load_consistency, load_teachers, one_teacher
from db.session import Identity


def _serve(chunk: list[tuple[uuid.UUID, Identity]], threads: int) -> tuple[float, float, list[str]]:
    """One app process: its teachers at once on `threads` threads; (start, end, errors), wall-clock seconds."""
    from core.ops.bootstrap import ensure_ready

    ensure_ready(seed=False)  # connect (and warm up) before the clock starts, like a replica that is already up
    errors: list[str] = []

    def one(item: tuple[uuid.UUID, Identity]) -> None:
        try:
            one_teacher(*item)
        except Exception as exc:  # counted and reported, the run goes on
            errors.append(f"{type(exc).__name__}: {str(exc)[:160]}")

    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        list(pool.map(one, chunk))
    return start, time.time(), errors


def run_setting(teachers: int, processes: int) -> dict[str, Any]:
    """A fresh database, `teachers` teachers, served by `processes` app processes at once."""
    os.environ["WERKBANK_DB_POOL_SIZE"] = str(teachers + 5)
    os.environ["WERKBANK_DB_MAX_OVERFLOW"] = "10"
    fresh_database(LOAD_DB)
    idents = load_teachers(teachers)
    items = list(idents.items())
    chunks = [items[i::processes] for i in range(processes)]
    ctx = multiprocessing.get_context("spawn")  # clean processes, as separate replicas would be
    with concurrent.futures.ProcessPoolExecutor(max_workers=processes, mp_context=ctx) as pool:
        results = list(pool.map(_serve, chunks, [len(c) for c in chunks]))
    wall = max(end for _, end, _ in results) - min(start for start, _, _ in results)
    errors = [e for _, _, errs in results for e in errs]
    check = load_consistency(list(idents))
    return {"processes": processes, "teachers": teachers, "wall_s": wall, "turns_per_s": 2 * teachers / wall,
            "errors": errors, **check}


def run_scaleout_bench(*, teachers: int, processes: list[int], write: bool) -> None:
    where = "externes PostgreSQL (DATABASE_URL)" if os.environ.get("DATABASE_URL") else "eingebettetes PostgreSQL"
    print(f"Benchmark load · {where} · Maschine: {machine()}")
    results = []
    for n in processes:
        r = run_setting(teachers, n)
        results.append(r)
        print(f"{n} App-Prozess(e) · {teachers} Lehrkräfte · {r['wall_s']:.1f} s · {r['turns_per_s']:.2f} "
              f"Gesprächszüge/s · Fehler: {len(r['errors'])} · verloren: {r['lost']} · doppelt: {r['duplicated']}",
              flush=True)
        for e in r["errors"][:3]:
            print("  Fehler:", e)
    base = results[0]
    for r in results[1:]:
        print(f"Durchsatz {r['processes']} : {base['processes']} Prozess(e) = "
              f"{r['turns_per_s'] / base['turns_per_s']:.2f}× (Ziel ≥ 1,7×)")
    if write:
        _write(results, "external PostgreSQL (DATABASE_URL)" if os.environ.get("DATABASE_URL") else
               "embedded PostgreSQL")


def _write(results: list[dict[str, Any]], where: str) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    base = results[0]
    rows = "".join(f"| {r['processes']} | {r['wall_s']:.1f} s | {r['turns_per_s']:.2f} | "
                   f"{r['turns_per_s'] / base['turns_per_s']:.2f}× | {len(r['errors'])} | {r['lost']} | "
                   f"{r['duplicated']} |\n" for r in results)
    section = ("### P5b · Scale-out: app processes against one PostgreSQL\n\n"
               f"{base['teachers']} teachers (same flow as P5) split over N app processes that run at the same time "
               f"against one {where}; each process serves its share on threads. Throughput is chat turns per "
               "second over the whole run; after each setting every object is counted per teacher.\n\n"
               "| processes | wall time | chat turns/s | ratio to 1 | errors | lost | duplicated |\n"
               "|---:|---:|---:|---:|---:|---:|---:|\n" + rows +
               f"\n*{stamp} · {machine()} · `python -m core bench load --teachers {base['teachers']} --processes "
               f"{','.join(str(r['processes']) for r in results)}`*\n")
    write_section("scaleout", section)
    written()
