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
from core.ops.bench.cpu import RunMeter, process_cpu_seconds
from core.ops.bench.databases import fresh_database
from core.ops.bench.load import LOAD_DB, load_consistency, load_teachers, one_teacher
from db.session import Identity

START_TIMEOUT = 300  # seconds for every app process to import, connect and warm up


_READY: Any = None  # a barrier shared with the parent: every process is up before any clock starts


def _ready_barrier(barrier: Any) -> None:
    global _READY
    _READY = barrier


def _serve(chunk: list[tuple[uuid.UUID, Identity]], threads: int) -> tuple[float, float, float, list[str]]:
    """One app process: its teachers at once on `threads` threads; (start, end, CPU seconds, errors)."""
    from core.ops.bootstrap import ensure_ready

    ensure_ready(seed=False)  # connect (and warm up) before the clock starts, like a replica that is already up
    _READY.wait(timeout=START_TIMEOUT)
    errors: list[str] = []

    def one(item: tuple[uuid.UUID, Identity]) -> None:
        try:
            one_teacher(*item)
        except Exception as exc:  # counted and reported, the run goes on
            errors.append(f"{type(exc).__name__}: {str(exc)[:160]}")

    start, cpu = time.time(), process_cpu_seconds()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        list(pool.map(one, chunk))
    return start, time.time(), process_cpu_seconds() - cpu, errors


def run_setting(teachers: int, processes: int) -> dict[str, Any]:
    """A fresh database, `teachers` teachers, served by `processes` app processes at once; the CPU of the app
    processes, of PostgreSQL and of the whole machine during the run, and lock waits."""
    os.environ["WERKBANK_DB_POOL_SIZE"] = str(teachers + 5)
    os.environ["WERKBANK_DB_MAX_OVERFLOW"] = "10"
    fresh_database(LOAD_DB)
    idents = load_teachers(teachers)
    items = list(idents.items())
    chunks = [items[i::processes] for i in range(processes)]
    ctx = multiprocessing.get_context("spawn")  # clean processes, as separate replicas would be
    ready = ctx.Barrier(processes + 1)
    meter = RunMeter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=processes, mp_context=ctx, initializer=_ready_barrier,
                                                initargs=(ready,)) as pool:
        futures = [pool.submit(_serve, c, len(c)) for c in chunks]
        ready.wait(timeout=START_TIMEOUT)
        meter.start()
        results = [f.result() for f in futures]
        meter.stop()
    wall = max(end for _, end, _, _ in results) - min(start for start, _, _, _ in results)
    errors = [e for _, _, _, errs in results for e in errs]
    check = load_consistency(list(idents))
    app_cpu = [cpu for _, _, cpu, _ in results]
    return {"processes": processes, "teachers": teachers, "wall_s": wall, "turns_per_s": 2 * teachers / wall,
            "errors": errors, "app_cpu": app_cpu, "pg_cpu": meter.pg, "machine_cpu": meter.machine,
            "lock_waits": meter.lock_waits, "samples": meter.samples, "max_active": meter.max_active, **check}


def cpu_use(r: dict[str, Any]) -> dict[str, float]:
    """Per run: app and PostgreSQL CPU seconds per chat turn, cores busy on the machine and used by others."""
    turns, wall, cores = 2 * r["teachers"], r["wall_s"], os.cpu_count() or 1
    app = sum(r["app_cpu"])
    pg = r["pg_cpu"] if r["pg_cpu"] is not None else float("nan")
    others = (r["machine_cpu"] - app - (pg if pg == pg else 0.0)) / wall
    return {"app_per_turn": app / turns, "pg_per_turn": pg / turns, "busy": r["machine_cpu"] / wall / cores,
            "others": max(0.0, others), "app_cores": app / wall, "pg_cores": pg / wall}


def bound(base: dict[str, Any], processes: int) -> float:
    """The most `processes` processes can give over one on this machine's cores when every turn costs what it cost in
    the one-process run: one process is held to one core by the GIL, PostgreSQL's share comes on top, and all of it
    must fit into the cores (others' jobs not counted)."""
    u = cpu_use(base)
    cores = os.cpu_count() or 1
    if u["pg_per_turn"] != u["pg_per_turn"]:  # external server: its CPU is not on this machine
        return float(processes)
    gil = 1 / u["app_per_turn"]  # turns/s one process can give at best (one core for the GIL)
    machine_cap = cores / (u["app_per_turn"] + u["pg_per_turn"])  # turns/s all cores can give
    return min(processes * gil, machine_cap) / min(gil, machine_cap)


