"""Hostile files for the sandbox tests: a PDF whose pages share one huge content stream, a DOCX zip bomb."""

from __future__ import annotations

import io
import zipfile
import zlib

_PAGE = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> "
         b"/Contents 4 0 R >>")


def pdf_bomb(pages: int = 100, ops: int = 1_500_000) -> bytes:
    """~57 KB on disk: every page draws the same ~20 MB content stream (millions of text operators)."""
    content = zlib.compress(b"BT /F1 1 Tf " + b"(a) Tj 0 0 Td " * ops + b"ET", 9)
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            4: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream"}
    for i in range(pages):
        objs[5 + i] = _PAGE
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))
    objs[2] = b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = {}
    for n in sorted(objs):
        offsets[n] = out.tell()
        out.write(b"%d 0 obj\n" % n + objs[n] + b"\nendobj\n")
    xref, size = out.tell(), max(objs) + 1
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % size)
    for n in range(1, size):
        out.write(b"%010d 00000 n \n" % offsets[n])
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref))
    return out.getvalue()


def zip_bomb() -> bytes:
    """~300 KB on disk, 300 MB unpacked: one document.xml of spaces."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                                          'package/2006/content-types"/>')
        z.writestr("word/document.xml", b"<w:document>" + b" " * (300 << 20) + b"</w:document>")
    return out.getvalue()
