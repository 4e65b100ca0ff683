"""app_meta: installation facts such as the applied seed fingerprint

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from core.app.config import get_settings

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "app_meta",
        sa.Column("key", sa.String(length=100), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
    )
    role = get_settings().werkbank_app_role
    op.execute("ALTER TABLE app_meta ENABLE ROW LEVEL SECURITY")
    op.execute(f'GRANT SELECT, INSERT, UPDATE ON app_meta TO "{role}"')
    op.execute(f"""CREATE POLICY app_meta_system ON app_meta FOR ALL TO "{role}"
                   USING ((SELECT wb_role()) = 'system') WITH CHECK ((SELECT wb_role()) = 'system')""")


def downgrade() -> None:
    op.drop_table("app_meta")
