"""What the teacher review (stop 20) read in the printed files, rendered for real and read back with pypdf and
python-docx: headings cut after a complete phrase and said once, a Hilfsmittel header that does not contradict a
task, prose source texts without stub lines whose line citations still fit, climate tables whose labels do not break
(with a Klimadiagramm), and a document printed once even when two tasks bring it in two translations."""

from __future__ import annotations

import io
import json
from pathlib import Path

import docx
from PIL import Image as PILImage
from pypdf import PdfReader

from core.composition.layout import short_title
from core.exports.files import render
from core.exports.klimadiagramm import climate_data, draw
from core.exports.lines import MEASURE_MM, reflowed_lines, text_width_mm
from core.exports.printable import printable_klausur
from core.materials.blocks import MaterialBlock, Tabelle
from core.materials.klausur import Aufgabe, Klausur
from tests.core.exports.test_print import pdf_text
from tests.core.materials.test_models import AFB_ZIEL, make_klausur, teil

FIXTURES = Path(__file__).with_name("fixtures")


def rendered(k) -> dict[str, bytes]:
    return {f.kind: f.data for f in render(k, afb_ziel=AFB_ZIEL)}


def flat(text: str) -> str:
    return " ".join(text.split())


def docx_text(data: bytes) -> str:
    document = docx.Document(io.BytesIO(data))
    cells = [p.text for t in document.tables for row in t.rows for c in row.cells for p in c.paragraphs]
    return "\n".join([p.text for p in document.paragraphs] + cells)


def test_titles_end_after_a_complete_phrase_and_say_each_segment_once():
    # The titles of the review, as the composer shortens them and as older stored exams still carry them.
    k = make_klausur()
    k.aufgaben[0].titel = short_title("Wahl der Schülersprecherin bzw. des Schülersprechers der Klasse 7b: "
                                      "Auswertung einer Umfrage unter 240 Befragten")
    k.aufgaben[1].titel = "Aus der Erklärung der UN-Vollversammlung über die Gewährung der …"
    k.aufgaben[2].titel = short_title("Märchen der Brüder Grimm: Brüder Grimm: Die Sterntaler")
    files = rendered(k)
    for text in (flat(pdf_text(files["schueler_pdf"])), flat(docx_text(files["schueler_docx"]))):
        assert "Aufgabe 1: Wahl der Schülersprecherin bzw. des Schülersprechers der Klasse 7b" in text
        assert "Aufgabe 2: Aus der Erklärung der UN-Vollversammlung über die Gewährung …" in text
        assert "Aufgabe 3: Märchen der Brüder Grimm: Die Sterntaler" in text
        assert "Gewährung der …" not in text and "Grimm: Brüder Grimm" not in text
    assert short_title("Aus der Erklärung der UN-Vollversammlung über die Gewährung der Unabhängigkeit an koloniale "
                       "Länder und Völker (1960)") == "Aus der Erklärung der UN-Vollversammlung"
    assert short_title("Messreihe Zählrate eines Radon-220-Präparats (Nullrate bereits abgezogen, Messung alle 20 s)"
                       ) == "Messreihe Zählrate eines Radon-220-Präparats"  # the aside goes whole
    assert short_title("Teil A") == "Teil A"


def test_the_header_names_every_hilfsmittel_a_task_asks_for():
    k = make_klausur(hilfsmittel=[])
    k.aufgaben[0].teilaufgaben[0].text = ("Lokalisiere mithilfe einer Atlaskarte der Klimazonen vier Gebiete mit "
                                         "Mittelmeerklima außerhalb Europas.")
    k.aufgaben[1].teilaufgaben[0].text = "Berechne mit dem Taschenrechner den Widerstand auf zwei Nachkommastellen."
    k.aufgaben[2].teilaufgaben[0].text = "Rechne ohne Formelsammlung: Gib die Formel für die Leistung an."
    files = rendered(k)
    for name in ("schueler_pdf", "lehrer_pdf"):
        header = next(line for line in pdf_text(files[name]).splitlines() if "Hilfsmittel:" in line)
        assert header.endswith("Hilfsmittel: Atlas, Taschenrechner")  # not „keine“, not the ruled-out one
    english = make_klausur(fach="Englisch", klassenstufe=12, hilfsmittel=[])
    english.aufgaben[0].teilaufgaben[0].text = "Use a monolingual dictionary to explain three words from the text."
    assert "Hilfsmittel: Wörterbuch" in flat(docx_text(rendered(english)["schueler_docx"]))



