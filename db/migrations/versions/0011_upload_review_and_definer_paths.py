"""Uploads held for review; SECURITY DEFINER functions that a temporary table cannot fool

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24

- An upload with instruction-like text ("Ignoriere alle vorherigen Anweisungen", hidden text, …) is held: its rows in
  agent_knowledge / curriculum_chunks carry `held_upload` and stay invisible to everybody but their owner (and the
  system) until a curator releases them. `upload_reviews` is the queue: the flagged passage (personal data already
  removed), who decided and when. Teachers read their own entries; curators read and decide; nobody else.
- The definer functions ran with `search_path = pg_catalog, public`: PostgreSQL then searches pg_temp *first* for
  tables, so the application role could create a temporary `wb_secrets` with a key of its own and sign itself the
  system identity (attack round, issue #13). pg_temp now comes last (so public.wb_secrets is
  found first), and only the application role may execute them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

from core.app.config import get_settings

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

DEFINERS = ("wb_identity_part(int)", "wb_owns(text, uuid)", "wb_global_text_topk(text, text, text, text, text, int)")
T, R = "(SELECT wb_teacher())", "(SELECT wb_role())"
SYSTEM = f"{R} = 'system'"
HELD = ("agent_knowledge", "curriculum_chunks")
# Only a curator's decision (carried out as the system) lifts a hold: the owner cannot clear it on her own rows.
HOLD_GUARD = """
CREATE OR REPLACE FUNCTION wb_hold_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.held_upload IS NOT NULL AND NEW.held_upload IS DISTINCT FROM OLD.held_upload AND wb_role() <> 'system' THEN
    RAISE EXCEPTION 'an upload held for review is released by a curator only' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
"""


def upgrade() -> None:
    role = get_settings().werkbank_app_role
    for signature in DEFINERS:
        op.execute(f"ALTER FUNCTION {signature} SET search_path = pg_catalog, public, pg_temp")
        op.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")
        op.execute(f'GRANT EXECUTE ON FUNCTION {signature} TO "{role}"')

    for table in HELD:
        op.add_column(table, sa.Column("held_upload", UUID(as_uuid=True), nullable=True))
        op.execute(f"CREATE INDEX ix_{table}_held ON {table} (held_upload) WHERE held_upload IS NOT NULL")
        op.execute(f"""CREATE POLICY {table}_held ON {table} AS RESTRICTIVE FOR SELECT TO "{role}"
                         USING (held_upload IS NULL OR {SYSTEM} OR owner_id = {T})""")
    op.execute(HOLD_GUARD)
    for table in HELD:
        op.execute(f"CREATE TRIGGER tr_{table}_hold BEFORE UPDATE OF held_upload ON {table} FOR EACH ROW "
                   "EXECUTE FUNCTION wb_hold_guard()")
    op.create_table(
        "upload_reviews",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("upload_id", UUID(as_uuid=True), sa.ForeignKey("uploads.id", ondelete="CASCADE"), nullable=False,
                  unique=True),
        sa.Column("teacher_id", UUID(as_uuid=True), sa.ForeignKey("teachers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("filename", sa.String(300), nullable=False),
        sa.Column("fach", sa.String(40)),
        sa.Column("scope", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(300), nullable=False),
        sa.Column("passage", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False, server_default="held"),
        sa.Column("reviewer_id", UUID(as_uuid=True), sa.ForeignKey("teachers.id", ondelete="SET NULL")),
        sa.Column("decided_at", sa.DateTime(timezone=True)),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint("status IN ('held', 'approved', 'rejected')", name="ck_ur_status"),
    )
    op.create_index("ix_ur_status", "upload_reviews", ["status", "created_at"])
    op.create_index("ix_ur_teacher", "upload_reviews", ["teacher_id"])
    op.execute(f'GRANT SELECT, INSERT, UPDATE, DELETE ON upload_reviews TO "{role}"')
    op.execute("ALTER TABLE upload_reviews ENABLE ROW LEVEL SECURITY")
    curator = f"{R} = 'curator'"
    for statement in (
        f"""CREATE POLICY ur_read ON upload_reviews FOR SELECT TO "{role}" USING (
              {SYSTEM} OR teacher_id = {T} OR {curator})""",
        f"""CREATE POLICY ur_insert ON upload_reviews FOR INSERT TO "{role}" WITH CHECK (
              {SYSTEM} OR (teacher_id = {T} AND status = 'held' AND reviewer_id IS NULL
                           AND EXISTS (SELECT 1 FROM uploads u WHERE u.id = upload_id)))""",
        f"""CREATE POLICY ur_decide ON upload_reviews FOR UPDATE TO "{role}" USING ({SYSTEM} OR {curator})
              WITH CHECK ({SYSTEM} OR ({curator} AND reviewer_id = {T}))""",
        f"""CREATE POLICY ur_delete ON upload_reviews FOR DELETE TO "{role}" USING ({SYSTEM})""",
    ):
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("upload_reviews")
    op.execute("DROP FUNCTION IF EXISTS wb_hold_guard() CASCADE")
    for table in HELD:
        op.execute(f"DROP TRIGGER IF EXISTS tr_{table}_hold ON {table}")
        op.execute(f"DROP POLICY IF EXISTS {table}_held ON {table}")
        op.drop_column(table, "held_upload")
    for signature in DEFINERS:
        op.execute(f"ALTER FUNCTION {signature} SET search_path = pg_catalog, public")
        op.execute(f"GRANT EXECUTE ON FUNCTION {signature} TO PUBLIC")
