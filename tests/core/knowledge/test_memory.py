"""Memories: facts a teacher states about their own work are kept; anything about a named pupil is not."""

import pytest
from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from core.knowledge.memory import extract_facts
from db.repos.memory import memories_of
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER


@pytest.mark.parametrize("text, expected", [
    ("Ich unterrichte an einer Oberschule in Leipzig. Bitte eine Klausur.",
     ["Ich unterrichte an einer Oberschule in Leipzig."]),
    ("Wir haben in der Fachschaft immer 45-Minuten-Arbeiten.",
     ["Wir haben in der Fachschaft immer 45-Minuten-Arbeiten."]),
    ("Ich habe einen Schüler Max aus der 7b, der Legasthenie hat.", []),
    ("Ich brauche eine Klausur zu Optik.", []),
    ("", []),
])
def test_extract_facts(text: str, expected: list[str]) -> None:
    assert extract_facts(text) == expected


def test_stated_fact_reaches_the_next_turns_instructions(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    chat_turn(db=db, identity=ident, teacher=teacher, message="Ich unterrichte zwei Physik-Leistungskurse. Hallo!")
    stored = [m.content for m in memories_of(db=db, teacher_id=teacher.id)]
    assert "Ich unterrichte zwei Physik-Leistungskurse." in stored
