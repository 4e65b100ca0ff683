"""Tables of sign-in, consent and the access log (migration 0007): local accounts with argon2 hashes, sign-in
attempts for the rate limit, a teacher's consent that staff may read one private item or conversation, and every
such read."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, String, Text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from db.base import Base, created, uuid_pk


class Account(Base):
    """A local account (schools without an identity provider): an argon2 hash, never the password."""

    __tablename__ = "accounts"
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"), primary_key=True)
    password_hash: Mapped[str | None] = mapped_column(Text)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    last_login_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    password_changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = created()


class LoginAttempt(Base):
    """One sign-in attempt (for the rate limit per account and per client)."""

    __tablename__ = "login_attempts"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(320))
    client: Mapped[str] = mapped_column(String(100))
    ok: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = created()


class StaffConsent(Base):
    """A teacher lets curators / the product team read one knowledge item or one conversation (its trace)."""

    __tablename__ = "staff_consents"
    id: Mapped[uuid.UUID] = uuid_pk()
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    object_type: Mapped[str] = mapped_column(String(20))  # knowledge | conversation
    object_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    grantee_role: Mapped[str] = mapped_column(String(20), default="staff")  # curator | product | staff
    label: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = created()
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AccessLog(Base):
    """Every read of a teacher's private data by staff (with consent): the teacher sees this log."""

    __tablename__ = "access_log"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    teacher_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("teachers.id", ondelete="CASCADE"))
    viewer_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("teachers.id", ondelete="SET NULL"))
    viewer_label: Mapped[str] = mapped_column(String(300))
    object_type: Mapped[str] = mapped_column(String(20))
    object_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    what: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = created()


# --- product team: prompts, evaluation, cost ---------------------------------------------------------------------
