"""Row-level security: the application role, identity functions and visibility policies

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

The app connects as a role that owns nothing and has no BYPASSRLS. Each transaction sets the acting identity
with set_config('werkbank.*', …, true); the policies below read it through the wb_* functions (DESIGN §3).
"""

from __future__ import annotations

from alembic import op

from core.app.config import get_settings
from db.models import SCOPED, TEACHER_OWNED

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ALL_TABLES = (
    "schools", "teachers", "classes", "teacher_classes", "agent_knowledge", "knowledge_changes",
    "curriculum_chunks", "conversations", "conversation_messages", "agent_sessions", "generated_materials",
    "material_files", "ratings", "user_memories", "session_logs", "uploads", "prompt_versions", "eval_runs",
    "llm_calls",
)

FUNCTIONS = """
CREATE OR REPLACE FUNCTION wb_teacher() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT nullif(current_setting('werkbank.teacher_id', true), '')::uuid $$;
CREATE OR REPLACE FUNCTION wb_school() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT nullif(current_setting('werkbank.school_id', true), '')::uuid $$;
CREATE OR REPLACE FUNCTION wb_classes() RETURNS uuid[] LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT coalesce(string_to_array(nullif(current_setting('werkbank.class_ids', true), ''), ',')::uuid[],
                     '{}'::uuid[]) $$;
CREATE OR REPLACE FUNCTION wb_role() RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT coalesce(nullif(current_setting('werkbank.role', true), ''), 'none') $$;
"""

# Scoped knowledge: own teacher rows, class rows of taught classes, school rows of the own school, global rows.
# The identity functions are wrapped in scalar subqueries so PostgreSQL evaluates them once per statement (an
# InitPlan) instead of once per row — measured 5.6 µs/row -> negligible on the Wissenskarte's counts.
TEACHER, SCHOOL, CLASSES, ROLE = "(SELECT wb_teacher())", "(SELECT wb_school())", "(SELECT wb_classes())::uuid[]", (
    "(SELECT wb_role())"
)
SCOPE_VISIBLE = f"""(
  scope_type = 'global'
  OR (scope_type = 'teacher' AND scope_id = {TEACHER})
  OR (scope_type = 'class' AND scope_id = ANY ({CLASSES}))
  OR (scope_type = 'school' AND scope_id = {SCHOOL})
)"""


