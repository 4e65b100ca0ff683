"""Alembic environment: migrations run on the owner connection, one process at a time (advisory lock)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from db.models import Base

MIGRATION_LOCK = 738_211_001  # arbitrary constant shared by every process of the app


def run_migrations_online() -> None:
    url = context.config.attributes.get("url") or context.config.get_main_option("sqlalchemy.url")
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        connection.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
        connection.commit()
        try:
            context.configure(connection=connection, target_metadata=Base.metadata, compare_type=True)
            with context.begin_transaction():
                context.run_migrations()
        finally:
            connection.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
            connection.commit()
    engine.dispose()


run_migrations_online()
