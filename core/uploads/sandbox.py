"""Parsing an uploaded file in a separate process with CPU-time, wall-time and memory limits and a page budget.

A hostile file (a PDF whose pages share one huge content stream, a zip bomb, deeply nested XML) can only pin that
process: it is stopped after its budget and the teacher gets a German message within seconds; nothing is written,
because the caller stores only what comes back. The child gets the bytes on stdin and answers one JSON object on
stdout (`python -m core.uploads.sandbox`); it has no database connection and writes no files.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from dataclasses import asdict, dataclass
from typing import Literal

from core.app.config import ROOT, get_settings
from core.app.errors import UserError
from core.uploads.blocks import Block

Mode = Literal["document", "attachment"]
TOO_COSTLY = ("Die Datei „{name}“ ist zu aufwendig zu lesen (sie braucht mehr Rechenzeit oder Speicher, als für "
              "eine Datei vorgesehen ist) und wurde nicht übernommen. Bitte speichern Sie sie neu (z. B. in Word "
              "„Speichern unter … PDF“) oder laden Sie einen kleineren Auszug hoch.")


@dataclass(frozen=True)
class Parsed:
    kind: str
    text: str
    blocks: list[Block]
    hidden: tuple[tuple[str, str], ...] = ()  # what the file hides from its reader (core/uploads/hidden.py)


def _limits(cpu_seconds: int, memory_mb: int) -> None:  # runs in the child, before Python starts
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # writes no files
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def parse(filename: str, data: bytes, *, mode: Mode) -> Parsed:
    """(kind, text, blocks) of a file, parsed in a limited child process. "document" is a file to import (example,
    Lehrplan: text and blocks, images refused); "attachment" a chat attachment (text only, images allowed)."""
    s = get_settings()
    header = json.dumps({"filename": filename, "mode": mode, "max_pages": s.werkbank_upload_max_pages}).encode()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "ANTHROPIC", "OPENAI"))}
    env |= {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run(  # noqa: S603 — our own interpreter and module, no shell
            [sys.executable, "-m", "core.uploads.sandbox"], input=header + b"\n" + data, capture_output=True,
            timeout=s.werkbank_upload_wall_seconds, cwd=ROOT, env=env,
            preexec_fn=lambda: _limits(s.werkbank_upload_cpu_seconds, s.werkbank_upload_memory_mb),  # noqa: PLW1509
        )
    except subprocess.TimeoutExpired as exc:
        raise UserError(TOO_COSTLY.format(name=filename[:120])) from exc
    try:
        answer = json.loads(done.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:  # killed (CPU limit, memory) or crashed
        raise UserError(TOO_COSTLY.format(name=filename[:120])) from exc
    if "error" in answer:
        raise UserError(answer["error"])
    return Parsed(kind=answer["kind"], text=answer["text"], blocks=[Block(**b) for b in answer["blocks"]],
                  hidden=tuple((str(k), str(t)) for k, t in answer.get("hidden", [])))


def _hidden(kind: str, data: bytes) -> list[tuple[str, str]]:
    from core.uploads import files
    from core.uploads.hidden import docx_hidden, pdf_hidden

    try:
        if kind == "pdf":
            return pdf_hidden(data, files.MAX_PDF_PAGES)
        return docx_hidden(data) if kind == "docx" else []
    except Exception:  # noqa: BLE001 — the text was read; a part we cannot read hides nothing we could show
        return []


def _child() -> None:
    """The child: read header and bytes, parse, print one JSON object (a German error message or the result)."""
    from core.uploads import files
    from core.uploads.blocks import document_blocks, text_blocks
    from core.uploads.documents import check_document, guard_docx
    from core.uploads.files import extract_text

    raw = sys.stdin.buffer.read()
    head, _, data = raw.partition(b"\n")
    header = json.loads(head)
    files.MAX_PDF_PAGES = int(header["max_pages"])
    try:
        if header["mode"] == "document":
            kind, text, blocks = check_document(header["filename"], data)
        else:
            if files.safe_filename(header["filename"]).lower().endswith(".docx") and data.startswith(b"PK"):
                guard_docx(data)  # the same fences as on the Hochladen page: unpacked bytes, parts, DTDs
            kind, text = extract_text(header["filename"], data)  # images are fine here (no text)
            blocks = document_blocks(kind, data) if kind in ("docx", "txt") else text_blocks(text)
        out = {"kind": kind, "text": text, "blocks": [asdict(b) for b in blocks], "hidden": _hidden(kind, data)}
    except UserError as exc:  # a parser's own budget (pypdf's token limit) is a costly file, not a broken one
        costly = type(exc.__cause__).__name__ in ("LimitReachedError", "MemoryError")
        out = {"error": TOO_COSTLY.format(name=header["filename"][:120]) if costly else exc.message}
    except MemoryError:
        out = {"error": TOO_COSTLY.format(name=header["filename"][:120])}
    except RecursionError:
        out = {"error": "Die Datei ist ungewöhnlich tief verschachtelt und lässt sich nicht lesen. Bitte neu "
                        "speichern."}
    except Exception:  # noqa: BLE001 — any other parser failure on a user's file is a broken file
        out = {"error": "Die Datei ist beschädigt und lässt sich nicht lesen. Bitte neu speichern oder exportieren."}
    sys.stdout.write(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    _child()
