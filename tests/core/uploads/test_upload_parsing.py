"""Upload parsing: exams/worksheets become the teacher's own examples, Lehrpläne become curriculum chunks; every bad
file gets a German message and leaves nothing behind (not even the upload row). Documents are built at test time."""

from __future__ import annotations

import asyncio
import io
import json
import re
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from lxml.etree import XMLSyntaxError
from sqlalchemy.orm import Session

from agents.specialist_tools import get_example
from core.app.errors import NotFoundError, UserError
from core.knowledge.retrieval import search
from core.knowledge.wissenskarte import build_wissenskarte
from core.safety.service import CLOSE, DATA_NOTE, OPEN
from core.uploads import curriculum_import, examples
from core.uploads.blocks import Block, document_blocks
from core.uploads.curriculum import parse_curriculum, split_paragraphs
from core.uploads.curriculum_import import import_curriculum
from core.uploads.documents import check_document
from core.uploads.exam_parser import parse_exam
from core.uploads.examples import import_example
from core.uploads.service import import_file, store_upload
from db import models as m
from db.repos.knowledge import teacher_examples
from db.repos.teachers import find_teacher
from db.session import Identity, act_as, unit_of_work
from tests import fixtures_docs as docs
from tests.conftest import DEMO_TEACHER
from tests.pages.conftest import fresh_person

COLLEAGUE = "anna.berger@demo-gymnasium.de"  # same school as the demo teacher

EXAM_TEXT = """1. Klassenarbeit Physik
Name: ________ | Klasse: 9b | Datum: ______
Bearbeitungszeit: 2 Stunden
Teil A – ohne Taschenrechner
Aufgabe 1 (6 P.)
Ein Stromkreis besteht aus zwei Widerständen.
a) Nenne zwei Eigenschaften einer Reihenschaltung. (2 P., AFB I)
b) Berechne den Gesamtwiderstand.\t4 P.
Aufgabe 2: Ohmsches Gesetz
1. Erläutern Sie das Ohmsche Gesetz. 3 Punkte
2. Gib die Einheit des Widerstands an. /2 BE
3) Stelle den Zusammenhang grafisch dar. [4]
Teil B – mit Taschenrechner
Aufgabe 3
Ein Wasserkocher hat eine Leistung von 2 kW. Beurteilen Sie, ob er sparsam ist. (AFB III) (8 Punkte)
Zusatzaufgabe (2 P.)
Diskutiere Vor- und Nachteile. Anforderungsbereich II
Gesamtpunktzahl: 23
Viel Erfolg!
"""


def _count(db: Session, model: type, **where: object) -> int:
    stmt = sa.select(sa.func.count()).select_from(model)
    for key, value in where.items():
        stmt = stmt.where(getattr(model, key) == value)
    return db.scalar(stmt)


def _own_examples(text: str) -> int:
    m_ = re.search(r"Eigene Beispiele: (\d+)", text)
    return int(m_.group(1)) if m_ else 0


def _upload(db: Session, teacher: m.Teacher, filename: str, data: bytes) -> uuid.UUID:
    return store_upload(db=db, teacher_id=teacher.id, conversation_id=None, filename=filename,
                        mime="application/octet-stream", data=data).id


# --- parsing, without a database ----------------------------------------------------------------------------------


