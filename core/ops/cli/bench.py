"""The `bench` command: one benchmark, or all of them for the whole performance report (docs/benchmarks.md)."""

from __future__ import annotations

import argparse

from core.app.errors import UserError
from core.ops.bench.service import run_bench, run_chat_bench, run_load_bench, run_pages_bench, run_scaleout_bench


def _rows(args: argparse.Namespace) -> list[int]:
    return [int(x) for x in args.rows.split(",") if x.strip()]


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "all":  # the whole performance report in one run (docs/benchmarks.md)
        for what in ("wissenskarte", "search"):
            run_bench(what, rows=_rows(args), teachers=args.teachers, queries=args.queries, write=True)
        run_chat_bench(runs=args.runs, write=True)
        run_load_bench(teachers=50, write=True)
        run_pages_bench(rows=100_000, write=True)
        return 0
    if args.what == "load":
        if not 1 <= args.teachers <= 200:
            raise UserError("--teachers erwartet eine Zahl von 1 bis 200.")
        if args.processes:
            processes = _processes(args.processes)
            run_scaleout_bench(teachers=args.teachers, processes=processes, write=not args.no_write)
        else:
            run_load_bench(teachers=args.teachers, write=not args.no_write)
        return 0
    if args.what == "pages":
        run_pages_bench(rows=int(args.rows.split(",")[0]), write=not args.no_write)
        return 0
    if args.what == "chat":
        if not 1 <= args.runs <= 1000:
            raise UserError("--runs erwartet eine Zahl von 1 bis 1000.")
        run_chat_bench(runs=args.runs, write=not args.no_write)
        return 0
    rows = _rows(args)
    if not rows or any(r < 1000 or r > 5_000_000 for r in rows):
        raise UserError("--rows erwartet Zahlen zwischen 1000 und 5000000, durch Komma getrennt.")
    run_bench(args.what, rows=rows, teachers=args.teachers, queries=args.queries, write=not args.no_write,
              keep=args.keep, reuse=args.reuse)
    return 0


def _processes(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        values = []
    if not values or any(not 1 <= v <= 8 for v in values):
        raise UserError("--processes erwartet Zahlen von 1 bis 8, durch Komma getrennt (z. B. 1,2).")
    return values
