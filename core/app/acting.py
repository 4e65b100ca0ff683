"""Acting as a persona: the one place pages get a unit of work for the person they show.

Pages pass a teacher id; core resolves the teacher and identity (as system), then opens a unit of work acting as
that person, so row-level security applies to everything the page's core call does.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy.orm import Session

from core.app.errors import NotFoundError
from db.models import Teacher
from db.repos.teachers import find_teacher, identity_for, list_teachers
from db.session import Identity, unit_of_work

DEMO_TEACHER_EMAIL = "steffen.keller@demo-gymnasium.de"  # the seeded demo teacher (Physik/Mathe, Sachsen, 10a/10b)
ROLE_LABELS = {"teacher": "Lehrkraft", "curator": "Kuratorin/Kurator", "product": "Produktteam"}


@dataclass(frozen=True)
class Persona:
    teacher_id: uuid.UUID
    name: str
    email: str
    role: str
    faecher: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.name} · {ROLE_LABELS.get(self.role, self.role)}"


def _persona(t: Teacher) -> Persona:
    return Persona(teacher_id=t.id, name=t.name, email=t.email, role=t.role, faecher=tuple(t.faecher or ()))


def personas() -> list[Persona]:
    """Everyone who can act in the app (the demo personas from the seeds, plus teachers added later)."""
    with unit_of_work(Identity.system()) as db:
        return [_persona(t) for t in list_teachers(db=db)]


def persona_by_email(email: str) -> Persona | None:
    """A person by e-mail or id (the system looks them up; acting as them happens later, in `acting`)."""
    with unit_of_work(Identity.system()) as db:
        t = find_teacher(db=db, ref=email)
        return _persona(t) if t else None


def persona_by_id(teacher_id: uuid.UUID | str) -> Persona | None:
    return persona_by_email(str(teacher_id))


def persona_for_sign_in(email: str, role: str | None = None) -> Persona | None:
    """The person an identity provider signed in (by e-mail). A role from the IdP's claims (see
    core.app.auth.role_from_claims) replaces the stored one; without it the administrator's mapping holds."""
    with unit_of_work(Identity.system()) as db:
        t = find_teacher(db=db, ref=email) if "@" in (email or "") else None
        if t is None:
            return None
        if role and role != t.role:
            t.role = role
        return _persona(t)


@contextlib.contextmanager
def acting(teacher_id: uuid.UUID) -> Iterator[tuple[Session, Teacher, Identity]]:
    """A unit of work acting as this person (RLS applies); commits on success."""
    with unit_of_work(Identity.system()) as db:
        teacher = db.get(Teacher, teacher_id)
        if teacher is None:
            raise NotFoundError("Diese Person gibt es nicht (mehr). Bitte links eine andere Person wählen.")
        identity = identity_for(db=db, teacher=teacher)
    with unit_of_work(identity) as db:
        yield db, db.merge(teacher, load=False), identity
