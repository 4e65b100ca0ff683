"""Deleting all of a teacher's data, attacked: after it no column of any table holds her id or her words (walked over
information_schema, text and JSON included); her own settings are gone; the deletion itself is on record without
content; a process killed half-way leaves everything as it was; a colleague keeps all of hers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

from core.app.privacy import my_access_log
from core.chat.service import send
from core.knowledge.notes import add_note
from core.knowledge.preferences import load_preferences, save_preferences
from core.ops.cli.main import main
from core.uploads.service import import_file
from db import models as m
from db.session import Identity, admin_engine, unit_of_work
from tests.pages.conftest import fresh_person

ROOT = Path(__file__).resolve().parents[3]
REQUEST = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"
# Rows of a person that stay: the person, the sign-in, the classes taught, and the record that she deleted her data.
KEPT = {("teachers", "id"), ("accounts", "teacher_id"), ("teacher_classes", "teacher_id"),
        ("access_log", "teacher_id"), ("access_log", "object_id")}


def _with_data(marker: str) -> tuple[uuid.UUID, str]:
    """A fresh teacher whose words carry `marker`: a conversation with an exam, a class note, a school-wide Lehrplan
    and a custom Notenschlüssel."""
    person = fresh_person(name="Test Löschen")
    result = send(teacher_id=person, message=f"{REQUEST} ({marker})", conversation_id=None)
    assert result.material_id, result.reply
    with unit_of_work(Identity.system()) as db:
        class_id = db.scalar(sa.select(m.TeacherClass.class_id).where(m.TeacherClass.teacher_id == person))
        email = db.get(m.Teacher, person).email
    add_note(teacher_id=person, scope="class", scope_id=str(class_id), fach="physik",
             text=f"Die Klasse verwechselt oft Spannung und Stromstärke ({marker}).")
    lehrplan = (f"Lehrplan Physik Klasse 10 ({marker}), Themenfeld Elektrizitätslehre. Kompetenzen: Die Schülerinnen "
                "und Schüler beschreiben Reihen- und Parallelschaltungen und berechnen Ersatzwiderstände.").encode()
    import_file(teacher_id=person, filename=f"lehrplan-{marker}.txt", data=lehrplan, kind="curriculum",
                fach="physik", scope="school")
    save_preferences(teacher_id=person, agent_type="klausur", fach="physik",
                     form={"notenschluessel": [96, 81, 66, 51, 21]})
    return person, email


def _rows_of(person: uuid.UUID) -> set[tuple[str, str]]:
    """Every uuid column of every table that holds this person's id."""
    with admin_engine().connect() as db:  # the owner: no row-level security hides a row
        columns = db.execute(sa.text(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND data_type = 'uuid' ORDER BY 1, 2")).all()
        return {(t, c) for t, c in columns
                if db.scalar(sa.text(f'SELECT count(*) FROM "{t}" WHERE "{c}" = :p'), {"p": person})}


def _text_holding(needle: str) -> set[tuple[str, str]]:
    """Every text, varchar and JSON column of every table (the people table aside) with a row containing needle."""
    with admin_engine().connect() as db:
        columns = db.execute(sa.text(
            "SELECT c.table_name, c.column_name FROM information_schema.columns c JOIN information_schema.tables t "
            "USING (table_schema, table_name) WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' "
            "AND c.data_type IN ('text', 'character varying', 'jsonb', 'json') AND c.table_name <> 'teachers'")).all()
        return {(t, c) for t, c in columns if db.scalar(
            sa.text(f'SELECT count(*) FROM "{t}" WHERE "{c}"::text ILIKE :n'), {"n": f"%{needle}%"})}


def test_nothing_of_her_stays_in_any_column_and_the_deletion_is_on_record(database, capsys) -> None:  # noqa: ANN001
    marker = f"Kennwort{uuid.uuid4().hex[:10]}"
    person, email = _with_data(marker)
    other_marker = f"Kennwort{uuid.uuid4().hex[:10]}"
    other, _ = _with_data(other_marker)
    other_rows, other_text = _rows_of(other), _text_holding(other_marker)
    assert {"conversations", "agent_knowledge", "curriculum_chunks"} <= {t for t, _ in _text_holding(marker)}
    assert "eigene Schwellen" in load_preferences(teacher_id=person, agent_type="klausur",
                                                  fach="physik").notenschluessel_gilt

    assert main(["delete-my-data", "--teacher", email, "--yes"]) == 0
    assert capsys.readouterr().out.startswith("Gelöscht für ")

    assert _rows_of(person) <= KEPT, _rows_of(person)
    assert _text_holding(marker) == set()
    assert _text_holding(email) <= {("login_attempts", "email")}  # sign-in attempts: a security record, 30 days
    # Her own Notenschlüssel was a preference like the others: gone, the standard applies again.
    assert "Standard" in load_preferences(teacher_id=person, agent_type="klausur", fach="physik").notenschluessel_gilt
    # On record: that (and by whom) all was deleted, with counts only — no title, no text.
    log = my_access_log(person)
    assert len(log) == 1 and "Kommandozeile" in log[0].viewer and log[0].what.startswith("Alle Daten gelöscht")
    assert "Gespräche" in log[0].what and marker not in log[0].what
    # The colleague keeps every row and every word.
    assert _rows_of(other) == other_rows and _text_holding(other_marker) == other_text


def _waiting_for_lock(pid: int) -> bool:
    with admin_engine().connect() as db:
        return bool(db.scalar(sa.text(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%access_log%' "
            "AND application_name <> 'lock-holder'")))


def test_a_deletion_killed_half_way_leaves_everything(database) -> None:  # noqa: ANN001
    marker = f"Kennwort{uuid.uuid4().hex[:10]}"
    person, email = _with_data(marker)
    rows, text = _rows_of(person), _text_holding(marker)
    # Hold the last table the deletion touches, so the process is stopped there with every other table done.
    with admin_engine().connect() as holder:
        holder.execute(sa.text("SET application_name = 'lock-holder'"))
        holder.execute(sa.text("LOCK TABLE access_log IN ACCESS EXCLUSIVE MODE"))
        proc = subprocess.Popen([sys.executable, "-m", "core", "delete-my-data", "--teacher", email, "--yes"],
                                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while not _waiting_for_lock(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
        assert proc.poll() is None and _waiting_for_lock(proc.pid), proc.communicate(timeout=5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        holder.rollback()
    time.sleep(1)  # the server notices the broken connection and rolls its transaction back
    assert _rows_of(person) == rows
    assert _text_holding(marker) == text
