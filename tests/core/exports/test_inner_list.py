"""A task's own enumeration as the teacher reads it in the printed DOCX and PDF: kept in its sentence when it runs
through one, a list of its own when each part is a thing to work on, what follows the list after it, and inside a
Teilaufgabe numbered (1), (2) … so that it never reads like the exam's own a), b) (texts of real bank items)."""

from __future__ import annotations

import io

import docx
from pypdf import PdfReader

from core.exports.docx_render import render_docx
from core.exports.files import render
from core.exports.inner_list import InnerList, inner_list, renumbered
from core.exports.pdf_render import render_pdf
from core.exports.sheet import Para, Sheet, TaskLine
from core.materials.klausur import Kriterium
from tests.core.checks.test_structure import make_differenzierung
from tests.core.exports.test_print import pdf_text
from tests.core.materials.test_models import AFB_ZIEL, make_klausur, teil

BRECHUNG = (
    "Ein Lichtstrahl geht in einem Glasblock schräg auf die Grenzfläche zur Luft zu. Beschreibe, was mit dem "
    "Licht geschieht, wenn der Einfallswinkel a) 20° und b) 60° beträgt. Der Grenzwinkel für Glas–Luft beträgt "
    "etwa 42°."
)
KOMMAS = (
    "Setze die Kommas und begründe, wo keines stehen darf: a) Wir brauchen Mehl Zucker Eier und Milch. b) Der "
    "alte verrostete Schlüssel passte nicht. c) Die bekannte deutsche Sängerin gab ein Konzert."
)
FORMSACHE = (
    "Beurteile, welche Rolle das Komma für die Bedeutung der Sätze spielt: a) „Wir essen, Opa!“ – „Wir essen "
    "Opa!“ b) „Der Lehrer sagt, der Schüler ist faul.“ – „Der Lehrer, sagt der Schüler, ist faul.“ Leite daraus "
    "ein Urteil ab, ob Kommasetzung nur eine „Formsache“ ist."
)


def paragraphs(data: bytes) -> list[str]:
    document = docx.Document(io.BytesIO(data))
    cells = [p.text for t in document.tables for row in t.rows for c in row.cells for p in c.paragraphs]
    return [p.text for p in document.paragraphs] + cells


def exam_with(*texts: str, kriterien: list[str] | None = None):
    """The test exam whose Aufgabe 2 has the given Teilaufgaben a), b) …; the first one's criteria as given."""
    k = make_klausur()
    k.aufgaben[1].teilaufgaben = [teil("ab"[i], "Beschreiben", text, "II", 2, 3) for i, text in enumerate(texts)]
    if kriterien:
        k.aufgaben[1].teilaufgaben[0].erwartung = [Kriterium(text=x, punkte=1) for x in kriterien]
        k.aufgaben[1].teilaufgaben[0].punkte = len(kriterien)
    return k, {f.kind: f.data for f in render(k, afb_ziel=AFB_ZIEL)}


def test_a_list_that_runs_through_a_sentence_stays_in_it_and_never_reads_as_the_exams_own_letters():
    k, files = exam_with(
        "Nenne zwei Eigenschaften von Glas.", BRECHUNG, kriterien=["nennt: durchsichtig", "nennt: hart"]
    )
    pupil = paragraphs(files["schueler_docx"])
    line = next(p for p in pupil if p.startswith("b)\tEin Lichtstrahl"))
    assert (
        "wenn der Einfallswinkel (1) 20° und (2) 60° beträgt. Der Grenzwinkel für Glas–Luft beträgt etwa 42°." in line
    )
    assert line.endswith("\t(5 P.)")
    assert not any(p.startswith(("a) 20°", "b) 60°", "(1)\t20°")) for p in pupil)
    assert "wenn der Einfallswinkel (1) 20° und (2) 60° beträgt." in " ".join(pdf_text(files["schueler_pdf"]).split())
    assert k.aufgaben[1].teilaufgaben[1].text == BRECHUNG  # the stored task is unchanged


