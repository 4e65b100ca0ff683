"""Exports as a teacher relies on them: DOCX reopened with python-docx, .h5p unzipped, Moodle XML parsed back."""

from __future__ import annotations

import html
import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile

import docx
import pytest
from lxml import etree

from core.checks.structure import validate_h5p
from core.exports import sheets_differenzierung, sheets_klausur
from core.exports.docx_render import render_docx
from core.exports.h5p import LIBRARIES, build_package, summary
from core.exports.moodle import to_moodle_xml
from core.exports.printable import printable_differenzierung, printable_klausur
from core.exports.xml_text import ExportError, xml_safe
from core.materials.h5p import Antwort, BlanksFrage, DragTextFrage, MultiChoiceFrage, TrueFalseFrage
from core.materials.notenschluessel import format_zahl
from tests.core.checks.test_structure import make_differenzierung, make_h5p
from tests.core.materials.test_models import AFB_ZIEL, make_klausur

HOSTILE = "<script>alert('x')</script> ]]> & \"Zitat\" 😀 مرحبا שלום {1:SHORTANSWER:=x} ~#}\\"
CONTROL = "Steuer\x00zeichen\x0b weg\x1f"


def schuelerfassung(k, gruppe=None) -> bytes:
    return render_docx(sheets_klausur.schuelerfassung(printable_klausur(k), gruppe))


def lehrerfassung(k, afb_ziel=None) -> bytes:
    return render_docx(sheets_klausur.lehrerfassung(printable_klausur(k), afb_ziel=afb_ziel))


def arbeitsblatt(m) -> bytes:
    return render_docx(sheets_differenzierung.schuelerfassung(printable_differenzierung(m)))


def loesungen(m) -> bytes:
    return render_docx(sheets_differenzierung.lehrerfassung(printable_differenzierung(m)))


def document_text(data: bytes) -> str:
    """All text of a DOCX: body paragraphs and table cells in order, then the footers."""
    doc = docx.Document(io.BytesIO(data))
    body = doc.element.body
    texts = [node.text or "" for node in body.iter(docx.oxml.ns.qn("w:t"))]
    footers = [p.text for s in doc.sections for p in s.footer.paragraphs]
    return "\n".join(texts + footers)


def footer_xml(data: bytes) -> str:
    doc = docx.Document(io.BytesIO(data))
    return doc.sections[0].footer._element.xml


# --- Klausur DOCX --------------------------------------------------------------------------------------------------


def test_schuelerfassung_has_header_tasks_and_points_but_no_erwartungshorizont():
    k = make_klausur()
    data = schuelerfassung(k)
    doc = docx.Document(io.BytesIO(data))
    header = [c.text for c in doc.tables[0].rows[0].cells]
    assert header == ["Name: ", "Datum: ", "Klasse: 10a"]
    text = document_text(data)
    assert k.titel in text
    assert "Fach: Physik · Klassenstufe 10 · Dauer: 45 Minuten · Hilfsmittel: Taschenrechner, Formelsammlung" in text
    assert k.hinweise[0] in text
    assert "Messwerte: U = 6 V, I = 0,3 A" in text  # material
    for aufgabe in k.aufgaben:
        assert f"Aufgabe {aufgabe.nummer}: {aufgabe.titel}" in text
        for teil in aufgabe.teilaufgaben:
            assert teil.text in text
    subtask_lines = [p.text for p in doc.paragraphs if p.text.startswith(("a)", "b)"))]
    assert "a)\tNenne das Ohmsche Gesetz.\t(4 P.)" in subtask_lines
    assert "Gesamtpunktzahl: 40 Punkte" in text
    for teil in k.teilaufgaben():
        for kriterium in teil.erwartung:
            assert kriterium.text not in text
    assert "Erwartungshorizont" not in text and "AFB" not in text and "lp-physik" not in text


