"""Line numbers as printed: material texts are broken at a fixed measure that fits the material box in DOCX and PDF
alike, and every line citation ("Z. 3", "Zeilen 5 bis 7", "l. 4–6") is moved to the lines it now stands on.

The measure is taken with DejaVu Sans (the PDF's font, wider than Calibri/Carlito), so a line that fits here fits in
the DOCX cell too and never wraps a second time; the numbers then match the printed lines.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

FONT_DIR = Path(__file__).with_name("fonts")
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf", "I": "DejaVuSans-Oblique.ttf"}
FONT_FAMILY = "DejaVu"
MATERIAL_PT = 10  # font size of numbered material texts (DOCX and PDF)
MEASURE_MM = 154.0  # text width of a numbered line: 170 mm text - cell margins - 10 mm number gutter - 2 mm reserve
LINE_STEP = 5  # print every fifth line number (and the first), as school editions do

_local = threading.local()


def add_fonts(pdf: FPDF) -> None:
    """Register the bundled DejaVu Sans (regular, bold, oblique) with an FPDF document."""
    for style, name in FONT_FILES.items():
        pdf.add_font(FONT_FAMILY, style, str(FONT_DIR / name))


def _meter() -> FPDF:
    pdf = getattr(_local, "pdf", None)
    if pdf is None:
        pdf = FPDF(unit="mm", format="A4")
        add_fonts(pdf)
        pdf.set_font(FONT_FAMILY, "", MATERIAL_PT)
        _local.pdf = pdf
    return pdf


def text_width_mm(text: str, *, size: float = MATERIAL_PT, style: str = "") -> float:
    pdf = _meter()
    pdf.set_font(FONT_FAMILY, style, size)
    return pdf.get_string_width(text)


def wrap(line: str, measure_mm: float = MEASURE_MM) -> list[str]:
    """One authored line broken at word boundaries so that every piece fits `measure_mm` (a word longer than the
    measure is split inside)."""
    words = line.split()
    if not words:
        return [""]
    out: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if text_width_mm(candidate) <= measure_mm:
            current = candidate
            continue
        if current:
            out.append(current)
        while text_width_mm(word) > measure_mm:  # a URL or a very long compound: cut it
            cut = len(word)
            while cut > 1 and text_width_mm(word[:cut]) > measure_mm:
                cut -= 1
            out.append(word[:cut])
            word = word[cut:]
        current = word
    out.append(current)
    return out


@dataclass(frozen=True)
class PrintedText:
    """A material text as printed: its lines ('' = stanza break, not counted) and, per authored line number, the
    first and last printed line number it now occupies."""

    lines: list[str]
    spans: dict[int, tuple[int, int]]

    @property
    def moved(self) -> bool:
        return any(a != n or b != n for n, (a, b) in self.spans.items())

    def text(self) -> str:
        return "\n".join(self.lines)


def printed_lines(text: str, measure_mm: float = MEASURE_MM) -> PrintedText:
    lines: list[str] = []
    spans: dict[int, tuple[int, int]] = {}
    authored = printed = 0
    for raw in text.split("\n"):
        if not raw.strip():
            lines.append("")
            continue
        authored += 1
        pieces = wrap(raw.rstrip(), measure_mm)
        spans[authored] = (printed + 1, printed + len(pieces))
        printed += len(pieces)
        lines += pieces
    return PrintedText(lines=lines, spans=spans)


_PARA_END = re.compile(r"[.!?:;“”\"')\]]$")
_NEW_BLOCK = re.compile(r"^(Art\.|Artikel|§|\d+[.)]\s|[-–•*]\s|„|\"|\[|[A-ZÄÖÜ][\w .]{0,25}:\s)")
VERSE_ARTEN = ("gedicht", "drama")


def _paragraph_ends(lines: list[str], longest: float) -> bool:
    """Whether authored line `lines[0]` ends its paragraph (`lines[1]` is the next one): a line that stops well short
    of the text's measure after a full stop, or a next line that opens a new article, list item or quotation."""
    line, after = lines
    short = text_width_mm(line) < 0.75 * longest
    return bool((short and _PARA_END.search(line)) or _NEW_BLOCK.match(after))


