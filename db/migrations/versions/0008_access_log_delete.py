"""Access log rows can be deleted by the system identity: "delete all my data" removes the log of staff reads too.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24

Migration 0007 gave `access_log` a read and an insert policy only, so under row-level security the system's DELETE
of a teacher's log rows silently removed nothing. Nobody else may delete a log row (not the staff member who read,
not the teacher: the deletion runs as the system, on the teacher's request).
"""

from __future__ import annotations

from alembic import op

from core.app.config import get_settings

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    role = get_settings().werkbank_app_role
    op.execute("DROP POLICY IF EXISTS al_delete ON access_log")
    op.execute(f'CREATE POLICY al_delete ON access_log FOR DELETE TO "{role}" USING ((SELECT wb_role()) = \'system\')')


def downgrade() -> None:
    op.execute("DROP POLICY IF EXISTS al_delete ON access_log")
