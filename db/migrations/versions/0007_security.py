"""Security: local accounts and login attempts, staff consent and access log, signed identity, upload retention

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24

- `accounts` (argon2 hashes) and `login_attempts` (rate limit) are readable by the system identity only.
- `staff_consents`: a teacher lets curators / the product team read one item or one conversation (trace);
  `access_log`: every such read, visible to the teacher whose data it was.
- The acting identity is one signed setting (`werkbank.identity` + `werkbank.sig`, HMAC-SHA256 with a key in
  `wb_secrets`, which the application role cannot read). The wb_* functions verify it; a forged or missing signature
  acts as nobody. A teacher cannot change their own role, school or e-mail (trigger), and a row cannot point at a
  parent row its writer cannot see (WITH CHECK on every foreign key to teacher-owned rows), so ids of other tenants
  cannot be probed through foreign-key errors.
- Uploads keep the parsed, redacted blocks; the raw file may be dropped after parsing (`data` nullable).
"""

from __future__ import annotations

import hashlib
import secrets

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.app.config import get_settings

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NEW_TABLES = ("accounts", "login_attempts", "staff_consents", "access_log")

# Identity verification. SECURITY DEFINER so that it can read the key; a fixed search_path so nothing can be
# injected into it. The payload is "teacher|school|class,class|role"; HMAC = sha256(k_opad || sha256(k_ipad || m)).
FUNCTIONS = """
CREATE OR REPLACE FUNCTION wb_identity_part(i int) RETURNS text LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, public AS $$
DECLARE
  payload text := current_setting('werkbank.identity', true);
  sig text := current_setting('werkbank.sig', true);
  k_i bytea; k_o bytea;
BEGIN
  IF payload IS NULL OR payload = '' OR sig IS NULL OR sig = '' THEN
    RETURN NULL;
  END IF;
  SELECT ipad, opad INTO k_i, k_o FROM wb_secrets WHERE name = 'identity';
  IF k_i IS NULL OR encode(sha256(k_o || sha256(k_i || convert_to(payload, 'UTF8'))), 'hex') <> sig THEN
    RETURN NULL;
  END IF;
  RETURN nullif(split_part(payload, '|', i), '');
END $$;
CREATE OR REPLACE FUNCTION wb_teacher() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT wb_identity_part(1)::uuid $$;
CREATE OR REPLACE FUNCTION wb_school() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT wb_identity_part(2)::uuid $$;
CREATE OR REPLACE FUNCTION wb_classes() RETURNS uuid[] LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT coalesce(string_to_array(wb_identity_part(3), ',')::uuid[], '{}'::uuid[]) $$;
CREATE OR REPLACE FUNCTION wb_role() RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
  $$ SELECT coalesce(wb_identity_part(4), 'none') $$;

-- Does the acting person own this parent row? (No RLS recursion, and no answer about rows of others.)
CREATE OR REPLACE FUNCTION wb_owns(kind text, obj uuid) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public AS $$
  SELECT CASE kind
    WHEN 'conversation' THEN EXISTS (SELECT 1 FROM conversations WHERE id = obj
                                     AND (teacher_id = wb_teacher() OR wb_role() = 'system'))
    WHEN 'material' THEN EXISTS (SELECT 1 FROM generated_materials WHERE id = obj
                                 AND (teacher_id = wb_teacher() OR wb_role() = 'system'))
    ELSE false END $$;

CREATE OR REPLACE FUNCTION wb_teacher_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF wb_role() <> 'system' AND (NEW.role IS DISTINCT FROM OLD.role OR NEW.school_id IS DISTINCT FROM OLD.school_id
                                OR NEW.email IS DISTINCT FROM OLD.email OR NEW.id IS DISTINCT FROM OLD.id) THEN
    RAISE EXCEPTION 'role, school and e-mail of a person are changed by an administrator only'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
"""

T, S, C, R = "(SELECT wb_teacher())", "(SELECT wb_school())", "(SELECT wb_classes())::uuid[]", "(SELECT wb_role())"
SYSTEM = f"{R} = 'system'"
STAFF = f"{R} IN ('curator', 'product')"
SCOPE_VISIBLE = f"""(scope_type = 'global' OR (scope_type = 'teacher' AND scope_id = {T})
  OR (scope_type = 'class' AND scope_id = ANY ({C})) OR (scope_type = 'school' AND scope_id = {S}))"""


