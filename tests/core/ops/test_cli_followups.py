"""Follow-ups by number, place and Niveau through the CLI, each turn its own `python -m core chat --conversation ID`
process: what the teacher reads in the reply, the stored new version, and its files written to --out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from db import models as m
from db.session import Identity, unit_of_work

ROOT = Path(__file__).resolve().parents[3]


def _cli(*args: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "core", *args, "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=240, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)


def _fresh_teacher() -> str:
    email = f"cli-fu-{uuid.uuid4().hex[:8]}@test.de"
    with unit_of_work(Identity.system()) as db:
        db.add(m.Teacher(name="CLI Lehrkraft", email=email, bundesland="Sachsen", faecher=["biologie", "mathematik"]))
    return email


def _content(material_id: str) -> dict:
    with unit_of_work(Identity.system()) as db:
        return dict(db.get(m.GeneratedMaterial, uuid.UUID(material_id)).content)


def test_quiz_and_sheet_follow_ups_through_the_cli(database, tmp_path: Path) -> None:  # noqa: ANN001
    email = _fresh_teacher()
    quiz = _cli("chat", "--teacher", email, "--new", "Quiz Biologie Klasse 6 zu Wirbeltieren, 8 Fragen")
    assert quiz["material_id"], quiz["reply"]
    v1 = H5PSet.model_validate(_content(quiz["material_id"]))

    out = tmp_path / "quiz"
    struck = _cli("chat", "--teacher", email, "--conversation", quiz["conversation_id"], "--out", str(out),
                  "Die erste und die dritte Frage bitte raus.")
    assert "Gestrichen: Frage 1 und Frage 3" in struck["reply"], struck["reply"]
    v2 = H5PSet.model_validate(_content(struck["material_id"]))
    assert [f.model_dump() for f in v2.fragen] == [f.model_dump() for i, f in enumerate(v1.fragen) if i not in (0, 2)]
    h5p = next(p for p in out.iterdir() if p.suffix == ".h5p")
    with zipfile.ZipFile(h5p) as z:
        questions = json.loads(z.read("content/content.json")).get("questions", [])
    assert len(questions) == len(v2.fragen)

    sheet = _cli("chat", "--teacher", email, "--new", "Differenziertes Arbeitsblatt Mathematik Klasse 7 zur "
                                                        "Prozentrechnung")
    assert sheet["material_id"], sheet["reply"]
    s1 = DifferenziertesMaterial.model_validate(_content(sheet["material_id"]))
    out = tmp_path / "blatt"
    done = _cli("chat", "--teacher", email, "--conversation", sheet["conversation_id"], "--out", str(out),
                "Bitte auf Niveau B die letzte Aufgabe streichen.")
    mittel = next(n for n in s1.niveaus if n.name == "mittel")
    assert f"Gestrichen auf Niveau B (mittel): Aufgabe {len(mittel.aufgaben)}" in done["reply"], done["reply"]
    s2 = DifferenziertesMaterial.model_validate(_content(done["material_id"]))
    assert next(n for n in s2.niveaus if n.name == "mittel").aufgaben == mittel.aufgaben[:-1]
    assert sorted(p.suffix for p in out.iterdir()) == [".docx", ".docx", ".pdf", ".pdf"]
    assert all(p.read_bytes()[:4] in (b"%PDF", b"PK\x03\x04") for p in out.iterdir())
