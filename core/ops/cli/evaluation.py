"""Evaluation commands: a suite run for (agent, prompt version, model) with its report and exit code by the pass
rate; the request-understanding suite of the offline model."""

from __future__ import annotations

import argparse
import json
import sys

from core.app.errors import UserError
from core.checks import calibration
from core.evaluation import service as ev
from core.ops.service import ensure_ready

EXIT_ABORTED = 3  # the model under test was not reachable: the run has no quality result


def cmd_eval_requests(args: argparse.Namespace) -> int:
    """The request-understanding suite of the offline model: accuracy per field, no database needed."""
    if args.model not in (None, "offline"):
        raise UserError("Die Suite „requests“ prüft das Offline-Regelmodell; --model ist hier nicht möglich.")
    sections = ev.REQUEST_SECTIONS if args.teil == "alle" else (args.teil,)
    results = ev.run_request_suite(sections)
    if args.json:
        print(json.dumps({"suite": "requests", "min_pass": args.min_pass, "sections": [
            {"name": r.name, "cases": r.cases, "accuracy": r.accuracy,
             "failures": [{"case": c, "field": f, "reason": why} for c, f, why in r.failures]} for r in results]},
            ensure_ascii=False))
    else:
        print(ev.format_request_results(results, min_accuracy=args.min_pass))
    return 0 if ev.request_suite_passed(results, min_accuracy=args.min_pass) else 1


def cmd_eval_gate(args: argparse.Namespace) -> int:
    """Precision and recall of the content gate on a labelled set (no database, no model): 'gate' is the development
    set plus the whole bank, 'gate_heldout…' a set the gate was not tuned on. Exit 1 when a class's precision or
    recall falls below --min-pass."""
    if args.model not in (None, "offline"):
        raise UserError("Die Gate-Suiten prüfen die Inhaltsprüfung selbst; --model ist hier nicht möglich.")
    try:
        path = calibration.gate_set(args.suite)
    except FileNotFoundError as exc:
        raise UserError(f"Den beschrifteten Satz „{args.suite}“ gibt es nicht ({exc}).") from exc
    with_bank = path == calibration.GATE_SET
    scores = calibration.evaluate(path, with_bank=with_bank)
    if args.json:
        print(json.dumps({"suite": args.suite, "min_pass": args.min_pass, "classes": [
            {"name": s.name, "precision": s.precision, "recall": s.recall, "tp": s.tp, "fp": s.fp, "fn": s.fn,
             "tn": s.tn, "misses": s.misses} for s in scores]}, ensure_ascii=False))
    else:
        print(calibration.report(scores, path=path, with_bank=with_bank))
    return 0 if all(min(s.precision, s.recall) >= args.min_pass for s in scores) else 1


def cmd_eval(args: argparse.Namespace) -> int:
    """Run an evaluation suite; exit 0 when the pass rate reaches --min-pass, 1 below it, 2 for bad input, 3 when
    the model under test could not be reached (run „abgebrochen“: no quality score)."""
    if not 0.0 <= args.min_pass <= 1.0:
        raise UserError("--min-pass erwartet eine Quote zwischen 0 und 1, z. B. 0.95.")
    if ev.is_request_suite(args.suite):
        return cmd_eval_requests(args)
    if args.suite.startswith("gate"):
        return cmd_eval_gate(args)
    ensure_ready()
    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"\r  Fall {done}/{total} …", end="" if done < total else "\n", file=sys.stderr, flush=True)
    try:
        report = ev.run_suite(suite=args.suite, agent=args.agent, prompt_version=args.prompt_version,
                              model=args.model, limit=args.limit, on_progress=progress)
    except ev.EvalInterrupted as exc:
        partial = ev.stored_run(exc.run_id)
        if args.json:
            print(json.dumps({"run_id": str(exc.run_id), "status": exc.status, "message": exc.message,
                              "summary": partial.summary}, ensure_ascii=False))
        else:
            print(ev.format_report(partial, min_pass=args.min_pass))
        print(f"Fehler: {exc.message}", file=sys.stderr)
        return 130 if exc.keyboard else EXIT_ABORTED if exc.aborted else 1
    if args.json:
        print(json.dumps({**ev.report_json(report), "min_pass": args.min_pass}, ensure_ascii=False, default=str))
    else:
        print(ev.format_report(report, min_pass=args.min_pass))
    return 0 if report.pass_rate >= args.min_pass else 1
