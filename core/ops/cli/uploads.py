"""`python -m core upload`: files imported exactly as on the Hochladen page (sandboxed parsing, personal data
removed, all or nothing per file) — e.g. an operator importing a school's Lehrpläne in bulk."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.app.errors import UserError
from core.ops.cli.teachers import as_teacher
from core.uploads.service import import_file

MAX_READ = 20 * 1024 * 1024 + 1  # one byte more than allowed: the import says "zu groß" in German


def _read(name: str) -> bytes:
    path = Path(name)
    try:
        with path.open("rb") as f:
            return f.read(MAX_READ)
    except FileNotFoundError as exc:
        raise UserError(f"Die Datei „{name[:200]}“ gibt es nicht.") from exc
    except IsADirectoryError as exc:
        raise UserError(f"„{name[:200]}“ ist ein Ordner, keine Datei.") from exc
    except OSError as exc:
        raise UserError(f"Die Datei „{name[:200]}“ lässt sich nicht lesen ({exc.strerror}).") from exc


def cmd_upload(args: argparse.Namespace) -> int:
    teacher_id = as_teacher(args.teacher, lambda _db, teacher, _identity: teacher.id)
    failed, results = 0, []
    for name in args.file:
        try:
            r = import_file(teacher_id=teacher_id, filename=Path(name).name, data=_read(name), kind=args.kind,
                            fach=args.fach, agent_type=args.agent, scope=args.scope,
                            keep_unstructured=args.keep_unstructured)
        except UserError as exc:
            failed += 1
            print(f"Fehler: {name}: {exc.message}", file=sys.stderr)
            results.append({"file": name, "ok": False, "fehler": exc.message})
            continue
        results.append({"file": name, "ok": True, "upload_id": str(r.upload_id), "meldung": r.message,
                        "hinweise": list(r.hinweise), "auszuege": len(r.chunk_ids)})
        if not args.json:
            print(r.message)
            for hint in r.hinweise:
                print(f"  Hinweis: {hint}")
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    return 2 if failed else 0
