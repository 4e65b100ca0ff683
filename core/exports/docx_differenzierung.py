"""DOCX export of a differentiated worksheet: one section per Niveau with Hilfekarten, then a Lösungen part.

Each Niveau starts on a new page so the teacher can hand out exactly one level; solutions come last.
"""

from __future__ import annotations

from docx.document import Document as DocxDocument

from core.exports.docx_blocks import add_box, docx_text, new_document, to_bytes
from core.exports.docx_klausur import QUELLEN_ARTEN
from core.exports.docx_material import add_material
from core.materials.differenzierung import NIVEAU_NAMEN, DifferenziertesMaterial, Niveau

NIVEAU_SYMBOLE = {"grundlegend": "●", "mittel": "●●", "erweitert": "●●●"}
NIVEAU_TITEL = {"grundlegend": "Grundlegendes Niveau", "mittel": "Mittleres Niveau", "erweitert": "Erweitertes Niveau"}


def _geordnet(m: DifferenziertesMaterial) -> list[Niveau]:
    """Niveaus in the order grundlegend, mittel, erweitert, whatever order the model used."""
    rang = {name: i for i, name in enumerate(NIVEAU_NAMEN)}
    return sorted(m.niveaus, key=lambda n: rang.get(n.name, len(rang)))


def _niveau_titel(niveau: Niveau) -> str:
    return f"{NIVEAU_SYMBOLE.get(niveau.name, '')} {NIVEAU_TITEL.get(niveau.name, niveau.name)}".strip()


def _nummeriert(doc: DocxDocument, texte: list[str]) -> None:
    """'1. text' paragraphs; explicit numbers, because Word continues a 'List Number' across sections."""
    for i, text in enumerate(texte, start=1):
        paragraph = doc.add_paragraph()
        paragraph.paragraph_format.left_indent = 0
        paragraph.add_run(f"{i}. ").bold = True
        paragraph.add_run(docx_text(text.strip()))


def arbeitsblatt(m: DifferenziertesMaterial) -> bytes:
    """The worksheet: per Niveau a page with header, Lernziel, tasks and Hilfekarten; then all Lösungen."""
    doc = new_document(m.titel)
    niveaus = _geordnet(m)
    for index, niveau in enumerate(niveaus):
        kopf = doc.add_paragraph("Name: ______________________________    Datum: ______________")
        kopf.paragraph_format.page_break_before = index > 0
        doc.add_heading(docx_text(m.titel), level=1)
        doc.add_heading(_niveau_titel(niveau), level=2)
        doc.add_paragraph(docx_text(f"{m.fach} · Klassenstufe {m.klassenstufe} · Thema: {m.thema}"))
        ziel = doc.add_paragraph()
        ziel.add_run("Lernziel: ").bold = True
        ziel.add_run(docx_text(m.lernziel.strip()))
        for block in m.materialien:
            add_material(doc, block)
        doc.add_heading("Aufgaben", level=3)
        _nummeriert(doc, niveau.aufgaben)
        if niveau.hilfekarten:
            doc.add_heading("Hilfekarten", level=3)
            doc.add_paragraph("Nutze eine Hilfekarte erst, wenn du allein nicht weiterkommst.")
            for i, karte in enumerate(niveau.hilfekarten, start=1):
                add_box(doc, f"Hilfekarte {i}", karte.strip().split("\n\n"))

    doc.add_heading("Lösungen", level=1).paragraph_format.page_break_before = True
    for niveau in niveaus:
        doc.add_heading(_niveau_titel(niveau), level=2)
        if not niveau.loesungen:
            doc.add_paragraph("Keine Lösungen angegeben.")
        _nummeriert(doc, niveau.loesungen)

    if m.quellen:
        doc.add_heading("Quellen", level=2)
        for quelle in m.quellen:
            art = QUELLEN_ARTEN.get(quelle.art, quelle.art)
            doc.add_paragraph(docx_text(f"{art}: {quelle.titel.strip()} [{quelle.ref.strip()}]"), style="List Bullet")
    return to_bytes(doc)
