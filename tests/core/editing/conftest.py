"""Shared set-up for the editing tests: one generated Physik exam of a fresh teacher, and what a stored version
looks like (version link, untouched previous version, files)."""

from __future__ import annotations

import io
import uuid
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from docx import Document
from sqlalchemy.orm import Session

from agents.deps import TurnContext
from core.chat.turn import chat_turn
from core.checks.structure import validate_klausur
from core.materials.klausur import Klausur
from db import models as m
from db.repos.knowledge import operator_list
from db.repos.materials import files_of, get_material
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

PATCH_TEACHER = uuid.UUID("5e0d1c2b-0000-4000-8000-00000000a7c1")
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def docx_text(data: bytes) -> str:
    doc = Document(io.BytesIO(data))
    return "\n".join([p.text for p in doc.paragraphs] + [c.text for t in doc.tables for r in t.rows for c in r.cells])


@dataclass
class Exam:
    turn: TurnContext
    row: m.GeneratedMaterial
    klausur: Klausur
    content: dict
    files: dict[str, bytes]

    def count(self) -> int:
        db = self.turn.db
        return db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial)
                         .where(m.GeneratedMaterial.teacher_id == self.turn.teacher.id))

    def teil(self, ref: str):  # noqa: ANN201
        nummer, label = int(ref[:-1]), ref[-1]
        aufgabe = next(a for a in self.klausur.aufgaben if a.nummer == nummer)
        return next(t for t in aufgabe.teilaufgaben if t.kennung == label)


@pytest.fixture
def exam(db: Session, as_teacher) -> Exam:  # noqa: ANN001
    # a fresh Physik teacher at the demo school, the same in every test (each test's transaction is rolled back):
    # what earlier tests taught the demo teacher (ratings, notes, preferences) must not change the exam these tests
    # edit, and the composer's generators draw their numbers per teacher
    demo = find_teacher(db=db, ref=DEMO_TEACHER)
    teacher = m.Teacher(id=PATCH_TEACHER, name="Patch Lehrkraft", email="patch-lehrkraft@test.de",
                        bundesland="Sachsen", faecher=["physik"], school_id=demo.school_id)
    db.add(teacher)
    db.flush()
    ident = as_teacher(teacher)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    assert r.material_id, r.reply
    row = get_material(db=db, material_id=uuid.UUID(r.material_id))
    assert row.validation == [] and row.version == 1 and row.parent_id is None
    klausur = Klausur.model_validate(row.content)
    assert len(klausur.aufgaben) >= 3 and len(klausur.aufgaben[1].teilaufgaben) >= 2  # what the tests below edit
    files = {f.kind: bytes(f.data) for f in files_of(db=db, material_id=row.id)}
    turn = TurnContext(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id)
    return Exam(turn=turn, row=row, klausur=klausur, content=dict(row.content), files=files)


def stored(exam: Exam, outcome) -> tuple[m.GeneratedMaterial, Klausur, str, str]:  # noqa: ANN001
    """The new version with its Klausur and the text of both DOCX; checks the version link and the old version."""
    db = exam.turn.db
    new = get_material(db=db, material_id=outcome.material_id)
    assert new.parent_id == exam.row.id and new.version == 2 and outcome.version == 2
    assert new.teacher_id == exam.row.teacher_id and new.conversation_id == exam.row.conversation_id
    assert new.validation == outcome.faults
    old = get_material(db=db, material_id=exam.row.id)
    assert old.content == exam.content and old.version == 1  # the previous version is untouched and retrievable
    assert {f.kind: bytes(f.data) for f in files_of(db=db, material_id=old.id)} == exam.files
    files = {f.kind: bytes(f.data) for f in files_of(db=db, material_id=new.id)}
    assert set(files) == {"schueler_docx", "lehrer_docx", "schueler_pdf", "lehrer_pdf"}  # a PDF beside every DOCX
    assert files["lehrer_docx"] != exam.files["lehrer_docx"] and files["lehrer_pdf"] != exam.files["lehrer_pdf"]
    return new, Klausur.model_validate(new.content), docx_text(files["schueler_docx"]), docx_text(files["lehrer_docx"])


def faults_now(exam: Exam, k: Klausur) -> list[str]:
    ops = {o["operator"]: o["afb"] for o in operator_list(db=exam.turn.db, fach="physik")}
    return validate_klausur(k, afb_ziel={"I": 30, "II": 40, "III": 30}, operatoren=ops)
