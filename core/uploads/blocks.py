"""A document's structure as blocks: paragraphs, table rows and PDF lines with their heading level (DOCX
styles and list numbers, PDF font sizes, Markdown headings)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.app.errors import UserError
from core.uploads import files
from core.uploads.docx_numbering import DocxNumbering
from core.uploads.files import MAX_TEXT_CHARS, decode_text


@dataclass(frozen=True)
class Block:
    """One paragraph, table row or (PDF) line. `level` is a heading level (0 = document title), None for body."""

    text: str
    level: int | None = None
    para_start: bool = True
    bold: bool = False


_HEADING_STYLE = re.compile(r"^(?:heading|überschrift)\s*(\d)$", re.IGNORECASE)


def _docx_heading_level(paragraph: Any) -> int | None:
    style = paragraph.style
    name = (style.name if style is not None else "") or ""
    if name.lower() == "title":
        return 0
    m = _HEADING_STYLE.match(name.strip())
    return int(m.group(1)) if m else None


def _docx_blocks(data: bytes) -> list[Block]:
    from docx import Document
    from docx.table import Table

    doc = Document(io.BytesIO(data))
    numbering = DocxNumbering(doc)
    blocks: list[Block] = []
    for item in doc.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                cells: list[str] = []
                seen: set[int] = set()
                for cell in row.cells:
                    if id(cell._tc) in seen:  # merged cells repeat
                        continue
                    seen.add(id(cell._tc))
                    text = " ".join(cell.text.split())
                    if text:
                        cells.append(text)
                if cells:
                    blocks.append(Block(" | ".join(cells)))
            continue
        text = item.text.strip()
        label = numbering.label(item)
        if not text:
            continue
        if label:
            text = f"{label} {text}"
        runs = [r for r in item.runs if r.text.strip()]
        bold = bool(runs) and all(r.bold for r in runs)
        blocks.append(Block(text, level=_docx_heading_level(item), bold=bold))
    return blocks


def _pdf_blocks(data: bytes) -> list[Block]:
    """Lines of a PDF with their font size; clearly larger lines are headings, larger vertical gaps paragraphs."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        raise UserError("Das PDF ist passwortgeschützt. Bitte eine Version ohne Passwort hochladen.")
    lines: list[dict[str, Any]] = []
    for page in reader.pages[: files.MAX_PDF_PAGES]:
        current: dict[str, Any] = {"text": "", "sizes": {}, "y": None}
        page_lines = [current]

        def visit(text: str, cm: list[float], tm: list[float], _font: Any, size: float, _lines=page_lines) -> None:
            scale = abs(tm[3] * cm[3]) or abs(tm[0] * cm[0]) or 1.0
            eff = round(float(size or 0) * scale, 1)
            y = tm[5] * cm[3] + cm[5]
            for i, part in enumerate(text.split("\n")):
                if i > 0:
                    _lines.append({"text": "", "sizes": {}, "y": None})
                line = _lines[-1]
                if part.strip():
                    line["text"] += part
                    line["sizes"][eff] = line["sizes"].get(eff, 0) + len(part.strip())
                    if line["y"] is None and y:
                        line["y"] = y
                else:
                    line["text"] += part

        page.extract_text(visitor_text=visit)
        for line in page_lines:
            line["text"] = " ".join(line["text"].split())
        lines += [ln for ln in page_lines if ln["text"]]
    if not lines:
        return []
    totals: dict[float, int] = {}
    for ln in lines:
        ln["size"] = max(ln["sizes"].items(), key=lambda kv: kv[1])[0] if ln["sizes"] else 0.0
        totals[ln["size"]] = totals.get(ln["size"], 0) + len(ln["text"])
    body = max(totals.items(), key=lambda kv: kv[1])[0]
    larger = {ln["size"] for ln in lines if body and ln["size"] >= body * 1.12 and len(ln["text"]) <= 150}
    heading_sizes = sorted(larger, reverse=True)[:3]
    gaps = [abs(a["y"] - b["y"]) for a, b in zip(lines, lines[1:], strict=False)
            if a["y"] is not None and b["y"] is not None and 0 < abs(a["y"] - b["y"]) < 100]
    usual = sorted(gaps)[len(gaps) // 2] if gaps else 0.0
    blocks: list[Block] = []
    prev: dict[str, Any] | None = None
    for ln in lines:
        level = heading_sizes.index(ln["size"]) + 1 if ln["size"] in heading_sizes and len(ln["text"]) <= 150 else None
        para = True
        if prev is not None and level is None and prev.get("level") is None and usual and ln["y"] and prev["y"]:
            para = abs(prev["y"] - ln["y"]) > usual * 1.4
        ln["level"] = level
        blocks.append(Block(ln["text"], level=level, para_start=para))
        prev = ln
    return blocks


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")


def text_blocks(text: str) -> list[Block]:
    """Blocks of plain text: one per line, Markdown '#' lines as headings, a blank line starts a paragraph."""
    blocks: list[Block] = []
    blank = True
    for raw in text.replace("\r\n", "\n").replace("\x00", "").split("\n"):
        line = " ".join(raw.split())
        if not line:
            blank = True
            continue
        m = _MD_HEADING.match(line) if len(line) <= 300 else None
        if m:
            blocks.append(Block(m.group(2), level=len(m.group(1))))
        else:
            blocks.append(Block(line, para_start=blank))
        blank = False
    return blocks


def document_blocks(kind: str, data: bytes) -> list[Block]:
    """The document's structure as blocks (DOCX styles and list numbers, PDF font sizes, Markdown headings)."""
    if kind == "docx":
        return _docx_blocks(data)
    if kind == "pdf":
        return _pdf_blocks(data)
    if kind == "txt":
        return text_blocks(decode_text(data))
    raise UserError("Bilder können nicht als Beispiel oder Lehrplan übernommen werden. Bitte eine Word-Datei (DOCX) "
                    "oder ein PDF mit Text hochladen.")


def blocks_text(blocks: Iterable[Block]) -> str:
    return "\n".join(b.text for b in blocks)[:MAX_TEXT_CHARS]
