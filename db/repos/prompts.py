"""Prompt versions: one active version per agent; new versions are appended, never overwritten."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import PromptVersion


def active_text(*, db: Session, agent_name: str) -> str | None:
    return db.scalar(sa.select(PromptVersion.text).where(PromptVersion.agent_name == agent_name,
                                                         PromptVersion.is_active.is_(True)))


def versions(*, db: Session, agent_name: str) -> list[PromptVersion]:
    return list(db.scalars(sa.select(PromptVersion).where(PromptVersion.agent_name == agent_name)
                           .order_by(PromptVersion.version.desc())))


def get_version(*, db: Session, version_id: uuid.UUID) -> PromptVersion | None:
    return db.get(PromptVersion, version_id)


def add_version(*, db: Session, agent_name: str, text: str, note: str | None, created_by: uuid.UUID | None,
                activate: bool) -> PromptVersion:
    """Append version n+1 (serialised per agent by an advisory lock so two editors never get the same number)."""
    db.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:a))"), {"a": f"prompt:{agent_name}"})
    number = (db.scalar(sa.select(sa.func.max(PromptVersion.version)).where(PromptVersion.agent_name == agent_name))
              or 0) + 1
    if activate:
        db.execute(sa.update(PromptVersion).where(PromptVersion.agent_name == agent_name)
                   .values(is_active=False).execution_options(synchronize_session=False))
    row = PromptVersion(agent_name=agent_name, version=number, text=text, note=note, created_by=created_by,
                        is_active=activate)
    db.add(row)
    db.flush()
    return row


def activate(*, db: Session, version_id: uuid.UUID) -> PromptVersion | None:
    row = db.get(PromptVersion, version_id)
    if row is None:
        return None
    db.execute(sa.update(PromptVersion).where(PromptVersion.agent_name == row.agent_name)
               .values(is_active=False).execution_options(synchronize_session=False))
    db.flush()
    row.is_active = True
    db.flush()
    return row
