"""Engines and units of work: one engine per process, a Session per unit of work with the acting identity set.

The runtime engine acts as the application role (no BYPASSRLS, not the table owner); every transaction sets
the acting teacher/school/classes/role with `set_config(..., true)` (= SET LOCAL), signed, so row-level security
applies and SQL run as the application role cannot pose as anybody else.
Migrations and the initial seed run through the admin (owner) engine.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session

from core.app.config import get_settings

log = logging.getLogger(__name__)

APP_DATABASE = "werkbank"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


@dataclass(frozen=True)
class Identity:
    """Who acts in a unit of work. RLS policies read these values; repositories filter by them too."""

    teacher_id: uuid.UUID | None = None
    school_id: uuid.UUID | None = None
    class_ids: tuple[uuid.UUID, ...] = field(default_factory=tuple)
    role: str = "teacher"  # teacher | curator | product | system

    @classmethod
    def system(cls) -> Identity:
        """Maintenance identity (seeds, imports, benchmarks, re-embedding) — sees and writes everything."""
        return cls(role="system")

    def payload(self) -> str:
        """What the database verifies: "teacher|school|class,class|role" (see migration 0007)."""
        classes = ",".join(str(c) for c in self.class_ids)
        return f"{self.teacher_id or ''}|{self.school_id or ''}|{classes}|{self.role}"


_SET_IDENTITY = sa.text("SELECT set_config('werkbank.identity', :p, true), set_config('werkbank.sig', :s, true)")


def sign(payload: str, database: str | None = None) -> str:
    """HMAC-SHA256 of the identity with the key in `wb_secrets`, which the application role cannot read: SQL run as
    the app role cannot act as anybody else (e.g. `set_config('werkbank.role', 'system')` has no effect). Every
    database has a key of its own (migration 0007): `database` names the one the identity is for (default: the
    app's)."""
    ipad, opad = identity_key(database)
    return hashlib.sha256(opad + hashlib.sha256(ipad + payload.encode()).digest()).hexdigest()


@lru_cache
def identity_key(database: str | None = None) -> tuple[bytes, bytes]:
    """The signing key (HMAC inner and outer pads) of `database` (default: the app's), read once through the owner
    connection — a benchmark's own database on the same server has a key of its own."""
    owner = make_url(admin_url())
    other = database is not None and database != owner.database
    engine = sa.create_engine(owner.set(database=database), poolclass=sa.pool.NullPool) if other else admin_engine()
    try:
        with engine.connect() as c:
            row = c.execute(sa.text("SELECT ipad, opad FROM wb_secrets WHERE name = 'identity'")).first()
    finally:
        if other:
            engine.dispose()
    if row is None:
        raise RuntimeError("identity key missing: the database schema is older than migration 0007")
    return bytes(row[0]), bytes(row[1])


def apply_identity(connection: sa.Connection, identity: Identity | None) -> None:
    """Set the acting identity for the current transaction (like SET LOCAL), signed."""
    payload = (identity or Identity(role="none")).payload()
    connection.execute(_SET_IDENTITY, {"p": payload, "s": sign(payload, connection.engine.url.database)})


@event.listens_for(Session, "after_begin")
def _identity_on_begin(session: Session, transaction, connection: sa.Connection) -> None:  # noqa: ANN001
    # Every transaction (also the one after a commit) gets the identity again: set_config(…, true) ends with it.
    if "identity" in session.info:
        apply_identity(connection, session.info["identity"])


# --- URLs and engines ----------------------------------------------------------------------------------------------

_lock = threading.Lock()


def _embedded_admin_url() -> str:
    from db.server import embedded_uri

    return embedded_uri(get_settings().werkbank_data_dir)


@lru_cache
def admin_url() -> str:
    """Owner connection: DATABASE_ADMIN_URL, else DATABASE_URL, else the embedded server (database `werkbank`)."""
    s = get_settings()
    raw = s.database_admin_url or s.database_url
    if raw:
        return _normalise(raw)
    url = make_url(_embedded_admin_url())
    name = s.werkbank_db_name or APP_DATABASE
    _ensure_database(url, name)
    return url.set(database=name).render_as_string(hide_password=False)


@lru_cache
def app_url() -> str:
    """Runtime connection. For the embedded server we log in as the application role directly."""
    s = get_settings()
    if s.database_url:
        return _normalise(s.database_url)
    return make_url(admin_url()).set(username=s.werkbank_app_role, password=None).render_as_string(
        hide_password=False
    )


def _normalise(raw: str) -> str:
    url = make_url(raw)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


def _ensure_database(server_url: sa.URL, name: str) -> None:
    eng = sa.create_engine(server_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with eng.connect() as c:
            if not c.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).scalar():
                with contextlib.suppress(sa.exc.ProgrammingError):  # a concurrent process created it first
                    c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        eng.dispose()


@lru_cache
def admin_engine() -> Engine:
    return sa.create_engine(admin_url(), pool_pre_ping=True, pool_size=2, max_overflow=2)


@lru_cache
def get_engine() -> Engine:
    """The runtime engine (application role, RLS applies)."""
    s = get_settings()
    engine = sa.create_engine(app_url(), pool_pre_ping=True, pool_size=s.werkbank_db_pool_size,
                              max_overflow=s.werkbank_db_max_overflow)
    role = s.werkbank_app_role
    timeout = int(s.werkbank_statement_timeout_ms)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:  # noqa: ANN001
        with dbapi_conn.cursor() as cur:
            cur.execute("SELECT current_user")
            if cur.fetchone()[0] != role:
                # DATABASE_URL names an owner/superuser: drop to the application role for the whole connection.
                cur.execute(f'SET ROLE "{role}"')
            cur.execute(f"SET statement_timeout = {timeout}")
        dbapi_conn.commit()

    return engine


def reset_engines() -> None:
    """Forget cached URLs and engines (tests change the environment)."""
    for fn in (admin_engine, get_engine):
        if fn.cache_info().currsize:
            fn().dispose()
        fn.cache_clear()
    admin_url.cache_clear()
    app_url.cache_clear()
    identity_key.cache_clear()


@contextlib.contextmanager
def unit_of_work(identity: Identity, *, bind: sa.Connection | Engine | None = None) -> Iterator[Session]:
    """A Session whose transactions act as `identity`. Commits on success, rolls back on error."""
    session = Session(bind=bind or get_engine(), info={"identity": identity}, expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def act_as(session: Session, identity: Identity) -> None:
    """Switch the acting identity of an open session (takes effect immediately and for later transactions)."""
    session.info["identity"] = identity
    apply_identity(session.connection(), identity)


# --- schema ----------------------------------------------------------------------------------------------------


def upgrade_schema(url: str | None = None) -> None:
    """`alembic upgrade head`, serialised across processes by an advisory lock inside env.py."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["url"] = url or admin_url()
    with _lock:
        command.upgrade(cfg, "head")


def current_revision(connection: sa.Connection) -> str | None:
    if connection.execute(sa.text("SELECT to_regclass('alembic_version')")).scalar() is None:
        return None
    return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def head_revision() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return ScriptDirectory.from_config(cfg).get_current_head()


def ping() -> None:
    """One round trip to the database (raises when it is not reachable)."""
    with get_engine().connect() as c:
        c.execute(sa.text("SELECT 1"))
