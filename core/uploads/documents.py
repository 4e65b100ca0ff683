"""Checking a document to import: type, size, zip bombs by the bytes really unpacked, DTD/entity tricks,
broken files — each refused with a German message; then its text and blocks."""

from __future__ import annotations

import io
import logging
import zipfile
import zlib
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from core.app.errors import UserError
from core.uploads.blocks import Block, blocks_text, document_blocks
from core.uploads.files import (
    DOCX_MAX_UNCOMPRESSED,
    DTD,
    UNUSUAL_ENCODING,
    check_size,
    extract_text,
    safe_filename,
    utf16_xml,
)
from db.models import Upload

log = logging.getLogger(__name__)


DOCUMENT_SUFFIXES = {".docx": "docx", ".pdf": "pdf", ".txt": "txt", ".md": "txt"}
MAX_ZIP_MEMBERS = 2000


def guard_docx(data: bytes) -> None:
    """Refuse zip bombs by the bytes really unpacked (not the sizes a zip declares) and XML with DTDs/entities.

    Word never writes a DOCTYPE; python-docx parses with resolve_entities=False anyway — this is the second fence."""
    corrupt = UserError("Die DOCX-Datei ist beschädigt und lässt sich nicht öffnen. Bitte neu speichern.")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            if len(infos) > MAX_ZIP_MEMBERS:
                raise UserError("Die DOCX-Datei enthält ungewöhnlich viele Teile. Bitte prüfen Sie die Datei oder "
                                "speichern Sie sie neu.")
            total = 0
            for info in infos:
                is_xml = info.filename.lower().endswith((".xml", ".rels"))
                tail = b""
                with z.open(info) as member:
                    first = True
                    while chunk := member.read(1 << 20):
                        if is_xml and first and utf16_xml(chunk):
                            raise UserError(UNUSUAL_ENCODING)
                        first = False
                        total += len(chunk)
                        if total > DOCX_MAX_UNCOMPRESSED:
                            raise UserError("Die DOCX-Datei ist entpackt ungewöhnlich groß (mehr als 50 MB). Bitte "
                                            "prüfen Sie die Datei oder speichern Sie sie neu.")
                        if is_xml and DTD.search(tail + chunk):
                            raise UserError("Die DOCX-Datei enthält unzulässige XML-Definitionen (DOCTYPE/ENTITY), "
                                            "wie Word sie nie schreibt. Bitte das Dokument in Word neu speichern.")
                        tail = chunk[-32:]
    except UserError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, OSError, ValueError) as exc:
        raise corrupt from exc


def _parse_or_corrupt(kind: str, read: Callable[[], Any]) -> Any:
    """Parsers of hostile files fail in many ways; all of them mean "this file is broken" to the teacher."""
    try:
        return read()
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 — any parser failure on a user's file is a broken file
        log.info("unreadable %s upload: %r", kind, exc)
        what = {"docx": "Die DOCX-Datei ist beschädigt und lässt sich nicht öffnen. Bitte neu speichern.",
                "pdf": "Das PDF ist beschädigt und lässt sich nicht lesen. Bitte neu exportieren."}
        raise UserError(what.get(kind, "Die Datei lässt sich nicht lesen.")) from exc


def check_document(filename: str, data: bytes) -> tuple[str, str, list[Block]]:
    """(kind, extracted text, blocks) for a document to import; a German UserError for anything we must not take."""
    name = safe_filename(filename)
    suffix = PurePath(name).suffix.lower()
    if suffix in (".png", ".jpg", ".jpeg"):
        raise UserError("Bilder können nicht als Beispiel oder Lehrplan übernommen werden. Bitte eine Word-Datei "
                        "(DOCX) oder ein PDF mit Text hochladen.")
    if suffix not in DOCUMENT_SUFFIXES:
        raise UserError(f"Dateityp „{suffix or 'ohne Endung'}“ wird hier nicht unterstützt. Bitte eine Word-Datei "
                        "(DOCX), ein PDF oder eine Textdatei hochladen.")
    check_size(data)
    if suffix == ".docx" and data.startswith(b"PK"):
        guard_docx(data)
    if DOCUMENT_SUFFIXES[suffix] == "pdf":  # a PDF is parsed once: its text is the text of its blocks
        if not data.startswith(b"%PDF"):
            raise UserError("Die Datei heißt .pdf, ist aber kein PDF.")
        kind = "pdf"
        blocks = _parse_or_corrupt(kind, lambda: document_blocks(kind, data))
        text = blocks_text(blocks)
    else:
        kind, text = _parse_or_corrupt(DOCUMENT_SUFFIXES[suffix], lambda: extract_text(name, data))
        blocks = _parse_or_corrupt(kind, lambda: document_blocks(kind, data))
    if not text.strip() or not blocks:
        if kind == "pdf":
            raise UserError("Das PDF enthält keinen lesbaren Text – vermutlich ist es ein eingescanntes Bild. Bitte "
                            "die Originaldatei (DOCX) oder ein PDF mit Text hochladen.")
        raise UserError("Das Dokument enthält keinen Text. Bitte die richtige Datei wählen.")
    return kind, text, blocks


def stored_blocks(upload: Upload) -> list[Block]:
    """Blocks of an already stored upload (e.g. a chat attachment): the redacted blocks stored with it."""
    if upload.blocks:
        return [Block(**b) for b in upload.blocks]
    raise UserError("Aus dieser Datei ließ sich kein gegliederter Text lesen. Bitte die Originaldatei (DOCX oder PDF "
                    "mit Text) auf der Seite „Hochladen“ neu hochladen.")
