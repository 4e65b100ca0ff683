"""Page tests: AppTest against the real database. Pages commit for real, so every test acts as a fresh person
(`fresh_person`) in a school of its own — never as the shared demo teacher."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from db import models as m
from db.session import Identity, unit_of_work

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def fresh_person(*, role: str = "teacher", faecher: tuple[str, ...] = ("physik",), classes: tuple[str, ...] = ("10a",),
                 name: str = "Test Lehrkraft", person_id: uuid.UUID | None = None) -> uuid.UUID:
    """A committed person in a new school (Sachsen, Gymnasium) teaching `classes` in their first Fach. With
    `person_id` the id is fixed: the composer seeds a teacher's generator numbers with her id, so a fixed id gives the
    same exam on every run."""
    pid = person_id or uuid.uuid4()
    tag = pid.hex[:8]
    with unit_of_work(Identity.system()) as db:
        school = m.School(name=f"Testschule {tag}", bundesland="Sachsen", schulform="Gymnasium")
        db.add(school)
        db.flush()
        teacher = m.Teacher(id=pid, name=f"{name} {tag}", email=f"{role}-{tag}@test.de", bundesland="Sachsen",
                            faecher=list(faecher), role=role, school_id=school.id)
        db.add(teacher)
        db.flush()
        for name_ in classes:
            cl = m.SchoolClass(school_id=school.id, name=name_, klassenstufe=int("".join(c for c in name_ if
                                                                                    c.isdigit()) or 10),
                               schuljahr="2026/27")
            db.add(cl)
            db.flush()
            db.add(m.TeacherClass(teacher_id=teacher.id, class_id=cl.id, fach=faecher[0] if faecher else "physik"))
        return teacher.id


def app_as(person_id: uuid.UUID, page: str | None = None, *, timeout: float = 60) -> AppTest:
    """An AppTest acting as `person_id`, already run once (optionally switched to `page`, e.g. 'views/chat.py')."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state["persona_id"] = str(person_id)
    at.run()
    if page:
        at.switch_page(page).run()
    return at


@pytest.fixture
def teacher_id(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person()


@pytest.fixture
def curator_id(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person(role="curator", name="Test Kuratorin")


@pytest.fixture
def product_id(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person(role="product", name="Test Produkt", faecher=())
