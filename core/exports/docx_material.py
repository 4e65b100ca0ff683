"""Material blocks in DOCX: texts with line numbers (poems, excerpts, sources) and real tables, each with its
Quellenangabe — as a pupil needs them to work with the tasks."""

from __future__ import annotations

from docx.document import Document as DocxDocument
from docx.shared import Pt

from core.exports.docx_blocks import add_box, add_table, docx_text, text_width
from core.materials.blocks import MaterialBlock

LINE_STEP = 5  # print every fifth line number, as school editions do


def numbered_lines(text: str) -> list[str]:
    """'1  line' for every fifth line (and the first); blank lines (stanza breaks) are not counted."""
    out, n = [], 0
    for line in text.split("\n"):
        if not line.strip():
            out.append("")
            continue
        n += 1
        label = str(n) if n == 1 or n % LINE_STEP == 0 else ""
        out.append(f"{label:>3}   {line}")
    return out


def add_material(doc: DocxDocument, block: MaterialBlock) -> None:
    """One material: its title, the text (line numbers when asked) or the table, and the source."""
    if block.tabelle is not None:
        titel = doc.add_paragraph()
        titel.add_run(docx_text(block.titel)).bold = True
        breite = text_width(doc) / 360000
        n = len(block.tabelle.spalten)
        add_table(doc, block.tabelle.spalten, block.tabelle.zeilen, [breite / n] * n)
    elif block.text:
        lines = numbered_lines(block.text) if block.zeilennummern else block.text.split("\n\n")
        table = add_box(doc, block.titel, lines if block.zeilennummern else [p.strip() for p in lines])
        if block.zeilennummern:
            for paragraph in table.cell(0, 0).paragraphs[1:]:
                paragraph.paragraph_format.space_after = Pt(0)
    if block.quelle.strip():
        quelle = doc.add_paragraph()
        run = quelle.add_run(docx_text(f"Quelle: {block.quelle.strip()}"))
        run.italic = True
        run.font.size = Pt(9)