BLACKOUT = """It happened last November. It was a dark, rainy evening and my family was at home. Dad was
cooking spaghetti, my sister Zoe was practising the violin and I was playing a computer game
in my room. Suddenly all the lights went out. My game stopped and the music stopped too.
'Don't move!' Dad shouted from the kitchen. I found my torch under the bed and went downstairs.
Zoe was sitting on the stairs. She wasn't scared – she was laughing. We lit some candles and ate
the spaghetti in the living room. Later our neighbour Mr Okafor knocked on the door. 'The whole
street is dark,' he said. 'A tree fell on a power line.' We played cards until ten o'clock.
It was the best evening of the whole winter."""


def numbered_lines(pdf: str, first: str, count: int) -> list[str]:
    """The material's lines as the PDF prints them (number column stripped), from the line starting with `first`."""
    lines = [line.strip() for line in pdf.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.lstrip("0123456789 ").startswith(first))
    return [line.lstrip("0123456789").strip() for line in lines[start:start + count]]


def test_prose_is_set_again_without_stub_lines_and_the_line_citations_still_fit():
    k = make_klausur()
    k.aufgaben[1] = Aufgabe(nummer=2, titel="The Blackout", materialien=[MaterialBlock(
        titel="M1 The Blackout", art="prosa", text=BLACKOUT, zeilennummern=True)], teilaufgaben=[
        teil("a", "Answer", "Read ll. 1–2. What was Dad doing when the lights went out?", "I", 2),
        teil("b", "Answer", "Why did the lights go out (l. 7)?", "II", 2)])
    k.aufgaben[1].teilaufgaben[0].erwartung[0].text = "He was cooking spaghetti (ll. 1–2)."
    k.aufgaben[1].teilaufgaben[1].erwartung[0].text = "A tree fell on a power line (l. 7)."
    files = rendered(k)
    pupil, teacher = pdf_text(files["schueler_pdf"]), pdf_text(files["lehrer_pdf"])
    printed = numbered_lines(pupil, "It happened last November", 9)
    assert "Dad was" not in printed and "computer game" not in printed  # the review's stubs
    assert all(len(line) >= 60 for line in printed[:-1]), printed  # running text: only the last line is short
    assert printed[-1].endswith("the whole winter.")
    # every citation names printed lines that hold the words it quotes — in the pupils' and the teacher's file
    cited = {"Read ll. ": "Dad was cooking", "out (ll. ": "A tree fell"}
    for marker, words in cited.items():
        for text in (flat(pupil), flat(teacher)):
            a, b = text.split(marker, 1)[1].split(")")[0].split(".")[0].split("–")
            span = " ".join(printed[int(a) - 1:int(b)])
            assert words in span, (marker, a, b, printed)
    docx_lines = [p.text.split("\t")[-1] for t in docx.Document(io.BytesIO(files["schueler_docx"])).tables
                  for p in t.cell(0, 0).paragraphs[1:] if t.cell(0, 0).paragraphs[0].text == "M1 The Blackout"]
    assert docx_lines == printed  # DOCX and PDF number the same lines


