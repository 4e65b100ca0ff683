"""The Wissenskarte: what the specialist sees, its size, its growth, and that it is one SQL round trip."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.knowledge.wissenskarte import build_wissenskarte
from db.models import AgentKnowledge
from tests.conftest import DEMO_TEACHER


def test_demo_physics_teacher_map_is_small_and_complete(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    wk = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="Physik")
    print(f"\n{wk.text}\n({wk.tokens} tokens)")
    assert wk.tokens <= 200
    assert "Fach-Profil: Physik-Klausuren" in wk.text
    assert "3 persönlich" in wk.text
    general = db.scalar(sa.select(sa.func.count()).select_from(AgentKnowledge).where(
        AgentKnowledge.fach == "physik", AgentKnowledge.scope_type == "global",
        AgentKnowledge.knowledge_type == "good_practice", AgentKnowledge.agent_type == "klausur"))
    assert f"{general} allgemein" in wk.text and general >= 5
    assert "Eigene Beispiele: 1" in wk.text
    assert "Präferenzen: Aufgaben 4" in wk.text and "Rechnung:Theorie 60:40" in wk.text
    assert "10a: viele Probleme" in wk.text  # class knowledge of a taught class


def test_map_is_built_in_one_round_trip(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # noqa: ANN001
        statements.append(statement)

    event.listen(db.connection().engine, "before_cursor_execute", count)
    try:
        build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    finally:
        event.remove(db.connection().engine, "before_cursor_execute", count)
    assert len(statements) == 1, statements


def test_map_grows_when_a_good_practice_is_added(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    before = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    db.add(AgentKnowledge(agent_type="klausur", scope_type="teacher", scope_id=ident.teacher_id,
                          owner_id=ident.teacher_id, fach="physik", thema="Ohm", knowledge_type="good_practice",
                          content={"aufgabe": "Berechnen Sie R."}, source="generated"))
    db.flush()
    after = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    assert "3 persönlich" in before.text and "4 persönlich" in after.text


def test_other_teacher_does_not_see_demo_teachers_knowledge(db: Session, as_teacher) -> None:
    ident = as_teacher("anna.berger@demo-gymnasium.de")
    wk = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    assert "0 persönlich" in wk.text
    assert "Präferenzen: noch keine" in wk.text
    assert "Eigene Beispiele: keine" in wk.text
    # Anna teaches the 10a too (Deutsch), so the class note is hers to see; the school note as well.
    assert "10a: viele Probleme" in wk.text


@pytest.mark.parametrize("fach, agent, message", [
    ("Latein", "klausur", "Unbekanntes Fach „Latein“"),
    ("", "klausur", "Bitte ein Fach angeben"),
    ("physik", "referat", "Unbekannter Agent"),
])
def test_bad_input_gets_a_german_message(db: Session, as_teacher, fach: str, agent: str, message: str) -> None:
    ident = as_teacher(DEMO_TEACHER)
    with pytest.raises(UserError, match=message):
        build_wissenskarte(db=db, identity=ident, agent_type=agent, fach=fach)


@pytest.mark.parametrize("alias", ["Physik", "physik", "Ph", "phy"])
def test_subject_aliases(db: Session, as_teacher, alias: str) -> None:
    ident = as_teacher(DEMO_TEACHER)
    assert build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach=alias).fach == "physik"
