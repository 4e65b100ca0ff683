"""A file a teacher hands in, checked (type, size, content) and its text extracted. A file that is not what its
name says, too large, encrypted or broken gets a German message and goes no further."""

from __future__ import annotations

import io
import os
import re
import stat
import unicodedata
import zipfile
from pathlib import Path, PurePath

from core.app.errors import UserError

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_TEXT_CHARS = 200_000
ALLOWED = {".docx": "docx", ".pdf": "pdf", ".txt": "txt", ".md": "txt", ".png": "image", ".jpg": "image",
           ".jpeg": "image"}
DOCX_MAX_UNCOMPRESSED = 50 * 1024 * 1024
MAX_PDF_PAGES = 100  # the page budget (the sandboxed parser sets it from WERKBANK_UPLOAD_MAX_PAGES)


def check_size(data: bytes) -> None:
    """A German UserError for an empty file or one over the upload limit."""
    if not data:
        raise UserError("Die Datei ist leer.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise UserError(f"Die Datei ist zu groß ({len(data) / 2**20:.0f} MB). Höchstens 20 MB sind möglich.")


def read_named_file(path: Path, *, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file named on the command line (one byte more shows it is too large).
    A FIFO, a device (/dev/zero), a socket or a folder is refused before a byte is read: reading them blocks for
    ever or fills the memory. Missing and unreadable files become German UserErrors."""
    shown = str(path)[:200]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a FIFO with no writer would block
    except FileNotFoundError as exc:
        raise UserError(f"Die Datei „{shown}“ gibt es nicht. Bitte den Pfad prüfen.") from exc
    except OSError as exc:
        raise UserError(f"Die Datei „{shown}“ lässt sich nicht lesen ({exc.strerror}).") from exc
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UserError(f"„{shown}“ ist ein Ordner, keine Datei.")
        if not stat.S_ISREG(mode):
            raise UserError(f"„{shown}“ ist keine gewöhnliche Datei (sondern z. B. ein Gerät oder eine Pipe). "
                            "Bitte eine gespeicherte Datei angeben.")
        try:
            return f.read(limit + 1)
        except OSError as exc:
            raise UserError(f"Die Datei „{shown}“ lässt sich nicht lesen ({exc.strerror}).") from exc


def safe_filename(name: str) -> str:
    """Only the last path component, without control and format characters ('../../etc/passwd' -> 'passwd'; a
    right-to-left override (U+202E) that makes 'x<RLO>cod.txt' look like 'xtxt.docx', zero-width and bidi marks are
    taken out)."""
    base = PurePath(str(name).replace("\\", "/")).name
    base = "".join(c for c in base if unicodedata.category(c) not in ("Cc", "Cf")).strip() or "datei"
    return base[:200]


# Word never writes a DTD: a DOCTYPE or ENTITY declaration in a DOCX part is an entity trick (external files, billion
# laughs), refused before any parser sees it.
DTD = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
UNUSUAL_ENCODING = ("Die DOCX-Datei enthält XML in einer Kodierung, die Word nie schreibt (z. B. UTF-16). Bitte das "
                    "Dokument in Word neu speichern.")


def utf16_xml(head: bytes) -> bool:
    """An XML part in UTF-16/32 (Word writes UTF-8): the DTD check could not read it, so it is refused."""
    return head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head[:64]


def _docx_text(data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            if sum(i.file_size for i in z.infolist()) > DOCX_MAX_UNCOMPRESSED:
                raise UserError("Die DOCX-Datei ist entpackt ungewöhnlich groß (mehr als 50 MB). Bitte prüfen Sie "
                                "die Datei oder speichern Sie sie neu.")
            if "word/document.xml" not in z.namelist():
                raise UserError("Die Datei ist kein Word-Dokument (DOCX). Bitte als .docx speichern.")
            # Word never writes a DTD: entity tricks (external files, billion laughs) are refused before parsing.
            xml = [z.read(i) for i in z.infolist() if i.filename.lower().endswith((".xml", ".rels"))]
            if any(utf16_xml(part) for part in xml):
                raise UserError(UNUSUAL_ENCODING)
            if any(DTD.search(part) for part in xml):
                raise UserError("Die DOCX-Datei enthält unzulässige XML-Definitionen (DOCTYPE/ENTITY), wie Word sie "
                                "nie schreibt. Bitte das Dokument in Word neu speichern.")
        from docx import Document

        doc = Document(io.BytesIO(data))
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 — any parser failure on a user's file (zip, XML) is a broken file
        raise UserError("Die DOCX-Datei ist beschädigt und lässt sich nicht öffnen. Bitte neu speichern.") from exc
    parts = [p.text for p in doc.paragraphs]
    parts += [c.text for t in doc.tables for r in t.rows for c in r.cells]
    return "\n".join(p for p in parts if p.strip())


def decode_text(data: bytes) -> str:
    """A text file as editors save it: UTF-16 with BOM (Windows "Unicode"), UTF-8 with or without BOM, else cp1252."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UserError("Das PDF ist passwortgeschützt. Bitte eine Version ohne Passwort hochladen.")
        return "\n".join((page.extract_text() or "") for page in reader.pages[:MAX_PDF_PAGES])
    except PdfReadError as exc:
        raise UserError("Das PDF ist beschädigt und lässt sich nicht lesen. Bitte neu exportieren.") from exc


def extract_text(filename: str, data: bytes) -> tuple[str, str]:
    """(kind, text) for an upload; German UserError for anything we cannot or should not take."""
    name = safe_filename(filename)
    suffix = PurePath(name).suffix.lower()
    kind = ALLOWED.get(suffix)
    if kind is None:
        raise UserError(f"Dateityp „{suffix or 'ohne Endung'}“ wird nicht unterstützt. Möglich sind DOCX, PDF, TXT "
                        "und Bilder (PNG, JPG).")
    check_size(data)
    if kind == "docx":
        if not data.startswith(b"PK"):
            raise UserError("Die Datei heißt .docx, ist aber kein Word-Dokument. Bitte als .docx speichern.")
        text = _docx_text(data)
    elif kind == "pdf":
        if not data.startswith(b"%PDF"):
            raise UserError("Die Datei heißt .pdf, ist aber kein PDF.")
        text = _pdf_text(data)
    elif kind == "txt":
        text = decode_text(data)
    else:
        if not (data.startswith(b"\x89PNG") or data.startswith(b"\xff\xd8")):
            raise UserError("Die Bilddatei ist kein PNG oder JPG.")
        text = ""
    return kind, text.replace("\x00", "")[:MAX_TEXT_CHARS]
