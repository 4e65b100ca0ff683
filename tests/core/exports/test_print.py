"""What a printed sheet shows, read back as a teacher would: PDF text beside the DOCX, line numbers that match the
printed lines (and citations that follow them), headings that end at a word, M labels, a task's own a)/b) list,
the Atlas a task needs, true/false feedback that does not contradict itself."""

from __future__ import annotations

import io
import json
import zipfile

import docx
from pypdf import PdfReader

from core.exports import sheets_klausur
from core.exports.files import render
from core.exports.h5p import build_package
from core.exports.inner_list import InnerList, inner_list
from core.exports.lines import MEASURE_MM, move_citations, printed_lines, text_width_mm
from core.exports.printable import heading, printable_differenzierung, printable_klausur
from core.materials.blocks import MaterialBlock, Quelle, Tabelle
from core.materials.h5p import H5PSet, TrueFalseFrage
from core.materials.klausur import Aufgabe
from tests.core.checks.test_structure import make_differenzierung
from tests.core.materials.test_models import AFB_ZIEL, make_klausur, teil

LONG = ("After the American Civil War, slavery ended in 1865. But in the Southern states, new laws – called 'Jim Crow "
        "laws' – kept Black and white people apart.")


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def files_of(material, **kw) -> dict[str, bytes]:
    return {f.kind: f.data for f in render(material, **kw)}


def test_every_docx_has_a_pdf_with_the_same_tasks_and_page_numbers():
    k = make_klausur()
    files = files_of(k, afb_ziel=AFB_ZIEL)
    assert set(files) == {"schueler_docx", "schueler_pdf", "lehrer_docx", "lehrer_pdf"}
    schueler, lehrer = pdf_text(files["schueler_pdf"]), pdf_text(files["lehrer_pdf"])
    assert files["schueler_pdf"].startswith(b"%PDF-")
    assert "Name:" in schueler and "Datum:" in schueler and "Klasse: 10a" in schueler
    assert "Seite 1 von" in schueler
    for t in k.teilaufgaben():
        assert " ".join(t.text.split()[:3]) in " ".join(schueler.split())
    assert "Erwartungshorizont" not in schueler and "Erwartungshorizont" in lehrer
    assert "Notenschlüssel" in lehrer and "Gesamtpunktzahl: 40 Punkte" in lehrer
    worksheet = files_of(make_differenzierung())
    assert set(worksheet) == {"arbeitsblatt_docx", "arbeitsblatt_pdf", "loesungen_docx", "loesungen_pdf"}
    assert "Lösungen" in pdf_text(worksheet["loesungen_pdf"]) and "Hilfekarte 1" in pdf_text(
        worksheet["arbeitsblatt_pdf"])


def test_long_lines_are_broken_to_fit_and_citations_follow_them():
    text = "\n".join([LONG, "Short second line.", LONG])
    printed = printed_lines(text)
    assert all(text_width_mm(line) <= MEASURE_MM for line in printed.lines)
    assert printed.spans[1] == (1, 2) and printed.spans[2] == (3, 3) and printed.spans[3] == (4, 5)
    assert move_citations("Lies Z. 3 und vergleiche mit Z. 1–2 (Zeile 2).", printed.spans) == \
        "Lies Z. 4–5 und vergleiche mit Z. 1–3 (Zeile 3)."
    assert move_citations("Zeilen 1 bis 2, l. 3, Z. 9", printed.spans) == "Zeilen 1 bis 3, ll. 4–5, Z. 9"
    short = printed_lines("eins\nzwei\n\ndrei")
    assert not short.moved and move_citations("Z. 3", short.spans) == "Z. 3"


def test_printed_line_numbers_match_the_citations_in_pupil_and_teacher_files():
    # Verse keeps its lines (a verse too long for the measure goes on in the next line); prose is re-set instead
    # (tests/core/exports/test_print_layout.py).
    block = MaterialBlock(titel="M1 Separate and not equal", art="gedicht",
                          text="\n".join([LONG, "Rosa Parks.", LONG]), zeilennummern=True)
    k = make_klausur()
    k.aufgaben[1] = Aufgabe(nummer=2, titel="Civil rights", materialien=[block], teilaufgaben=[
        teil("a", "Beschreiben", "Beschreibe, was in Z. 2 geschieht.", "I", 4, 4),
        teil("b", "Erklären", "Erkläre Z. 3 mithilfe von M1.", "II", 5, 5)])
    k.aufgaben[1].teilaufgaben[1].erwartung[0].text = "nennt die Trennung (Z. 3)"
    p = printable_klausur(k)
    lines = p.aufgaben[1].materialien[0].text.split("\n")
    assert lines[2] == "Rosa Parks." and len(lines) == 5
    assert p.aufgaben[1].teilaufgaben[0].text == "Beschreibe, was in Z. 3 geschieht."
    assert p.aufgaben[1].teilaufgaben[1].text == "Erkläre Z. 4–5 mithilfe von M1."
    assert p.aufgaben[1].teilaufgaben[1].erwartung[0].text == "nennt die Trennung (Z. 4–5)"
    assert k.aufgaben[1].teilaufgaben[0].text == "Beschreibe, was in Z. 2 geschieht."  # the stored one is unchanged
    doc = docx.Document(io.BytesIO(files_of(k)["schueler_docx"]))
    box = next(t for t in doc.tables if t.cell(0, 0).paragraphs[0].text == "M1 Separate and not equal")
    numbered = [par.text for par in box.cell(0, 0).paragraphs[1:]]
    assert numbered[0].startswith("\t1\tAfter") and numbered[4].startswith("\t5\t")
    assert numbered[2] == "\t\tRosa Parks."