def _print(r: dict[str, Any]) -> None:
    u = cpu_use(r)
    per_process = ", ".join(f"{c / r['wall_s']:.2f}" for c in r["app_cpu"])
    print(f"{r['processes']} App-Prozess(e) · {r['teachers']} Lehrkräfte · {r['wall_s']:.1f} s · "
          f"{r['turns_per_s']:.2f} Gesprächszüge/s · Fehler: {len(r['errors'])} · verloren: {r['lost']} · "
          f"doppelt: {r['duplicated']}", flush=True)
    print(f"  CPU je Gesprächszug: App {u['app_per_turn'] * 1000:.0f} ms, PostgreSQL "
          f"{u['pg_per_turn'] * 1000:.0f} ms · belegt: App {u['app_cores']:.2f} Kerne (je Prozess {per_process}), "
          f"PostgreSQL {u['pg_cores']:.2f}, andere "
          f"{u['others']:.2f} · Maschine {u['busy']:.0%} von {os.cpu_count()} Kernen · auf Sperren wartend: "
          f"{r['lock_waits']} in {r['samples']} Stichproben (höchstens {r['max_active']} aktiv)", flush=True)
    for e in r["errors"][:3]:
        print("  Fehler:", e)


def run_scaleout_bench(*, teachers: int, processes: list[int], write: bool) -> None:
    where = "externes PostgreSQL (DATABASE_URL)" if os.environ.get("DATABASE_URL") else "eingebettetes PostgreSQL"
    print(f"Benchmark load · {where} · Maschine: {machine()}")
    results = []
    for n in processes:
        r = run_setting(teachers, n)
        results.append(r)
        _print(r)
    base = results[0]
    for r in results[1:]:
        print(f"Durchsatz {r['processes']} : {base['processes']} Prozess(e) = "
              f"{r['turns_per_s'] / base['turns_per_s']:.2f}× (Ziel ≥ 1,7×; höchstens "
              f"{bound(base, r['processes']):.2f}× auf {os.cpu_count()} Kernen bei der CPU je Gesprächszug des "
              "ersten Laufs)")
    if write:
        _write(results, "external PostgreSQL (DATABASE_URL)" if os.environ.get("DATABASE_URL") else
               "embedded PostgreSQL")


def _write(results: list[dict[str, Any]], where: str) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    base = results[0]
    rows = ""
    for r in results:
        u = cpu_use(r)
        rows += (f"| {r['processes']} | {r['wall_s']:.1f} s | {r['turns_per_s']:.2f} | "
                 f"{r['turns_per_s'] / base['turns_per_s']:.2f}× | {u['app_per_turn'] * 1000:.0f} ms | "
                 f"{u['pg_per_turn'] * 1000:.0f} ms | {u['app_cores']:.2f} / {u['pg_cores']:.2f} / {u['others']:.2f} | "
                 f"{u['busy']:.0%} | {r['lock_waits']} / {r['samples']} | {len(r['errors'])} | {r['lost']} | "
                 f"{r['duplicated']} |\n")
    bounds = "; ".join(f"{r['processes']} processes ≤ {bound(base, r['processes']):.2f}×" for r in results[1:])
    obtained = "; ".join(f"{r['processes']} processes {cpu_use(r)['app_cores'] / cpu_use(base)['app_cores']:.2f}×"
                         for r in results[1:])
    section = ("### P5b · Scale-out: app processes against one PostgreSQL\n\n"
               f"{base['teachers']} teachers (same flow as P5) split over N app processes that run at the same time "
               f"against one {where}; each process serves its share on threads and starts its clock when every "
               "process is up. Throughput is chat turns per second over the whole run; after each setting every "
               "object is counted per teacher. CPU per chat turn: the app processes' own CPU time and the "
               "PostgreSQL server's (postmaster and backends); *cores busy* is app / PostgreSQL / other people's "
               "jobs on the same machine, averaged over the run; lock waits are backends waiting for a lock in "
               "pg_stat_activity, sampled every 0.25 s.\n\n"
               "| processes | wall time | chat turns/s | ratio to 1 | app CPU per turn | PostgreSQL CPU per turn | "
               "cores busy: app / PostgreSQL / others | machine busy | lock waits / samples | errors | lost | "
               "duplicated |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" + rows +
               f"\nUpper bound from the one-process run's CPU per turn on {os.cpu_count()} otherwise idle cores (one "
               f"process is held to one core by the GIL; PostgreSQL's CPU comes on top and everything must fit): "
               f"{bounds}. Cores the app processes obtained, compared with the one-process run: {obtained}.\n\n"
               f"*{stamp} · {machine()} · `python -m core bench load --teachers {base['teachers']} --processes "
               f"{','.join(str(r['processes']) for r in results)}`*\n")
    write_section("scaleout", section)
    written()
