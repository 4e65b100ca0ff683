"""Test set-up: one real embedded PostgreSQL (pgvector) per test session, migrated and seeded once;
each test runs in a transaction that is rolled back (SQLAlchemy "join a session into an external transaction").
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import string
import tempfile
import uuid
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

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

# Property tests draw the same examples on every run, so a CI failure can be reproduced and no run fails by the luck
# of a draw (derandomize); time never fails one (speed is measured by core/ops/bench). HYPOTHESIS_PROFILE=explore
# draws new examples on each run, to look for rare cases by hand.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)
hypothesis_settings.register_profile("explore", deadline=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

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


_CALLS: defaultdict[str, itertools.count] = defaultdict(itertools.count)


def _test_key(label: str) -> str:
    """The running test's node id plus a call counter: the same on every run, different for every call."""
    node = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]  # without " (setup)", " (call)"
    return f"{node}|{label}|{next(_CALLS[f'{node}|{label}'])}"


def unique(prefix: str = "t") -> str:
    """A tag unique to this call of this test, the same on every run: random tags reached embeddings (a near-duplicate
    pair fell below its threshold for about one tag in 3 000) and full-text queries (a hex tag like „4e559efbdc“ reads
    as a number to PostgreSQL's parser, about one tag in 15), so they failed CI by chance. Letters only."""
    digest = hashlib.sha256(_test_key(prefix).encode()).digest()
    return f"{prefix}-" + "".join(string.ascii_lowercase[b % 26] for b in digest[:10])


def fixed_uuid(label: str = "id") -> uuid.UUID:
    """A uuid unique to this call of this test, the same on every run — for ids that seed something (a teacher's id
    seeds her generated exam numbers), so a test's material does not change from run to run."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"werkbank-test:{_test_key(label)}")
