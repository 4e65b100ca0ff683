"""The demo sandbox: one stand-in teacher per product person, with a school and classes of its own that copy the
demo teacher's (names, grades, subjects) — so a demo writes nothing the real demo teacher sees, and starts from the
same clean state every time whatever the real teachers changed."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge, CurriculumChunk, School, SchoolClass, Teacher, TeacherClass


def sandbox_email(owner_id: uuid.UUID) -> str:
    return f"demo-sandbox-{owner_id.hex[:12]}@sandbox.werkbank.invalid"


def reset_sandbox(*, db: Session, template: Teacher, owner_id: uuid.UUID) -> Teacher:
    """A fresh sandbox teacher for `owner_id` (run as system): the previous one and everything it wrote — chats,
    sessions, materials, its own, its classes' and its school's knowledge — are deleted first."""
    school_name = f"Demo-Sandbox {owner_id.hex[:12]}"
    school = db.scalar(sa.select(School).where(School.name == school_name))
    if school is None:
        base = db.get(School, template.school_id) if template.school_id else None
        school = School(name=school_name, bundesland=base.bundesland if base else template.bundesland,
                        schulform=base.schulform if base else "Gymnasium", settings=dict(base.settings or {})
                        if base else {})
        db.add(school)
        db.flush()
    old = db.scalar(sa.select(Teacher).where(Teacher.email == sandbox_email(owner_id)))
    class_ids = list(db.scalars(sa.select(SchoolClass.id).where(SchoolClass.school_id == school.id)))
    scopes = [x for x in (old.id if old else None, school.id, *class_ids) if x is not None]
    for model in (AgentKnowledge, CurriculumChunk):
        db.execute(sa.delete(model).where(model.scope_id.in_(scopes)))
    if old is not None:
        db.execute(sa.delete(AgentKnowledge).where(AgentKnowledge.owner_id == old.id))
        db.delete(old)
        db.flush()
    db.execute(sa.delete(SchoolClass).where(SchoolClass.school_id == school.id))
    # the same id every time: a page or a cached person list that still names the previous sandbox finds this one
    sandbox = Teacher(**({"id": old.id} if old is not None else {}), name="Demo-Lehrkraft (Sandbox)",
                      email=sandbox_email(owner_id), bundesland=template.bundesland,
                      faecher=list(template.faecher), role="teacher", school_id=school.id,
                      settings=dict(template.settings or {}))
    db.add(sandbox)
    db.flush()
    links = db.execute(sa.select(SchoolClass, TeacherClass.fach).join(TeacherClass, TeacherClass.class_id ==
                                                                       SchoolClass.id)
                       .where(TeacherClass.teacher_id == template.id)).all()
    copies: dict[uuid.UUID, uuid.UUID] = {}
    for cl, fach in links:
        if cl.id not in copies:
            copy = SchoolClass(school_id=school.id, name=cl.name, klassenstufe=cl.klassenstufe,
                               schuljahr=cl.schuljahr)
            db.add(copy)
            db.flush()
            copies[cl.id] = copy.id
        db.add(TeacherClass(teacher_id=sandbox.id, class_id=copies[cl.id], fach=fach))
    db.flush()
    return sandbox
