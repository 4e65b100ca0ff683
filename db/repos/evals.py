"""Evaluation runs: one row per run of a suite; per-case results are appended as they finish."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import EvalRun, LlmCall, PromptVersion, School, SchoolClass, Teacher, TeacherClass


def create_run(*, db: Session, suite: str, agent_name: str, prompt_version_id: uuid.UUID | None, model: str,
               created_by: uuid.UUID | None, summary: dict[str, Any]) -> EvalRun:
    row = EvalRun(suite=suite, agent_name=agent_name, prompt_version_id=prompt_version_id, model=model,
                  status="running", summary=summary, cases=[], created_by=created_by)
    db.add(row)
    db.flush()
    return row


def update_run(*, db: Session, run_id: uuid.UUID, **fields: Any) -> None:
    """Replace whole columns (cases, summary, status, finished_at); JSONB is written as a new value each time."""
    db.execute(sa.update(EvalRun).where(EvalRun.id == run_id).values(**fields)
               .execution_options(synchronize_session=False))


def get_run(*, db: Session, run_id: uuid.UUID) -> EvalRun | None:
    return db.get(EvalRun, run_id)


def list_runs(*, db: Session, limit: int = 50, suite: str | None = None) -> list[sa.Row[Any]]:
    """Newest first, without the (large) per-case column; `version` is the prompt version's number (None when it
    was deleted)."""
    query = (sa.select(EvalRun.id, EvalRun.suite, EvalRun.agent_name, EvalRun.model, EvalRun.status, EvalRun.summary,
                       EvalRun.started_at, EvalRun.finished_at, PromptVersion.version)
             .outerjoin(PromptVersion, PromptVersion.id == EvalRun.prompt_version_id)
             .order_by(EvalRun.started_at.desc(), EvalRun.id).limit(limit))
    if suite:
        query = query.where(EvalRun.suite == suite)
    return list(db.execute(query).all())


def version_number(*, db: Session, prompt_version_id: uuid.UUID | None) -> int | None:
    if prompt_version_id is None:
        return None
    return db.scalar(sa.select(PromptVersion.version).where(PromptVersion.id == prompt_version_id))


def finish_run(*, db: Session, run_id: uuid.UUID, status: str, finished_at: datetime, summary: dict[str, Any],
               cases: list[dict[str, Any]]) -> None:
    update_run(db=db, run_id=run_id, status=status, finished_at=finished_at, summary=summary, cases=cases)


def calls_of_run(*, db: Session, run_id: uuid.UUID) -> list[LlmCall]:
    return list(db.scalars(sa.select(LlmCall).where(LlmCall.eval_run_id == run_id).order_by(LlmCall.id)))


def create_school_teacher(*, db: Session, school_name: str, bundesland: str, teacher_name: str, email: str,
                          faecher: list[str], classes: list[tuple[str, int]], schuljahr: str) -> Teacher:
    """A school with its classes and one teacher who teaches every class in every Fach (the evaluation teacher)."""
    school = db.scalar(sa.select(School).where(School.name == school_name))
    if school is None:
        school = School(name=school_name, bundesland=bundesland, schulform="Gymnasium")
        db.add(school)
        db.flush()
    # a fixed id (as seeds.steps.seed_id): the composer seeds generated numbers with the teacher's id, so every data
    # dir evaluates the same
    teacher = Teacher(id=uuid.uuid5(uuid.NAMESPACE_URL, f"werkbank:teacher:{email}"), name=teacher_name, email=email,
                      bundesland=bundesland, faecher=faecher, role="teacher", school_id=school.id,
                      settings={"evaluation": True})
    db.add(teacher)
    db.flush()
    for name, stufe in classes:
        cl = db.scalar(sa.select(SchoolClass).where(SchoolClass.school_id == school.id, SchoolClass.name == name,
                                                    SchoolClass.schuljahr == schuljahr))
        if cl is None:
            cl = SchoolClass(school_id=school.id, name=name, klassenstufe=stufe, schuljahr=schuljahr)
            db.add(cl)
            db.flush()
        db.add_all([TeacherClass(teacher_id=teacher.id, class_id=cl.id, fach=f) for f in faecher])
    db.flush()
    return teacher
