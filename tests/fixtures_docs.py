"""Test documents made at test time: example exams and Lehrpläne as DOCX/PDF, and hostile or broken files.

Nothing here is a stored binary — every file is built with python-docx, fpdf2, pypdf or zipfile when a test asks.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from collections.abc import Callable

from docx import Document
from fpdf import FPDF
from pypdf import PdfReader, PdfWriter

# --- DOCX ---------------------------------------------------------------------------------------------------------

Para = str | tuple[str, str]  # text, or (style name, text)


def docx_bytes(paragraphs: list[Para], *, table: list[list[str]] | None = None, bold: set[str] = frozenset()) -> bytes:
    """A DOCX with the given paragraphs ("Heading 1", "Title", "List Number" … as styles); `table` goes first."""
    doc = Document()
    if table:
        t = doc.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                t.cell(r, c).text = value
    for p in paragraphs:
        style, text = p if isinstance(p, tuple) else (None, p)
        para = doc.add_paragraph(style=style)
        run = para.add_run(text)
        if text in bold:
            run.bold = True
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def exam_docx() -> bytes:
    """A Physik Klassenarbeit in the "Aufgabe N" convention: header table, sub-tasks a)/b), points, AFB, total."""
    return docx_bytes(
        [
            ("Title", "Klassenarbeit Nr. 2 – Elektrizitätslehre"),
            "Bearbeitungszeit: 45 Minuten",
            "Hilfsmittel: Taschenrechner, Tafelwerk",
            ("Heading 2", "Aufgabe 1 (6 P.)"),
            "In einem Stromkreis sind zwei Widerstände R1 = 100 Ω und R2 = 220 Ω in Reihe geschaltet.",
            "a) Nennen Sie zwei Eigenschaften einer Reihenschaltung. (2 P., AFB I)",
            "b) Berechne den Gesamtwiderstand der Schaltung.\t4 P.",
            ("Heading 2", "Aufgabe 2"),
            "a) Erläutere, warum der Strom in allen Bauteilen gleich groß ist. (4 Punkte)",
            "b) Gib die Einheit des elektrischen Widerstands an. [1]",
            "c) Stelle den Zusammenhang von U und I grafisch dar. /3 BE",
            ("Heading 2", "Aufgabe 3 (8 P., Anforderungsbereich III)"),
            "Beurteile, ob eine Parallelschaltung für die Beleuchtung eines Hauses besser geeignet ist.",
            "Zusatzaufgabe (2 P.)",
            "Diskutiere Vor- und Nachteile von Energiesparlampen.",
            "Gesamtpunktzahl: 22",
            "Viel Erfolg!",
        ],
        table=[["Name:", "Klasse: 10a", "Datum:"], ["Fach: Physik", "Lehrer: Keller", "Note:"]],
    )


def numbered_exam_docx() -> bytes:
    """Tasks with Word's automatic numbering (style "List Number"): the numbers are not in the paragraph text."""
    return docx_bytes([
        "Test Mathematik, Klasse 7",
        ("List Number", "Berechne den Flächeninhalt eines Rechtecks mit a = 3 cm und b = 5 cm. (2 P)"),
        ("List Number", "Begründe, warum jedes Quadrat ein Rechteck ist. (3 P)"),
        ("List Number", "Zeichne ein gleichschenkliges Dreieck. (2 P)"),
    ])


def prose_docx() -> bytes:
    return docx_bytes([
        "Liebe Eltern,",
        "am Freitag findet der Wandertag der Klasse 10a statt. Bitte geben Sie Ihrem Kind ausreichend Proviant mit.",
        "Mit freundlichen Grüßen, S. Keller",
    ])


def empty_docx() -> bytes:
    return docx_bytes([])


def curriculum_docx(topic: str = "Supraleitung") -> bytes:
    """A Lehrplan with Heading 1/2/3 and a long section (which must be split at paragraph boundaries)."""
    long_paras = [
        f"Die Schülerinnen und Schüler beschreiben das Phänomen der {topic} an Beispielen aus Forschung und Technik. "
        "Sie unterscheiden Leiter, Halbleiter und Isolatoren nach ihrem Widerstandsverhalten bei tiefen "
        "Temperaturen und stellen Messreihen in Diagrammen dar." + " Sie dokumentieren ihre Ergebnisse." * 3,
        f"Sie erläutern den Meißner-Ochsenfeld-Effekt als Kennzeichen der {topic} und grenzen ihn von idealer "
        "Leitfähigkeit ab. Dabei nutzen sie Modellvorstellungen und reflektieren deren Grenzen." +
        " Sie diskutieren Anwendungen wie Magnetschwebebahnen und Kernspintomographen." * 2,
        "Sie bewerten den Energieaufwand der Kühlung mit flüssigem Stickstoff und Helium im Vergleich zum Nutzen "
        "verlustfreier Stromleitung und beziehen gesellschaftliche Fragen ein." + " Sie begründen ihr Urteil." * 3,
    ]
    return docx_bytes([
        ("Title", "Lehrplan Physik (Auszug)"),
        "Vorbemerkung: Dieser Auszug dient der Erprobung.",
        ("Heading 1", "Klassenstufe 10"),
        ("Heading 2", "Lernbereich 3: Festkörperphysik"),
        ("Heading 3", f"3.1 {topic}"),
        *long_paras,
        ("Heading 3", "3.2 Halbleiterdioden"),
        "Die Schülerinnen und Schüler erklären die Funktionsweise einer Diode mit dem Bändermodell.",
    ])


