"""A teacher's own data: staff read a conversation's trace only with her consent, and every read is in her access
log; the privacy page lists exactly the consents and reads that are stored; deleting all her data (page and CLI)
leaves none of her rows in any table."""

from __future__ import annotations

import io
import sys
import uuid
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from core.app.errors import NotFoundError
from core.app.privacy import grant_consent, my_access_log, my_consents, revoke_consent
from core.chat.service import conversation_trace, send, shared_conversations
from core.knowledge.notes import add_note
from core.materials.service import rate_my_material
from core.ops.cli.main import main
from core.uploads.service import import_file
from db import models as m
from db.session import Identity, admin_engine, unit_of_work
from tests.pages.conftest import app_as, fresh_person

REQUEST = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"
LEHRPLAN = ("Lehrplan Physik Klasse 10, Themenfeld Elektrizitätslehre. Kompetenzen: Die Schülerinnen und Schüler "
            "beschreiben Reihen- und Parallelschaltungen und berechnen Ersatzwiderstände.").encode()
# Rows of a person that stay after "delete all my data": the person, the sign-in, the classes taught, and the entry
# in her access log that (and by whom) all was deleted, counts only (tests/core/ops/test_delete_my_data.py).
KEPT = {("teachers", "id"), ("accounts", "teacher_id"), ("teacher_classes", "teacher_id"), ("access_log", "teacher_id"),
        ("access_log", "object_id")}


@dataclass
class Teacher:
    id: uuid.UUID
    email: str
    conversation: uuid.UUID
    material: uuid.UUID


