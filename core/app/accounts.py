"""Local accounts for schools without an identity provider: argon2id hashes in PostgreSQL, sign-in with a rate
limit per account and per client, and what the admin CLI does (create, set password, disable, enable, list)."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from core.app.config import get_settings
from core.app.errors import UserError
from core.materials.wording import anzahl
from db.access_models import Account
from db.models import School, Teacher
from db.repos import accounts as repo
from db.session import Identity, unit_of_work

_HASHER = PasswordHasher()  # argon2id with the library's current recommended parameters
# Verified when the e-mail is unknown, so that a wrong e-mail costs as long as a wrong password.
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))
MIN_PASSWORD = 10
WRONG = "E-Mail-Adresse oder Passwort ist falsch. Bitte erneut versuchen."
ROLES = ("teacher", "curator", "product")


@dataclass(frozen=True)
class AccountRow:
    email: str
    name: str
    role: str
    disabled: bool
    has_password: bool
    last_login: datetime | None


def _check_password(password: str) -> str:
    if len(password or "") < MIN_PASSWORD:
        raise UserError(f"Das Passwort ist zu kurz: mindestens {MIN_PASSWORD} Zeichen.")
    if len(password) > 1024:
        raise UserError("Das Passwort ist zu lang (höchstens 1024 Zeichen).")
    return password


def _pause(minutes: int) -> UserError:
    return UserError(f"Zu viele Fehlversuche. Bitte in {anzahl(max(1, minutes), 'Minute')} erneut "
                     "versuchen oder die Schulverwaltung bitten, das Passwort neu zu setzen.")


def sign_in(*, email: str, password: str, client: str) -> uuid.UUID:
    """The teacher id for a correct e-mail and password; a German UserError otherwise (the same one for an unknown
    e-mail and a wrong password). Failures are counted per e-mail and per client; too many mean a pause."""
    s = get_settings()
    email = (email or "").replace("\x00", "").strip().lower()[:320]  # PostgreSQL text holds no NUL (a crafted form)
    client = (client or "unbekannt").replace("\x00", "")[:100]
    now = datetime.now(UTC)
    window = now - timedelta(minutes=s.werkbank_login_lock_minutes)
    with unit_of_work(Identity.system()) as db:
        if repo.failures_since(db=db, since=window, client=client) >= s.werkbank_login_client_max_failures:
            raise _pause(s.werkbank_login_lock_minutes)
        if repo.failures_since(db=db, since=window, email=email) >= s.werkbank_login_max_failures:
            first = repo.oldest_failure_since(db=db, since=window, email=email) or now
            left = first + timedelta(minutes=s.werkbank_login_lock_minutes) - now
            raise _pause(int(left.total_seconds() // 60) + 1)
        found = repo.account_by_email(db=db, email=email) if email else None
        account = found[1] if found else None
        stored = account.password_hash if account is not None and account.password_hash else _DUMMY_HASH
        try:
            ok = _HASHER.verify(stored, password or "") and stored is not _DUMMY_HASH
        except (VerificationError, InvalidHashError):
            ok = False
        repo.add_attempt(db=db, email=email, client=client, ok=ok)
        if not ok or found is None or account is None:
            db.commit()
            raise UserError(WRONG)
        if account.disabled:
            raise UserError("Dieses Konto ist gesperrt. Bitte wenden Sie sich an die Schulverwaltung.")
        if _HASHER.check_needs_rehash(account.password_hash):
            account.password_hash = _HASHER.hash(password)
        account.last_login_at = now
        return found[0].id


def account_active(teacher_id: uuid.UUID) -> bool:
    """Still allowed to act (checked on every page: a disabled account is signed out at once)."""
    with unit_of_work(Identity.system()) as db:
        account = repo.account_of(db=db, teacher_id=teacher_id)
        return account is not None and not account.disabled and account.password_hash is not None


def local_accounts_exist() -> bool:
    with unit_of_work(Identity.system()) as db:
        return repo.active_accounts(db=db) > 0


def create_account(*, email: str, password: str | None, name: str | None = None, role: str | None = None,
                   school: str | None = None, faecher: tuple[str, ...] = (), bundesland: str | None = None) -> str:
    """Create (or complete) the account of a person; creates the person when they do not exist yet (then `name` and
    `school` are needed). Without `password` a random one is made and returned. Returns the password. Without `role`
    a new person is a teacher and an existing person keeps her role (a curator is never demoted by accident)."""
    email = (email or "").strip().lower()
    if "@" not in email or len(email) > 320 or any(c.isspace() for c in email):
        raise UserError(f"„{email[:80]}“ ist keine gültige E-Mail-Adresse.")
    if role is not None and role not in ROLES:
        raise UserError(f"Unbekannte Rolle „{role}“. Möglich: {', '.join(ROLES)}.")
    password = _check_password(password) if password is not None else secrets.token_urlsafe(12)
    with unit_of_work(Identity.system()) as db:
        found = repo.account_by_email(db=db, email=email)
        if found is None:
            teacher = _new_teacher(db, email=email, name=name, role=role or "teacher", school=school, faecher=faecher,
                                   bundesland=bundesland)
            account = None
        else:
            teacher, account = found
            if account is not None and account.password_hash:
                raise UserError(f"Für {email} gibt es schon ein Konto. Neues Passwort: `python -m core account "
                                "password`.")
            if role is not None and role != teacher.role:
                teacher.role = role
        account = account or Account(teacher_id=teacher.id)
        account.password_hash = _HASHER.hash(password)
        account.password_changed_at = datetime.now(UTC)
        account.disabled = False
        repo.save_account(db=db, account=account)
    return password


def _new_teacher(db, *, email: str, name: str | None, role: str, school: str | None,  # noqa: ANN001
                 faecher: tuple[str, ...], bundesland: str | None) -> Teacher:
    from core.materials.faecher import normalize_fach
    from db.repos.teachers import find_school

    if not name:
        raise UserError(f"{email} ist noch nicht angelegt: bitte --name angeben.")
    school_row: School | None = find_school(db=db, ref=school) if school else None
    if school and school_row is None:
        raise UserError(f"Unbekannte Schule „{school[:80]}“. Bitte Name oder ID einer vorhandenen Schule angeben.")
    if school_row is None and role == "teacher":
        raise UserError("Eine Lehrkraft braucht eine Schule: bitte --school angeben.")
    teacher = Teacher(email=email, name=name.strip()[:200], role=role, school_id=school_row.id if school_row else None,
                      faecher=[normalize_fach(f) for f in faecher],
                      bundesland=(bundesland or (school_row.bundesland if school_row else "nicht angegeben"))[:60])
    db.add(teacher)
    db.flush()
    return teacher


def set_password(*, email: str, password: str | None) -> str:
    password = _check_password(password) if password is not None else secrets.token_urlsafe(12)
    with unit_of_work(Identity.system()) as db:
        account = _account(db, email)
        account.password_hash = _HASHER.hash(password)
        account.password_changed_at = datetime.now(UTC)
    return password


def set_disabled(*, email: str, disabled: bool) -> None:
    with unit_of_work(Identity.system()) as db:
        _account(db, email).disabled = disabled


def _account(db, email: str) -> Account:  # noqa: ANN001
    found = repo.account_by_email(db=db, email=email)
    if found is None or found[1] is None:
        raise UserError(f"Für „{(email or '')[:80]}“ gibt es kein Konto. Anlegen: `python -m core account create`.")
    return found[1]


def accounts() -> list[AccountRow]:
    with unit_of_work(Identity.system()) as db:
        return [AccountRow(email=t.email, name=t.name, role=t.role, disabled=a.disabled,
                           has_password=a.password_hash is not None, last_login=a.last_login_at)
                for t, a in repo.list_accounts(db=db)]
