"""What the System page, the page frame and the CLI call for operations: start-up (migrate, seed), the health
report, database facts, re-embedding, retention, stopping the embedded database."""

from __future__ import annotations

from typing import Any

from core.app.config import get_settings
from core.ops.bootstrap import ensure_ready, run_seed_locked
from core.ops.health import Health, health
from core.ops.maintenance import reembed, system_status
from core.ops.recovery import database_down, recover_database
from core.ops.retention import RetentionReport, retention
from db.server import stop_embedded
from db.session import Identity, unit_of_work

__all__ = ["Health", "RetentionReport", "database_down", "database_facts", "ensure_ready", "health", "recover_database",
           "reembed_all", "retention", "run_seed_locked", "stop_embedded_database", "system_status"]


def database_facts() -> dict[str, Any]:
    """Server, pgvector, migration, row counts and embedder, after the database is ready (the CLI's `db-info`)."""
    ensure_ready()
    return system_status()


def reembed_all() -> int:
    """Re-embed every row whose embedder differs from the configured one; returns how many."""
    ensure_ready()
    with unit_of_work(Identity.system()) as db:
        return reembed(db=db)


def stop_embedded_database() -> bool | None:
    """Stop the embedded PostgreSQL: True if it ran, False if not, None when DATABASE_URL names another server."""
    if get_settings().database_url:
        return None
    return stop_embedded(get_settings().werkbank_data_dir)
