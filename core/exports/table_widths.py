"""Column widths from content: every column at least as wide as its longest word (so „Niederschlag“ never breaks
into „Nied / ersch / lag“), the rest of the page shared by how much text a column holds; a table too wide for the
page at body size (a climate table: label + 12 months + Jahr) is set in a smaller font until it fits.

Measured with DejaVu Sans (the PDF's font, wider than Calibri), so what fits the PDF fits the DOCX cell too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.exports.lines import text_width_mm

TABLE_PT = 9.5  # body size of tables
SMALLEST_PT = 7.5
PADDING_MM = 3.2  # both cell paddings (PDF 1.2 + 1.2 mm) and some slack


@dataclass(frozen=True)
class Widths:
    widths_mm: tuple[float, ...]
    font_pt: float


def _longest_word(text: str, size: float, bold: bool) -> float:
    words = text.replace("\n", " ").split(" ")  # a no-break space keeps a number and its unit one word
    return max((text_width_mm(w, size=size, style="B" if bold else "") for w in words), default=0.0)


def _column_needs(header: Sequence[str], rows: Sequence[Sequence[str]], size: float) -> tuple[list[float], list[float]]:
    """Per column: the width of its longest word and of its longest cell (each plus padding)."""
    least, most = [], []
    for c, head in enumerate(header):
        cells = [(head, True), *((str(r[c]) if c < len(r) else "", False) for r in rows)]
        least.append(max(_longest_word(t, size, b) for t, b in cells) + PADDING_MM)
        most.append(max(text_width_mm(" ".join(t.split()), size=size, style="B" if b else "") for t, b in cells)
                    + PADDING_MM)
    return least, most


def column_widths(header: Sequence[str], rows: Sequence[Sequence[str]], width_mm: float) -> Widths:
    """Widths (mm, summing to `width_mm`) and the font size for a table of this content."""
    size = TABLE_PT
    least, most = _column_needs(header, rows, size)
    while sum(least) > width_mm and size > SMALLEST_PT:
        size -= 0.5
        least, most = _column_needs(header, rows, size)
    if sum(least) >= width_mm:  # even the smallest size does not fit: share the page by need, words may break
        return Widths(tuple(width_mm * x / sum(least) for x in least), size)
    room = width_mm - sum(least)
    extra = [m - n for m, n in zip(most, least, strict=True)]
    if sum(extra) <= room:  # everything fits on one line: share the rest by content width
        return Widths(tuple(width_mm * m / sum(most) for m in most), size)
    return Widths(tuple(n + room * e / sum(extra) for n, e in zip(least, extra, strict=True)), size)
