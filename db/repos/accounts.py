"""Local accounts and sign-in attempts (read and written as the system identity only: RLS allows nobody else)."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.access_models import Account, LoginAttempt
from db.models import Teacher


def account_of(*, db: Session, teacher_id: uuid.UUID) -> Account | None:
    return db.get(Account, teacher_id)


def account_by_email(*, db: Session, email: str) -> tuple[Teacher, Account | None] | None:
    row = db.execute(
        sa.select(Teacher, Account).outerjoin(Account, Account.teacher_id == Teacher.id)
        .where(sa.func.lower(Teacher.email) == email.strip().lower())
    ).first()
    return (row[0], row[1]) if row else None


def save_account(*, db: Session, account: Account) -> Account:
    db.add(account)
    db.flush()
    return account


def active_accounts(*, db: Session) -> int:
    """Accounts that can sign in (a password set, not disabled)."""
    return int(db.scalar(sa.select(sa.func.count()).select_from(Account).where(
        Account.password_hash.is_not(None), Account.disabled.is_(False))) or 0)


def list_accounts(*, db: Session) -> list[tuple[Teacher, Account]]:
    rows = db.execute(sa.select(Teacher, Account).join(Account, Account.teacher_id == Teacher.id)
                      .order_by(Teacher.email)).all()
    return [(t, a) for t, a in rows]


def add_attempt(*, db: Session, email: str, client: str, ok: bool) -> None:
    db.add(LoginAttempt(email=email.strip().lower()[:320], client=client[:100], ok=ok))
    db.flush()


def failures_since(*, db: Session, since: datetime, email: str | None = None, client: str | None = None) -> int:
    """Failed attempts since `since` (for one e-mail or one client), not counting those before the last success."""
    col = LoginAttempt.email if email is not None else LoginAttempt.client
    key = email.strip().lower() if email is not None else client
    last_ok = db.scalar(sa.select(sa.func.max(LoginAttempt.created_at)).where(col == key, LoginAttempt.ok.is_(True)))
    start = max(since, last_ok) if last_ok else since
    return int(db.scalar(sa.select(sa.func.count()).select_from(LoginAttempt).where(
        col == key, LoginAttempt.ok.is_(False), LoginAttempt.created_at > start)) or 0)


def oldest_failure_since(*, db: Session, since: datetime, email: str) -> datetime | None:
    return db.scalar(sa.select(sa.func.min(LoginAttempt.created_at)).where(
        LoginAttempt.email == email.strip().lower(), LoginAttempt.ok.is_(False), LoginAttempt.created_at > since))


def forget_attempts(*, db: Session, before: datetime) -> int:
    return db.execute(sa.delete(LoginAttempt).where(LoginAttempt.created_at < before)).rowcount or 0
