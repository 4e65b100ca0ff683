"""Command line: `python -m core <befehl>` for operators, curators and the product team.

Bad arguments get a German one-line error and exit code 2; unexpected faults an apology with an error id (exit 1).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from pydantic import ValidationError

from core.app.errors import UserError
from core.app.observability import apology, configure_logging, report_unexpected
from core.ops.cli.parser import build_parser
from db.server import EmbeddedServerError


def _handler(args: argparse.Namespace) -> Callable[[argparse.Namespace], int]:
    # Loaded on purpose only now: a group imports its whole area (the chat loads every agent, seconds of start-up),
    # and `--help` or a mistyped argument must answer at once.
    return getattr(importlib.import_module(f"core.ops.cli.{args.group}"), args.handler)


FILE_PROBLEMS = {FileNotFoundError: "gibt es nicht", IsADirectoryError: "ist ein Ordner, keine Datei",
                 NotADirectoryError: "liegt nicht in einem Ordner", PermissionError: "darf nicht gelesen werden",
                 FileExistsError: "gibt es schon"}


def file_problem(exc: OSError) -> str | None:
    """A German line for a file named on the command line that cannot be read (or written); None for other faults."""
    reason = next((text for cls, text in FILE_PROBLEMS.items() if isinstance(exc, cls)), None)
    if reason is None or not exc.filename:
        return None
    return f"Die Datei „{str(exc.filename)[:200]}“ {reason}. Bitte den Pfad prüfen."


def setting_problem(exc: ValidationError) -> str:
    """A German line for an invalid WERKBANK_* setting (environment or .env)."""
    first = exc.errors()[0]
    name = str(first["loc"][0]).upper() if first["loc"] else "WERKBANK_*"
    return (f"Die Einstellung {name} hat einen ungültigen Wert („{str(first.get('input'))[:40]}“). Bitte in der "
            "Umgebung oder in .env korrigieren (Tage und Anzahlen: ganze Zahlen ab 0).")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # Python hands bytes that are not UTF-8 over as lone surrogates; nothing downstream can store or print them.
    broken = [name for name, value in vars(args).items()
              if isinstance(value, str) and any("\ud800" <= c <= "\udfff" for c in value)]
    if broken:
        print(f"Fehler: Der Wert für {broken[0]} ist kein gültiger UTF-8-Text. Bitte das Terminal auf UTF-8 "
              "umstellen (z. B. LANG=de_DE.UTF-8) und den Befehl wiederholen.", file=sys.stderr)
        return 2
    try:
        configure_logging()  # reads the settings first: a typo in WERKBANK_* is the operator's to fix
    except ValidationError as exc:
        print(f"Fehler: {setting_problem(exc)}", file=sys.stderr)
        return 2
    try:
        return _handler(args)(args)
    except UserError as exc:
        print(f"Fehler: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("Abgebrochen.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except EmbeddedServerError as exc:
        print(f"Fehler: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        problem = file_problem(exc)
        if problem is None:
            print(apology(report_unexpected(exc, context=f"cli {args.command}")), file=sys.stderr)
            return 1
        print(f"Fehler: {problem}", file=sys.stderr)
        return 2
    except Exception as exc:  # the CLI never shows a traceback
        print(apology(report_unexpected(exc, context=f"cli {args.command}")), file=sys.stderr)
        return 1
