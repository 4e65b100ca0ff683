"""The walkthrough across separate processes: every turn is its own `python -m core chat` call, so the paused
specialist run must survive in PostgreSQL between processes (a restart between question and answer)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import sqlalchemy as sa
from docx import Document

from db import models as m
from db.session import Identity, unit_of_work
from tests.conftest import fixed_uuid

ROOT = Path(__file__).resolve().parents[3]


def _cli(*args: str) -> dict | str:
    proc = subprocess.run([sys.executable, "-m", "core", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=180, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout) if "--json" in args else proc.stdout


def _fresh_teacher() -> str:
    """A committed teacher of its own (10a in a new school), so this test does not teach the demo teacher."""
    teacher_id = fixed_uuid("teacher")  # her id seeds her exam's generated numbers: the same exam on every run
    email = f"cli-{teacher_id.hex[:8]}@test.de"
    with unit_of_work(Identity.system()) as db:
        school = m.School(name=f"CLI-Schule {email}", bundesland="Sachsen", schulform="Gymnasium")
        db.add(school)
        db.flush()
        klasse = m.SchoolClass(school_id=school.id, name="10a", klassenstufe=10, schuljahr="2026/27")
        teacher = m.Teacher(id=teacher_id, name="CLI Lehrkraft", email=email, bundesland="Sachsen", faecher=["physik"],
                            school_id=school.id)
        db.add_all([klasse, teacher])
        db.flush()
        db.add(m.TeacherClass(teacher_id=teacher.id, class_id=klasse.id, fach="physik"))
    return email


def test_walkthrough_across_processes(database, tmp_path: Path) -> None:  # noqa: ANN001
    email = _fresh_teacher()
    r1 = _cli("chat", "--teacher", email, "--new", "--json", "Ich brauche ne Klausur E-Lehre für die 10a")
    conv = r1["conversation_id"]
    assert r1["session_id"] is None and "Schwerpunkt" in r1["reply"]

    r2 = _cli("chat", "--teacher", email, "--conversation", conv, "--json",
              "Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III")
    assert r2["session_id"] and r2["question"]["vorschlaege"]

    out = tmp_path / "dateien"
    r3 = _cli("chat", "--teacher", email, "--conversation", conv, "--out", str(out), "--json", "30/40/30 bitte")
    assert r3["material_id"], r3["reply"]
    names = sorted(Path(f).name for f in r3["files"])
    assert names == ["Physik_Stromkreise_Lehrerfassung.docx", "Physik_Stromkreise_Lehrerfassung.pdf",
                     "Physik_Stromkreise_Schuelerfassung.docx", "Physik_Stromkreise_Schuelerfassung.pdf"]
    assert sorted(p.name for p in out.iterdir()) == names and (out / names[1]).read_bytes().startswith(b"%PDF")
    lehrer = Document(str(out / names[0]))
    assert any("Erwartungshorizont" in p.text for p in lehrer.paragraphs)

    view = _cli("material", r3["material_id"], "--teacher", email, "--json")
    assert view["validation"] == [] and view["gesamtpunkte"] > 0
    assert all(abs(view["afb_anteile"][k] - t) <= 10 for k, t in (("I", 30), ("II", 40), ("III", 30)))

    r4 = _cli("chat", "--teacher", email, "--conversation", conv, "--json", "Super, genau so – bitte so merken!")
    assert "Danke" in r4["reply"]
    karte = _cli("wissenskarte", "--teacher", email, "--fach", "physik")
    assert "AFB-Ziel 30/40/30" in karte
    assert int(re.search(r"Bewährte Aufgaben: (\d+) persönlich", karte).group(1)) >= 5

    rated = _cli("rate", r3["material_id"], "4", "--teacher", email)
    assert "Bewertung gespeichert (4 Sterne)" in rated
    with unit_of_work(Identity.system()) as db:
        stars = db.scalars(sa.select(m.Rating.stars).where(m.Rating.material_id == uuid.UUID(r3["material_id"]))
                           .order_by(m.Rating.id)).all()
    assert stars == [5, 4]


def test_a_combined_request_writes_every_file_of_every_material_and_the_zip(database, tmp_path: Path) -> None:  # noqa: ANN001
    email = _fresh_teacher()
    out = tmp_path / "paket"
    r = _cli("chat", "--teacher", email, "--new", "--out", str(out), "--json",
             "Für die 10a: eine Klausur zu Stromkreisen, 45 Minuten, AFB 30/40/30, dazu ein differenziertes "
             "Übungsblatt zu Stromkreisen und ein H5P-Quiz zu Stromkreisen")
    assert len(r["material_ids"]) == 3, r["reply"]
    with unit_of_work(Identity.system()) as db:
        stored = {(f.filename, bytes(f.data)) for mid in r["material_ids"]
                  for f in db.scalars(sa.select(m.MaterialFile).where(m.MaterialFile.material_id == uuid.UUID(mid)))}
    on_disk = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(on_disk) == sorted(Path(f).name for f in r["files"])  # --json lists exactly what was written
    assert {data for _, data in stored} <= set(on_disk.values())  # every stored file of all three materials
    kinds = {Path(n).suffix for n in on_disk}
    assert {".docx", ".pdf", ".h5p", ".xml", ".zip"} <= kinds, sorted(on_disk)
    with zipfile.ZipFile(out / "Materialpaket.zip") as z:
        assert len([n for n in z.namelist() if not n.startswith("0_")]) == len(stored)
    text = _cli("chat", "--teacher", email, "--conversation", r["conversation_id"], "--out", str(tmp_path / "t"),
                "kannst du mir die klausur auch als pdf geben?")
    assert "Datei:" in text and ".pdf" in text
