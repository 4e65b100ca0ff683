"""`python -m core upload`: files imported exactly as on the Hochladen page (sandboxed parsing, personal data
removed, all or nothing per file) — e.g. an operator importing a school's Lehrpläne in bulk."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.app.errors import UserError
from core.ops.cli.teachers import as_teacher
from core.uploads.service import MAX_UPLOAD_BYTES, import_file, read_named_file


def cmd_upload(args: argparse.Namespace) -> int:
    teacher_id = as_teacher(args.teacher, lambda _db, teacher, _identity: teacher.id)
    failed, results = 0, []
    for name in args.file:
        try:
            data = read_named_file(Path(name), limit=MAX_UPLOAD_BYTES)
            r = import_file(teacher_id=teacher_id, filename=Path(name).name, data=data, kind=args.kind,
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
