"""A sheet as DOCX (python-docx): A4, page numbers, framed boxes, grid tables with repeating heads, task lines with
the points on a right tab stop, and numbered material lines that never wrap (they were broken to fit)."""

from __future__ import annotations

import io

from docx.document import Document as DocxDocument
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.shared import Cm, Pt

from core.exports.docx_blocks import add_box, add_table, docx_text, new_document, shade_cell, text_width, to_bytes
from core.exports.lines import MATERIAL_PT
from core.exports.sheet import Box, Heading, Image, LinedText, NameFields, PageBreak, Para, Sheet, Table, TaskLine

_EMU_PER_CM = 360000


def _para(doc: DocxDocument, block: Para, page_break: bool, keep_with_next: bool = False) -> None:
    paragraph = doc.add_paragraph(style="List Bullet" if block.bullet else None)
    paragraph.paragraph_format.page_break_before = page_break
    paragraph.paragraph_format.keep_with_next = keep_with_next or None
    for run in block.runs:
        r = paragraph.add_run(docx_text(run.text))
        r.bold, r.italic = run.bold or None, run.italic or None
        if block.small:
            r.font.size = Pt(9)


def _name_fields(doc: DocxDocument, block: NameFields, page_break: bool) -> None:
    if page_break:
        doc.add_paragraph().paragraph_format.page_break_before = True
    table = doc.add_table(rows=1, cols=len(block.fields))
    table.style = "Table Grid"
    for cell, (feld, wert) in zip(table.rows[0].cells, block.fields, strict=True):
        paragraph = cell.paragraphs[0]
        paragraph.add_run(f"{feld}: ").bold = True
        paragraph.add_run(docx_text(wert))
        paragraph.paragraph_format.space_before = Pt(6)
        paragraph.paragraph_format.space_after = Pt(6)
    doc.add_paragraph()


def _task_line(doc: DocxDocument, block: TaskLine) -> None:
    """'a)<tab>text<tab>(4 P.)' with a hanging indent and the points on a right tab stop at the margin."""
    paragraph = doc.add_paragraph()
    fmt = paragraph.paragraph_format
    indent = Cm(0.8) if block.label else 0
    fmt.left_indent = indent
    fmt.first_line_indent = -indent if block.label else 0
    if block.label:
        fmt.tab_stops.add_tab_stop(Cm(0.8))
    fmt.tab_stops.add_tab_stop(text_width(doc), WD_TAB_ALIGNMENT.RIGHT)
    fmt.space_after = Pt(2 if block.items or block.tail else 8)
    fmt.keep_together = True  # Word keeps a task and its own list on one page
    fmt.keep_with_next = bool(block.items or block.tail) or None
    if block.label:
        paragraph.add_run(docx_text(block.label)).bold = True
        paragraph.add_run("\t")
    paragraph.add_run(docx_text(block.text) + "\t")
    paragraph.add_run(docx_text(block.points)).bold = True
    for i, item in enumerate(block.items):
        mark, _, rest = item.partition(" ")
        p = doc.add_paragraph(docx_text(mark))
        p.add_run("\t" + docx_text(rest))
        p.paragraph_format.left_indent = Cm(1.8)
        p.paragraph_format.first_line_indent = Cm(-1.0)
        p.paragraph_format.tab_stops.add_tab_stop(Cm(1.8))
        last = i == len(block.items) - 1 and not block.tail
        p.paragraph_format.space_after = Pt(8 if last else 2)
        p.paragraph_format.keep_together, p.paragraph_format.keep_with_next = True, None if last else True
    if block.tail:
        p = doc.add_paragraph(docx_text(block.tail))
        p.paragraph_format.left_indent = indent
        p.paragraph_format.space_after = Pt(8)


def _lined_text(doc: DocxDocument, block: LinedText) -> None:
    """The numbered text in a shaded box: right-aligned number, tab, the line (a tab stop per column)."""
    table = doc.add_table(rows=1, cols=1)
    table.style = "Table Grid"
    cell = table.cell(0, 0)
    shade_cell(cell, "F2F2F2")
    cell.paragraphs[0].add_run(docx_text(block.title)).bold = True
    for number, line in zip(block.numbers, block.lines, strict=True):
        paragraph = cell.add_paragraph()
        fmt = paragraph.paragraph_format
        fmt.space_after = Pt(0)
        fmt.left_indent, fmt.first_line_indent = Cm(1.0), Cm(-1.0)
        fmt.tab_stops.add_tab_stop(Cm(0.7), WD_TAB_ALIGNMENT.RIGHT)
        fmt.tab_stops.add_tab_stop(Cm(1.0))
        num = paragraph.add_run("\t" + number + "\t")
        num.font.size = Pt(8)
        text = paragraph.add_run(docx_text(line))
        text.font.size = Pt(MATERIAL_PT)
    doc.add_paragraph()


def _table(doc: DocxDocument, block: Table) -> None:
    breite = text_width(doc) / _EMU_PER_CM
    total = sum(block.widths) or 1
    add_table(doc, block.header, block.rows, [breite * w / total for w in block.widths], summenzeile=block.sum_row,
              rechtsbuendig=block.right, font_pt=block.font_pt)
    doc.add_paragraph()


def render_docx(sheet: Sheet) -> bytes:
    doc = new_document(sheet.title)
    page_break = False
    for i, block in enumerate(sheet.blocks):
        if isinstance(block, PageBreak):
            page_break = True
            continue
        following = sheet.blocks[i + 1] if i + 1 < len(sheet.blocks) else None
        if isinstance(block, Heading):
            h = doc.add_heading(docx_text(block.text), level=block.level)
            h.paragraph_format.page_break_before = page_break
        elif isinstance(block, NameFields):
            _name_fields(doc, block, page_break)
        elif isinstance(block, Para):
            _para(doc, block, page_break, keep_with_next=isinstance(following, Table | Image))
        elif page_break:
            doc.add_paragraph().paragraph_format.page_break_before = True
        if isinstance(block, TaskLine):
            _task_line(doc, block)
        elif isinstance(block, Box):
            add_box(doc, block.title, list(block.paragraphs) or [""], fill=block.fill)
        elif isinstance(block, LinedText):
            _lined_text(doc, block)
        elif isinstance(block, Table):
            _table(doc, block)
        elif isinstance(block, Image):
            doc.add_picture(io.BytesIO(block.png), width=Cm(block.width_mm / 10))
            doc.paragraphs[-1].paragraph_format.keep_with_next = isinstance(following, Table) or None
        page_break = False
    return to_bytes(doc)
