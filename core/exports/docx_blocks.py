"""DOCX building blocks shared by the exam and worksheet documents: an A4 German document with page numbers,
framed boxes, grid tables, and text made safe for python-docx runs."""

from __future__ import annotations

import io
from collections.abc import Sequence

from docx import Document
from docx.document import Document as DocxDocument
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.section import Section
from docx.shared import Cm, Pt
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph

from core.exports.xml_text import xml_safe


def docx_text(text: str) -> str:
    """Text ready for a python-docx run: XML-safe, tabs flattened (a tab would jump to our layout tab stops).

    Newlines stay; python-docx turns them into line breaks inside the paragraph.
    """
    return xml_safe(text).replace("\t", " ")


def new_document(titel: str) -> DocxDocument:
    """An A4 German document with page numbers ('Seite X von Y') in the footer."""
    doc = Document()
    section = doc.sections[0]
    section.page_width, section.page_height = Cm(21.0), Cm(29.7)
    section.left_margin = section.right_margin = Cm(2.0)
    section.top_margin, section.bottom_margin = Cm(1.8), Cm(1.8)

    normal = doc.styles["Normal"]
    normal.font.name = "Calibri"
    normal.font.size = Pt(11)
    rpr = normal.element.get_or_add_rPr()
    lang = OxmlElement("w:lang")
    lang.set(qn("w:val"), "de-DE")
    rpr.insert_element_before(lang, "w:eastAsianLayout", "w:specVanish", "w:oMath")

    doc.core_properties.title = xml_safe(titel)[:255]
    doc.core_properties.language = "de-DE"
    doc.core_properties.author = "Werkbank"
    add_page_numbers(section)
    return doc


def text_width(doc: DocxDocument) -> int:
    section = doc.sections[0]
    return section.page_width - section.left_margin - section.right_margin


def _add_field(paragraph: Paragraph, instruction: str) -> None:
    def fld_char(kind: str) -> None:
        element = OxmlElement("w:fldChar")
        element.set(qn("w:fldCharType"), kind)
        paragraph.add_run()._r.append(element)

    fld_char("begin")
    instr = OxmlElement("w:instrText")
    instr.set(qn("xml:space"), "preserve")
    instr.text = f" {instruction} "
    paragraph.add_run()._r.append(instr)
    fld_char("separate")
    paragraph.add_run("1")  # placeholder until the viewer updates the field
    fld_char("end")


def add_page_numbers(section: Section) -> None:
    paragraph = section.footer.paragraphs[0]
    paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER
    paragraph.add_run("Seite ")
    _add_field(paragraph, "PAGE")
    paragraph.add_run(" von ")
    _add_field(paragraph, "NUMPAGES")


def shade_cell(cell: _Cell, fill: str) -> None:
    tc_pr = cell._tc.get_or_add_tcPr()
    shd = OxmlElement("w:shd")
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:color"), "auto")
    shd.set(qn("w:fill"), fill)
    tc_pr.insert_element_before(
        shd, "w:noWrap", "w:tcMar", "w:textDirection", "w:tcFitText", "w:vAlign", "w:hideMark", "w:headers",
        "w:cellIns", "w:cellDel", "w:cellMerge", "w:tcPrChange",
    )


def add_box(doc: DocxDocument, titel: str | None, absaetze: Sequence[str], *, fill: str = "F2F2F2") -> Table:
    """A framed, shaded box (a one-cell table: unlike paragraph borders, two boxes in a row stay two boxes)."""
    table = doc.add_table(rows=1, cols=1)
    table.style = "Table Grid"
    cell = table.cell(0, 0)
    shade_cell(cell, fill)
    first = cell.paragraphs[0]
    if titel:
        first.add_run(docx_text(titel)).bold = True
        paragraphs = [cell.add_paragraph(docx_text(text)) for text in absaetze]
    else:
        paragraphs = [first]
        first.add_run(docx_text(absaetze[0]) if absaetze else "")
        paragraphs += [cell.add_paragraph(docx_text(text)) for text in absaetze[1:]]
    for paragraph in paragraphs:
        paragraph.paragraph_format.space_after = Pt(2)
    doc.add_paragraph()  # keeps following content (or the next box) visually apart
    return table


def add_table(
    doc: DocxDocument,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    widths_cm: Sequence[float],
    *,
    summenzeile: bool = False,
    rechtsbuendig: Sequence[int] = (),
    font_pt: float | None = None,
) -> Table:
    """A grid table with a bold, shaded, repeating header row; optionally a bold last (sum) row."""
    table = doc.add_table(rows=1 + len(rows), cols=len(header))
    table.style = "Table Grid"
    table.alignment = WD_TABLE_ALIGNMENT.LEFT
    table.autofit = False
    for column, width in zip(table.columns, widths_cm, strict=True):
        column.width = Cm(width)  # the grid (LibreOffice reads it); the cells below carry it for Word
    if font_pt:  # widths were measured for tight cells (PDF padding 1.2 mm): the same margins here
        narrow_cell_margins(table)
    tr_pr = table.rows[0]._tr.get_or_add_trPr()
    tbl_header = OxmlElement("w:tblHeader")
    tr_pr.append(tbl_header)
    for r, values in enumerate([header, *rows]):
        for c, value in enumerate(values):
            cell = table.cell(r, c)
            cell.width = Cm(widths_cm[c])
            paragraph = cell.paragraphs[0]
            run = paragraph.add_run(docx_text(str(value)))
            if font_pt:
                run.font.size = Pt(font_pt)
            if r == 0 or (summenzeile and r == len(rows)):
                run.bold = True
            if c in rechtsbuendig and r > 0:
                paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
        if r == 0:
            for c in range(len(header)):
                shade_cell(table.cell(0, c), "D9D9D9")
    return table


def narrow_cell_margins(table: Table, twips: int = 68) -> None:
    """Left and right cell margins of `table` (68 twips = 1.2 mm) instead of Word's 0.19 cm."""
    margins = OxmlElement("w:tblCellMar")
    for side in ("left", "right"):
        element = OxmlElement(f"w:{side}")
        element.set(qn("w:w"), str(twips))
        element.set(qn("w:type"), "dxa")
        margins.append(element)
    table._tbl.tblPr.append(margins)


def to_bytes(doc: DocxDocument) -> bytes:
    buffer = io.BytesIO()
    doc.save(buffer)
    return buffer.getvalue()
