"""The seed's walkthrough, offline: Schärfungsfragen → AFB Rückfrage → validated exam with DOCX → "bitte so merken"
→ more good practices and a stored preference in the next Wissenskarte. Plus worksheet and H5P of the same depth."""

from __future__ import annotations

import io
import json
import re
import uuid
import xml.etree.ElementTree as ET
import zipfile

from docx import Document
from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from core.knowledge.wissenskarte import build_wissenskarte
from core.materials.klausur import Klausur
from core.materials.service import material_view
from db.repos.materials import files_of
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER


def _docx_text(data: bytes) -> str:
    doc = Document(io.BytesIO(data))
    parts = [p.text for p in doc.paragraphs]
    parts += [c.text for t in doc.tables for r in t.rows for c in r.cells]
    return "\n".join(parts)


def test_exam_walkthrough_with_rueckfrage_and_learning(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)

    r1 = chat_turn(db=db, identity=ident, teacher=teacher, message="Ich brauche ne Klausur E-Lehre für die 10a")
    assert r1.material_id is None and r1.session_id is None
    assert "Schwerpunkt" in r1.reply and "Wie lange" in r1.reply  # Schärfungsfragen: topic and duration

    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r1.conversation_id,
                   message="Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III")
    assert r2.session_id and r2.material_id is None
    assert "Anforderungsbereiche" in r2.question["frage"]
    assert len(r2.question["vorschlaege"]) >= 2 and any("30/40/30" in v for v in r2.question["vorschlaege"])
    assert "Rückfrage" in r2.reply

    r3 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r1.conversation_id,
                   message="30/40/30 bitte")
    assert r3.material_id, r3.reply
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(r3.material_id))
    assert view["validation"] == []
    shares = view["afb_anteile"]
    for afb, target in (("I", 30), ("II", 40), ("III", 30)):
        assert abs(shares[afb] - target) <= 10, shares
    exam = Klausur.model_validate(view["content"])
    assert exam.klasse == "10a" and exam.dauer_minuten == 45
    # the wished task is about induction where the teacher sees it: its title, text or Erwartungshorizont (an AFB III
    # task may leave it to the pupils to see that a shaking torch works by induction)
    induktion = [t for a in exam.aufgaben for t in a.teilaufgaben if t.afb == "III" and re.search(
        r"indu[kz]", " ".join([a.titel, t.text, *(k.text for k in t.erwartung)]), re.I)]
    assert len(induktion) >= 1
    for t in exam.teilaufgaben():
        assert sum(k.punkte for k in t.erwartung) == t.punkte, t.label
        assert t.quellen, f"{t.label} cites no source"
    key = view["notenschluessel"]
    assert key and key[0]["min_punkte"] > key[-1]["min_punkte"]

    files = {f.kind: f for f in files_of(db=db, material_id=uuid.UUID(r3.material_id))}
    lehrer = _docx_text(files["lehrer_docx"].data)
    schueler = _docx_text(files["schueler_docx"].data)
    assert "Erwartungshorizont" in lehrer and "Notenschlüssel" in lehrer
    assert "Erwartungshorizont" not in schueler and "Name" in schueler
    assert exam.aufgaben[0].teilaufgaben[0].erwartung[0].text in lehrer

    before = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    r4 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r1.conversation_id,
                   message="Super, genau so – bitte so merken!")  # explicit (decision 071)
    assert "Danke" in r4.reply
    after = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    count = lambda wk: {(c["type"], c["scope"]): c["n"] for c in wk.facts["counts"]}[("good_practice", "teacher")]  # noqa: E731
    assert count(after) > count(before)
    # the split answered in the Rückfrage was remembered when it was given, and the reply said so (decision 014)
    assert "AFB-Ziel 30/40/30" in before.text and "Gemerkt: AFB 30/40/30" in r3.reply

    # The next exam for this teacher uses the learned AFB target without asking again.
    r5 = chat_turn(db=db, identity=ident, teacher=teacher, message="Klausur Physik Klasse 10 zu Optik, 45 Minuten")
    assert r5.material_id and r5.session_id is None, r5.reply


def test_differentiated_worksheet_has_three_levels(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher,
                  message="Bitte ein differenziertes Arbeitsblatt zu Stromkreisen für Klasse 8 in Physik")
    assert r.material_id, r.reply
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(r.material_id))
    assert view["validation"] == []
    assert [n["name"] for n in view["content"]["niveaus"]] == ["grundlegend", "mittel", "erweitert"]
    for n in view["content"]["niveaus"]:
        assert n["aufgaben"] and n["hilfekarten"] and len(n["loesungen"]) == len(n["aufgaben"])
    sheet = next(f for f in files_of(db=db, material_id=uuid.UUID(r.material_id)) if f.kind == "arbeitsblatt_docx")
    text = _docx_text(sheet.data)
    assert "grundlegend" in text.lower() and "erweitert" in text.lower()


def test_h5p_quiz_package_and_moodle_xml_parse(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message="Ein H5P-Quiz zur Elektrizitätslehre für Klasse 9")
    assert r.material_id, r.reply
    files = {f.kind: f for f in files_of(db=db, material_id=uuid.UUID(r.material_id))}
    with zipfile.ZipFile(io.BytesIO(files["h5p"].data)) as z:
        h5p_json = json.loads(z.read("h5p.json"))
        content = json.loads(z.read("content/content.json"))
    deps = {f"{d['machineName']} {d['majorVersion']}.{d['minorVersion']}" for d in h5p_json["preloadedDependencies"]}
    assert h5p_json["mainLibrary"] in {d.split()[0] for d in deps} and h5p_json["language"] == "de"
    used = set(re.findall(r'"library":\s*"([^"]+)"', json.dumps(content)))
    assert used <= deps, used - deps
    quiz = ET.fromstring(files["moodle_xml"].data)
    questions = [q for q in quiz.findall("question") if q.get("type") != "category"]
    assert questions and {q.get("type") for q in questions} <= {"multichoice", "truefalse", "cloze"}
