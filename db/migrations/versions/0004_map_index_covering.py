"""Cover the Wissenskarte counts: ix_ak_map also carries shared_for_curation

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22

The SELECT policy on agent_knowledge reads shared_for_curation (curators see shared rows). Without it in the
index every counted row needs a heap visit; with it the map's counts are index-only scans. Measured at 1M rows:
the global-scope count dominated the map's 21 ms p50.
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_ak_map")
    op.execute("CREATE INDEX ix_ak_map ON agent_knowledge (agent_type, fach, scope_type, scope_id, knowledge_type, "
               "status) INCLUDE (shared_for_curation)")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_ak_map")
    op.execute("CREATE INDEX ix_ak_map ON agent_knowledge (agent_type, fach, scope_type, scope_id, knowledge_type, "
               "status)")
