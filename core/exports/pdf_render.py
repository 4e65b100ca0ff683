"""A sheet as PDF (fpdf2, pure Python, with the bundled DejaVu Sans): A4, 'Seite X von Y' in the footer, the same
blocks as the DOCX — headings, task lines with points at the right margin, shaded boxes, numbered material lines,
tables with repeating heads."""

from __future__ import annotations

import io
import logging
import struct

from fpdf import FPDF
from fpdf.enums import XPos, YPos
from fpdf.fonts import FontFace

from core.exports.lines import FONT_FAMILY, MATERIAL_PT, add_fonts
from core.exports.sheet import Box, Heading, Image, LinedText, NameFields, PageBreak, Para, Sheet, Table, TaskLine
from core.exports.xml_text import xml_safe

logging.getLogger("fpdf").setLevel(logging.ERROR)  # a missing glyph (emoji) is skipped, not worth a warning per run

BODY_PT = 10.5
SMALL_PT = 8.5
HEADING_PT = {1: 15.0, 2: 12.5, 3: 11.0}
BLUE = (47, 84, 150)
LINE_MM = 5.0
MARGIN_MM = 20.0


def _rgb(hexcode: str) -> tuple[int, int, int]:
    return int(hexcode[0:2], 16), int(hexcode[2:4], 16), int(hexcode[4:6], 16)


class _Pdf(FPDF):
    def footer(self) -> None:
        self.set_y(-14)
        self.set_font(FONT_FAMILY, "", SMALL_PT)
        self.set_text_color(0)
        self.cell(0, 6, f"Seite {self.page_no()} von {{nb}}", align="C")


def _png_ratio(png: bytes) -> float:
    """Height / width of a PNG (from its IHDR chunk)."""
    width, height = struct.unpack(">II", png[16:24])
    return height / width


def _mark(item: str) -> tuple[str, str]:
    """'(1) Wir brauchen …' -> ('(1)', 'Wir brauchen …')."""
    mark, _, rest = item.partition(" ")
    return mark, rest


def _text(text: str) -> str:
    return xml_safe(text).replace("\t", " ")


