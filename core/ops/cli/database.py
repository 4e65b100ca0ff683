"""Commands for operators: database facts, seeding, re-embedding, the health report, retention, stopping the
embedded database."""

from __future__ import annotations

import argparse
import json

from core.ops import service as ops


def cmd_db_info(args: argparse.Namespace) -> int:
    info = ops.database_facts()
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
    ops.ensure_ready(seed=False)
    for line in ops.run_seed_locked():
        print(line)
    return 0


def cmd_reembed(args: argparse.Namespace) -> int:
    print(f"{ops.reembed_all()} Einträge neu eingebettet.")
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    ops.ensure_ready()
    report = ops.health()
    for check in report.checks:
        print(f"{'✓' if check['Status'] == 'ok' else '✗'} {check['Prüfung']}: {check['Details']}")
    return 0 if report.ok else 1


def cmd_retention(args: argparse.Namespace) -> int:
    ops.ensure_ready()
    for line in ops.retention(session_days=args.session_days, trace_days=args.trace_days,
                              conversation_days=args.conversation_days).lines():
        print(line)
    return 0


def cmd_db_stop(args: argparse.Namespace) -> int:
    stopped = ops.stop_embedded_database()
    if stopped is None:
        print("DATABASE_URL ist gesetzt — es läuft kein eingebetteter Server, den dieses Programm stoppen könnte.")
        return 0
    print("Eingebettete Datenbank gestoppt." if stopped else "Die eingebettete Datenbank lief nicht.")
    return 0
