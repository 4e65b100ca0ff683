"""Every failure path of a paused specialist run (agent_sessions)."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from db import models as m
from db.repos.teachers import find_teacher, identity_for
from db.session import Identity, act_as, unit_of_work
from tests.conftest import DEMO_TEACHER, fixed_uuid

ASK = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten"


def _ask(db: Session, as_teacher, who: str = DEMO_TEACHER):  # noqa: ANN001, ANN202
    ident = as_teacher(who)
    teacher = find_teacher(db=db, ref=who)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message=ASK)
    assert r.session_id, r.reply
    return ident, teacher, r


def _session(db: Session, sid: str) -> m.AgentSession:
    act_as(db, Identity.system())
    row = db.get(m.AgentSession, uuid.UUID(sid), populate_existing=True)
    assert row is not None
    return row


def _count_materials(db: Session, teacher_id: uuid.UUID) -> int:
    return db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial)
                     .where(m.GeneratedMaterial.teacher_id == teacher_id))


def test_expired_session_says_so_and_is_marked(db: Session, as_teacher) -> None:
    ident, teacher, r = _ask(db, as_teacher)
    _session(db, r.session_id).expires_at = datetime.now(UTC) - timedelta(minutes=1)
    db.flush()
    act_as(db, ident)
    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message="30/40/30")
    assert "abgelaufen" in r2.reply and r2.material_id is None
    assert _session(db, r.session_id).status == "expired"


def test_corrupt_history_expires_the_session_without_a_crash(db: Session, as_teacher) -> None:
    ident, teacher, r = _ask(db, as_teacher)
    _session(db, r.session_id).message_history = [{"kind": "kaputt", "parts": "nichts"}]
    db.flush()
    act_as(db, ident)
    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message="30/40/30")
    assert "ließ sich nicht mehr laden" in r2.reply
    assert _session(db, r.session_id).status == "expired"


def test_old_schema_version_is_treated_like_a_corrupt_history(db: Session, as_teacher) -> None:
    ident, teacher, r = _ask(db, as_teacher)
    _session(db, r.session_id).schema_version = 0
    db.flush()
    act_as(db, ident)
    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message="30/40/30")
    assert "ließ sich nicht mehr laden" in r2.reply


def test_same_answer_twice_is_idempotent(db: Session, as_teacher) -> None:
    import asyncio

    from agents.deps import TurnContext
    from core.generation.service import continue_generation

    ident, teacher, r = _ask(db, as_teacher)
    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message="30/40/30")
    assert r2.material_id
    before = _count_materials(db, teacher.id)
    act_as(db, ident)
    turn = TurnContext(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id)
    again = asyncio.run(continue_generation(turn=turn, session_id=r.session_id, answer="30/40/30"))
    assert again.kind == "material" and str(again.material_id) == r2.material_id
    assert _count_materials(db, teacher.id) == before
    other = asyncio.run(continue_generation(turn=turn, session_id=r.session_id, answer="20/50/30"))
    assert other.kind == "error" and "bereits beantwortet" in other.text


def test_foreign_session_id_is_refused(db: Session, as_teacher) -> None:
    import asyncio

    from agents.deps import TurnContext
    from core.generation.service import continue_generation

    _, _, r = _ask(db, as_teacher)
    anna = find_teacher(db=db, ref="anna.berger@demo-gymnasium.de")
    ident = as_teacher(anna)
    turn = TurnContext(db=db, identity=ident, teacher=anna)
    out = asyncio.run(continue_generation(turn=turn, session_id=r.session_id, answer="30/40/30"))
    assert out.kind == "error" and "gehört nicht zu Ihrem Konto" in out.text
    assert _session(db, r.session_id).status == "waiting"
    bogus = asyncio.run(continue_generation(turn=turn, session_id="nicht-uuid", answer="x"))
    assert "ungültige Sitzungs-ID" in bogus.text


def test_three_rueckfragen_at_most_then_it_generates(db: Session, as_teacher) -> None:
    ident, teacher, r = _ask(db, as_teacher)
    replies = []
    for nonsense in ("Banane", "keine Ahnung", "Mittwoch"):
        res = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message=nonsense)
        replies.append(res)
    assert replies[0].session_id and replies[1].session_id  # asked again (2nd and 3rd Rückfrage)
    assert replies[2].material_id, replies[2].reply  # a 4th Rückfrage is not asked: it generates
    assert _session(db, r.session_id).clarification_count == 3
    assert _session(db, r.session_id).status == "completed"


def test_two_concurrent_continues_exactly_one_proceeds(database) -> None:  # noqa: ANN001
    """Real transactions on two connections, answering the same Rückfrage at the same moment."""
    with unit_of_work(Identity.system()) as db:
        school = db.scalar(sa.select(m.School.id).limit(1))
        pid = fixed_uuid("teacher")  # her id seeds her exam's generated numbers: the same exam on every run
        t = m.Teacher(id=pid, name="Parallel", email=f"parallel-{pid.hex[:8]}@test.de", bundesland="Sachsen",
                      faecher=["physik"], school_id=school)
        db.add(t)
        db.flush()
        teacher_id = t.id
    with unit_of_work(Identity.system()) as db:
        teacher = find_teacher(db=db, ref=str(teacher_id))
        ident = identity_for(db=db, teacher=teacher)
    with unit_of_work(ident) as db:
        r = chat_turn(db=db, identity=ident, teacher=db.merge(teacher), message=ASK)
    assert r.session_id
    results: list[object] = []
    barrier = threading.Barrier(2)

    def answer(text: str) -> None:
        barrier.wait()
        try:
            with unit_of_work(ident) as db:
                results.append(chat_turn(db=db, identity=ident, teacher=db.merge(teacher),
                                         conversation_id=r.conversation_id, message=text))
        except Exception as exc:  # the loser may also hit the conversation's revision check
            results.append(exc)

    threads = [threading.Thread(target=answer, args=(a,)) for a in ("30/40/30", "20/50/30")]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    with unit_of_work(Identity.system()) as db:
        made = db.scalar(sa.text("SELECT count(*) FROM generated_materials WHERE teacher_id = :t"), {"t": teacher_id})
    assert made == 1, results
    winners = [x for x in results if getattr(x, "material_id", None)]
    assert len(winners) == 1
    loser = next(x for x in results if x is not winners[0])
    text = getattr(loser, "reply", None) or getattr(loser, "message", "")
    assert any(w in text for w in ("gerade schon beantwortet", "bereits beantwortet", "gerade an anderer Stelle")), text