def test_schuelerfassung_leaves_klasse_empty_when_unknown_and_numbers_pages():
    data = schuelerfassung(make_klausur(klasse=None, hilfsmittel=[]))
    doc = docx.Document(io.BytesIO(data))
    assert doc.tables[0].rows[0].cells[2].text == "Klasse: "
    assert "Hilfsmittel: keine" in document_text(data)
    footer = footer_xml(data)
    assert "Seite " in document_text(data) and " von " in document_text(data)
    assert re.search(r"<w:instrText[^>]*> PAGE </w:instrText>", footer)
    assert re.search(r"<w:instrText[^>]*> NUMPAGES </w:instrText>", footer)
    section = doc.sections[0]
    assert (round(section.page_width.cm, 1), round(section.page_height.cm, 1)) == (21.0, 29.7)  # A4, not Letter


def test_labels_written_with_a_bracket_are_printed_once():
    k = make_klausur()
    k.aufgaben[0].teilaufgaben[1].label = "b)"
    doc = docx.Document(io.BytesIO(schuelerfassung(k)))
    assert any(p.text.startswith("b)\tBerechne") for p in doc.paragraphs)
    assert "Summe Teilaufgabe 1b" in document_text(lehrerfassung(k))


def test_lehrerfassung_has_every_criterion_totals_afb_overview_notenschluessel_and_sources():
    k = make_klausur()
    data = lehrerfassung(k, afb_ziel=AFB_ZIEL)
    text = document_text(data)
    assert "Erwartungshorizont" in text
    for aufgabe in k.aufgaben[:2]:
        for teil in aufgabe.teilaufgaben:
            assert teil.text in text
            assert f"Summe Teilaufgabe {aufgabe.nummer}{teil.label}" in text
            for kriterium in teil.erwartung:
                assert kriterium.text in text
        assert f"Summe Aufgabe {aufgabe.nummer}: {aufgabe.punkte} Punkte" in text
    # Aufgabe 3 has one part, printed without a letter on the pupils' sheet: the key says „Aufgabe 3“, never „3a“
    assert "Aufgabe 3\n – Beurteilen, AFB III, 12 Punkte" in text and "Summe Aufgabe 3\n12" in text
    assert "3a" not in text and all(k.text in text for k in k.aufgaben[2].teilaufgaben[0].erwartung)
    assert "Gesamtpunktzahl: 40 Punkte" in text

    doc = docx.Document(io.BytesIO(data))
    tables = [[[c.text for c in row.cells] for row in t.rows] for t in doc.tables]
    criteria_1a = next(t for t in tables if t[-1][0] == "Summe Teilaufgabe 1a")
    assert criteria_1a[0] == ["Kriterium", "Punkte"] and criteria_1a[-1][1] == "4"
    assert [row[1] for row in criteria_1a[1:-1]] == ["2", "2"]
    afb = next(t for t in tables if t[0] == ["AFB", "Punkte", "Anteil", "Ziel"])
    assert afb[1:4] == [["AFB I", "12", "30,0 %", "30 %"], ["AFB II", "16", "40,0 %", "40 %"],
                        ["AFB III", "12", "30,0 %", "30 %"]]
    noten = next(t for t in tables if t[0][0] == "Note")
    assert len(noten) - 1 == len(k.notenschluessel)
    for row, stufe in zip(noten[1:], k.notenschluessel, strict=True):
        assert row[0] == stufe.note and row[1] == stufe.label
        assert row[2].startswith(format_zahl(stufe.min_punkte)) and row[2].endswith(format_zahl(stufe.max_punkte))
    assert "Notenschlüssel (Noten 1–6)" in text
    assert "Lehrplan: Kompetenz: Ohmsches Gesetz anwenden [lp-physik-10-3] – verwendet in 1a, 1b" in text
    assert "Bewährte Aufgabe: Fahrraddynamo [gp-17] – verwendet in 3\n" in text
    assert "NUMPAGES" in footer_xml(data)


