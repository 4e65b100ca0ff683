"""Start-up: bring the schema to head and seed on first run. Safe from several processes at once.

Migrations serialise on an advisory lock; the seed runs under a second advisory lock and is idempotent anyway.
"""

from __future__ import annotations

import logging
import threading

from core.app.config import get_settings
from db.repos import ops as ops_repo
from db.session import Identity, get_engine, unit_of_work, upgrade_schema
from seeds.steps import fingerprint, is_seeded, run_seed

log = logging.getLogger(__name__)
SEED_LOCK = 738_211_002
_done = False
_lock = threading.Lock()


def ensure_ready(*, seed: bool | None = None) -> None:
    """Migrate to head and, if the database is empty, seed it. Runs once per process."""
    global _done
    with _lock:
        if _done:
            return
        upgrade_schema()
        if seed if seed is not None else get_settings().werkbank_auto_seed:
            run_seed_locked(only_if_empty=True)
        _done = True


def forget_ready() -> None:
    """The next `ensure_ready` migrates and seeds again (a benchmark that switched to a fresh database)."""
    global _done
    with _lock:
        _done = False


def run_seed_locked(*, only_if_empty: bool = False) -> list[str]:
    """Run the seed under a lock. With `only_if_empty` (app start) it runs only on a new database or when the
    seed content changed since the last run (fingerprint in app_meta)."""
    current = fingerprint()
    with get_engine().connect() as conn, ops_repo.advisory_lock(conn, SEED_LOCK):
        with unit_of_work(Identity.system(), bind=conn) as db:
            applied = ops_repo.get_meta(db=db, key="seed_fingerprint")
            if only_if_empty and is_seeded(db) and applied is not None and applied.value == current:
                return ["bereits vorhanden"]
            report = run_seed(db)
            ops_repo.set_meta(db=db, key="seed_fingerprint", value=current)
        return report.lines()