def reflowed_lines(text: str, measure_mm: float = MEASURE_MM) -> PrintedText:
    """Prose whose stored line breaks do not fit the measure, set again as running text: paragraphs are kept (a
    blank line, a short line after a full stop, a new article or list item), the words re-broken at the measure, and
    each authored line mapped to the printed lines its words now stand on — so the citations can follow."""
    raw = [line.rstrip() for line in text.split("\n")]
    longest = max((text_width_mm(line) for line in raw if line.strip()), default=0.0)
    lines: list[str] = []
    spans: dict[int, tuple[int, int]] = {}
    words: list[tuple[int, str]] = []  # (authored line, word) of the paragraph being set
    authored = 0

    def flush() -> None:
        current: list[str] = []
        for number, word in words:
            if current and text_width_mm(" ".join([*current, word])) > measure_mm:
                lines.append(" ".join(current))
                current = []
            pieces = wrap(word, measure_mm) if not current else [word]
            lines.extend(pieces[:-1])
            current.append(pieces[-1])
            printed = sum(1 for x in lines if x.strip()) + 1
            first = printed - len(pieces) + 1
            a, b = spans.get(number, (first, printed))
            spans[number] = (min(a, first), max(b, printed))
        if current:
            lines.append(" ".join(current))
        words.clear()

    for i, line in enumerate(raw):
        if not line.strip():
            flush()
            lines.append("")
            continue
        authored += 1
        words.extend((authored, w) for w in line.split())
        following = next((x for x in raw[i + 1:] if x.strip()), "")
        if not following or _paragraph_ends([line, following], longest):
            flush()
    flush()
    return PrintedText(lines=lines, spans=spans)


def fits(text: str, measure_mm: float = MEASURE_MM) -> bool:
    return all(text_width_mm(line.rstrip()) <= measure_mm for line in text.split("\n"))


def number_labels(lines: list[str]) -> list[str]:
    """The printed number of each line: the first and every fifth counted line, '' otherwise and for blank lines."""
    out, n = [], 0
    for line in lines:
        if not line.strip():
            out.append("")
            continue
        n += 1
        out.append(str(n) if n == 1 or n % LINE_STEP == 0 else "")
    return out


CITATION = re.compile(
    r"\b(?P<word>Z\.|Zl\.|Zeilen|Zeile|ll\.|l\.|lines|line)\s*(?P<a>\d{1,3})"
    r"(?:(?P<sep>\s*[–-]\s*|\s+bis\s+|\s+und\s+|\s+to\s+|\s+and\s+)(?P<b>\d{1,3})|(?P<f>\s*ff?\.))?"
)


def _range(word: str, a: int, b: int, sep: str) -> str:
    if a == b:
        return f"{word} {a}"
    if sep.strip() in ("bis", "und"):
        return f"{word} {a} bis {b}"
    if sep.strip() in ("to", "and"):
        return f"{word} {a} to {b}"
    return f"{word} {a}–{b}"


def cited_lines(m: re.Match[str]) -> tuple[int, int]:
    """The stored lines a citation match names ('Z. 3 f.' -> (3, 4))."""
    a = int(m.group("a"))
    return a, int(m.group("b")) if m.group("b") else (a + 1 if m.group("f") else a)


def moved_citation(m: re.Match[str], spans: dict[int, tuple[int, int]]) -> str:
    """One citation (a CITATION match) pointing at the printed lines of the stored lines it named; a citation of
    lines the material does not have stays as it is."""
    a, b = cited_lines(m)
    if a not in spans or b not in spans or b < a:
        return m.group(0)
    first, last = spans[a][0], spans[b][1]
    word = m.group("word")
    if word == "Zeile" and last > first:
        word = "Zeilen"
    elif word == "line" and last > first:
        word = "lines"
    elif word == "l." and last > first:
        word = "ll."
    return _range(word, first, last, m.group("sep") or "–")


def move_citations(text: str, spans: dict[int, tuple[int, int]]) -> str:
    """`text` with every line citation pointing at the printed lines of the stored lines it named."""
    return CITATION.sub(lambda m: moved_citation(m, spans), text)