def test_lehrerfassung_without_target_and_with_oberstufe_scale():
    k = make_klausur(klassenstufe=12, niveau="eA")
    text = document_text(lehrerfassung(k))
    assert "Notenschlüssel (15-Punkte-System)" in text
    assert "sehr gut plus" in text and "ungenügend" in text


def test_hostile_text_survives_the_klausur_docx_round_trip():
    k = make_klausur(titel=HOSTILE + CONTROL)
    k.aufgaben[0].teilaufgaben[0].text = "Nenne\tdas Gesetz. " + HOSTILE
    k.aufgaben[0].teilaufgaben[0].erwartung[0].text = HOSTILE
    schueler = document_text(schuelerfassung(k))
    lehrer = document_text(lehrerfassung(k))
    assert HOSTILE in schueler and HOSTILE in lehrer
    assert "Steuerzeichen weg" in schueler  # control characters dropped, the rest kept
    assert "Nenne das Gesetz." in schueler  # a tab in the text does not break the point column


# --- Differenzierung DOCX ------------------------------------------------------------------------------------------


def test_arbeitsblatt_has_one_page_per_niveau_with_tasks_and_hilfekarten_and_no_solutions():
    m = make_differenzierung()
    m.niveaus.reverse()  # the export orders grundlegend, mittel, erweitert whatever the model did
    data = arbeitsblatt(m)
    doc = docx.Document(io.BytesIO(data))
    headings = [p.text for p in doc.paragraphs if p.style.name.startswith("Heading")]
    niveau_headings = [h for h in headings if "Niveau" in h]
    assert niveau_headings == ["● Grundlegendes Niveau", "●● Mittleres Niveau", "●●● Erweitertes Niveau"]
    page_breaks = [p for p in doc.paragraphs if p.paragraph_format.page_break_before]
    assert len(page_breaks) == 2  # before mittel, before erweitert

    text = document_text(data)
    for niveau in m.niveaus:
        for aufgabe in niveau.aufgaben:
            assert aufgabe in text
        for loesung in niveau.loesungen:
            assert loesung not in text  # solutions are in the teacher's file only
    boxes = [t for t in doc.tables if t.cell(0, 0).paragraphs[0].text.startswith("Hilfekarte")]
    assert len(boxes) == sum(len(n.hilfekarten) for n in m.niveaus)
    assert all('w:fill="F2F2F2"' in t._tbl.xml for t in boxes)  # shaded
    assert "Denk an Luft und Wasser." in boxes[0].cell(0, 0).text
    assert "NUMPAGES" in footer_xml(data)


def test_teacher_voice_lernziel_and_notes_stay_in_the_teachers_file():
    m = make_differenzierung(lernziel="Die Schülerinnen und Schüler erklären die Fotosynthese.",
                             hinweise_lehrkraft=["Zu „Zellatmung“ gibt es keine geprüfte Aufgabe – dieser Teil fehlt."])
    schueler, lehrer = document_text(arbeitsblatt(m)), document_text(loesungen(m))
    assert "Die Schülerinnen und Schüler" not in schueler and "Zellatmung" not in schueler
    assert "Lernziel: Die Schülerinnen und Schüler erklären die Fotosynthese." in lehrer.replace("\n", "")
    assert "Hinweise für die Lehrkraft" in lehrer and "Zu „Zellatmung“ gibt es keine geprüfte Aufgabe" in lehrer
    for niveau in m.niveaus:
        for loesung in niveau.loesungen:
            assert loesung in lehrer
    assert "(2 Aufgaben, 1 Hilfekarte)" in lehrer or "(1 Aufgabe, 1 Hilfekarte)" in lehrer
    pupil_goal = make_differenzierung(lernziel="Ich kann die Fotosynthese erklären.")
    assert "Ziel: Ich kann die Fotosynthese erklären." in document_text(arbeitsblatt(pupil_goal)).replace("\n", "")