def test_a_list_of_sentences_to_work_on_gets_lines_of_its_own_numbered_1_2_in_task_and_expectations():
    _, files = exam_with(
        KOMMAS,
        "Nenne eine Kommaregel.",
        kriterien=[
            "a) „Mehl, Zucker, Eier und Milch“ – Aufzählung; vor „und“ kein Komma.",
            "b) „alte, verrostete“ – gleichrangige Adjektive.",
            "c) kein Komma – „deutsche Sängerin“ ist eine Einheit.",
        ],
    )
    pupil = paragraphs(files["schueler_docx"])
    start = pupil.index("a)\tSetze die Kommas und begründe, wo keines stehen darf:\t(3 P.)")
    assert pupil[start + 1 : start + 4] == [
        "(1)\tWir brauchen Mehl Zucker Eier und Milch.",
        "(2)\tDer alte verrostete Schlüssel passte nicht.",
        "(3)\tDie bekannte deutsche Sängerin gab ein Konzert.",
    ]
    assert pupil[start + 4].startswith("b)\tNenne eine Kommaregel.")
    teacher = paragraphs(files["lehrer_docx"])
    assert "(2) „alte, verrostete“ – gleichrangige Adjektive." in teacher
    assert not any(p.startswith(("b) „alte", "b) Der alte")) for p in teacher)
    flat = " ".join(pdf_text(files["schueler_pdf"]).split())
    assert "(2) Der alte verrostete Schlüssel passte nicht." in flat and "b) Der alte" not in flat


def test_what_a_task_says_after_its_list_is_printed_after_the_list_not_inside_its_last_part():
    _, files = exam_with(FORMSACHE, "Nenne eine Kommaregel.")
    pupil = paragraphs(files["schueler_docx"])
    last = pupil.index("(2)\t„Der Lehrer sagt, der Schüler ist faul.“ – „Der Lehrer, sagt der Schüler, ist faul.“")
    assert pupil[last + 1] == "Leite daraus ein Urteil ab, ob Kommasetzung nur eine „Formsache“ ist."
    teacher = paragraphs(files["lehrer_docx"])
    assert "Leite daraus ein Urteil ab, ob Kommasetzung nur eine „Formsache“ ist." in teacher


def test_a_task_alone_in_its_aufgabe_keeps_its_letters_and_a_comma_list_loses_its_commas():
    k = make_klausur()
    k.aufgaben[2].teilaufgaben[
        0
    ].text = (
        "Rechne jeweils in die angegebene Einheit um: a) 3,5 km in Meter, b) 47 mm in Zentimeter, c) 650 cm in Meter."
    )
    pupil = paragraphs({f.kind: f.data for f in render(k, afb_ziel=AFB_ZIEL)}["schueler_docx"])
    start = pupil.index("Rechne jeweils in die angegebene Einheit um:\t(12 P.)")
    assert pupil[start + 1 : start + 4] == ["a)\t3,5 km in Meter", "b)\t47 mm in Zentimeter", "c)\t650 cm in Meter"]