def _email(person: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return db.get(m.Teacher, person).email


def _with_data(name: str) -> Teacher:
    """A fresh teacher with a bit of everything: a conversation with an exam, a rating (good practices and
    preferences), a class note, an uploaded Lehrplan."""
    person = fresh_person(name=name)
    result = send(teacher_id=person, message=REQUEST, conversation_id=None)
    assert result.material_id, result.reply
    rate_my_material(teacher_id=person, material_id=uuid.UUID(result.material_id), stars=5)
    with unit_of_work(Identity.system()) as db:
        class_id = db.scalar(sa.select(m.TeacherClass.class_id).where(m.TeacherClass.teacher_id == person))
    add_note(teacher_id=person, scope="class", scope_id=str(class_id), fach="physik",
             text="Die Klasse verwechselt oft Spannung und Stromstärke.")
    import_file(teacher_id=person, filename="lehrplan.txt", data=LEHRPLAN, kind="curriculum", fach="physik")
    return Teacher(person, _email(person), result.conversation_id, uuid.UUID(result.material_id))


def _rows_of(person: uuid.UUID) -> dict[tuple[str, str], int]:
    """Every uuid column of every table that holds this person's id, with the number of such rows."""
    with admin_engine().connect() as db:  # the owner: no row-level security hides a row
        columns = db.execute(sa.text(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND data_type = 'uuid' ORDER BY 1, 2")).all()
        found = {}
        for table, column in columns:
            n = db.scalar(sa.text(f'SELECT count(*) FROM "{table}" WHERE "{column}" = :p'), {"p": person})
            if n:
                found[(table, column)] = n
    return found


@pytest.fixture(scope="module")
def people(database) -> dict[str, uuid.UUID]:  # noqa: ANN001
    return {"product": fresh_person(role="product", name="Test Produkt", faecher=()),
            "curator": fresh_person(role="curator", name="Test Kuratorin"),
            "colleague": fresh_person(name="Test Kollege")}


# --- staff reading a consented trace ---------------------------------------------------------------------------------


def test_product_team_reads_a_trace_only_with_consent_and_every_read_is_logged(people) -> None:  # noqa: ANN001
    teacher = fresh_person(name="Test Freigabe")
    first = send(teacher_id=teacher, message=REQUEST, conversation_id=None).conversation_id
    second = send(teacher_id=teacher, message="Hallo", conversation_id=None).conversation_id
    product, colleague = people["product"], people["colleague"]

    assert first not in {c.id for c in shared_conversations(teacher_id=product)}
    with pytest.raises(NotFoundError):
        conversation_trace(teacher_id=product, conversation_id=first)
    assert my_access_log(teacher) == []

    grant_consent(teacher, "conversation", first)
    assert first in {c.id for c in shared_conversations(teacher_id=product)}
    assert second not in {c.id for c in shared_conversations(teacher_id=product)}  # consent is per conversation
    assert shared_conversations(teacher_id=colleague) == []  # a consent is for staff, not for colleagues
    with pytest.raises(NotFoundError):
        conversation_trace(teacher_id=colleague, conversation_id=first)

    trace = conversation_trace(teacher_id=product, conversation_id=first)
    assert any(REQUEST in s.body for s in trace.steps) and trace.turns
    conversation_trace(teacher_id=product, conversation_id=first)
    log = my_access_log(teacher)
    assert len(log) == 2 and all("Test Produkt" in e.viewer and "Produktteam" in e.viewer for e in log)
    assert all(e.what.startswith("Sitzungen & Traces: ") for e in log)
    assert {str(e.when.tzinfo) for e in log} == {"Europe/Berlin"}  # shown in the school's time, like every time

    with pytest.raises(NotFoundError):  # the other conversation was not released
        conversation_trace(teacher_id=product, conversation_id=second)
    revoke_consent(teacher, my_consents(teacher)[0].id)
    with pytest.raises(NotFoundError):
        conversation_trace(teacher_id=product, conversation_id=first)
    assert len(my_access_log(teacher)) == 2  # refused reads are no reads


def test_sitzungen_page_shows_the_product_team_a_released_trace(people) -> None:  # noqa: ANN001
    teacher = fresh_person(name="Test Seite")
    conv = send(teacher_id=teacher, message=REQUEST, conversation_id=None).conversation_id
    grant_consent(teacher, "conversation", conv)
    at = app_as(people["product"], "views/sitzungen.py")
    assert not at.exception
    assert at.radio(key="trace_source").value == "shared"  # staff open the released conversations first
    box = at.selectbox(key="trace_shared")
    released = [o for o in box.options if "Freigegeben am" in o]
    assert released and len(released) == len(box.options), box.options
    box.set_value(conv).run()
    assert not at.exception
    assert any("Stromkreis" in e.label for e in at.expander)
    # Two page runs showed the trace (the first option, then the chosen one): two reads in the teacher's log.
    assert [e.viewer for e in my_access_log(teacher)] == [f"{_name(people['product'])} (Produktteam)"] * 2


def _name(person: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return db.get(m.Teacher, person).name


# --- the privacy page and deleting all of it ------------------------------------------------------------------------


def test_privacy_page_lists_what_is_stored_and_deletes_all_of_it(people) -> None:  # noqa: ANN001
    t = _with_data("Test Datenschutz")
    grant_consent(t.id, "conversation", t.conversation)
    conversation_trace(teacher_id=people["product"], conversation_id=t.conversation)  # one logged read
    before = _rows_of(t.id)
    assert {("conversations", "teacher_id"), ("generated_materials", "teacher_id"), ("uploads", "teacher_id"),
            ("agent_knowledge", "owner_id"), ("curriculum_chunks", "owner_id"), ("ratings", "teacher_id"),
            ("staff_consents", "teacher_id"), ("access_log", "teacher_id")} <= set(before)

    at = app_as(t.id, "views/datenschutz.py")
    assert not at.exception
    shown = " ".join(md.value for md in at.markdown)
    stored = my_consents(t.id)
    assert len(stored) == 1 and stored[0].label in shown  # the consent listed is the one stored
    log = at.dataframe[0].value
    assert list(log["Wer"]) == [e.viewer for e in my_access_log(t.id)] and len(log) == 1

    at.text_input(key="delete_confirm").input("löschen").run()
    at.button(key="delete_all").click().run()
    assert not at.exception
    assert at.success and at.success[0].value.startswith("Gelöscht: ")
    assert "Gespräche" in at.success[0].value and "Materialien" in at.success[0].value
    assert set(_rows_of(t.id)) <= KEPT, _rows_of(t.id)

    again = app_as(t.id, "views/datenschutz.py")
    assert not again.exception
    assert "Keine Freigaben." in [c.value for c in again.caption]
    log = again.dataframe[0].value  # the earlier read is gone; what stays is that she deleted it all
    assert list(log["Wer"]) == ["Sie selbst (Seite Datenschutz)"] and log["Was"][0].startswith("Alle Daten gelöscht")


def test_delete_button_needs_the_typed_confirmation(people) -> None:  # noqa: ANN001
    teacher = fresh_person(name="Test Bestätigung")
    send(teacher_id=teacher, message="Hallo", conversation_id=None)
    at = app_as(teacher, "views/datenschutz.py")
    assert at.button(key="delete_all").disabled
    at.text_input(key="delete_confirm").input("loeschen bitte").run()
    assert at.button(key="delete_all").disabled
    assert ("conversations", "teacher_id") in _rows_of(teacher)


def test_delete_my_data_cli_removes_every_row_and_says_what_in_german(capsys, monkeypatch) -> None:  # noqa: ANN001
    t = _with_data("Test CLI Löschen")
    other = _with_data("Test Nachbarin")
    others_before = _rows_of(other.id)

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["delete-my-data", "--teacher", t.email]) == 2  # no terminal, no --yes: nothing happens
    assert "bitte --yes angeben" in capsys.readouterr().err
    assert ("conversations", "teacher_id") in _rows_of(t.id)

    code = main(["delete-my-data", "--teacher", t.email, "--yes"])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    assert out.out.startswith("Gelöscht für Test CLI Löschen ") and "Gespräche" in out.out
    assert "hochgeladene Dateien" in out.out and "Lehrplanauszüge" in out.out
    assert set(_rows_of(t.id)) <= KEPT, _rows_of(t.id)
    assert _rows_of(other.id) == others_before  # the neighbour keeps everything

    assert main(["delete-my-data", "--teacher", t.email, "--yes"]) == 0
    assert "es gab nichts" in capsys.readouterr().out