def test_hostile_text_survives_the_arbeitsblatt():
    m = make_differenzierung(titel=HOSTILE)
    m.niveaus[0].hilfekarten = [HOSTILE + CONTROL]
    text = document_text(arbeitsblatt(m))
    assert HOSTILE in text and "Steuerzeichen weg" in text


# --- H5P -----------------------------------------------------------------------------------------------------------


def unzip(data: bytes) -> tuple[dict, dict]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        assert set(archive.namelist()) == {"h5p.json", "content/content.json"}
        return json.loads(archive.read("h5p.json")), json.loads(archive.read("content/content.json"))


def libraries_in(node) -> set[str]:
    """Every 'library' reference ('H5P.X 1.2') anywhere in content.json."""
    found = set()
    if isinstance(node, dict):
        if isinstance(node.get("library"), str):
            found.add(node["library"])
        for value in node.values():
            found |= libraries_in(value)
    elif isinstance(node, list):
        for value in node:
            found |= libraries_in(value)
    return found


def test_mixed_set_exports_as_question_set_listing_every_library_it_uses():
    s = make_h5p()
    manifest, content = unzip(build_package(s))
    assert manifest["mainLibrary"] == "H5P.QuestionSet"
    assert manifest["language"] == "de" and manifest["embedTypes"] == ["iframe"] and manifest["license"] == "U"
    assert manifest["title"] == s.titel
    deps = {f"{d['machineName']} {d['majorVersion']}.{d['minorVersion']}" for d in manifest["preloadedDependencies"]}
    used = libraries_in(content) | {"H5P.QuestionSet 1.20"}
    assert used <= deps
    assert deps == {"H5P.QuestionSet 1.20", "H5P.MultiChoice 1.16", "H5P.TrueFalse 1.8", "H5P.Blanks 1.14",
                    "H5P.DragText 1.10"}

    questions = content["questions"]
    assert len(questions) == len(s.fragen)
    assert len({q["subContentId"] for q in questions}) == len(questions)
    single, multi, truefalse, blanks, dragtext = (q["params"] for q in questions)
    assert single["behaviour"]["type"] == "single" and multi["behaviour"]["type"] == "multi"
    assert [a["correct"] for a in single["answers"]] == [True, False, False]
    assert single["answers"][0]["text"] == "Volt"
    assert single["answers"][0]["tipsAndFeedback"]["chosenFeedback"] == "Genau."
    assert truefalse["correct"] == "true"  # TrueFalse wants the string, not a boolean
    assert blanks["questions"] == ["<p>Die Einheit der Stromstärke ist *Ampere/A*.</p>"]
    assert dragtext["textField"] == "*Elektronen* fließen vom *Minuspol* zum Pluspol."


@pytest.mark.parametrize(
    ("frage", "library"),
    [
        (TrueFalseFrage(frage="Kupfer leitet Strom.", wahr=False), "H5P.TrueFalse"),
        (BlanksFrage(text="Ein *Elektron* ist negativ."), "H5P.Blanks"),
        (DragTextFrage(text="*Protonen* sind positiv."), "H5P.DragText"),
        (MultiChoiceFrage(frage="?", antworten=[Antwort(text="a", korrekt=True), Antwort(text="b", korrekt=False)]),
         "H5P.MultiChoice"),
    ],
)
def test_single_question_exports_as_its_own_content_type(frage, library):
    manifest, content = unzip(build_package(make_h5p(frage)))
    assert manifest["mainLibrary"] == library
    name, major, minor = LIBRARIES[frage.typ]
    assert manifest["preloadedDependencies"] == [{"machineName": name, "majorVersion": major, "minorVersion": minor}]
    assert "introPage" not in content  # the question itself, not a QuestionSet around it
    if library == "H5P.TrueFalse":
        assert content["correct"] == "false" and content["question"] == "<p>Kupfer leitet Strom.</p>"


def test_h5p_package_is_deterministic():
    assert build_package(make_h5p()) == build_package(make_h5p())


