"""Test set-up: one real embedded PostgreSQL (pgvector) per test session, migrated and seeded once;
each test runs in a transaction that is rolled back (SQLAlchemy "join a session into an external transaction").
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# Before anything reads settings: a throwaway data dir, the embedded server, the offline model.
_DATA_DIR = Path(tempfile.mkdtemp(prefix="werkbank-test-"))
os.environ["WERKBANK_DATA_DIR"] = str(_DATA_DIR)
os.environ.pop("DATABASE_URL", None)
os.environ.pop("DATABASE_ADMIN_URL", None)
os.environ["WERKBANK_MODEL"] = "offline"
os.environ["WERKBANK_EMBEDDER"] = "offline"
# Page tests act as demo persons; sign-in tests switch the mode themselves (tests/core/app/test_sign_in.py).
os.environ["WERKBANK_AUTH"] = "demo"
for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
    os.environ.pop(key, None)

from pydantic_ai import models  # noqa: E402

models.ALLOW_MODEL_REQUESTS = False

import sqlalchemy as sa  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from core.app.config import get_settings  # noqa: E402
from db.session import Identity, act_as, get_engine, reset_engines  # noqa: E402

DEMO_TEACHER = "steffen.keller@demo-gymnasium.de"
KEEP_DATA = "WERKBANK_KEEP_TEST_DATA"  # =1 keeps the session's data folder (database, logs) to look into afterwards


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The session's throwaway data folder goes with it (an embedded cluster is ~170 MB; they piled up to 46 GB).
    The server is stopped first — also one started without the `database` fixture; if it cannot be stopped, the
    folder stays rather than being pulled from under a running server."""
    from db.server import stop_embedded

    try:
        stop_embedded(_DATA_DIR)
    except Exception as exc:  # report it and keep the folder
        print(f"\nwerkbank: embedded server in {_DATA_DIR} not stopped ({exc}); folder kept")
        return
    if os.environ.get(KEEP_DATA) == "1":
        print(f"\nwerkbank: test data kept in {_DATA_DIR} ({KEEP_DATA}=1)")
        return
    shutil.rmtree(_DATA_DIR, ignore_errors=True)


@pytest.fixture(scope="session")
def database() -> Iterator[sa.Engine]:
    """Start the embedded server (lazily — only tests that need data pay for it), migrate, seed."""
    get_settings.cache_clear()
    reset_engines()
    from core.ops.bootstrap import ensure_ready

    ensure_ready(seed=True)
    yield get_engine()
    reset_engines()
    from db.server import stop_embedded

    stop_embedded(_DATA_DIR)  # no postgres left behind by a test run


@pytest.fixture
def db(database: sa.Engine) -> Iterator[Session]:
    """A session acting as the system identity inside a transaction that is rolled back after the test."""
    conn = database.connect()
    outer = conn.begin()
    session = Session(bind=conn, join_transaction_mode="create_savepoint", info={"identity": Identity.system()},
                      expire_on_commit=False)
    try:
        yield session
    finally:
        session.close()
        outer.rollback()
        conn.close()


@pytest.fixture
def as_teacher(db: Session):
    """`as_teacher(email_or_teacher)` switches the session to act as that teacher and returns the identity."""
    from db.models import Teacher
    from db.repos.teachers import find_teacher, identity_for

    def switch(who: str | Teacher, role: str | None = None) -> Identity:
        act_as(db, Identity.system())
        teacher = who if isinstance(who, Teacher) else find_teacher(db=db, ref=who)
        assert teacher is not None, who
        ident = identity_for(db=db, teacher=teacher)
        if role:
            ident = Identity(teacher_id=ident.teacher_id, school_id=ident.school_id, class_ids=ident.class_ids,
                             role=role)
        act_as(db, ident)
        return ident

    return switch


def unique(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"
