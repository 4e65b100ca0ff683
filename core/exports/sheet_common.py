"""Sheet parts every material uses: a material block (numbered text, plain text or table with its source), the
sources list, and German counts that read right ("1 Aufgabe", "2 Aufgaben")."""

from __future__ import annotations

from core.exports.lines import number_labels
from core.exports.sheet import Block, Box, LinedText, Para, Table
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


def material_blocks(block: MaterialBlock) -> list[Block]:
    """One material as printed: the table, the numbered text (lines as prepared) or the plain text, then the source."""
    out: list[Block] = []
    if block.tabelle is not None:
        out.append(Para.of(block.titel, bold=True))
        n = max(len(block.tabelle.spalten), 1)
        rows = tuple(tuple(str(c) for c in (list(r) + [""] * n)[:n]) for r in block.tabelle.zeilen)
        out.append(Table(header=tuple(block.tabelle.spalten), rows=rows, widths=(1.0,) * n))
    elif block.text and block.zeilennummern:
        lines = block.text.split("\n")
        out.append(LinedText(title=block.titel, lines=tuple(lines), numbers=tuple(number_labels(lines))))
    elif block.text:
        out.append(Box(block.titel, tuple(p.strip() for p in block.text.split("\n\n") if p.strip())))
    if block.quelle.strip():
        out.append(Para.of(f"Quelle: {block.quelle.strip()}", italic=True, small=True))
    return out