def test_invalid_set_is_refused_with_german_faults():
    broken = make_h5p(BlanksFrage(text="Ohne Lücke."))
    with pytest.raises(ExportError) as error:
        build_package(broken)
    assert error.value.fehler == validate_h5p(broken)
    assert error.value.fehler[0].startswith("Frage 1 (Lückentext): Der Text enthält keine Lücke.")
    with pytest.raises(ExportError):
        to_moodle_xml(broken)


def test_hostile_text_survives_the_h5p_round_trip_as_text_not_markup():
    s = make_h5p(
        MultiChoiceFrage(frage=HOSTILE + CONTROL, antworten=[Antwort(text=HOSTILE, korrekt=True, feedback=HOSTILE),
                                                             Antwort(text="b", korrekt=False)]),
        TrueFalseFrage(frage=HOSTILE, wahr=True),
    )
    s = s.model_copy(update={"titel": HOSTILE})
    manifest, content = unzip(build_package(s))
    assert manifest["title"] == HOSTILE
    mc = content["questions"][0]["params"]
    assert "<script>" not in json.dumps(content)  # escaped, so H5P shows it instead of running or stripping it
    assert html.unescape(mc["question"]) == f"<p>{xml_safe(HOSTILE + CONTROL)}</p>"
    assert html.unescape(mc["answers"][0]["text"]) == HOSTILE.strip()
    assert html.unescape(mc["answers"][0]["tipsAndFeedback"]["chosenFeedback"]) == HOSTILE.strip()
    assert "😀" in mc["question"] and "שלום" in mc["question"]


def test_summary_lists_questions_with_solutions_for_the_preview():
    lines = summary(make_h5p())
    assert lines[0] == "Stromkreise üben – Physik, Klassenstufe 8, Thema: Elektrizität"
    assert lines[1].startswith("Export als H5P.QuestionSet 1.20 mit 5 Fragen: 2 × Multiple Choice")
    assert "1. [Multiple Choice] Welche Einheit hat die Spannung?" in lines
    assert "   ✓ Volt" in lines and "   ✗ Ampere" in lines
    assert "3. [Richtig/Falsch] Strom fließt nur im geschlossenen Stromkreis. → richtig" in lines
    assert "4. [Lückentext] Die Einheit der Stromstärke ist [Ampere / A]." in lines
    assert "5. [Drag-Text] [Elektronen] fließen vom [Minuspol] zum Pluspol." in lines
    single = summary(make_h5p(TrueFalseFrage(frage="x", wahr=True)))
    assert single[1].startswith("Export als H5P.TrueFalse 1.8 mit 1 Frage")


# --- Moodle XML ----------------------------------------------------------------------------------------------------


def questions_of(data: bytes) -> list[ET.Element]:
    etree.fromstring(data)  # a second, stricter parser must accept it too
    root = ET.fromstring(data)
    assert root.tag == "quiz"
    return root.findall("question")


def moodle_cloze_answers(questiontext: str) -> list[list[str]]:
    """The answers Moodle's cloze parser (qtype_multianswer) reads from a question text.

    Mirrors its regexes: an answer ends before '~', '#' or '}' unless preceded by '\\', '&' or '&amp;';
    afterwards it html_entity_decode()s the answer and unescapes '\\}' and '\\#'.
    """
    answer = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
    feedback = r".*?(?<!\\)(?=[~}]|$)"
    alternative = rf"(=|%-?[0-9]+(?:[.,][0-9]*)?%)?({answer})(#({feedback}))?"
    subquestion = rf"\{{([0-9]*):(SHORTANSWER|SA|MW):({alternative}(~{alternative})*)\}}"
    result = []
    for match in re.finditer(subquestion, questiontext, re.S):
        remaining = match.group(3)
        answers = []
        while remaining:
            alt = re.match(rf"~?{alternative}", remaining, re.S)
            answers.append(html.unescape(alt.group(2)).replace("\\}", "}").replace("\\#", "#"))
            remaining = remaining[alt.end():]
        result.append(answers)
    return result


