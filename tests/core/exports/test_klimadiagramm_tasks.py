"""A climate table's Klimadiagramm on the pupils' sheet never prints the answer: a task that has the pupils draw
the diagram gets the table alone, a task that has them work out the annual mean or sum gets a diagram without
those values (teacher read-through, stop 25: „Stelle die Klimadaten von Moskau (M1) als Klimadiagramm … dar“ came
with the finished diagram printed above the table)."""

from __future__ import annotations

import io

import docx
from PIL import Image as PILImage
from pypdf import PdfReader

from core.exports.docx_render import render_docx
from core.exports.files import render
from core.exports.klimadiagramm import SCALE, climate_data, draw, pupil_work
from core.exports.pdf_render import render_pdf
from core.exports.sheet import Heading, Image, Para, Sheet, Table
from core.materials.blocks import MaterialBlock, Tabelle
from tests.core.materials.test_models import AFB_ZIEL, make_klausur

MOSKAU = Tabelle(
    spalten=["Monat", *"JFMAMJJASOND"],
    zeilen=[
        [
            "Temperatur (°C)",
            "-6,2",
            "-5,9",
            "-0,9",
            "6,4",
            "13,0",
            "16,9",
            "19,2",
            "17,0",
            "11,3",
            "5,6",
            "-0,5",
            "-4,4",
        ],
        ["Niederschlag (mm)", "53", "44", "39", "37", "61", "78", "84", "78", "66", "70", "52", "51"],
    ],
)


def climate(label: str, station: str) -> MaterialBlock:
    return MaterialBlock(titel=f"{label} Klimadaten {station}", art="tabelle", tabelle=MOSKAU)


def test_a_diagram_the_pupils_are_to_draw_is_not_printed_one_they_are_to_read_is():
    k = make_klausur()
    k.aufgaben[0].materialien = [climate("M1", "Moskau")]
    k.aufgaben[0].teilaufgaben[
        0
    ].text = "Stelle die Klimadaten von Moskau (M1) als Klimadiagramm nach Walter und Lieth dar."
    k.aufgaben[1].materialien = [climate("M2", "Dublin")]
    k.aufgaben[1].teilaufgaben[0].text = "Werte das Klimadiagramm von Dublin (M2) aus."
    files = {f.kind: f.data for f in render(k, afb_ziel=AFB_ZIEL)}
    document = docx.Document(io.BytesIO(files["schueler_docx"]))
    assert len(document.inline_shapes) == 1
    reader = PdfReader(io.BytesIO(files["schueler_pdf"]))
    pictures = [page.extract_text() for page in reader.pages for _ in page.images]
    assert len(pictures) == 1 and "Klimadaten Dublin" in pictures[0]
    assert sum(1 for t in document.tables if t.cell(0, 0).text == "Monat") == 2  # both tables stay


def test_which_task_asks_for_what_is_read_per_sentence_and_material():
    assert pupil_work(["Zeichne ein Klimadiagramm für Moskau."], "M1").draws
    assert not pupil_work(["Zeichne die aride Zeit in das Klimadiagramm ein."], "M1").draws
    assert not pupil_work(["Stelle die Unterschiede der beiden Klimadiagramme dar."], "M1").draws
    assert not pupil_work(["Zeichnen Sie mithilfe von M2 ein Klimadiagramm."], "M1").draws
    assert pupil_work(["Ermittle aus M1 die Jahresmitteltemperatur und den Jahresniederschlag."], "M1").totals
    assert not pupil_work(["Beschreibe das Klima von Moskau."], "M1").totals


def test_a_diagram_whose_annual_values_the_pupils_work_out_leaves_them_out():
    klima = climate_data(MOSKAU, "Moskau")

    def head_line_inked(png: bytes) -> bool:
        """Whether the line under the station's name (where „Jahresmittel … °C“ stands, above the plot between its
        axis labels) has any dark pixel."""
        picture = PILImage.open(io.BytesIO(png)).convert("L")
        band = picture.crop((16 * SCALE, 8 * SCALE, picture.width - 18 * SCALE, 11 * SCALE))
        return min(band.getdata()) < 100

    assert head_line_inked(draw(klima, 120)) and not head_line_inked(draw(klima, 120, totals=False))


def test_a_heading_a_climate_tables_title_its_diagram_and_the_table_share_a_page():
    # The geography read-through found „Aufgabe 2: …“ alone at the foot of page 1, and Dublin's diagram on page 2
    # with its table on page 3.
    klima = climate_data(MOSKAU, "Dublin")
    rows = tuple(tuple(r) for r in MOSKAU.zeilen)
    for filler in (20, 28):  # room for the heading and the title, or for the diagram, but not for all of it
        sheet = Sheet("Klima")
        sheet.add(*(Para.of(f"Vorige Aufgabe, Zeile {i}") for i in range(filler)))
        sheet.add(
            Heading("Aufgabe 2: Klimadiagramme vergleichen", 2),
            Para.of("M3 Klimadaten Dublin", bold=True),
            Image(draw(klima, 120), 120, "Klimadiagramm Dublin"),
            Table(tuple(MOSKAU.spalten), rows, (3,) + (1,) * 12),
        )
        pages = PdfReader(io.BytesIO(render_pdf(sheet))).pages
        page = next(p for p in pages if "Aufgabe 2: Klimadiagramme vergleichen" in p.extract_text())
        assert "M3 Klimadaten Dublin" in page.extract_text() and len(page.images) == 1
        assert "(mm) 53 44 39" in page.extract_text()  # the table's last row
    paragraphs = docx.Document(io.BytesIO(render_docx(sheet))).paragraphs[filler : filler + 3]
    kept = [p.paragraph_format.keep_with_next or p.style.paragraph_format.keep_with_next for p in paragraphs]
    assert kept == [True, True, True]  # in Word: heading (by its style), title and diagram go with the table
