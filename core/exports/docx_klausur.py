"""DOCX export of an exam: Schülerfassung (tasks and points) and Lehrerfassung (Erwartungshorizont, AFB, Noten).

The Schülerfassung never contains anything of the Erwartungshorizont; both documents number their pages.
"""

from __future__ import annotations

from collections.abc import Mapping

from docx.document import Document as DocxDocument
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.shared import Cm, Pt

from core.exports.docx_blocks import add_box, add_table, docx_text, new_document, text_width, to_bytes
from core.exports.docx_material import add_material
from core.materials.blocks import AFB_STUFEN, Quelle
from core.materials.klausur import Aufgabe, Klausur, Teilaufgabe
from core.materials.notenschluessel import format_punkte, format_zahl

QUELLEN_ARTEN = {
    "curriculum": "Lehrplan",
    "good_practice": "Bewährte Aufgabe",
    "upload": "Eigenes Material (Upload)",
    "generator": "Rechenaufgabe (Werte neu gewählt, exakt berechnet)",
    "notiz": "Notiz zur Klasse bzw. Fachschaft",
    "eigene": "Eigene Formulierung",
}


def _kopfzeile(doc: DocxDocument, k: Klausur) -> None:
    """Name / Datum / Klasse table to fill in by hand; Klasse prefilled when known."""
    table = doc.add_table(rows=1, cols=3)
    table.style = "Table Grid"
    for cell, (feld, wert) in zip(
        table.rows[0].cells, (("Name", ""), ("Datum", ""), ("Klasse", k.klasse or "")), strict=True
    ):
        paragraph = cell.paragraphs[0]
        paragraph.add_run(f"{feld}: ").bold = True
        paragraph.add_run(docx_text(wert))
        paragraph.paragraph_format.space_before = Pt(6)
        paragraph.paragraph_format.space_after = Pt(6)
    doc.add_paragraph()


def _eckdaten(k: Klausur) -> str:
    hilfsmittel = ", ".join(h.strip() for h in k.hilfsmittel if h.strip()) or "keine"
    return (
        f"Fach: {k.fach} · Klassenstufe {k.klassenstufe} · Dauer: {k.dauer_minuten} Minuten · "
        f"Hilfsmittel: {hilfsmittel}"
    )


def _teilaufgabe_absatz(doc: DocxDocument, teil: Teilaufgabe) -> None:
    """'a)<tab>text<tab>(4 P.)' with a hanging indent and the points on a right tab stop at the margin."""
    paragraph = doc.add_paragraph()
    fmt = paragraph.paragraph_format
    fmt.left_indent = Cm(0.8)
    fmt.first_line_indent = Cm(-0.8)
    fmt.tab_stops.add_tab_stop(Cm(0.8))
    fmt.tab_stops.add_tab_stop(text_width(doc), WD_TAB_ALIGNMENT.RIGHT)
    fmt.space_after = Pt(8)
    paragraph.add_run(f"{docx_text(teil.kennung)})").bold = True
    paragraph.add_run("\t" + docx_text(teil.text.strip()) + "\t")
    paragraph.add_run(f"({format_zahl(teil.punkte)} P.)").bold = True


def _aufgabe_ueberschrift(doc: DocxDocument, aufgabe: Aufgabe) -> None:
    titel = f"Aufgabe {aufgabe.nummer}"
    if aufgabe.titel.strip():
        titel += f": {aufgabe.titel.strip()}"
    doc.add_heading(docx_text(titel), level=2)


def schuelerfassung(k: Klausur, gruppe: str | None = None) -> bytes:
    """The exam sheet for the students: header, tasks with material, points per sub-task, total. With `gruppe`
    ('A' or 'B') the sheet of that group (B: the re-drawn tasks)."""
    aufgaben = k.gruppe_b if gruppe == "B" and k.gruppe_b else k.aufgaben
    doc = new_document(k.titel + (f" – Gruppe {gruppe}" if gruppe else ""))
    _kopfzeile(doc, k)
    doc.add_heading(docx_text(k.titel + (f" – Gruppe {gruppe}" if gruppe else "")), level=1)
    doc.add_paragraph(docx_text(_eckdaten(k)))
    if k.thema.strip():
        doc.add_paragraph(docx_text(f"Thema: {k.thema.strip()}"))

    hinweise = [h for h in k.hinweise if h.strip()]
    if hinweise:
        doc.add_paragraph().add_run("Hinweise").bold = True
        for hinweis in hinweise:
            doc.add_paragraph(docx_text(hinweis.strip()), style="List Bullet")

    for aufgabe in aufgaben:
        _aufgabe_ueberschrift(doc, aufgabe)
        if aufgabe.material and aufgabe.material.strip():
            add_box(doc, "Material", aufgabe.material.strip().split("\n\n"))
        for block in aufgabe.materialien:
            add_material(doc, block)
        for teil in aufgabe.teilaufgaben:
            _teilaufgabe_absatz(doc, teil)

    doc.add_paragraph()
    summe = doc.add_paragraph()
    summe.add_run(f"Gesamtpunktzahl: {format_punkte(k.gesamtpunkte)}").bold = True
    doc.add_paragraph(f"Erreichte Punktzahl: ________ von {format_zahl(k.gesamtpunkte)}        Note: ________")
    return to_bytes(doc)


def _quelle_text(quelle: Quelle) -> str:
    art = QUELLEN_ARTEN.get(quelle.art, quelle.art)
    return f"{art}: {quelle.titel.strip()} [{quelle.ref.strip()}]"