def test_german_exam_conventions_become_tasks_points_afb_and_operators() -> None:
    exam = parse_exam(EXAM_TEXT)
    assert (exam.titel, exam.fach, exam.klassenstufe, exam.dauer_minuten, exam.gesamtpunkte) == (
        "1. Klassenarbeit Physik", "physik", 9, 120, 23)
    assert [t.nummer for t in exam.aufgaben] == ["1", "2", "3", "Zusatz"]
    one, two, three, bonus = (t.as_content() for t in exam.aufgaben)
    assert one["punkte"] == 6 and one["text"] == "Ein Stromkreis besteht aus zwei Widerständen."
    assert one["teilaufgaben"] == [
        {"nummer": "a", "text": "Nenne zwei Eigenschaften einer Reihenschaltung.", "punkte": 2, "afb": "I",
         "operator": "Nennen"},
        {"nummer": "b", "text": "Berechne den Gesamtwiderstand.", "punkte": 4, "afb": "I", "afb_abgeleitet": True,
         "operator": "Berechnen"},
    ]
    assert two["text"] == "Ohmsches Gesetz" and "punkte" not in two
    assert [(s["nummer"], s["punkte"], s["operator"], s["afb"]) for s in two["teilaufgaben"]] == [
        ("1", 3, "Erläutern", "II"), ("2", 2, "Angeben", "I"), ("3", 4, "Darstellen", "I")]
    # The operator opens the second sentence; the AFB given in the document wins over the operator's.
    assert three == {"nummer": "3", "text": "Ein Wasserkocher hat eine Leistung von 2 kW. Beurteilen Sie, ob er "
                     "sparsam ist.", "punkte": 8, "afb": "III", "operator": "Beurteilen",
                     "teil": "Teil B – mit Taschenrechner"}
    assert one["teil"] == "Teil A – ohne Taschenrechner"
    assert bonus["bonus"] is True and bonus["afb"] == "II" and "afb_abgeleitet" not in bonus
    assert exam.punkte_summe == 23 and exam.hinweise == []  # the bonus task does not count towards the total


def test_annotations_are_taken_out_of_the_text_but_nothing_else_is_changed() -> None:
    exam = parse_exam("Aufgabe 1\nBerechne die Fläche (Material 2) mit 1/2 · g · h.\nNenne Beispiele (z. B. Eis).")
    assert exam.aufgaben[0].text == "Berechne die Fläche (Material 2) mit 1/2 · g · h.\nNenne Beispiele (z. B. Eis)."
    assert exam.aufgaben[0].punkte is None


def test_a_title_numbered_like_a_task_is_not_task_one_and_a_wrong_total_is_reported() -> None:
    exam = parse_exam("1. Klassenarbeit Mathematik\nKlasse 7\n1) Berechne 3 + 4. (2 P)\n2) Löse x + 2 = 5. [3]\n"
                      "Gesamtpunkte: 6")
    assert [(t.nummer, t.text, t.punkte) for t in exam.aufgaben] == [("1", "Berechne 3 + 4.", 2),
                                                                     ("2", "Löse x + 2 = 5.", 3)]
    assert exam.hinweise == ["Die erkannten Punkte ergeben 5, im Dokument steht als Gesamtpunktzahl 6. Bitte prüfen."]


@pytest.mark.parametrize(("task", "operator", "afb"), [
    ("Nennen Sie drei Organellen.", "Nennen", "I"),
    ("Beschreibe den Versuchsaufbau.", "Beschreiben", "I"),
    ("Erkläre die Beobachtung.", "Erklären", "II"),
    ("Erklaere die Beobachtung.", "Erklären", "II"),
    ("Vergleichen Sie beide Modelle.", "Vergleichen", "II"),
    ("Analysiere die Karikatur.", "Analysieren", "II"),
    ("Ermittle die Steigung.", "Ermitteln", "II"),
    ("Leite die Formel für die Fallzeit her.", "Herleiten", "II"),
    ("Ordne die Begriffe den Kategorien zu.", "Zuordnen", "II"),
    ("Bewerte den Vorschlag.", "Bewerten", "III"),
    ("Diskutieren Sie die Folgen.", "Diskutieren", "III"),
    ("Nimm Stellung zur These.", "Stellung nehmen", "III"),
    ("Setze dich mit der Aussage auseinander.", "Sich auseinandersetzen", "III"),
    ("Describe the picture.", "Describe", "I"),
])
def test_operators_at_the_start_of_a_task_give_the_afb_marked_as_inferred(task: str, operator: str, afb: str) -> None:
    t = parse_exam(f"1. {task}\n2. Nenne ein Beispiel.").aufgaben[0]
    assert (t.operator, t.afb, t.afb_abgeleitet) == (operator, afb, True)


def test_the_subjects_own_operator_list_overrides_the_general_afb() -> None:
    text = "1. Begründe, warum 0 keine Primzahl ist.\n2. Nenne eine Primzahl."
    assert parse_exam(text).aufgaben[0].afb == "II"
    assert parse_exam(text, operators={"Begründen": "III"}).aufgaben[0].afb == "III"