def exam(name: str) -> Klausur:
    """An exam the app made (offline model, fresh seed, the review's request), stored as the app stored it."""
    return Klausur.model_validate(json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")))


def test_the_declaration_of_1789_is_printed_once_and_both_tasks_point_to_it():
    # „Klassenarbeit Geschichte Kl. 8 Französische Revolution: Ursachen, Ständegesellschaft,
    # Menschenrechtserklärung, 45 min“ — Aufgabe 1 brought Art. 1–3 in one translation, Aufgabe 3 in another.
    k = exam("geschichte_8_franzoesische_revolution")
    files = rendered(k)
    for text in (pdf_text(files["schueler_pdf"]), docx_text(files["schueler_docx"])):
        assert flat(text).count("Art. 1: Die Menschen werden frei und gleich an Rechten geboren") == 1
        assert "Die Frau wird frei geboren" in text  # de Gouges answers the Déclaration: a document of its own
        labels = [line.split(" ")[0] for line in text.splitlines()
                  if line[:1] == "M" and line[1:2].isdigit() and "abgedruckt" not in line]
        assert labels == ["M1", "M2", "M3"], labels  # material headings in print order, no gap
    pupil = flat(pdf_text(files["schueler_pdf"]))
    assert "M2 – abgedruckt bei Aufgabe 3" in pupil.split("Aufgabe 2:")[0]  # Aufgabe 1 says where its text is
    assert "Erklärung von 1789 (M2) mit den entsprechenden Artikeln bei Olympe de Gouges (M3)" in pupil
    assert "Beschreibe mithilfe von M1 die Verteilung" in pupil
    assert "(M3, Z. 6–7)" in flat(pdf_text(files["lehrer_pdf"]))  # the teacher's citation follows de Gouges


def test_climate_tables_keep_their_labels_whole_fit_the_page_and_come_with_a_klimadiagramm():
    # „Klassenarbeit Erdkunde Klasse 7 Klimazonen der Erde und Klimadiagramme auswerten, 45 min“
    k = exam("geographie_7_klimazonen")
    files = rendered(k)
    lines = pdf_text(files["schueler_pdf"]).splitlines()
    words = {w for line in lines for w in line.split(" ")}  # a no-break space keeps „1 000–2 000 m“ one word
    assert {"Monat", "Temperatur", "Niederschlag", "Jahresmitteltemperatur", "Vegetationszone"} <= words
    assert not {"Mon", "at", "Tem", "perat", "Nied", "ersch", "lag"} & words  # the pieces the review read
    for first, last in (("−38,6", "−8,7"), ("−25,0", "−11,5")):  # 12 months and the year in one row
        row = next(line for line in lines if first in line)
        assert len(row.split(first, 1)[1].split()) == 12 and row.rstrip().endswith(last), row
    assert any("1 000–2 000 m" in line.replace("\u00a0", " ") for line in lines)  # no break inside a number
    # a Klimadiagramm per climate table, in the PDF and in the DOCX, next to its table
    reader = PdfReader(io.BytesIO(files["schueler_pdf"]))
    pictures = [(i, img) for i, page in enumerate(reader.pages) for img in page.images]
    assert len(pictures) == 2
    for (i, _), station in zip(pictures, ("Jakutsk", "Utqiaġvik"), strict=True):
        assert f"Klimadaten {station}" in reader.pages[i].extract_text()
    document = docx.Document(io.BytesIO(files["schueler_docx"]))
    assert len(document.inline_shapes) == 2
    climate = [t for t in document.tables if t.cell(0, 0).text == "Monat"]
    assert len(climate) == 2
    for table in climate:
        widths = [c.width.cm for c in table.columns]
        assert sum(widths) <= 17.0 + 0.01 and widths[0] >= text_width_mm("Niederschlag", size=9) / 10


def test_the_klimadiagramm_shows_the_data_the_way_walter_and_lieth_draw_it():
    tabelle = Tabelle(spalten=["Monat", *"JFMAMJJASOND", "Jahr"], zeilen=[
        ["Temperatur (°C)", "-38,6", "-33,8", "-20,1", "-4,8", "7,5", "16,4", "19,5", "15,2", "6,1", "-7,8", "-27,0",
         "-37,5", "-8,7"],
        ["Niederschlag (mm)", "8", "6", "5", "9", "18", "35", "42", "38", "24", "16", "12", "8", "221"]])
    klima = climate_data(tabelle, "Jakutsk")
    assert klima.temperatur[0] == -38.6 and klima.niederschlag[6] == 42.0
    picture = PILImage.open(io.BytesIO(draw(klima, 120)))
    assert picture.size == (480, 360)
    colours = {c for _, c in picture.getcolors(maxcolors=100_000)}
    assert (200, 30, 30) in colours and (40, 90, 200) in colours  # the red temperature line, the blue bars
    assert climate_data(Tabelle(spalten=["Stand", "Anteil"], zeilen=[["Adel", "1,5 %"]]), "x") is None


def test_in_a_task_with_an_article_and_a_poem_each_citation_follows_its_own_material():
    # „Klausur Englisch LK 12 zum Thema The American Dream, Textanalyse + Kommentar, 180 min“: M2 (article, re-set
    # as running text) and M3 (Lazarus, verse kept) in one Aufgabe.
    k = exam("englisch_lk12_american_dream")
    p = printable_klausur(k)
    aufgabe = next(a for a in p.aufgaben if len(a.materialien) == 2)
    article, poem = (b.text.split("\n") for b in aufgabe.materialien)
    teacher = flat(pdf_text(rendered(k)["lehrer_pdf"]))

    def cited(lines: list[str], before: str) -> str:
        """The printed lines the teacher's citation right after `before` names ('ll. 3–7' -> lines 3 to 7)."""
        a, _, b = teacher.split(before, 1)[1].split(")")[0].split(" ", 1)[1].partition("–")
        return " ".join(lines[int(a) - 1:int(b or a)])

    assert "torch" in cited(poem, "„mighty woman with a torch“ (")  # verse numbers unchanged: l. 4
    assert "Mother of Exiles" in cited(poem, "„Mother of Exiles“ (")
    assert "90 per cent" in cited(article, "auf ca. 50 % (1980er) (")  # the article's moved with its lines
    assert "Maria Gonzalez" in cited(article, "kämpfen muss (")
    # 2c compares both: „Artikel: … (l. 10–14)“ means the article, a quote before a citation means where it stands
    assert "immigrants still believe" in cited(article, "glauben stärker an den Dream (")


def test_re_set_prose_keeps_its_paragraphs_and_articles_on_new_lines():
    text = ("Grundgesetz für die Bundesrepublik Deutschland vom 23. Mai 1949, Präambel (Schluss), wie sie 1949 "
            "beschlossen wurde:\n„Es hat auch für jene Deutschen gehandelt, denen mitzuwirken versagt war.\n"
            "Art. 23 (Fassung 1949): „Dieses Grundgesetz gilt zunächst im Gebiete der Länder Baden, Bayern, Bremen, "
            "Groß-Berlin, Hamburg […].“\nDer Satz ist kurz.\nDanach folgt ein neuer Absatz.")
    printed = reflowed_lines(text)
    starts = [line.split(" ")[0] for line in printed.lines]
    assert starts.count("„Es") == 1 and starts.count("Art.") == 1 and starts.count("Danach") == 1
    assert all(text_width_mm(line) <= MEASURE_MM for line in printed.lines)
    assert printed.spans[3][0] == starts.index("Art.") + 1  # the article's stored line starts where it is printed


def test_a_quote_before_a_citation_tells_which_of_two_re_set_texts_it_means():
    other = BLACKOUT.replace("Dad", "Mum").replace("Zoe", "Max").replace("Okafor", "Brown")
    k = make_klausur()
    k.aufgaben[1] = Aufgabe(nummer=2, titel="Two stories", materialien=[
        MaterialBlock(titel="M1 The Blackout", art="prosa", text=BLACKOUT, zeilennummern=True),
        MaterialBlock(titel="M2 Another blackout", art="prosa", text=other, zeilennummern=True)], teilaufgaben=[
        teil("a", "Compare", "Compare 'The Blackout' with 'Another blackout'.", "II", 2)])
    k.aufgaben[1].teilaufgaben[0].erwartung[0].text = "„Mr Brown knocked on the door“ (l. 6) vs. Zoe (l. 5)"
    p = printable_klausur(k)
    _, second = (b.text.split("\n") for b in p.aufgaben[1].materialien)
    criterion = p.aufgaben[1].teilaufgaben[0].erwartung[0].text
    a, _, b = criterion.split("(", 1)[1].split(")")[0].split(" ")[1].partition("–")
    assert "Mr Brown knocked" in " ".join(second[int(a) - 1:int(b or a)])  # the quote is in M2
    assert criterion.endswith("vs. Zoe (l. 5)")  # no quote, no M, both texts have a line 5: it stays


def test_a_tasks_own_a_b_list_inside_a_teilaufgabe_is_printed_as_1_2():
    # A generated pq-formula task carries its own list „a) f(x) … b) g(x) …“; printed as Teilaufgabe a) of Aufgabe 2
    # the pupil read „a) Berechne … a) f(x) … b) g(x)“ beside the Aufgabe's own b) (teacher check, stop 22).
    k = make_klausur()
    first = k.aufgaben[1].teilaufgaben[0]
    first.text = "Berechne die Nullstellen der Funktionen f und g.\na) f(x) = x² + 9x + 18\nb) g(x) = x² − 8x + 9"
    first.erwartung[0].text = "a) p-q-Formel: x = −4,5 ± 1,5, also x₁ = −3; x₂ = −6."
    alone = k.aufgaben[2].teilaufgaben[0]
    alone.text = "Beurteile die Aussagen.\na) Die Spannung reicht.\nb) Die Lampe leuchtet heller."
    files = rendered(k)
    for name in ("schueler_pdf", "lehrer_pdf"):
        text = flat(pdf_text(files[name]))
        assert "(1) f(x) = x² + 9x + 18 (2) g(x)" in text
        assert "a) f(x)" not in text and "b) g(x)" not in text
        assert "a) Die Spannung reicht." in text  # an Aufgabe of one sub-task keeps the task's own letters
    assert "(1) p-q-Formel" in flat(pdf_text(files["lehrer_pdf"]))
    assert "(2) g(x) = x² − 8x + 9" in flat(docx_text(files["schueler_docx"]))
