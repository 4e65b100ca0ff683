"""A printable sheet as a list of neutral blocks (headings, paragraphs, task lines with points, boxes, numbered
texts, tables): what the DOCX and the PDF renderer both draw, so the two files say the same thing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 1  # 1 title, 2 section, 3 sub-section


@dataclass(frozen=True)
class Para:
    runs: tuple[Run, ...]
    small: bool = False
    bullet: bool = False

    @staticmethod
    def of(text: str, *, bold: bool = False, italic: bool = False, small: bool = False, bullet: bool = False
           ) -> Para:
        return Para((Run(text, bold=bold, italic=italic),), small=small, bullet=bullet)

    @staticmethod
    def labelled(label: str, text: str) -> Para:
        return Para((Run(label, bold=True), Run(text)))


@dataclass(frozen=True)
class NameFields:
    """The 'Name / Datum / Klasse' line a pupil fills in (values prefilled when known)."""

    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TaskLine:
    """'a)  text  (4 P.)': label, text with a hanging indent, points at the right margin; `items` are the task's
    own a), b) … list, one per line, and `tail` what the task says after its list."""

    label: str
    text: str
    points: str = ""
    items: tuple[str, ...] = ()
    tail: str = ""


@dataclass(frozen=True)
class Box:
    title: str | None
    paragraphs: tuple[str, ...]
    fill: str = "F2F2F2"


@dataclass(frozen=True)
class LinedText:
    """A material text with its printed line numbers (the lines already fit the measure)."""

    title: str
    lines: tuple[str, ...]
    numbers: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]  # relative widths
    sum_row: bool = False
    right: tuple[int, ...] = ()
    font_pt: float | None = None  # None: the body size of tables


@dataclass(frozen=True)
class Image:
    """A picture (PNG) at a given printed width, e.g. a Klimadiagramm drawn from a climate table."""

    png: bytes
    width_mm: float
    alt: str


@dataclass(frozen=True)
class PageBreak:
    pass


Block = Heading | Para | NameFields | TaskLine | Box | LinedText | Table | Image | PageBreak


@dataclass
class Sheet:
    """One printable document: its title (file metadata) and its blocks in order."""

    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)

    def bullets(self, texts: Sequence[str]) -> None:
        self.blocks.extend(Para.of(t, bullet=True) for t in texts if t.strip())

    def plain_text(self) -> str:
        """The sheet's text in reading order (for tests and previews)."""
        out: list[str] = []
        for b in self.blocks:
            if isinstance(b, Heading):
                out.append(b.text)
            elif isinstance(b, Para):
                out.append("".join(r.text for r in b.runs))
            elif isinstance(b, NameFields):
                out.append("  ".join(f"{k}: {v}" for k, v in b.fields))
            elif isinstance(b, TaskLine):
                out.append(f"{b.label} {b.text} {b.points}".strip())
                out += [*b.items, b.tail]
            elif isinstance(b, Box):
                out += [b.title or "", *b.paragraphs]
            elif isinstance(b, LinedText):
                out += [b.title, *(f"{n} {t}".strip() for n, t in zip(b.numbers, b.lines, strict=True))]
            elif isinstance(b, Table):
                out += [" | ".join(b.header), *(" | ".join(r) for r in b.rows)]
            elif isinstance(b, Image):
                out.append(f"[Bild: {b.alt}]")
        return "\n".join(x for x in out if x)
