"""A Lehrplan's sections as pieces: the heading path, its Themenfeld and Thema, grade headings, and long
sections cut at paragraphs into chunks that retrieval ranks and specialists cite."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.uploads.blocks import Block

# Chunk sizes for curriculum sections: long enough to carry a competence with its context, short enough that one
# chunk is about one thing (what retrieval ranks and the specialist cites).
CHUNK_MIN, CHUNK_MAX = 400, 900


_GRADE = re.compile(
    r"^(?:Klassenstufen?|Jahrgangsstufen?|Doppeljahrgangsstufe|Schuljahrgänge?|Klassen?|Jg\.)\s*:?\s*(\d{1,2})"
    r"(?:\s*(?:[/,–-]|und|bis)\s*(\d{1,2}))?(?!\d)", re.IGNORECASE)
_NUMBERED_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+([A-ZÄÖÜ].{1,110})$")
_KEYWORD_HEADING = re.compile(
    r"^(?:Lernbereich|Themenfeld|Themenbereich|Inhaltsfeld|Kompetenzbereich|Lernfeld|Wahlpflichtbereich|"
    r"Wahlbereich|Themenkomplex|Unterrichtsvorhaben|Kurshalbjahr|Einführungsphase|Qualifikationsphase)\b",
    re.IGNORECASE)
_SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+")


def _grades(heading: str) -> list[int]:
    m = _GRADE.match(heading)
    if not m:
        return []
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    if not (1 <= a <= 13 and 1 <= b <= 13):
        return []
    return list(range(min(a, b), max(a, b) + 1)) if b - a <= 4 else [a, b]


def _text_heading_level(block: Block) -> int | None:
    """A heading from its words alone (plain text, PDFs without font sizes, DOCX without heading styles)."""
    t = block.text
    if len(t) > 120 or t.endswith((".", ",", ";")) or "|" in t:
        return None
    if _GRADE.match(t) and len(t) <= 60:
        return 1
    m = _NUMBERED_HEADING.match(t)
    if m and len(t.split()) <= 14:
        return m.group(1).count(".") + 1 + 1
    if _KEYWORD_HEADING.match(t):
        return 2
    if block.bold and len(t) <= 100:
        return 3
    return None


@dataclass(frozen=True)
class CurriculumPiece:
    abschnitt: str | None
    themenfeld: str | None
    thema: str
    klassenstufen: tuple[int, ...]
    kompetenz: str


def split_paragraphs(paragraphs: list[str], *, low: int = CHUNK_MIN, high: int = CHUNK_MAX) -> list[str]:
    """Pieces of about low..high characters, cut at paragraph boundaries (a too long paragraph at sentences)."""
    units: list[str] = []
    for para in paragraphs:
        if len(para) <= high:
            units.append(para)
            continue
        sentences = re.split(r"(?<=[.!?;])\s+", para)
        buf = ""
        for s in sentences:
            while len(s) > high:
                cut = s.rfind(" ", 0, high)
                cut = cut if cut > low // 2 else high
                if buf:
                    units.append(buf)
                    buf = ""
                units.append(s[:cut].strip())
                s = s[cut:].strip()
            if buf and len(buf) + 1 + len(s) > high:
                units.append(buf)
                buf = s
            else:
                buf = f"{buf} {s}".strip()
        if buf:
            units.append(buf)
    pieces: list[str] = []
    buf = ""
    for unit in units:
        if buf and len(buf) + 2 + len(unit) > high and len(buf) >= low // 2:
            pieces.append(buf)
            buf = unit
        else:
            buf = f"{buf}\n\n{unit}".strip() if buf else unit
    if buf:
        if pieces and len(buf) < low // 2 and len(pieces[-1]) + 2 + len(buf) <= high + low // 2:
            pieces[-1] = f"{pieces[-1]}\n\n{buf}"
        else:
            pieces.append(buf)
    return pieces


def parse_curriculum(blocks: list[Block], *, fallback_thema: str,
                     klassenstufen: Iterable[int] = ()) -> list[CurriculumPiece]:
    """Section-aware pieces: the heading path is `abschnitt`, its deepest heading the `thema`, the one above the
    `themenfeld`; grade headings ("Klassenstufe 9") give `klassenstufen`. Long sections split at paragraphs."""
    styled = any(b.level is not None and b.level > 0 for b in blocks)
    default_grades = tuple(sorted(set(klassenstufen)))
    title: str | None = None
    stack: list[tuple[int, str]] = []
    sections: list[tuple[tuple[str, ...], list[str]]] = []
    paragraphs: list[str] = []

    def flush() -> None:
        if paragraphs:
            sections.append((tuple(h for _, h in stack), list(paragraphs)))
            paragraphs.clear()

    for block in blocks:
        level = block.level if styled else (block.level if block.level == 0 else _text_heading_level(block))
        if level == 0:
            flush()
            title = title or block.text
            continue
        if level is not None:
            flush()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, block.text[:300]))
            continue
        if paragraphs and not block.para_start:
            prev = paragraphs[-1]
            hyphenated = prev.endswith("-") and block.text[:1].islower()
            paragraphs[-1] = prev[:-1] + block.text if hyphenated else f"{prev} {block.text}"
        else:
            paragraphs.append(block.text)
    flush()

    pieces: list[CurriculumPiece] = []
    for path, paras in sections:
        grades: tuple[int, ...] = ()
        topical: list[str] = []
        for heading in path:
            g = _grades(heading)
            if g:
                grades = tuple(g)
            else:
                topical.append(_SECTION_NUMBER.sub("", heading).strip() or heading)
        thema = (topical[-1] if topical else (path[-1] if path else (title or fallback_thema)))[:200]
        themenfeld = topical[-2][:200] if len(topical) >= 2 else None
        abschnitt = " › ".join(path) if path else None
        for text in split_paragraphs(paras):
            pieces.append(CurriculumPiece(abschnitt=abschnitt, themenfeld=themenfeld, thema=thema,
                                          klassenstufen=grades or default_grades, kompetenz=text))
    return pieces
