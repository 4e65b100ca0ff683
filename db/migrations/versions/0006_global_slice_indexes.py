"""Search at scale: indexes of the global slice of each Fach instead of one GIN index over every row

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

A teacher's search ranks her own, her classes' and her school's rows (few at any size) and the global rows of the
Fach (which grow with the installation). Ranking the global slice through the table read every embedding from
TOAST, and the table-wide GIN index walked the posting lists of all teachers' rows for common words: p50 grew 7.9x
from 10k to 1M rows. ix_ak_global_vec holds the slice's embeddings for an index-only exact scan; one partial GIN
index per Fach holds only that Fach's global tsvectors. The table-wide GIN index served nothing else and goes.
Extended statistics on the filter columns: the planner multiplied five selectivities, took a slice of 3 000 rows
for 200 and chose heap scans that read every embedding from TOAST.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

FAECHER = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")
GLOBAL = "scope_type = 'global' AND status = 'active'"


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_ak_fts")
    op.execute("CREATE STATISTICS IF NOT EXISTS st_ak_slice (dependencies, mcv) ON fach, agent_type, knowledge_type, scope_type, status FROM agent_knowledge")
    op.execute(f"CREATE INDEX IF NOT EXISTS ix_ak_global_vec ON agent_knowledge (fach, agent_type, knowledge_type) INCLUDE (id, quality_score, scope_type, scope_id, shared_for_curation, embedding) WHERE {GLOBAL}")
    for fach in FAECHER:
        op.execute(f"CREATE INDEX IF NOT EXISTS ix_ak_gfts_{fach} ON agent_knowledge USING gin (fts) WHERE {GLOBAL} AND fach = '{fach}'")


def downgrade() -> None:
    for fach in FAECHER:
        op.execute(f"DROP INDEX IF EXISTS ix_ak_gfts_{fach}")
    op.execute("DROP INDEX IF EXISTS ix_ak_global_vec")
    op.execute("DROP STATISTICS IF EXISTS st_ak_slice")
    op.execute("CREATE INDEX IF NOT EXISTS ix_ak_fts ON agent_knowledge USING gin (fts)")