def _rewrite(data: bytes, name: str, change: Callable[[bytes], bytes]) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            content = src.read(info.filename)
            z.writestr(info.filename, change(content) if info.filename == name else content)
    return out.getvalue()


def entity_docx(kind: str = "external", *, target: str = "file:///etc/passwd") -> bytes:
    """A DOCX whose document.xml declares entities: an external file (XXE) or nested ones (billion laughs)."""
    base = docx_bytes(["Aufgabe 1", "Nenne drei Beispiele. PLATZHALTER"])
    if kind == "external":
        dtd = f'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "{target}">]>'
        ref = "&xxe;"
    else:
        dtd = ('<!DOCTYPE w:document [<!ENTITY lol "lol">'
               + "".join(f'<!ENTITY lol{i} "{(f"&lol{i - 1};" if i > 1 else "&lol;") * 10}">' for i in range(1, 10))
               + "]>")
        ref = "&lol9;"

    def change(xml: bytes) -> bytes:
        text = xml.decode("utf-8")
        text = re.sub(r"(<\?xml[^>]*\?>)", lambda m: m.group(1) + "\n" + dtd, text, count=1)
        return text.replace("PLATZHALTER", ref).encode("utf-8")

    return _rewrite(base, "word/document.xml", change)


def zip_bomb_docx(unpacked_mb: int = 60) -> bytes:
    """A valid DOCX plus one member that unpacks to `unpacked_mb` MB of zeros (a few dozen KB packed)."""
    base = docx_bytes(["Aufgabe 1", "Nenne drei Beispiele."])
    out = io.BytesIO()
    src = zipfile.ZipFile(io.BytesIO(base))
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info.filename, src.read(info.filename))
        z.writestr("word/media/filler.bin", b"\0" * (unpacked_mb * 2**20))
    return out.getvalue()


def lying_zip_bomb_docx(unpacked_mb: int = 60) -> bytes:
    """Like `zip_bomb_docx`, but the zip headers claim the big member is 1 KB (so a size sum alone is fooled)."""
    data = bytearray(zip_bomb_docx(unpacked_mb))
    real = unpacked_mb * 2**20
    fake = struct.pack("<I", 1024)
    needle = struct.pack("<I", real)
    start = 0
    while (i := data.find(needle, start)) != -1:  # uncompressed-size fields in the local and central headers
        data[i:i + 4] = fake
        start = i + 4
    return bytes(data)


def corrupt_docx() -> bytes:
    return b"PK\x03\x04" + bytes(range(256)) * 40


# --- PDF ----------------------------------------------------------------------------------------------------------


def pdf_bytes(lines: list[tuple[int, str]], *, bold_sizes: set[int] = frozenset()) -> bytes:
    """A PDF with one line per (font size, text); core fonts, so text must be Latin-1."""
    pdf = FPDF()
    pdf.add_page()
    for size, text in lines:
        pdf.set_font("Helvetica", "B" if size in bold_sizes else "", size)
        pdf.multi_cell(0, size * 0.55, text, new_x="LMARGIN", new_y="NEXT")
        if size in bold_sizes:
            pdf.ln(1)
    return bytes(pdf.output())


def exam_pdf() -> bytes:
    """A Biologie test in the "1." / "1)" convention with [n], /n BE, "n Punkte" and "Anforderungsbereich"."""
    return pdf_bytes([
        (14, "Lernkontrolle Biologie - Zelle"),
        (11, "Klasse 8b    Dauer: 30 Minuten"),
        (11, "1. Nenne drei Zellorganellen einer Pflanzenzelle. [3]"),
        (11, "2. Vergleiche Pflanzen- und Tierzelle. 6 Punkte"),
        (11, "a) Beschreibe die Funktion der Vakuole. /2 BE"),
        (11, "b) Erkläre, warum Tierzellen keine Zellwand brauchen. (4 P.) Anforderungsbereich III"),
        (11, "3) Bewerte die Aussage: Zellen sind die kleinsten Bausteine des Lebens. (4 P)"),
        (11, "Gesamtpunktzahl: 13"),
    ])


def curriculum_pdf() -> bytes:
    """A Lehrplan whose headings differ only by font size (no numbering a text rule would catch)."""
    body = ("Die Schülerinnen und Schüler untersuchen Quantenpunkte in Displays und erklären deren Farbe mit "
            "der Teilchengröße. ") * 3
    return pdf_bytes([
        (18, "Jahrgangsstufe 11"),
        (15, "Nanotechnologie in Alltag und Technik"),
        (11, body),
        (15, "Grenzen des Teilchenmodells"),
        (11, "Sie reflektieren Modellgrenzen am Beispiel der Lichtbeugung."),
    ], bold_sizes={18, 15})


def encrypted_pdf(password: str = "geheim") -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(exam_pdf())))
    writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def truncated_pdf() -> bytes:
    data = exam_pdf()
    return data[:60] + b"\x00garbage\xff" * 50


def scanned_pdf() -> bytes:
    """A PDF without any text layer (what a scanner produces, minus the image)."""
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 60)
    return bytes(pdf.output())


def png_bytes() -> bytes:
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)


def exe_bytes() -> bytes:
    return b"MZ\x90\x00" + bytes(512)


def huge_pdf(mb: int = 50) -> bytes:
    return b"%PDF-1.4\n" + b"0" * (mb * 2**20)

