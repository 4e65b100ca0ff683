"""The benchmarks' own databases: an empty one for the knowledge benchmarks (owner and app URL), or a fresh,
migrated and seeded one that the whole process then uses (pages, load)."""

from __future__ import annotations

import os
import time

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from core.app.config import get_settings
from core.ops.bootstrap import ensure_ready, forget_ready
from db import session as db_session
from db.repos import bench as bench_repo
from db.session import admin_url, upgrade_schema


def empty_database(name: str) -> tuple[str, str]:
    """A new, migrated database `name` on the app's server: (owner URL, URL of the runtime role)."""
    bench_repo.recreate_database(url=make_url(admin_url()), name=name)
    bench_admin, bench_app = database_urls(name)
    upgrade_schema(bench_admin)
    return bench_admin, bench_app


def kept_database(name: str) -> tuple[str, str] | None:
    """The URLs of database `name` kept by an earlier run (`--keep`), migrated to the current schema; None when
    there is none."""
    if not bench_repo.database_exists(url=make_url(admin_url()), name=name):
        return None
    bench_admin, bench_app = database_urls(name)
    upgrade_schema(bench_admin)
    return bench_admin, bench_app


def drop_database(name: str) -> None:
    """Drop a benchmark's database (a 1M-row one takes ~4 GB of disk)."""
    bench_repo.drop_database(url=make_url(admin_url()), name=name)


def database_urls(name: str) -> tuple[str, str]:
    """(owner URL, URL of the runtime role) of database `name` on the app's server."""
    admin = make_url(admin_url())
    bench_admin = admin.set(database=name).render_as_string(hide_password=False)
    role = get_settings().werkbank_app_role
    bench_app = (
        make_url(bench_admin).set(username=role, password=None).render_as_string(hide_password=False)
        if not get_settings().database_url else bench_admin
    )
    return bench_admin, bench_app


def app_engine(url: str) -> sa.Engine:
    """Pooled like the app (server-side prepared statements survive), acting as the runtime role."""
    app = sa.create_engine(url, pool_size=2)
    if get_settings().database_url:
        bench_repo.act_as_role_on_connect(app, get_settings().werkbank_app_role)
    return app


def fresh_database(name: str) -> None:
    """Switch this process to a new database `name`, migrated and seeded (settings and engines start over)."""
    os.environ["WERKBANK_DB_NAME"] = name
    get_settings.cache_clear()
    db_session.reset_engines()
    bench_repo.drop_database(url=make_url(admin_url()), name=name)
    db_session.reset_engines()
    forget_ready()
    ensure_ready(seed=True)


def analyze(admin: sa.Engine, *, rebuild_index: bool) -> float:
    """Build the indexes dropped for a bulk load (HNSW only when the benchmark searches), then VACUUM ANALYZE;
    returns the seconds it took."""
    t0 = time.perf_counter()
    bench_repo.build_indexes_and_analyze(engine=admin, rebuild_hnsw=rebuild_index)
    return time.perf_counter() - t0