def _consented(kind: str, column: str) -> str:
    """Staff may read a teacher's row when that teacher consented for this item (or this conversation). `column` is
    qualified with its table: inside the subquery a bare `id` would be staff_consents.id."""
    return (f"({STAFF} AND EXISTS (SELECT 1 FROM staff_consents sc WHERE sc.object_type = '{kind}' "
            f"AND sc.object_id = {column} AND sc.revoked_at IS NULL AND sc.grantee_role IN ({R}, 'staff')))")


def _own(column: str = "teacher_id") -> str:
    return f"({SYSTEM} OR {column} = {T})"


# Foreign keys to teacher-owned rows: the parent must be visible to the writer (no probing of other tenants' ids).
PARENT_CHECKS: dict[str, list[tuple[str, str]]] = {
    "conversation_messages": [("conversation_id", "conversation")],
    "agent_sessions": [("conversation_id", "conversation")],
    "generated_materials": [("conversation_id", "conversation"), ("parent_id", "material")],
    "material_files": [("material_id", "material")],
    "ratings": [("material_id", "material")],
    "session_logs": [("conversation_id", "conversation")],
    "uploads": [("conversation_id", "conversation")],
}
# Conversation-bound rows staff may read with consent for that conversation (its trace).
TRACE_TABLES = {"conversations": "id", "conversation_messages": "conversation_id", "agent_sessions": "conversation_id",
                "llm_calls": "conversation_id"}


def _parent_visible(column: str, kind: str) -> str:
    return f"({column} IS NULL OR wb_owns('{kind}', {column}))"


def _policies(role: str) -> list[str]:
    sql: list[str] = []
    # Teacher-owned tables: own rows; staff read a conversation's trace with consent; parents must be visible.
    for table, parents in {**{t: [] for t in TRACE_TABLES if t not in PARENT_CHECKS}, **PARENT_CHECKS}.items():
        sql.append(f"DROP POLICY IF EXISTS {table}_own ON {table}")
        read = _own()
        if table in TRACE_TABLES:
            read = f"({read} OR {_consented('conversation', f'{table}.{TRACE_TABLES[table]}')})"
        check = " AND ".join([_own(), *(_parent_visible(c, p) for c, p in parents)])
        sql += [
            f"CREATE POLICY {table}_read ON {table} FOR SELECT TO {role} USING {read}",
            f"CREATE POLICY {table}_insert ON {table} FOR INSERT TO {role} WITH CHECK ({check})",
            f"CREATE POLICY {table}_update ON {table} FOR UPDATE TO {role} USING {_own()} WITH CHECK ({check})",
            f"CREATE POLICY {table}_delete ON {table} FOR DELETE TO {role} USING {_own()}",
        ]
    # Knowledge: staff read global, shared-for-curation and consented rows (and their own, as anybody).
    sql += [
        "DROP POLICY IF EXISTS ak_read ON agent_knowledge",
        f"""CREATE POLICY ak_read ON agent_knowledge FOR SELECT TO {role} USING (
              {SYSTEM} OR {SCOPE_VISIBLE} OR ({STAFF} AND shared_for_curation) OR {_consented('knowledge', 'agent_knowledge.id')})""",
        # Accounts and login attempts: the system identity only (login runs as the system).
        f"CREATE POLICY accounts_system ON accounts FOR ALL TO {role} USING ({SYSTEM}) WITH CHECK ({SYSTEM})",
        f"""CREATE POLICY login_attempts_system ON login_attempts FOR ALL TO {role} USING ({SYSTEM})
              WITH CHECK ({SYSTEM})""",
        # Consents: the teacher manages their own; staff see the ones addressed to them.
        f"""CREATE POLICY sc_own ON staff_consents FOR ALL TO {role} USING ({_own()})
              WITH CHECK ({_own()})""",
        f"""CREATE POLICY sc_staff ON staff_consents FOR SELECT TO {role} USING (
              {STAFF} AND revoked_at IS NULL AND grantee_role IN ({R}, 'staff'))""",
        # Access log: written by the staff member who reads (as themselves), read by the teacher it is about.
        f"""CREATE POLICY al_read ON access_log FOR SELECT TO {role} USING ({_own()} OR viewer_id = {T})""",
        f"""CREATE POLICY al_insert ON access_log FOR INSERT TO {role} WITH CHECK (
              {SYSTEM} OR ({STAFF} AND viewer_id = {T}))""",
    ]
    return sql