def test_a_letter_without_tasks_has_no_tasks_and_no_invented_structure() -> None:
    exam = parse_exam("Liebe Eltern,\nam Freitag ist Wandertag.\nz. B. Proviant mitgeben.\nMit freundlichen Grüßen")
    assert exam.aufgaben == [] and exam.fach is None


def test_words_automatic_list_numbers_are_read_from_the_docx() -> None:
    blocks = document_blocks("docx", docs.numbered_exam_docx())
    exam = parse_exam("\n".join(b.text for b in blocks))
    assert [(t.nummer, t.punkte, t.operator) for t in exam.aufgaben] == [
        ("1", 2, "Berechnen"), ("2", 3, "Begründen"), ("3", 2, "Zeichnen")]
    assert exam.fach == "mathematik" and exam.klassenstufe == 7


def test_long_sections_split_at_paragraph_boundaries_into_400_to_900_characters() -> None:
    paras = [("Satz über Energie. " * 12).strip() for _ in range(6)]  # 6 x 227 characters
    pieces = split_paragraphs(paras)
    assert all(400 <= len(p) <= 900 for p in pieces), [len(p) for p in pieces]
    assert "\n\n".join(pieces) == "\n\n".join(paras)  # cut between paragraphs, nothing lost
    one_long = split_paragraphs([("Ein langer Satz über Felder. " * 80).strip()])
    assert all(len(p) <= 900 for p in one_long) and len(one_long) >= 3


def test_curriculum_headings_become_the_section_path_topic_and_grades() -> None:
    pieces = parse_curriculum(document_blocks("docx", docs.curriculum_docx()), fallback_thema="lehrplan")
    first, *supra, diode = pieces
    assert first.abschnitt is None and first.thema == "Lehrplan Physik (Auszug)"  # the text before any heading
    assert len(supra) == 2 and {p.abschnitt for p in supra} == {
        "Klassenstufe 10 › Lernbereich 3: Festkörperphysik › 3.1 Supraleitung"}
    assert {(p.themenfeld, p.thema, p.klassenstufen) for p in supra} == {
        ("Lernbereich 3: Festkörperphysik", "Supraleitung", (10,))}
    assert all(len(p.kompetenz) <= 900 for p in supra)
    assert diode.thema == "Halbleiterdioden" and diode.kompetenz.startswith("Die Schülerinnen und Schüler erklären")


def test_pdf_headings_are_found_by_font_size_and_wrapped_lines_join() -> None:
    pieces = parse_curriculum(document_blocks("pdf", docs.curriculum_pdf()), fallback_thema="lp")
    assert [(p.abschnitt, p.thema, p.klassenstufen) for p in pieces] == [
        ("Jahrgangsstufe 11 › Nanotechnologie in Alltag und Technik", "Nanotechnologie in Alltag und Technik", (11,)),
        ("Jahrgangsstufe 11 › Grenzen des Teilchenmodells", "Grenzen des Teilchenmodells", (11,)),
    ]
    assert "\n" not in pieces[0].kompetenz and pieces[0].kompetenz.count("Quantenpunkte") == 3


def test_plain_text_headings_without_styles_are_recognised() -> None:
    blocks = [Block("Klassenstufe 7/8"), Block("Lernbereich 2: Optik"), Block("Licht breitet sich geradlinig aus.")]
    [piece] = parse_curriculum(blocks, fallback_thema="lp")
    assert (piece.abschnitt, piece.thema, piece.klassenstufen) == (
        "Klassenstufe 7/8 › Lernbereich 2: Optik", "Lernbereich 2: Optik", (7, 8))


def test_python_docx_does_not_resolve_external_entities(tmp_path: Path) -> None:
    """The second fence: even without our DOCTYPE refusal, python-docx/lxml leave entities unresolved."""
    from docx import Document

    secret = tmp_path / "secret.txt"
    secret.write_text("GEHEIMNIS-4711")
    doc = Document(io.BytesIO(docs.entity_docx(target=secret.as_uri())))
    text = "\n".join(p.text for p in doc.paragraphs)
    assert "Nenne drei Beispiele." in text and "GEHEIMNIS" not in text
    try:
        laughs = Document(io.BytesIO(docs.entity_docx("billion")))
    except XMLSyntaxError as exc:  # libxml2's own guard against entity amplification
        assert "amplification" in str(exc)
    else:
        assert sum(len(p.text) for p in laughs.paragraphs) < 200