def test_where_a_list_ends_is_read_like_a_teacher_reads_it():
    # „12. Mai“ does not end a sentence; a quote's citation belongs to it; parts of two sentences each have no tail.
    assert inner_list(
        "Setze die Kommas: a) Berlin liegt an der Spree. b) Ich komme am Freitag dem 12. Mai."
    ) == InnerList("Setze die Kommas:", ("a) Berlin liegt an der Spree.", "b) Ich komme am Freitag dem 12. Mai."))
    assert (
        inner_list("Bestimme die Mittel: a) „Pappbecher und Pausenbrote“ (Z. 3) b) „Wir gehen weg.“ (Z. 11)").items[-1]
        == "b) „Wir gehen weg.“ (Z. 11)"
    )
    both = inner_list("Verbinde die Sätze: a) Ich gehe schwimmen. Es ist kalt. b) Wir lernen viel. Wir bestehen.")
    assert both.tail == "" and both.items[-1] == "b) Wir lernen viel. Wir bestehen."
    lined = inner_list(
        "Ein Bewerber antwortet so:\na) „Warum?“ – „Weiß nicht.“\nb) „Schwächen?“ – „Keine.“\n"
        "Erläutere, warum die Antworten ungünstig sind."
    )
    assert lined.items == ("a) „Warum?“ – „Weiß nicht.“", "b) „Schwächen?“ – „Keine.“")
    assert lined.tail == "Erläutere, warum die Antworten ungünstig sind."
    assert (
        inner_list("Begründen Sie, dass a) alle Graphen durch den Ursprung gehen, b) der Ursprung Wendepunkt ist.")
        is None
    )
    # „Listen!“ inside a part, and a question that goes on the last part, are no tail; a line break ends a list
    listen = inner_list("Circle the correct form: a) I often (play / am playing) chess. b) Listen! Anna (sings).")
    assert listen.tail == "" and listen.items[-1] == "b) Listen! Anna (sings)."
    tsunami = inner_list("Ermittle: a) Um welchen Faktor? b) Ein Tsunami ist 700 km/h schnell. Wie viel Zeit bleibt?")
    assert tsunami.tail == "" and tsunami.items[-1].endswith("Wie viel Zeit bleibt?")
    halves = inner_list("Match the halves.\n1) You mustn't …  2) You must …\nA) … bring a pen.  B) … cheat.")
    assert halves.items == ("1) You mustn't …", "2) You must …") and halves.tail == "A) … bring a pen.  B) … cheat."
    # the exam's own Teilaufgaben named in a later one keep their letters
    assert renumbered(["Nutze die Ergebnisse aus a) und b) für eine Skizze."]) == [
        "Nutze die Ergebnisse aus a) und b) für eine Skizze."
    ]


def test_a_worksheet_task_with_statements_to_match_lists_them_line_by_line_in_both_files():
    m = make_differenzierung()
    m.niveaus[0].aufgaben = [
        "Ordne die Aufgaben den Organen Mund, Magen und Dünndarm zu: a) Die Nahrung wird zerkleinert. b) Die Nahrung "
        "wird mit Magensaft vermischt. c) Die Nährstoffbausteine gelangen ins Blut."
    ]
    files = {f.kind: f.data for f in render(m)}
    for kind in ("arbeitsblatt_docx", "loesungen_docx"):
        sheet = paragraphs(files[kind])
        start = sheet.index("1.\tOrdne die Aufgaben den Organen Mund, Magen und Dünndarm zu:\t")
        assert sheet[start + 1 : start + 4] == [
            "a)\tDie Nahrung wird zerkleinert.",
            "b)\tDie Nahrung wird mit Magensaft vermischt.",
            "c)\tDie Nährstoffbausteine gelangen ins Blut.",
        ]
    assert "b) Die Nahrung wird mit Magensaft vermischt." in pdf_text(files["arbeitsblatt_pdf"]).splitlines()


def test_a_task_and_its_list_are_not_split_over_two_pages():
    sheet = Sheet("Kommas")
    sheet.add(*(Para.of(f"Vorige Aufgabe, Zeile {i}") for i in range(37)))  # room for two lines, not for seven
    items = tuple(f"({i}) Satz {i} zum Kommasetzen." for i in range(1, 6))
    sheet.add(TaskLine("b)", "Setze die Kommas:", "(6 P.)", items=items, tail="Begründe jedes Komma."))
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(render_pdf(sheet))).pages]
    task = next(p for p in pages if "Setze die Kommas:" in p)
    assert all(i in task for i in items) and "Begründe jedes Komma." in task
    document = docx.Document(io.BytesIO(render_docx(sheet)))
    task_paragraphs = document.paragraphs[37:44]
    assert task_paragraphs[0].text.startswith("b)\tSetze die Kommas:")
    assert [p.paragraph_format.keep_with_next for p in task_paragraphs] == [True] * 6 + [None]


def test_a_negative_number_in_brackets_is_no_list_label() -> None:
    # a Klasse-6 exam printed „(−2,5) · (−(4)“ and „13 · (−(1)“: the „4)“ closing „(−4)“ was renumbered as item 4
    from core.exports.inner_list import renumbered

    text = "Berechne: 1) (−6) · 7 2) (−2,5) · (−4) 3) (−72) : 8 4) (−3)³ 5) 13 · (−99) + 13 · (−1)."
    (out,) = renumbered([text])
    assert "(−(" not in out, out
    assert out.startswith("Berechne: (1) (−6) · 7 (2) (−2,5) · (−4) (3)"), out