def _policies(role: str) -> list[str]:
    sql: list[str] = []
    for table in ALL_TABLES:
        sql.append(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    system = f"{ROLE} = 'system'"
    # Knowledge rows: curators also see (and may edit) what teachers shared for curation, and global rows.
    sql += [
        f"""CREATE POLICY ak_read ON agent_knowledge FOR SELECT TO {role} USING (
              {system} OR {SCOPE_VISIBLE} OR ({ROLE} = 'curator' AND shared_for_curation))""",
        f"""CREATE POLICY ak_insert ON agent_knowledge FOR INSERT TO {role} WITH CHECK (
              {system} OR ({ROLE} = 'curator' AND scope_type = 'global')
              OR (scope_type <> 'global' AND owner_id = {TEACHER} AND {SCOPE_VISIBLE}))""",
        f"""CREATE POLICY ak_update ON agent_knowledge FOR UPDATE TO {role}
              USING ({system} OR ({ROLE} = 'curator' AND (scope_type = 'global' OR shared_for_curation))
                     OR (scope_type <> 'global' AND owner_id = {TEACHER} AND {SCOPE_VISIBLE}))
              WITH CHECK ({system} OR ({ROLE} = 'curator' AND (scope_type = 'global' OR shared_for_curation))
                     OR (scope_type <> 'global' AND owner_id = {TEACHER} AND {SCOPE_VISIBLE}))""",
        f"""CREATE POLICY ak_delete ON agent_knowledge FOR DELETE TO {role} USING (
              {system} OR (scope_type <> 'global' AND owner_id = {TEACHER} AND {SCOPE_VISIBLE}))""",
        f"""CREATE POLICY cc_read ON curriculum_chunks FOR SELECT TO {role} USING ({system} OR {SCOPE_VISIBLE})""",
        f"""CREATE POLICY cc_write ON curriculum_chunks FOR ALL TO {role}
              USING ({system} OR (scope_type <> 'global' AND owner_id = {TEACHER} AND {SCOPE_VISIBLE}))
              WITH CHECK ({system} OR (scope_type <> 'global' AND owner_id = {TEACHER} AND {SCOPE_VISIBLE}))""",
        f"""CREATE POLICY kc_read ON knowledge_changes FOR SELECT TO {role} USING (
              {system} OR {ROLE} = 'curator' OR actor_id = {TEACHER})""",
        f"""CREATE POLICY kc_insert ON knowledge_changes FOR INSERT TO {role} WITH CHECK (
              {system} OR actor_id = {TEACHER})""",
    ]
    for table in TEACHER_OWNED:
        sql.append(
            f"""CREATE POLICY {table}_own ON {table} FOR ALL TO {role}
                  USING ({system} OR teacher_id = {TEACHER}) WITH CHECK ({system} OR teacher_id = {TEACHER})"""
        )
    # Organisation: a teacher sees their school, its classes and colleagues (names for sharing), own class links.
    sql += [
        f"""CREATE POLICY schools_read ON schools FOR SELECT TO {role} USING ({system} OR id = {SCHOOL})""",
        f"""CREATE POLICY schools_write ON schools FOR ALL TO {role} USING ({system}) WITH CHECK ({system})""",
        f"""CREATE POLICY teachers_read ON teachers FOR SELECT TO {role} USING (
              {system} OR id = {TEACHER} OR school_id = {SCHOOL})""",
        f"""CREATE POLICY teachers_update ON teachers FOR UPDATE TO {role}
              USING ({system} OR id = {TEACHER}) WITH CHECK ({system} OR id = {TEACHER})""",
        f"""CREATE POLICY teachers_write ON teachers FOR INSERT TO {role} WITH CHECK ({system})""",
        f"""CREATE POLICY teachers_delete ON teachers FOR DELETE TO {role} USING ({system})""",
        f"""CREATE POLICY classes_read ON classes FOR SELECT TO {role} USING ({system} OR school_id = {SCHOOL})""",
        f"""CREATE POLICY classes_write ON classes FOR ALL TO {role} USING ({system}) WITH CHECK ({system})""",
        f"""CREATE POLICY tc_read ON teacher_classes FOR SELECT TO {role} USING (
              {system} OR teacher_id = {TEACHER})""",
        f"""CREATE POLICY tc_write ON teacher_classes FOR ALL TO {role} USING ({system}) WITH CHECK ({system})""",
        # Product data is not teacher-owned: everyone may read prompts; product people and system write.
        f"""CREATE POLICY pv_read ON prompt_versions FOR SELECT TO {role} USING (true)""",
        f"""CREATE POLICY pv_write ON prompt_versions FOR ALL TO {role}
              USING ({system} OR {ROLE} = 'product') WITH CHECK ({system} OR {ROLE} = 'product')""",
        f"""CREATE POLICY er_all ON eval_runs FOR ALL TO {role}
              USING ({system} OR {ROLE} = 'product') WITH CHECK ({system} OR {ROLE} = 'product')""",
    ]
    return sql


def upgrade() -> None:
    role = get_settings().werkbank_app_role
    op.execute(
        f"""DO $$ BEGIN
              IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN
                CREATE ROLE "{role}" LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
              END IF;
            END $$"""
    )
    # A non-superuser owner (managed PostgreSQL) must be able to SET ROLE to the app role.
    op.execute(f'GRANT "{role}" TO CURRENT_USER')
    op.execute(FUNCTIONS)
    op.execute(f'GRANT USAGE ON SCHEMA public TO "{role}"')
    op.execute(f'GRANT SELECT, INSERT, UPDATE, DELETE ON {", ".join(ALL_TABLES)} TO "{role}"')
    op.execute(f'GRANT SELECT ON alembic_version TO "{role}"')  # db-info and health checks read it
    op.execute(f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    op.execute(f'GRANT EXECUTE ON FUNCTION wb_teacher(), wb_school(), wb_classes(), wb_role() TO "{role}"')
    for statement in _policies(role):
        op.execute(statement)
    assert set(TEACHER_OWNED) | set(SCOPED) <= set(ALL_TABLES)


def downgrade() -> None:
    role = get_settings().werkbank_app_role
    for table in ALL_TABLES:
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
        op.execute(
            f"""DO $$ DECLARE p record; BEGIN
                  FOR p IN SELECT policyname FROM pg_policies WHERE tablename = '{table}' LOOP
                    EXECUTE format('DROP POLICY %I ON {table}', p.policyname);
                  END LOOP; END $$"""
        )
    op.execute(f'REVOKE ALL ON {", ".join(ALL_TABLES)} FROM "{role}"')
    op.execute("DROP FUNCTION IF EXISTS wb_teacher(), wb_school(), wb_classes(), wb_role()")
