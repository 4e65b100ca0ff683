"""Sheet parts every material uses: a material block (numbered text, plain text or table with its source), the
sources list, and German counts that read right ("1 Aufgabe", "2 Aufgaben")."""

from __future__ import annotations

import re

from core.exports.klimadiagramm import PupilWork, climate_data, draw, pupil_work
from core.exports.lines import number_labels
from core.exports.sheet import Block, Box, Image, LinedText, Para, Table
from core.exports.table_widths import column_widths
from core.materials.blocks import MaterialBlock, Quelle

QUELLEN_ARTEN = {
    "curriculum": "Lehrplan",
    "good_practice": "Bewährte Aufgabe",
    "upload": "Eigenes Material (Upload)",
    "generator": "Rechenaufgabe (Werte neu gewählt, exakt berechnet)",
    "notiz": "Notiz zur Klasse bzw. Fachschaft",
    "eigene": "Eigene Formulierung",
}


def quelle_text(quelle: Quelle) -> str:
    art = QUELLEN_ARTEN.get(quelle.art, quelle.art)
    return f"{art}: {quelle.titel.strip()} [{quelle.ref.strip()}]"


TEXT_MM = 170.0  # A4 minus 2 × 20 mm margins (DOCX and PDF)
DIAGRAM_MM = 120.0
_MINUS = re.compile(r"(?<![\w\u2212-])-(?=\d)")
_NUMBER_SPACE = re.compile(r"(?<=\d) (?=\d{3}\b)|(?<=\d) (?=(?:m|km|mm|°C|%)(?!\w))")


def _keep_numbers(text: str) -> str:
    """'1 000–2 000 m' with no-break spaces in the numbers and before the unit, and '-38,6' with a minus sign (not a
    hyphen, where a line may break), so a cell never breaks inside a number."""
    return _NUMBER_SPACE.sub("\u00a0", _MINUS.sub("\u2212", text))


def _station(titel: str) -> str:
    """'M2 Klimadaten Jakutsk (Russland), 62° N …' -> 'Jakutsk (Russland), 62° N …'."""
    rest = re.sub(r"^\s*M\s?\d+\s*[:.–-]?\s*", "", titel)
    return re.sub(r"^(Klimadaten|Klimatabelle|Klimawerte)\s*[:–-]?\s*", "", rest, flags=re.I).strip() or titel


def material_blocks(block: MaterialBlock, tasks: list[str] | None = None) -> list[Block]:
    """One material as printed: the table, the numbered text (lines as prepared) or the plain text, then the source.
    A climate table comes with its Klimadiagramm unless the tasks have the pupils draw it (without the annual values
    when they are to work those out): the sheet never prints the answer."""
    out: list[Block] = []
    if block.tabelle is not None:
        out.append(Para.of(block.titel, bold=True))
        n = max(len(block.tabelle.spalten), 1)
        header = tuple((list(block.tabelle.spalten) + [""] * n)[:n])
        rows = tuple(tuple(_keep_numbers(str(c)) for c in (list(r) + [""] * n)[:n]) for r in block.tabelle.zeilen)
        klima = climate_data(block.tabelle, _station(block.titel))
        work = pupil_work(tasks or [], block.titel.split(" ", 1)[0]) if tasks else PupilWork()
        if klima and not work.draws:
            out.append(Image(draw(klima, DIAGRAM_MM, totals=not work.totals), DIAGRAM_MM,
                             f"Klimadiagramm {klima.station}"))
        fit = column_widths(header, rows, TEXT_MM)
        out.append(Table(header=header, rows=rows, widths=fit.widths_mm, font_pt=fit.font_pt))
    elif block.text and block.zeilennummern:
        lines = block.text.split("\n")
        out.append(LinedText(title=block.titel, lines=tuple(lines), numbers=tuple(number_labels(lines))))
    elif block.text:
        out.append(Box(block.titel, tuple(p.strip() for p in block.text.split("\n\n") if p.strip())))
    if block.quelle.strip():
        out.append(Para.of(f"Quelle: {block.quelle.strip()}", italic=True, small=True))
    return out