def _secret() -> tuple[bytes, bytes]:
    key = hashlib.sha256(secrets.token_bytes(64)).digest().ljust(64, b"\0")
    return bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)


def upgrade() -> None:
    role = get_settings().werkbank_app_role
    op.create_table(
        "accounts",
        sa.Column("teacher_id", UUID(as_uuid=True), sa.ForeignKey("teachers.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default="false"),
        sa.Column("last_login_at", sa.DateTime(timezone=True)),
        sa.Column("password_changed_at", sa.DateTime(timezone=True)),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("client", sa.String(100), nullable=False),
        sa.Column("ok", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_index("ix_login_email", "login_attempts", ["email", "created_at"])
    op.create_index("ix_login_client", "login_attempts", ["client", "created_at"])
    op.create_table(
        "staff_consents",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("teacher_id", UUID(as_uuid=True), sa.ForeignKey("teachers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("object_type", sa.String(20), nullable=False),
        sa.Column("object_id", UUID(as_uuid=True), nullable=False),
        sa.Column("grantee_role", sa.String(20), nullable=False, server_default="staff"),
        sa.Column("label", sa.String(300)),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint("object_type IN ('knowledge', 'conversation')", name="ck_sc_object_type"),
        sa.CheckConstraint("grantee_role IN ('curator', 'product', 'staff')", name="ck_sc_grantee"),
    )
    op.create_index("ix_sc_object", "staff_consents", ["object_type", "object_id"])
    op.create_index("ix_sc_teacher", "staff_consents", ["teacher_id"])
    op.create_table(
        "access_log",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("teacher_id", UUID(as_uuid=True), sa.ForeignKey("teachers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("viewer_id", UUID(as_uuid=True), sa.ForeignKey("teachers.id", ondelete="SET NULL")),
        sa.Column("viewer_label", sa.String(300), nullable=False),
        sa.Column("object_type", sa.String(20), nullable=False),
        sa.Column("object_id", UUID(as_uuid=True), nullable=False),
        sa.Column("what", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_index("ix_al_teacher", "access_log", ["teacher_id", "created_at"])
    op.alter_column("uploads", "data", nullable=True)
    op.add_column("uploads", sa.Column("blocks", JSONB, nullable=True))
    op.add_column("uploads", sa.Column("removed", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")))
    op.add_column("uploads", sa.Column("data_deleted_at", sa.DateTime(timezone=True)))

    op.create_table(
        "wb_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("ipad", sa.LargeBinary, nullable=False),
        sa.Column("opad", sa.LargeBinary, nullable=False),
    )
    ipad, opad = _secret()
    op.execute(sa.text("INSERT INTO wb_secrets (name, ipad, opad) VALUES ('identity', :i, :o)").bindparams(
        i=ipad, o=opad))
    op.execute(f'REVOKE ALL ON wb_secrets FROM PUBLIC, "{role}"')
    op.execute("ALTER TABLE wb_secrets ENABLE ROW LEVEL SECURITY")  # and no policy: nobody but the owner
    op.execute(FUNCTIONS)  # same signatures as 0002: the policies that call them stay as they are
    op.execute("REVOKE ALL ON FUNCTION wb_identity_part(int), wb_owns(text, uuid) FROM PUBLIC")
    op.execute(f'GRANT EXECUTE ON FUNCTION wb_identity_part(int), wb_owns(text, uuid), wb_teacher(), wb_school(), '
               f'wb_classes(), wb_role() TO "{role}"')
    op.execute("CREATE TRIGGER tr_teacher_guard BEFORE UPDATE ON teachers FOR EACH ROW "
               "EXECUTE FUNCTION wb_teacher_guard()")
    op.execute(f'GRANT SELECT, INSERT, UPDATE, DELETE ON {", ".join(NEW_TABLES)} TO "{role}"')
    op.execute(f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    for table in NEW_TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    for statement in _policies(role):
        op.execute(statement)


def downgrade() -> None:
    raise NotImplementedError("0007 is not reversible: restore a backup instead.")
