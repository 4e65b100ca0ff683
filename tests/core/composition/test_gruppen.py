"""Gruppe A/B: the same exam with other numbers — two Schülerfassungen, one Lehrerfassung with both keys, from the
chat and from the CLI."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

from docx import Document
from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from core.materials.klausur import Klausur
from db.repos.materials import files_of, get_material
from db.repos.teachers import find_teacher

ROOT = Path(__file__).resolve().parents[3]
DEMO_TEACHER = "steffen.keller@demo-gymnasium.de"
REQUEST = "Klassenarbeit Physik Klasse 8 Ohmsches Gesetz, 45 Minuten, AFB 40/40/20, bitte Gruppe A und B"


def _text(data: bytes) -> str:
    doc = Document(io.BytesIO(data))
    cells = [c.text for t in doc.tables for r in t.rows for c in r.cells]
    return "\n".join([p.text for p in doc.paragraphs] + cells)


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:,\d+)?", text)


def test_group_b_has_the_same_structure_with_other_numbers(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message=REQUEST)
    assert r.material_id, r.reply
    row = get_material(db=db, material_id=uuid.UUID(r.material_id))
    k = Klausur.model_validate(row.content)
    assert k.gruppe_b is not None and len(k.gruppe_b) == len(k.aufgaben)
    a_teile = k.teilaufgaben()
    b_teile = [t for a in k.gruppe_b for t in a.teilaufgaben]
    assert [(t.afb, t.punkte, t.operator) for t in a_teile] == [(t.afb, t.punkte, t.operator) for t in b_teile]
    changed = [(a, b) for a, b in zip(a_teile, b_teile, strict=True) if a.text != b.text]
    assert changed, "no task of group B differs from group A"
    assert all(any(q.art == "generator" for q in a.quellen) for a, _ in changed)  # only re-drawn numbers differ
    files = {f.kind: bytes(f.data) for f in files_of(db=db, material_id=row.id)}
    assert {"schueler_docx", "schueler_b_docx", "lehrer_docx"} <= set(files)
    sheet_a, sheet_b, key = _text(files["schueler_docx"]), _text(files["schueler_b_docx"]), _text(files["lehrer_docx"])
    assert "Gruppe A" in sheet_a and "Gruppe B" in sheet_b
    assert _numbers(sheet_a) != _numbers(sheet_b)
    assert changed[0][1].text in sheet_b and changed[0][1].text not in sheet_a
    assert "Gruppe A" in key and "Gruppe B" in key
    assert changed[0][0].erwartung[-1].text in key and changed[0][1].erwartung[-1].text in key
    assert "Erwartungshorizont" not in sheet_a + sheet_b
    assert any("Gruppe B" in h for h in k.hinweise_lehrkraft)


def test_group_a_and_b_download_from_the_cli(database, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "dateien"
    proc = subprocess.run([sys.executable, "-m", "core", "chat", "--new", "--out", str(out), "--json", REQUEST],
                          cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["material_id"], result["reply"]
    names = sorted(Path(f).name for f in result["files"] if f.endswith(".docx"))
    assert sorted(Path(f).name for f in result["files"] if f.endswith(".pdf")) == [  # a PDF beside every DOCX
        n.replace(".docx", ".pdf") for n in names]
    assert names == ["Physik_Ohmsches_Gesetz_Gruppe_A_Schuelerfassung.docx",
                     "Physik_Ohmsches_Gesetz_Gruppe_B_Schuelerfassung.docx",
                     "Physik_Ohmsches_Gesetz_Lehrerfassung.docx"]
    assert all((out / n).stat().st_size > 5000 for n in names)
