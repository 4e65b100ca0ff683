"""Teachers, schools and classes: lookup by id or e-mail, and the identity a teacher acts with."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import School, SchoolClass, Teacher, TeacherClass
from db.session import Identity


def find_teacher(*, db: Session, ref: str) -> Teacher | None:
    """A teacher by UUID or e-mail (case-insensitive); None when there is none (or it is not visible)."""
    ref = (ref or "").strip()
    if not ref:
        return None
    try:
        return db.get(Teacher, uuid.UUID(ref))
    except ValueError:
        return db.scalar(sa.select(Teacher).where(sa.func.lower(Teacher.email) == ref.lower()))


def identity_for(*, db: Session, teacher: Teacher) -> Identity:
    """The identity RLS needs: the teacher, their school, the classes they teach, their role."""
    class_ids = db.scalars(
        sa.select(TeacherClass.class_id).where(TeacherClass.teacher_id == teacher.id).distinct()
    ).all()
    return Identity(
        teacher_id=teacher.id, school_id=teacher.school_id, class_ids=tuple(sorted(class_ids)), role=teacher.role
    )


def classes_of(*, db: Session, teacher_id: uuid.UUID) -> list[SchoolClass]:
    return list(
        db.scalars(
            sa.select(SchoolClass)
            .join(TeacherClass, TeacherClass.class_id == SchoolClass.id)
            .where(TeacherClass.teacher_id == teacher_id)
            .order_by(SchoolClass.name)
            .distinct()
        )
    )


def list_teachers(*, db: Session) -> list[Teacher]:
    return list(db.scalars(sa.select(Teacher).order_by(Teacher.role, Teacher.name)))


def school_of(*, db: Session, teacher: Teacher) -> School | None:
    """The teacher's school (its settings hold the school's defaults), if any."""
    return db.get(School, teacher.school_id) if teacher.school_id else None


def find_school(*, db: Session, ref: str) -> School | None:
    """A school by UUID or exact name (case-insensitive)."""
    ref = (ref or "").strip()
    try:
        return db.get(School, uuid.UUID(ref))
    except ValueError:
        return db.scalar(sa.select(School).where(sa.func.lower(School.name) == ref.lower()).limit(1))
