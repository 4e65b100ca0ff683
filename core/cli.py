"""Command line: `python -m core <befehl>` for operators, curators and the product team.

Bad arguments get a German one-line error and exit code 2; unexpected faults an apology with an error id (exit 1).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from core.app.errors import UserError

DEMO_TEACHER = "steffen.keller@demo-gymnasium.de"


class _GermanParser(argparse.ArgumentParser):
    """argparse with German one-line errors (exit code 2)."""

    def error(self, message: str) -> NoReturn:
        m = re.match(r"the following arguments are required: (.*)", message)
        if m:
            text = f"Es fehlt: {m.group(1)}."
        elif (m := re.match(r"argument (\S+): invalid choice: '?([^']*)'? \(choose from (.*)\)", message)):
            text = f"Ungültiger Wert „{m.group(2)}“ für {m.group(1)}. Möglich: {m.group(3)}."
        elif (m := re.match(r"argument (\S+): invalid (\w+) value: '?([^']*)'?", message)):
            text = f"Ungültiger Wert „{m.group(3)}“ für {m.group(1)} (erwartet: Zahl)."
        elif (m := re.match(r"unrecognized arguments: (.*)", message)):
            text = f"Unbekannte Argumente: {m.group(1)}."
        elif (m := re.match(r"argument (\S+): expected one argument", message)):
            text = f"{m.group(1)} braucht einen Wert."
        elif (m := re.match(r"argument (\S+): (.*)", message)):
            text = f"Ungültiger Wert für {m.group(1)}: {m.group(2)}."
        else:
            text = f"Ungültiger Aufruf ({message})."
        self.exit(2, f"Fehler: {text} Hilfe: python -m core --help\n")


def _teacher_identity(db, ref: str | None):  # noqa: ANN001, ANN202
    from db.repos.teachers import find_teacher, identity_for

    teacher = find_teacher(db=db, ref=ref or DEMO_TEACHER)
    if teacher is None:
        raise UserError(f"Unbekannte Lehrkraft „{(ref or DEMO_TEACHER)[:80]}“. Bitte eine ID oder E-Mail angeben.")
    return teacher, identity_for(db=db, teacher=teacher)


def _system_db():  # noqa: ANN202
    from core.bootstrap import ensure_ready
    from db.session import Identity, unit_of_work

    ensure_ready()
    return unit_of_work(Identity.system())


def _as_teacher(ref: str | None, fn: Callable[[Any, Any, Any], Any]) -> Any:
    """Resolve the teacher as system, then run `fn(db, teacher, identity)` in a unit of work acting as them."""
    from db.session import unit_of_work

    with _system_db() as sysdb:
        teacher, identity = _teacher_identity(sysdb, ref)
    with unit_of_work(identity) as db:
        return fn(db, teacher, identity)


# --- commands ----------------------------------------------------------------------------------------------------


def cmd_db_info(args: argparse.Namespace) -> int:
    from core.maintenance import db_info

    with _system_db() as db:
        info = db_info(db=db)
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=1, default=str))
        return 0
    print(f"PostgreSQL {info['server']} · pgvector {info['pgvector']} · Datenbank {info['database']}")
    print(f"Migration: {info['migration']} (Ziel: {info['migration_head']}) · Laufzeit-Rolle: {info['role']}")
    print(f"Embedder: {info['embedder']}")
    for name, n in info["rows"].items():
        print(f"  {name:<22}{n:>10,}".replace(",", "."))
    return 0


def cmd_seed(args: argparse.Namespace) -> int:
    from core.bootstrap import ensure_ready, run_seed_locked

    ensure_ready(seed=False)
    for line in run_seed_locked():
        print(line)
    return 0


def cmd_wissenskarte(args: argparse.Namespace) -> int:
    from core.wissenskarte import build_wissenskarte

    wk = _as_teacher(
        args.teacher,
        lambda db, t, ident: build_wissenskarte(db=db, identity=ident, agent_type=args.agent, fach=args.fach),
    )
    if args.json:
        print(json.dumps({"text": wk.text, "tokens": wk.tokens, "facts": wk.facts}, ensure_ascii=False, default=str))
    else:
        print(wk.text)
        print(f"\n({wk.tokens} Tokens, geschätzt)")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from core.uploads.service import import_knowledge, parse_import_file

    items = parse_import_file(Path(args.file))
    with _system_db() as db:
        result = import_knowledge(db=db, items=items)
    print(f"Importiert: {result['inserted']} neu, {result['updated']} aktualisiert.")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from core.retrieval import search

    hits = _as_teacher(
        args.teacher,
        lambda db, t, ident: search(db=db, identity=ident, query=args.query, fach=args.fach, kind=args.kind,
                                    agent_type=None if args.kind == "curriculum" else args.agent, limit=args.limit),
    )
    if args.json:
        print(json.dumps([h.as_dict() for h in hits], ensure_ascii=False, indent=1))
        return 0
    if not hits:
        print("Keine Treffer.")
    for i, h in enumerate(hits, 1):
        ext = f" [{h.external_id}]" if h.external_id else ""
        print(f"{i:>2}. {h.title}{ext} · {h.fach} · {h.scope_type} · Score {h.score:.4f}")
        print(f"    {h.text[:160]}")
    return 0


def cmd_reembed(args: argparse.Namespace) -> int:
    from core.maintenance import reembed

    with _system_db() as db:
        n = reembed(db=db)
    print(f"{n} Einträge neu eingebettet.")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from core.bench import run_bench, run_chat_bench, run_load_bench, run_pages_bench

    if args.what == "all":  # the whole performance report in one run (docs/benchmarks.md)
        rows = [int(x) for x in args.rows.split(",") if x.strip()]
        run_bench("wissenskarte", rows=rows, teachers=args.teachers, queries=args.queries, write=True)
        run_bench("search", rows=rows, teachers=args.teachers, queries=args.queries, write=True)
        run_chat_bench(runs=args.runs, write=True)
        run_load_bench(teachers=50, write=True)
        run_pages_bench(rows=100_000, write=True)
        return 0
    if args.what == "load":
        if not 1 <= args.teachers <= 200:
            raise UserError("--teachers erwartet eine Zahl von 1 bis 200.")
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
    rows = [int(x) for x in args.rows.split(",") if x.strip()]
    if not rows or any(r < 1000 or r > 5_000_000 for r in rows):
        raise UserError("--rows erwartet Zahlen zwischen 1000 und 5000000, durch Komma getrennt.")
    run_bench(args.what, rows=rows, teachers=args.teachers, queries=args.queries, write=not args.no_write)
    return 0


def _uuid(value: str, what: str):  # noqa: ANN202
    import uuid

    try:
        return uuid.UUID(value.strip())
    except ValueError as exc:
        raise UserError(f"„{value[:40]}“ ist keine gültige {what}-ID.") from exc


def cmd_chat(args: argparse.Namespace) -> int:
    from core.chat import chat_turn
    from db.repos.materials import files_of

    conversation_id = None if args.new or not args.conversation else _uuid(args.conversation, "Gesprächs")
    out_dir = Path(args.out) if args.out else None

    def turn(db, teacher, identity):  # noqa: ANN001, ANN202
        result = chat_turn(db=db, identity=identity, teacher=teacher, message=args.message,
                           conversation_id=conversation_id)
        written = []
        if out_dir is not None and result.material_id:
            out_dir.mkdir(parents=True, exist_ok=True)
            for f in files_of(db=db, material_id=_uuid(result.material_id, "Material")):
                target = out_dir / Path(f.filename).name
                target.write_bytes(f.data)
                written.append(str(target))
        return result, written

    result, written = _as_teacher(args.teacher, turn)
    if args.json:
        data = result.as_json()
        data["files"] = written or data["files"]
        print(json.dumps(data, ensure_ascii=False))
        return 0
    for notice in result.notices:
        print(notice)
    print(result.reply)
    for path in written:
        print(f"  Datei: {path}")
    print(f"\n(Gespräch {result.conversation_id} · Modell {result.model})")
    return 0


def cmd_material(args: argparse.Namespace) -> int:
    from core.materials_service import material_view

    view = _as_teacher(args.teacher, lambda db, t, ident: material_view(db=db, teacher=t,
                                                                        material_id=_uuid(args.material_id,
                                                                                          "Material")))
    if args.json:
        print(json.dumps(view, ensure_ascii=False, indent=1, default=str))
    else:
        print(f"{view['titel']} ({view['material_type']}, {view['fach']}) — {view.get('gesamtpunkte', '–')} Punkte")
        if view.get("afb_anteile"):
            print("AFB: " + " · ".join(f"{k} {v} %" for k, v in view["afb_anteile"].items()))
        print("Prüfung: " + ("ohne Fehler" if not view["validation"] else "; ".join(view["validation"])))
        for f in view["files"]:
            print(f"  Datei: {f['filename']}")
    return 0


def cmd_rate(args: argparse.Namespace) -> int:
    from core.learning import rate_material

    if not 1 <= args.stars <= 5:
        raise UserError("Bitte 1 bis 5 Sterne vergeben.")
    learned = _as_teacher(args.teacher, lambda db, t, ident: rate_material(
        db=db, identity=ident, teacher=t, material_id=_uuid(args.material_id, "Material"), stars=args.stars,
        task_ref=args.task))
    print(f"Bewertung gespeichert ({args.stars} Sterne). Neue bewährte Aufgaben: {learned['good_practices']}"
          + (f"; Präferenzen: {learned['preferences']}" if learned["preferences"] else "") + ".")
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    from core.bootstrap import ensure_ready
    from core.operations import health

    ensure_ready()
    report = health()
    for check in report.checks:
        print(f"{'✓' if check['Status'] == 'ok' else '✗'} {check['Prüfung']}: {check['Details']}")
    return 0 if report.ok else 1


def cmd_retention(args: argparse.Namespace) -> int:
    from core.bootstrap import ensure_ready
    from core.operations import retention

    ensure_ready()
    for line in retention(session_days=args.session_days, trace_days=args.trace_days,
                          conversation_days=args.conversation_days).lines():
        print(line)
    return 0


def cmd_db_stop(args: argparse.Namespace) -> int:
    from core.app.config import get_settings
    from db.server import stop_embedded

    if get_settings().database_url:
        print("DATABASE_URL ist gesetzt — es läuft kein eingebetteter Server, den dieses Programm stoppen könnte.")
        return 0
    print("Eingebettete Datenbank gestoppt." if stop_embedded(get_settings().werkbank_data_dir) else
          "Die eingebettete Datenbank lief nicht.")
    return 0


def cmd_eval_requests(args: argparse.Namespace) -> int:
    """The request-understanding suite of the offline model: accuracy per field, no database needed."""
    from core import request_eval

    if args.model not in (None, "offline"):
        raise UserError("Die Suite „requests“ prüft das Offline-Regelmodell; --model ist hier nicht möglich.")
    sections = request_eval.SECTIONS if args.teil == "alle" else (args.teil,)
    results = request_eval.run(sections)
    if args.json:
        print(json.dumps({"suite": "requests", "min_pass": args.min_pass, "sections": [
            {"name": r.name, "cases": r.cases, "accuracy": r.accuracy,
             "failures": [{"case": c, "field": f, "reason": why} for c, f, why in r.failures]} for r in results]},
            ensure_ascii=False))
    else:
        print(request_eval.format_results(results, min_accuracy=args.min_pass))
    return 0 if request_eval.passed(results, min_accuracy=args.min_pass) else 1


def cmd_eval(args: argparse.Namespace) -> int:
    """Run an evaluation suite; exit 0 when the pass rate reaches --min-pass, 1 below it, 2 for bad input."""
    from core.bootstrap import ensure_ready
    from core.evaluation import EvalInterrupted, format_report, report_json, run_suite, stored_run
    from core.request_eval import is_request_suite

    if not 0.0 <= args.min_pass <= 1.0:
        raise UserError("--min-pass erwartet eine Quote zwischen 0 und 1, z. B. 0.95.")
    if is_request_suite(args.suite):
        return cmd_eval_requests(args)
    ensure_ready()
    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"\r  Fall {done}/{total} …", end="" if done < total else "\n", file=sys.stderr, flush=True)
    try:
        report = run_suite(suite=args.suite, agent=args.agent, prompt_version=args.prompt_version, model=args.model,
                           limit=args.limit, on_progress=progress)
    except EvalInterrupted as exc:
        partial = stored_run(exc.run_id)
        if args.json:
            print(json.dumps({"run_id": str(exc.run_id), "status": exc.status, "message": exc.message,
                              "summary": partial.summary}, ensure_ascii=False))
        else:
            print(format_report(partial, min_pass=args.min_pass))
        print(f"Fehler: {exc.message}", file=sys.stderr)
        return 130 if exc.keyboard else 1
    if args.json:
        print(json.dumps({**report_json(report), "min_pass": args.min_pass}, ensure_ascii=False, default=str))
    else:
        print(format_report(report, min_pass=args.min_pass))
    return 0 if report.pass_rate >= args.min_pass else 1


def _rows_arg(value: str) -> str:
    if not re.fullmatch(r"\d+(,\d+)*", value.replace("_", "")):
        raise argparse.ArgumentTypeError("Zahlen durch Komma getrennt erwartet")
    return value.replace("_", "")


def build_parser() -> argparse.ArgumentParser:
    p = _GermanParser(prog="python -m core", description="Werkbank — Kommandozeile")
    sub = p.add_subparsers(dest="command", required=True, metavar="befehl", parser_class=_GermanParser)

    s = sub.add_parser("db-info", help="Server, pgvector, Migration, Zeilenzahlen")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_db_info)

    s = sub.add_parser("seed", help="Seed-Daten einspielen (idempotent)")
    s.set_defaults(fn=cmd_seed)

    s = sub.add_parser("wissenskarte", help="Die Wissenskarte, wie der Spezialist sie sieht")
    s.add_argument("--teacher", help="ID oder E-Mail (Standard: Demo-Lehrkraft Physik/Mathe)")
    s.add_argument("--agent", default="klausur", choices=["klausur", "differenzierung", "h5p"])
    s.add_argument("--fach", required=True)
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_wissenskarte)

    s = sub.add_parser("import-knowledge", help="Wissen aus einer JSON-Datei importieren (alles oder nichts)")
    s.add_argument("file")
    s.set_defaults(fn=cmd_import)

    s = sub.add_parser("search", help="Hybride Suche in Good Practices oder Lehrplan")
    s.add_argument("query")
    s.add_argument("--fach")
    s.add_argument("--teacher")
    s.add_argument("--kind", default="good_practice", choices=["good_practice", "curriculum"])
    s.add_argument("--agent", default="klausur", choices=["klausur", "differenzierung", "h5p"])
    s.add_argument("--limit", type=int, default=10)
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_search)

    s = sub.add_parser("reembed", help="Einträge mit anderem Embedder neu einbetten")
    s.set_defaults(fn=cmd_reembed)

    s = sub.add_parser("bench", help="Benchmarks (schreibt docs/benchmarks.md)")
    s.add_argument("what", choices=["wissenskarte", "search", "chat", "pages", "load", "all"])
    s.add_argument("--runs", type=int, default=20, help="nur für chat: Zahl der gemessenen Durchläufe")
    s.add_argument("--rows", type=_rows_arg, default="10000,100000")
    s.add_argument("--teachers", type=int, default=1000)
    s.add_argument("--queries", type=int, default=200)
    s.add_argument("--no-write", action="store_true", help="nur ausgeben, docs/benchmarks.md nicht ändern")
    s.set_defaults(fn=cmd_bench)

    s = sub.add_parser("chat", help="Eine Nachricht an die Werkbank (ein Zug des Gesprächs)")
    s.add_argument("message")
    s.add_argument("--teacher")
    group = s.add_mutually_exclusive_group()
    group.add_argument("--conversation", help="Gesprächs-ID zum Fortsetzen")
    group.add_argument("--new", action="store_true", help="neues Gespräch")
    s.add_argument("--out", help="Ordner für erzeugte Dateien")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_chat)

    s = sub.add_parser("material", help="Ein gespeichertes Material anzeigen")
    s.add_argument("material_id")
    s.add_argument("--teacher")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_material)

    s = sub.add_parser("rate", help="Ein Material mit 1–5 Sternen bewerten")
    s.add_argument("material_id")
    s.add_argument("stars", type=int)
    s.add_argument("--task", help="nur eine Teilaufgabe, z. B. 2b")
    s.add_argument("--teacher")
    s.set_defaults(fn=cmd_rate)

    s = sub.add_parser("health", help="Zustand für den Betrieb (Exit-Code 1 bei Problemen)")
    s.set_defaults(fn=cmd_health)

    s = sub.add_parser("retention", help="Abgelaufene Rückfragen und alte Protokolle aufräumen")
    s.add_argument("--session-days", type=int, default=None, help="erledigte Rückfragen behalten (Tage, Std. 30)")
    s.add_argument("--trace-days", type=int, default=None, help="Modellaufruf-Protokolle behalten (Tage, Std. 90)")
    s.add_argument("--conversation-days", type=int, default=None, help="Gespräche behalten (Tage, 0 = immer)")
    s.set_defaults(fn=cmd_retention)

    s = sub.add_parser("eval", help="Evaluations-Suite laufen lassen (Prompt-Version × Modell), Bericht als Tabelle")
    s.add_argument("--suite", required=True, help="Name in seeds/eval (z. B. standard) oder Pfad zu einer YAML-Datei")
    s.add_argument("--agent", default="main", help="main, klausur, differenzierung oder h5p (Standard: main)")
    s.add_argument("--prompt-version", default=None, help="Versionsnummer (z. B. 3) oder „aktiv“ (Standard)")
    s.add_argument("--model", default=None, help="z. B. offline oder anthropic:claude-sonnet-5-5 (Standard: "
                   "das für den Agenten eingestellte Modell)")
    s.add_argument("--limit", type=int, default=None, help="nur die ersten N Fälle")
    s.add_argument("--min-pass", type=float, default=0.95, help="Mindestquote bestandener Prüfungen (Standard 0.95)")
    s.add_argument("--teil", choices=["dev", "heldout", "heldout_2", "alle"], default="alle",
                   help="nur für --suite requests: welcher Teil der Anfragen (Standard: alle)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_eval)

    s = sub.add_parser("db-stop", help="Die eingebettete Datenbank stoppen")
    s.set_defaults(fn=cmd_db_stop)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from core.app.observability import apology, configure_logging, report_unexpected

    parser = build_parser()
    args = parser.parse_args(argv)
    # Python hands bytes that are not UTF-8 over as lone surrogates; nothing downstream can store or print them.
    broken = [name for name, value in vars(args).items()
              if isinstance(value, str) and any("\ud800" <= c <= "\udfff" for c in value)]
    if broken:
        print(f"Fehler: Der Wert für {broken[0]} ist kein gültiger UTF-8-Text. Bitte das Terminal auf UTF-8 "
              "umstellen (z. B. LANG=de_DE.UTF-8) und den Befehl wiederholen.", file=sys.stderr)
        return 2
    configure_logging()
    try:
        return args.fn(args)
    except UserError as exc:
        print(f"Fehler: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("Abgebrochen.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # the CLI never shows a traceback
        from db.server import EmbeddedServerError

        if isinstance(exc, EmbeddedServerError):
            print(f"Fehler: {exc}", file=sys.stderr)
            return 1
        print(apology(report_unexpected(exc, context=f"cli {args.command}")), file=sys.stderr)
        return 1
