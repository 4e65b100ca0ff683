"""Coverage maps as knowledge; seed_hash marks what the seed wrote, so curator and teacher edits are kept

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

A Fach's coverage map (the topics its curricula teach, with grades, sub-topics and key words) is one global knowledge
row of type 'coverage'. seed_hash holds the hash of the content the seed last wrote: a row whose content no longer
matches it was changed by a curator or teacher and is never overwritten by a later seed run.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

OLD = "('generic', 'example', 'good_practice', 'preference', 'operator_list', 'note')"
NEW = "('generic', 'example', 'good_practice', 'preference', 'operator_list', 'note', 'coverage')"


def upgrade() -> None:
    op.drop_constraint("ck_ak_knowledge_type", "agent_knowledge", type_="check")
    op.create_check_constraint("ck_ak_knowledge_type", "agent_knowledge", f"knowledge_type IN {NEW}")
    op.add_column("agent_knowledge", sa.Column("seed_hash", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("agent_knowledge", "seed_hash")
    op.execute("DELETE FROM agent_knowledge WHERE knowledge_type = 'coverage'")
    op.drop_constraint("ck_ak_knowledge_type", "agent_knowledge", type_="check")
    op.create_check_constraint("ck_ak_knowledge_type", "agent_knowledge", f"knowledge_type IN {OLD}")
