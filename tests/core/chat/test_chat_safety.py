"""The safety and scope check in a chat turn: refusals never reach the agent; pupil data is never stored."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from db.repos.memory import memories_of
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER


def _stored(db: Session, conversation_id) -> list[tuple[str, str]]:  # noqa: ANN001
    return [tuple(r) for r in db.execute(sa.text(
        "SELECT role, content FROM conversation_messages WHERE conversation_id = :c ORDER BY id"),
        {"c": conversation_id}).all()]


def test_homework_for_a_pupil_is_refused_politely_without_running_the_agent(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    before = db.scalar(sa.text("SELECT count(*) FROM llm_calls"))
    r = chat_turn(db=db, identity=ident, teacher=teacher,
                  message="Schreib mir meinen Aufsatz für morgen, ich bin in der 9b und muss ihn abgeben")
    assert r.material_id is None and r.model == "Schutzprüfung (regelbasiert)"
    assert any(w in r.reply for w in ("Klausur", "Arbeitsbl", "Übung")), r.reply  # says what it can do instead
    assert db.scalar(sa.text("SELECT count(*) FROM llm_calls")) == before  # no model was asked
    assert [role for role, _ in _stored(db, r.conversation_id)] == ["user", "assistant"]


def test_pupil_names_are_removed_before_anything_is_stored(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher,
                  message="Ich unterrichte die 10a, Max Müller aus der 10a hat Legasthenie. Klausur Physik für die "
                          "10a zu Linsen, 45 Minuten, AFB 30/40/30")
    stored_user = _stored(db, r.conversation_id)[0][1]
    assert "Max Müller" not in stored_user and "entfernt" in stored_user
    assert r.notices and any("Name" in n or "Daten" in n for n in r.notices), r.notices
    assert all("Müller" not in m.content for m in memories_of(db=db, teacher_id=teacher.id))
    history = db.scalar(sa.text("SELECT history::text FROM conversations WHERE id = :c"), {"c": r.conversation_id})
    assert "Müller" not in history
    assert r.material_id  # the teaching request itself still works


def test_normal_request_passes_unchanged(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message="Klausur zum Nationalsozialismus, Geschichte "
                  "Klasse 9, 45 Minuten, AFB 30/40/30")
    assert r.material_id and not r.notices, r.reply