def lehrerfassung(k: Klausur, *, afb_ziel: Mapping[str, int] | None = None) -> bytes:
    """The teacher's version: Erwartungshorizont per sub-task with totals, AFB overview, Notenschlüssel, sources.

    afb_ziel (percent per AFB) fills the target column of the AFB overview; without it the column shows '–'.
    """
    doc = new_document(f"Erwartungshorizont – {k.titel}")
    doc.add_heading("Erwartungshorizont", level=1)
    klasse = f" · Klasse {k.klasse}" if k.klasse else ""
    doc.add_paragraph(docx_text(f"{k.titel}{klasse}"))
    doc.add_paragraph(docx_text(_eckdaten(k)))
    hinweise = [h for h in k.hinweise_lehrkraft if h.strip()]
    if hinweise:
        add_box(doc, "Hinweise für die Lehrkraft", hinweise, fill="FFF4CE")
    gruppen = [("A", k.aufgaben), ("B", k.gruppe_b)] if k.gruppe_b else [(None, k.aufgaben)]
    for gruppe, aufgaben in gruppen:
        if gruppe:
            doc.add_heading(f"Gruppe {gruppe}", level=1)
        _erwartungen(doc, aufgaben)

    doc.add_paragraph().add_run(f"Gesamtpunktzahl: {format_punkte(k.gesamtpunkte)}").bold = True
    _afb_und_noten(doc, k, afb_ziel)
    _quellen(doc, k)
    return to_bytes(doc)


def _erwartungen(doc: DocxDocument, aufgaben: list[Aufgabe]) -> None:
    breite = text_width(doc) / 360000  # EMU per cm
    for aufgabe in aufgaben:
        _aufgabe_ueberschrift(doc, aufgabe)
        for teil in aufgabe.teilaufgaben:
            ref = f"{aufgabe.nummer}{teil.kennung}"
            kopf = doc.add_paragraph()
            kopf.add_run(f"Teilaufgabe {ref}").bold = True
            kopf.add_run(docx_text(f" – {teil.operator.strip()}, AFB {teil.afb}, {format_punkte(teil.punkte)}"))
            doc.add_paragraph(docx_text(teil.text.strip()))
            summe_kriterien = sum(c.punkte for c in teil.erwartung)
            summe = format_zahl(teil.punkte)
            if summe_kriterien != teil.punkte:
                summe = f"{format_zahl(summe_kriterien)} (Teilaufgabe: {format_zahl(teil.punkte)})"
            rows = [[c.text.strip(), format_zahl(c.punkte)] for c in teil.erwartung]
            rows.append([f"Summe Teilaufgabe {ref}", summe])
            add_table(doc, ["Kriterium", "Punkte"], rows, [breite - 2.5, 2.5], summenzeile=True, rechtsbuendig=(1,))
            doc.add_paragraph()
        doc.add_paragraph().add_run(f"Summe Aufgabe {aufgabe.nummer}: {format_punkte(aufgabe.punkte)}").bold = True


def _afb_und_noten(doc: DocxDocument, k: Klausur, afb_ziel: Mapping[str, int] | None) -> None:
    doc.add_heading("Anforderungsbereiche", level=2)
    ziel = afb_ziel or {}
    afb_rows = [
        [
            f"AFB {afb}",
            format_zahl(k.afb_punkte[afb]),
            f"{format_zahl(k.afb_anteile[afb], 1)} %",
            f"{ziel[afb]} %" if afb in ziel else "–",
        ]
        for afb in AFB_STUFEN
    ]
    afb_rows.append(["Summe", format_zahl(k.gesamtpunkte), "100 %" if k.gesamtpunkte else "–", ""])
    add_table(
        doc, ["AFB", "Punkte", "Anteil", "Ziel"], afb_rows, [4, 3, 3, 3], summenzeile=True, rechtsbuendig=(1, 2, 3)
    )

    doc.add_heading(f"Notenschlüssel ({k.notenschema.bezeichnung})", level=2)
    noten_rows = []
    vorige_schwelle = 100.0
    for stufe in k.notenschluessel:
        spanne = format_zahl(stufe.min_punkte)
        if stufe.max_punkte != stufe.min_punkte:
            spanne += f" – {format_zahl(stufe.max_punkte)}"
        if stufe.ab_prozent:
            schwelle = f"ab {format_zahl(stufe.ab_prozent)} %"
        else:
            schwelle = f"unter {format_zahl(vorige_schwelle)} %"
        noten_rows.append([stufe.note, stufe.label, spanne, schwelle])
        vorige_schwelle = stufe.ab_prozent
    add_table(doc, ["Note", "Bezeichnung", "Punkte", "Schwelle"], noten_rows, [2, 5, 4, 3], rechtsbuendig=(2, 3))
    doc.add_paragraph(
        f"Berechnet für eine Gesamtpunktzahl von {format_zahl(k.gesamtpunkte)}; die Mindestpunktzahl jeder Note ist "
        f"auf halbe Punkte aufgerundet."
    )


def _quellen(doc: DocxDocument, k: Klausur) -> None:
    doc.add_heading("Quellen", level=2)
    quellen = k.quellen()
    if not quellen:
        doc.add_paragraph("Keine Quellen angegeben.")
    for quelle, refs in quellen:
        doc.add_paragraph(docx_text(f"{_quelle_text(quelle)} – verwendet in {', '.join(refs)}"), style="List Bullet")
