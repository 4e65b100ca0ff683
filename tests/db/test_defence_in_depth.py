"""Defence in depth, as the application role: the acting identity cannot be forged with set_config, a teacher
cannot change their own role or school, and foreign keys do not tell whether another tenant's id exists."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from db import models as m
from db.session import Identity, act_as
from tests.pages.conftest import fresh_person


def _identity(db: Session, teacher_id: uuid.UUID) -> Identity:
    from db.repos.teachers import identity_for

    act_as(db, Identity.system())
    return identity_for(db=db, teacher=db.get(m.Teacher, teacher_id))


def _private_rows(db: Session, owner: uuid.UUID) -> int:
    return db.scalar(sa.text("SELECT count(*) FROM agent_knowledge WHERE scope_type = 'teacher' AND scope_id = :o"),
                     {"o": owner})


@pytest.fixture
def two(database, db: Session):  # noqa: ANN001, ANN201
    a, b = fresh_person(name="Tiefe A"), fresh_person(name="Tiefe B")
    act_as(db, Identity.system())
    db.add(m.AgentKnowledge(agent_type="klausur", scope_type="teacher", scope_id=b, owner_id=b, fach="physik",
                            knowledge_type="note", content={"text": "privat"}, source="conversation"))
    conv = m.Conversation(teacher_id=b, title="Gespräch von B")
    db.add(conv)
    db.flush()
    return a, b, conv.id


def test_set_config_cannot_make_the_app_role_the_system_or_another_teacher(db: Session, two) -> None:  # noqa: ANN001
    a, b, _ = two
    act_as(db, _identity(db, a))
    assert _private_rows(db, b) == 0
    db.execute(sa.text("SELECT set_config('werkbank.role', 'system', true)"))
    assert _private_rows(db, b) == 0
    db.execute(sa.text("SELECT set_config('werkbank.identity', :p, true)"), {"p": f"{b}|||system"})
    assert _private_rows(db, b) == 0  # a payload without a valid signature acts as nobody
    assert db.scalar(sa.text("SELECT wb_role()")) == "none"
    with pytest.raises(sa.exc.ProgrammingError):  # and the key is out of reach
        db.execute(sa.text("SELECT ipad FROM wb_secrets"))


def test_a_teacher_cannot_change_their_own_role_or_school(db: Session, two) -> None:  # noqa: ANN001
    a, _, _ = two
    other_school = db.scalar(sa.select(m.School.id).where(m.School.id != db.get(m.Teacher, a).school_id).limit(1))
    act_as(db, _identity(db, a))
    for statement, params in (("UPDATE teachers SET role = 'curator' WHERE id = :a", {"a": a}),
                              ("UPDATE teachers SET school_id = :s WHERE id = :a", {"a": a, "s": other_school})):
        with pytest.raises(sa.exc.DBAPIError, match="administrator"), db.begin_nested():
            db.execute(sa.text(statement), params)


def test_foreign_keys_do_not_reveal_whether_another_tenants_id_exists(db: Session, two) -> None:  # noqa: ANN001
    a, _, b_conversation = two
    act_as(db, _identity(db, a))
    errors = []
    for target in (b_conversation, uuid.uuid4()):  # B's real conversation, and an id that does not exist
        with pytest.raises(sa.exc.DBAPIError) as caught, db.begin_nested():
            db.execute(sa.text("INSERT INTO conversation_messages (conversation_id, teacher_id, role, content) "
                               "VALUES (:c, :t, 'user', 'x')"), {"c": target, "t": a})
        errors.append(str(caught.value.orig).split("\n")[0].replace(str(target), "<id>"))
    assert errors[0] == errors[1] and "row-level security" in errors[0]
