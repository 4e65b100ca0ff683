"""Where a text is stored: every table of the schema, read as the owner (no row-level security in the way)."""

from __future__ import annotations

import sqlalchemy as sa

from db.session import admin_engine


def rows_containing(*texts: str) -> dict[str, int]:
    """{table: rows} of every table whose rows contain any of `texts` (case-insensitive, JSON and bytes included)."""
    hits: dict[str, int] = {}
    with admin_engine().connect() as c:
        tables = c.scalars(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).all()
        for table in tables:
            for text in texts:
                n = c.scalar(sa.text(f'SELECT count(*) FROM "{table}" AS t WHERE t::text ILIKE :p'),
                             {"p": f"%{text}%"})
                if n:
                    hits[table] = hits.get(table, 0) + n
    return hits