def test_moodle_xml_has_a_category_and_one_question_per_frage_with_the_right_types():
    s = make_h5p()
    questions = questions_of(to_moodle_xml(s))
    assert [q.get("type") for q in questions] == ["category", "multichoice", "multichoice", "truefalse", "cloze",
                                                   "cloze"]
    assert questions[0].findtext("category/text") == "$course$/top/Werkbank/Stromkreise üben"

    single = questions[1]
    assert single.findtext("single") == "true"
    assert [(a.get("fraction"), a.findtext("text")) for a in single.findall("answer")] == [
        ("100", "Volt"), ("0", "Ampere"), ("0", "Ohm")]
    multi = questions[2]
    assert multi.findtext("single") == "false"
    assert [a.get("fraction") for a in multi.findall("answer")] == ["50", "50", "-100"]
    truefalse = questions[3]
    assert [(a.findtext("text"), a.get("fraction")) for a in truefalse.findall("answer")] == [
        ("true", "100"), ("false", "0")]

    blanks_text = questions[4].findtext("questiontext/text")
    assert "{1:SHORTANSWER:=Ampere~=A}" in blanks_text
    assert moodle_cloze_answers(blanks_text) == [["Ampere", "A"]]
    dragtext_text = questions[5].findtext("questiontext/text")
    assert moodle_cloze_answers(dragtext_text) == [["Elektronen"], ["Minuspol"]]
    assert "Elektronen · Minuspol" in dragtext_text  # the word bank of the drag task


def test_moodle_multi_answer_fractions_are_on_moodles_grade_list():
    mc = MultiChoiceFrage(frage="?", mehrfach=True, antworten=[Antwort(text=str(i), korrekt=i < 3) for i in range(7)])
    (question,) = questions_of(to_moodle_xml(make_h5p(mc)))[1:]
    assert [a.get("fraction") for a in question.findall("answer")] == ["33.33333"] * 3 + ["-25"] * 4


def test_hostile_text_survives_the_moodle_round_trip():
    s = make_h5p(
        MultiChoiceFrage(frage=HOSTILE + CONTROL, antworten=[Antwort(text=HOSTILE, korrekt=True),
                                                             Antwort(text="b", korrekt=False)]),
        BlanksFrage(text=f"Vorher {HOSTILE} *Oslo* und *a&/x~y#z}}w\\* danach."),
        DragTextFrage(text=f"{HOSTILE} *&lt;b&gt;* Ende"),
    )
    s = s.model_copy(update={"titel": "Quiz/" + HOSTILE})
    data = to_moodle_xml(s)
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    category, mc, blanks, dragtext = questions_of(data)
    # '/' separates category levels in Moodle, so every slash of the title is doubled
    assert html.unescape(category.findtext("category/text")) == "$course$/top/Werkbank/" + (
        "Quiz/" + HOSTILE.strip()
    ).replace("/", "//")
    assert html.unescape(mc.findtext("questiontext/text")) == f"<p>{xml_safe(HOSTILE + CONTROL).strip()}</p>"
    assert html.unescape(mc.find("answer").findtext("text")) == HOSTILE.strip()

    blanks_text = blanks.findtext("questiontext/text")
    # the literal '{1:SHORTANSWER:=x}' in the text must not become a sub-question; only the two gaps do
    assert moodle_cloze_answers(blanks_text) == [["Oslo"], ["a&", "x~y#z}w\\"]]
    assert "😀" in blanks_text and "مرحبا" in blanks_text
    assert moodle_cloze_answers(dragtext.findtext("questiontext/text")) == [["&lt;b&gt;"]]


def test_moodle_xml_is_identical_for_identical_sets():
    assert to_moodle_xml(make_h5p()) == to_moodle_xml(make_h5p())