class _Writer:
    def __init__(self, title: str) -> None:
        pdf = _Pdf(orientation="P", unit="mm", format="A4")
        add_fonts(pdf)
        pdf.set_margins(MARGIN_MM, 18, MARGIN_MM)
        pdf.set_auto_page_break(True, margin=20)
        pdf.set_title(_text(title)[:255])
        pdf.set_author("Werkbank")
        pdf.set_lang("de-DE")
        pdf.set_creator("Werkbank")
        pdf.add_page()
        self.pdf = pdf
        self.width = pdf.w - 2 * MARGIN_MM

    def font(self, style: str = "", size: float = BODY_PT) -> None:
        self.pdf.set_font(FONT_FAMILY, style, size)

    def heading(self, block: Heading) -> None:
        pdf = self.pdf
        size = HEADING_PT.get(block.level, BODY_PT)
        if pdf.will_page_break(size * 0.5 + 3 * LINE_MM):
            pdf.add_page()
        pdf.ln(3 if block.level > 1 else 1)
        self.font("B", size)
        pdf.set_text_color(*BLUE)
        pdf.multi_cell(self.width, size * 0.5, _text(block.text), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_text_color(0)
        pdf.ln(1.5)

    def para(self, block: Para) -> None:
        pdf = self.pdf
        size = SMALL_PT if block.small else BODY_PT
        h = LINE_MM * size / BODY_PT
        if block.bullet:
            self.font("", size)
            pdf.set_x(MARGIN_MM + 2)
            pdf.cell(4, h, "•")
            pdf.set_left_margin(MARGIN_MM + 6)
        for run in block.runs:
            self.font(("B" if run.bold else "") + ("I" if run.italic else ""), size)
            pdf.write(h, _text(run.text))
        pdf.set_left_margin(MARGIN_MM)
        pdf.ln(h)
        pdf.ln(1.5)

    def name_fields(self, block: NameFields) -> None:
        self.font("", BODY_PT)
        with self.pdf.table(width=self.width, line_height=8, first_row_as_headings=False, padding=2) as table:
            row = table.row()
            for feld, wert in block.fields:
                row.cell(_text(f"{feld}: {wert}"), style=FontFace(emphasis="BOLD"))
        self.pdf.ln(4)

    def task_line(self, block: TaskLine) -> None:
        """The task with its own list and what follows it; a task that fits on a page starts on a new one rather
        than breaking in the middle (the pupil turns the page once the task is read)."""
        pdf = self.pdf
        label_w, points_w = (8.0 if block.label else 0.0), (16.0 if block.points else 0.0)
        x0, body = MARGIN_MM, self.width - label_w - points_w - 2
        # (x of the mark, mark, x of the text, width of the text, text)
        rows = [(x0 + label_w + 1, mark, x0 + label_w + 10, body - 8, rest) for mark, rest in map(_mark, block.items)]
        rows = [(0.0, "", x0 + label_w, body, block.text), *rows]
        if block.tail:
            rows.append((0.0, "", x0 + label_w, body, block.tail))
        self.font("")
        height = sum(len(pdf.multi_cell(w, LINE_MM, _text(t), dry_run=True, output="LINES")) * LINE_MM
                     for _, _, _, w, t in rows)
        if pdf.will_page_break(height if height <= pdf.h - pdf.t_margin - pdf.b_margin else 2 * LINE_MM):
            pdf.add_page()
        y0 = pdf.get_y()
        if block.label:
            self.font("B")
            pdf.set_xy(x0, y0)
            pdf.cell(label_w, LINE_MM, _text(block.label))
        self.font("")
        pdf.set_y(y0)
        for mark_x, mark, x, w, text in rows:
            if mark:
                pdf.set_x(mark_x)
                pdf.cell(x - mark_x, LINE_MM, _text(mark))
            pdf.set_x(x)
            pdf.multi_cell(w, LINE_MM, _text(text), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        y1 = pdf.get_y()
        self.font("B")  # drawn after the task so that the PDF's text reads „a) Nenne … (2 P.)“ as printed
        pdf.set_xy(x0 + self.width - points_w, y0)
        pdf.cell(points_w, LINE_MM, _text(block.points), align="R")
        pdf.set_y(y1)
        pdf.ln(3)

    def box(self, block: Box) -> None:
        pdf = self.pdf
        pdf.set_fill_color(*_rgb(block.fill))
        parts = [(block.title, "B")] if block.title else []
        parts += [(p, "") for p in block.paragraphs or ("",)]
        for i, (text, style) in enumerate(parts):
            border = "LR" + ("T" if i == 0 else "") + ("B" if i == len(parts) - 1 else "")
            self.font(style)
            pdf.multi_cell(self.width, LINE_MM, _text(text), border=border, fill=True, padding=(0.8, 2, 0.8, 2),
                           align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(4)

    def lined_text(self, block: LinedText) -> None:
        pdf = self.pdf
        pdf.set_fill_color(242, 242, 242)
        h = LINE_MM * MATERIAL_PT / BODY_PT
        self.font("B")
        pdf.multi_cell(self.width, LINE_MM + 1, _text(block.title), border="LTR", fill=True, padding=(0.8, 2, 0, 2),
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        for i, (number, line) in enumerate(zip(block.numbers, block.lines, strict=True)):
            last = i == len(block.lines) - 1
            self.font("", SMALL_PT - 1)
            pdf.cell(9, h, number, border="L" + ("B" if last else ""), fill=True, align="R")
            pdf.cell(3, h, "", border="B" if last else 0, fill=True)
            self.font("", MATERIAL_PT)
            pdf.cell(self.width - 12, h, _text(line), border="R" + ("B" if last else ""), fill=True,
                     new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(4)

    def image(self, block: Image) -> None:
        pdf = self.pdf
        height = block.width_mm * _png_ratio(block.png)
        if pdf.will_page_break(height):
            pdf.add_page()
        pdf.image(io.BytesIO(block.png), x=MARGIN_MM, w=block.width_mm, alt_text=_text(block.alt))
        pdf.ln(3)

    def table(self, block: Table) -> None:
        pdf = self.pdf
        self.font("", block.font_pt or BODY_PT - 0.5)
        total = sum(block.widths) or 1
        widths = tuple(self.width * w / total for w in block.widths)
        align = tuple("RIGHT" if c in block.right else "LEFT" for c in range(len(block.header)))
        with pdf.table(width=self.width, col_widths=widths, text_align=align, line_height=LINE_MM, padding=1.2,
                       headings_style=FontFace(emphasis="BOLD", fill_color=(217, 217, 217)),
                       repeat_headings=1) as table:
            for r, values in enumerate([block.header, *block.rows]):
                row = table.row()
                bold = block.sum_row and r == len(block.rows)
                for value in values:
                    row.cell(_text(str(value)), style=FontFace(emphasis="BOLD") if bold else None)
        pdf.ln(4)


def _kept(blocks: list, i: int) -> float:
    """How much room block i needs on its page so that it is not left alone at the foot: a table's or a picture's
    title needs the picture (and the table's first rows) beside it, a heading what its title needs as well."""
    block, following = blocks[i], blocks[i + 1] if i + 1 < len(blocks) else None
    if isinstance(block, Para) and isinstance(following, Image):  # a Klimadiagramm also keeps its table beside it
        table = i + 2 < len(blocks) and isinstance(blocks[i + 2], Table)
        return following.width_mm * _png_ratio(following.png) + 10 + (30 if table else 0)
    if isinstance(block, Para) and isinstance(following, Table):
        return 30
    if isinstance(block, Heading) and isinstance(following, Para) and _kept(blocks, i + 1):
        return _kept(blocks, i + 1) + HEADING_PT.get(block.level, BODY_PT) * 0.5 + 6
    return 0


def render_pdf(sheet: Sheet) -> bytes:
    w = _Writer(sheet.title)
    for i, block in enumerate(sheet.blocks):
        if _kept(sheet.blocks, i) and w.pdf.will_page_break(_kept(sheet.blocks, i)):
            w.pdf.add_page()
        if isinstance(block, PageBreak):
            w.pdf.add_page()
        elif isinstance(block, Heading):
            w.heading(block)
        elif isinstance(block, Para):
            w.para(block)
        elif isinstance(block, NameFields):
            w.name_fields(block)
        elif isinstance(block, TaskLine):
            w.task_line(block)
        elif isinstance(block, Box):
            w.box(block)
        elif isinstance(block, LinedText):
            w.lined_text(block)
        elif isinstance(block, Table):
            w.table(block)
        elif isinstance(block, Image):
            w.image(block)
    return bytes(w.pdf.output())
