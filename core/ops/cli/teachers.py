"""Who a teacher command acts as: a teacher by id or e-mail (the demo teacher by default), resolved as the system,
then one unit of work acting as them (row-level security applies); ids given on the command line."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from core.app.acting import DEMO_TEACHER_EMAIL
from core.app.errors import UserError
from core.ops.service import ensure_ready
from db.models import Teacher
from db.repos.teachers import find_teacher, identity_for
from db.session import Identity, unit_of_work


def teacher_identity(db: Session, ref: str | None) -> tuple[Teacher, Identity]:
    if ref is not None and not ref.strip():  # `--teacher "$T"` with T unset must not mean the demo teacher
        raise UserError("--teacher ist leer. Bitte eine ID oder E-Mail angeben (ohne --teacher: die Demo-Lehrkraft).")
    teacher = find_teacher(db=db, ref=ref or DEMO_TEACHER_EMAIL)
    if teacher is None:
        raise UserError(f"Unbekannte Lehrkraft „{(ref or DEMO_TEACHER_EMAIL)[:80]}“. Bitte eine ID oder E-Mail "
                        "angeben.")
    return teacher, identity_for(db=db, teacher=teacher)


def as_teacher(ref: str | None, fn: Callable[[Session, Teacher, Identity], Any]) -> Any:
    """Resolve the teacher as system, then run `fn(db, teacher, identity)` in a unit of work acting as them."""
    ensure_ready()
    with unit_of_work(Identity.system()) as sysdb:
        teacher, identity = teacher_identity(sysdb, ref)
    with unit_of_work(identity) as db:
        return fn(db, teacher, identity)


def parse_uuid(value: str, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(value.strip())
    except ValueError as exc:
        raise UserError(f"„{value[:40]}“ ist keine gültige {what}-ID.") from exc