# --- importing, in the test's rolled-back transaction -----------------------------------------------------------


def test_docx_exam_becomes_an_own_example_the_map_counts_and_get_example_returns(db: Session, as_teacher) -> None:
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    ident = as_teacher(DEMO_TEACHER)
    before = _own_examples(build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik").text)
    colleague = as_teacher(COLLEAGUE)
    colleague_before = _own_examples(build_wissenskarte(db=db, identity=colleague, agent_type="klausur",
                                                        fach="physik").text)
    ident = as_teacher(DEMO_TEACHER)
    upload_id = _upload(db, keller, "klassenarbeit.docx", docs.exam_docx())
    row = import_example(db=db, teacher=keller, upload_id=upload_id)

    assert (row.knowledge_type, row.scope_type, row.scope_id, row.owner_id) == ("example", "teacher", keller.id,
                                                                              keller.id)
    assert (row.fach, row.agent_type, row.source, row.embedding_model) == ("physik", "klausur", "upload",
                                                                          "hashing-ngram-v1-384")
    c = row.content
    assert (c["titel"], c["klassenstufe"], c["dauer_minuten"], c["gesamtpunkte"]) == (
        "Klassenarbeit Nr. 2 – Elektrizitätslehre", 10, 45, 22)
    assert (c["quelle_datei"], c["upload_id"]) == ("klassenarbeit.docx", str(upload_id))
    assert [(t["nummer"], t.get("punkte")) for t in c["aufgaben"]] == [("1", 6), ("2", None), ("3", 8),
                                                                       ("Zusatz", 2)]
    assert [(s["nummer"], s["punkte"], s["operator"], s["afb"]) for s in c["aufgaben"][1]["teilaufgaben"]] == [
        ("a", 4, "Erläutern", "II"), ("b", 1, "Angeben", "I"), ("c", 3, "Darstellen", "I")]
    assert c["aufgaben"][2]["afb"] == "III" and "afb_abgeleitet" not in c["aufgaben"][2]
    assert "Elektrizitätslehre" in row.search_text and "Gesamtwiderstand" in row.search_text

    wk = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik").text
    assert _own_examples(wk) == before + 1
    ctx = SimpleNamespace(deps=SimpleNamespace(turn=SimpleNamespace(db=db, identity=ident), fach="physik"))
    assert row.id in {r.id for r in teacher_examples(db=db, identity=ident, fach="physik", limit=50)}
    note, _, block = asyncio.run(get_example(ctx, thema="Elektrizitätslehre")).partition("\n")
    assert note == DATA_NOTE and block.startswith(OPEN) and block.endswith(CLOSE)  # the teacher's file: quoted data
    got = json.loads(block[1:-1])
    assert got["ref"] == str(row.id) and got["inhalt"]["aufgaben"][0]["teilaufgaben"][0]["operator"] == "Nennen"

    colleague = as_teacher(COLLEAGUE)
    wk_other = build_wissenskarte(db=db, identity=colleague, agent_type="klausur", fach="physik").text
    assert _own_examples(wk_other) == colleague_before
    assert row.id not in {r.id for r in teacher_examples(db=db, identity=colleague, fach="physik", limit=50)}


def test_pdf_exam_is_parsed_into_tasks_and_stored_for_differenzierung(db: Session, as_teacher) -> None:
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    as_teacher(DEMO_TEACHER)
    row = import_example(db=db, teacher=keller, upload_id=_upload(db, keller, "zelle.pdf", docs.exam_pdf()),
                         agent_type="differenzierung")
    c = row.content
    assert (row.fach, row.agent_type, c["titel"], c["klassenstufe"], c["dauer_minuten"]) == (
        "biologie", "differenzierung", "Lernkontrolle Biologie - Zelle", 8, 30)
    assert [(t["nummer"], t["punkte"], t["operator"], t["afb"]) for t in c["aufgaben"]] == [
        ("1", 3, "Nennen", "I"), ("2", 6, "Vergleichen", "II"), ("3", 4, "Bewerten", "III")]
    subs = c["aufgaben"][1]["teilaufgaben"]
    assert [(s["nummer"], s["punkte"], s.get("operator"), s["afb"], s.get("afb_abgeleitet", False))
            for s in subs] == [("a", 2, "Beschreiben", "I", True), ("b", 4, "Erklären", "III", False)]
    assert c["gesamtpunkte"] == 13


def test_a_given_fach_wins_over_the_document_and_an_unknown_one_is_refused(db: Session, as_teacher) -> None:
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    as_teacher(DEMO_TEACHER)
    upload_id = _upload(db, keller, "zelle.pdf", docs.exam_pdf())
    with pytest.raises(UserError, match="Unbekanntes Fach „Alchemie“"):
        import_example(db=db, teacher=keller, upload_id=upload_id, fach="Alchemie")
    with pytest.raises(UserError, match="Beispiele gibt es für Klausur und Differenzierung"):
        import_example(db=db, teacher=keller, upload_id=upload_id, agent_type="h5p")
    assert import_example(db=db, teacher=keller, upload_id=upload_id, fach="Chemie").fach == "chemie"
    with pytest.raises(UserError, match="bereits als Beispiel gespeichert"):
        import_example(db=db, teacher=keller, upload_id=upload_id)


def test_no_tasks_is_refused_unless_the_teacher_keeps_it_as_text(db: Session, as_teacher) -> None:
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    as_teacher(DEMO_TEACHER)
    upload_id = _upload(db, keller, "brief.docx", docs.prose_docx())
    before = _count(db, m.AgentKnowledge, owner_id=keller.id)
    with pytest.raises(UserError, match="Keine Aufgaben erkannt"):
        import_example(db=db, teacher=keller, upload_id=upload_id, fach="physik")
    assert _count(db, m.AgentKnowledge, owner_id=keller.id) == before
    row = import_example(db=db, teacher=keller, upload_id=upload_id, fach="physik", keep_unstructured=True)
    assert row.content["unstrukturiert"] is True and row.content["aufgaben"] == []
    assert "Wandertag" in row.content["text"]


def test_someone_elses_upload_cannot_be_imported(db: Session, as_teacher) -> None:
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    berger = find_teacher(db=db, ref=COLLEAGUE)
    as_teacher(DEMO_TEACHER)
    upload_id = _upload(db, keller, "klassenarbeit.docx", docs.exam_docx())
    as_teacher(COLLEAGUE)
    with pytest.raises(NotFoundError, match="gehört einer anderen Lehrkraft"):
        import_example(db=db, teacher=berger, upload_id=upload_id)
    with pytest.raises(NotFoundError):
        import_curriculum(db=db, teacher=berger, upload_id=upload_id, fach="physik")


def _teacher_of_another_school(db: Session) -> m.Teacher:
    act_as(db, Identity.system())
    school = m.School(name=f"Andere Schule {uuid.uuid4().hex[:6]}", bundesland="Bayern", schulform="Gymnasium")
    db.add(school)
    db.flush()
    teacher = m.Teacher(name="Fremde Lehrkraft", email=f"fremd-{uuid.uuid4().hex[:8]}@test.de", bundesland="Bayern",
                        faecher=["physik"], school_id=school.id)
    db.add(teacher)
    db.flush()
    return teacher


def _curriculum_hits(db: Session, identity: Identity) -> list:
    hits = search(db=db, identity=identity, query="Supraleitung Meißner-Ochsenfeld-Effekt", fach="physik",
                  kind="curriculum", limit=10)
    return [h for h in hits if h.source == "lehrplan-supra.docx"]


def test_a_curriculum_docx_for_the_teacher_alone_is_found_only_by_them(db: Session, as_teacher) -> None:
    stranger = _teacher_of_another_school(db)
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    ident = as_teacher(DEMO_TEACHER)
    chunks = import_curriculum(db=db, teacher=keller, upload_id=_upload(db, keller, "lehrplan-supra.docx",
                                                                         docs.curriculum_docx()), fach="Physik")
    assert len(chunks) == 4 and {c.scope_type for c in chunks} == {"teacher"} and chunks[1].scope_id == keller.id
    assert (chunks[1].bundesland, chunks[1].schulform, chunks[1].quelle) == ("Sachsen", "Gymnasium",
                                                                             "lehrplan-supra.docx")
    assert all(c.embedding_model == "hashing-ngram-v1-384" for c in chunks)

    hits = _curriculum_hits(db, ident)
    assert hits and hits[0].content["abschnitt"] == (
        "Klassenstufe 10 › Lernbereich 3: Festkörperphysik › 3.1 Supraleitung")
    assert hits[0].thema == "Supraleitung" and hits[0].content["klassenstufen"] == [10]
    assert _curriculum_hits(db, as_teacher(COLLEAGUE)) == []  # teacher scope: not even the colleague
    assert _curriculum_hits(db, as_teacher(stranger)) == []


def test_a_curriculum_for_the_school_is_found_by_colleagues_but_not_by_other_schools(db: Session, as_teacher) -> None:
    stranger = _teacher_of_another_school(db)
    keller = find_teacher(db=db, ref=DEMO_TEACHER)
    as_teacher(DEMO_TEACHER)
    chunks = import_curriculum(db=db, teacher=keller, upload_id=_upload(db, keller, "lehrplan-supra.docx",
                                                                         docs.curriculum_docx()),
                               fach="physik", scope="school", bundesland="Sachsen")
    assert {(c.scope_type, c.scope_id) for c in chunks} == {("school", keller.school_id)}
    assert _curriculum_hits(db, as_teacher(COLLEAGUE))
    assert _curriculum_hits(db, as_teacher(stranger)) == []


# --- one unit of work: import_file (commits for real, so each test acts as a fresh person) ------------------------


@pytest.fixture
def person(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person()


def _rows_of(teacher_id: uuid.UUID) -> tuple[int, int, int]:
    with unit_of_work(Identity.system()) as db:
        return (_count(db, m.Upload, teacher_id=teacher_id), _count(db, m.AgentKnowledge, owner_id=teacher_id),
                _count(db, m.CurriculumChunk, owner_id=teacher_id))


def test_import_file_stores_upload_and_example_together_without_the_path(person: uuid.UUID) -> None:
    result = import_file(teacher_id=person, filename="../../etc/passwd.docx", data=docs.exam_docx(), kind="example")
    assert result.filename == "passwd.docx" and result.knowledge_id is not None
    assert result.message == ("„Klassenarbeit Nr. 2 – Elektrizitätslehre“ als eigenes Beispiel gespeichert "
                              "(Physik, Klausur): 4 Aufgaben, 5 Teilaufgaben, 22 Punkte.")
    assert _rows_of(person) == (1, 1, 0)
    with unit_of_work(Identity.system()) as db:
        upload = db.get(m.Upload, result.upload_id)
        row = db.get(m.AgentKnowledge, result.knowledge_id)
        assert upload.filename == "passwd.docx" and "Aufgabe 1" in upload.extracted_text
        assert row.content["quelle_datei"] == "passwd.docx" and row.content["upload_id"] == str(upload.id)


def test_import_file_stores_a_curriculum_for_the_school(person: uuid.UUID) -> None:
    result = import_file(teacher_id=person, filename="lp.docx", data=docs.curriculum_docx(), kind="curriculum",
                         fach="physik", scope="school")
    assert result.message == ("Lehrplan „lp.docx“ übernommen (Physik, für Ihre Schule): 3 Abschnitte in 4 Auszügen.")
    assert _rows_of(person) == (1, 0, 4)


BAD_INPUTS = [
    pytest.param("klausur.docx", docs.corrupt_docx, "example", "DOCX-Datei ist beschädigt", id="corrupt-docx"),
    pytest.param("klausur.pdf", docs.truncated_pdf, "example", "PDF ist beschädigt", id="corrupt-pdf"),
    pytest.param("klausur.pdf", docs.encrypted_pdf, "example", "passwortgeschützt", id="password-pdf"),
    pytest.param("klausur.pdf", docs.huge_pdf, "example", r"zu groß \(50 MB\)", id="50-mb"),
    pytest.param("setup.exe", docs.exe_bytes, "example", "Dateityp „.exe“ wird hier nicht unterstützt", id="exe"),
    pytest.param("bild.pdf", docs.png_bytes, "example", "heißt .pdf, ist aber kein PDF", id="png-as-pdf"),
    pytest.param("bild.png", docs.png_bytes, "curriculum", "Bilder können nicht", id="png"),
    pytest.param("leer.docx", docs.empty_docx, "example", "enthält keinen Text", id="empty-docx"),
    pytest.param("leer.docx", lambda: b"", "example", "Datei ist leer", id="zero-bytes"),
    pytest.param("scan.pdf", docs.scanned_pdf, "curriculum", "keinen lesbaren Text", id="scan-pdf"),
    pytest.param("bombe.docx", docs.zip_bomb_docx, "example", "entpackt ungewöhnlich groß", id="zip-bomb"),
    pytest.param("bombe.docx", docs.lying_zip_bomb_docx, "example", "(ungewöhnlich groß|beschädigt)",
                 id="zip-bomb-lying-sizes"),
    pytest.param("xxe.docx", docs.entity_docx, "example", "unzulässige XML-Definitionen", id="xxe"),
    pytest.param("lol.docx", lambda: docs.entity_docx("billion"), "curriculum", "unzulässige XML-Definitionen",
                 id="billion-laughs"),
    pytest.param("brief.docx", docs.prose_docx, "example", "Keine Aufgaben erkannt", id="no-tasks"),
]


@pytest.mark.parametrize(("filename", "make", "kind", "message"), BAD_INPUTS)
def test_bad_input_gets_a_german_message_and_stores_nothing(person: uuid.UUID, filename: str, make, kind: str,
                                                           message: str) -> None:  # noqa: ANN001
    with pytest.raises(UserError, match=message):
        import_file(teacher_id=person, filename=filename, data=make(), kind=kind, fach="physik")
    assert _rows_of(person) == (0, 0, 0)


def test_a_failure_after_the_upload_row_was_written_rolls_everything_back(person: uuid.UUID, monkeypatch) -> None:
    def broken(texts):  # noqa: ANN001, ANN202
        raise RuntimeError("embedder down")

    monkeypatch.setattr(examples, "embed_documents", broken)
    monkeypatch.setattr(curriculum_import, "embed_documents", broken)
    with pytest.raises(RuntimeError):
        import_file(teacher_id=person, filename="k.docx", data=docs.exam_docx(), kind="example")
    with pytest.raises(RuntimeError):
        import_file(teacher_id=person, filename="lp.docx", data=docs.curriculum_docx(), kind="curriculum",
                    fach="physik")
    assert _rows_of(person) == (0, 0, 0)


def test_missing_choices_are_asked_for_in_german(person: uuid.UUID) -> None:
    with pytest.raises(UserError, match="Fach des Lehrplans"):
        import_file(teacher_id=person, filename="lp.docx", data=docs.curriculum_docx(), kind="curriculum")
    no_subject = docs.docx_bytes(["1. Nenne drei Beispiele.", "2. Beschreibe den Aufbau."])
    with pytest.raises(UserError, match="Das Fach steht nicht im Dokument"):
        import_file(teacher_id=person, filename="k.docx", data=no_subject, kind="example")
    with pytest.raises(UserError, match="Beispiel oder ein Lehrplan"):
        import_file(teacher_id=person, filename="k.docx", data=docs.exam_docx(), kind="arbeitsblatt")  # type: ignore[arg-type]
    assert _rows_of(person) == (0, 0, 0)


def test_check_document_accepts_plain_text_with_markdown_headings() -> None:
    kind, text, blocks = check_document("lp.md", b"# Klassenstufe 8\n## Optik\nLicht wird gebrochen.\n")
    assert kind == "txt" and text.startswith("# Klassenstufe 8") and blocks[1] == Block("Optik", level=2)


def test_dotted_sub_tasks_without_a_task_line_and_text_around_the_tasks_are_kept() -> None:
    exam = parse_exam("Übungsblatt Chemie\nTeil A\nHilfsmittel: keine\n1.1 Nenne zwei Säuren. (2 P)\n"
                      "1.2 Erkläre den pH-Wert. (3 P)\n2.1 Beschreibe die Neutralisation. (2 P)\nViel Erfolg!")
    assert [(t.nummer, t.text, [s.nummer for s in t.teilaufgaben]) for t in exam.aufgaben] == [
        ("1", "", ["1.1", "1.2"]), ("2", "", ["2.1"])]
    assert exam.aufgaben[0].teil == "Teil A\nHilfsmittel: keine" and exam.nachspann == "Viel Erfolg!"
    assert exam.punkte_summe == 7