def test_cut_titles_end_at_a_sentence_or_word_and_generic_labels_are_dropped():
    assert heading("Modellversuch: Wasser wird zwischen zwei Messzylindern hin- und hergetragen. In jedem Schritt"[
        :80]) == "Modellversuch: Wasser wird zwischen zwei Messzylindern hin- und hergetragen."
    assert heading("Messreihe: Kapazität eines Plattenkondensators (Plattenfläche 0,040 m², Luft) bei verschiedenen"[
        :80]) == "Messreihe: Kapazität eines Plattenkondensators (Plattenfläche 0,040 m², Luft) …"
    assert heading("Kurzer Titel") == "Kurzer Titel"
    k = make_klausur()
    k.aufgaben[1].materialien = [MaterialBlock(titel="M1 Material", text="Ein Zitat.")]
    assert "M1" in [b.titel for b in printable_klausur(k).aufgaben[1].materialien]


def test_a_tasks_own_list_gets_its_own_lines_and_a_lone_part_no_letter():
    assert inner_list("Ermittle: a) Um welchen Faktor? b) Wie viel Zeit bleibt?") == InnerList(
        "Ermittle:", ("a) Um welchen Faktor?", "b) Wie viel Zeit bleibt?"))
    assert inner_list("Nenne a) nichts weiter.") is None
    k = make_klausur()
    k.aufgaben[1].teilaufgaben = [teil("a", "Berechnen", "Ermittle: a) den Faktor. b) die Zeit.", "II", 9)]
    sheet = sheets_klausur.schuelerfassung(printable_klausur(k))
    text = sheet.plain_text()
    assert "a) den Faktor." in text.split("\n") and "b) die Zeit." in text.split("\n")
    assert "a) Ermittle" not in text and "Ermittle: (9 P.)" in text


def test_atlas_is_listed_when_a_task_needs_it():
    k = make_klausur(hilfsmittel=[])
    k.aufgaben[0].teilaufgaben[0].text = "Lokalisiere im Atlas die Räume."
    assert printable_klausur(k).hilfsmittel == ["Atlas"]
    assert "Hilfsmittel: Atlas" in pdf_text(files_of(k)["schueler_pdf"])


def test_worksheet_materials_are_labelled_as_the_tasks_cite_them():
    table = MaterialBlock(titel="Klimadaten Rom", art="tabelle", tabelle=Tabelle(spalten=["Monat", "°C"],
                                                                                   zeilen=[["Jan", "8"]]))
    m = make_differenzierung(materialien=[table])
    m.niveaus[0].aufgaben = ["Lies M2 und nenne den kältesten Monat."]
    p = printable_differenzierung(m)
    assert p.materialien[0].titel == "M1 Klimadaten Rom"
    assert p.niveaus[0].aufgaben[0] == "Lies M1 und nenne den kältesten Monat."


def test_true_false_feedback_never_says_right_and_wrong_at_once():
    s = H5PSet(titel="Quiz", fach="Biologie", klassenstufe=7, thema="Zellen", fragen=[
        TrueFalseFrage(frage="Pflanzenzellen haben keine Zellwand.", wahr=False,
                       erklaerung="Falsch: Pflanzenzellen haben eine Zellwand aus Cellulose.")])
    with zipfile.ZipFile(io.BytesIO(build_package(s))) as z:
        content = json.loads(z.read("content/content.json"))
    assert content["behaviour"]["feedbackOnCorrect"] == "Richtig! Pflanzenzellen haben eine Zellwand aus Cellulose."
    assert content["behaviour"]["feedbackOnWrong"] == "Leider nicht. Pflanzenzellen haben eine Zellwand aus Cellulose."
    s.hinweise_lehrkraft = ["Nur 1 statt 10 Fragen: mehr geprüfte Fragen gibt es nicht."]
    lehrer = pdf_text(files_of(s)["loesungen_pdf"])
    assert "Nur 1 statt 10 Fragen" in lehrer and "Lösung: falsch" in lehrer


def test_the_quiz_solutions_list_a_gap_texts_source_without_h5p_markup():
    s = H5PSet(titel="Quiz", fach="Chemie", klassenstufe=9, thema="Säuren und Basen", fragen=[
        TrueFalseFrage(frage="Säuren schmecken sauer.", wahr=True, erklaerung="Richtig, aber nie probieren.")],
        quellen=[Quelle(art="good_practice", ref="gp-1", titel="Eine Lösung mit dem pH-Wert 7 ist *neutral*.")])
    lehrer = " ".join(pdf_text(files_of(s)["loesungen_pdf"]).split())
    assert "Bewährte Aufgabe: Eine Lösung mit dem pH-Wert 7 ist [neutral]. [gp-1]" in lehrer and "*" not in lehrer
