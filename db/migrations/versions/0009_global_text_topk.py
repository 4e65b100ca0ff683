"""Search at scale: the text top-k of a Fach's global slice through its partial GIN index

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24

Under row-level security PostgreSQL may not evaluate a non-leakproof operator such as `@@` (ts_match_vq) before the
policy's quals, so an index condition on `fts` is never used for the application role: the partial GIN index per
Fach of 0006 served no teacher's search, and the text step read every row of the global slice from the heap
(1M rows: ~3 000 per Fach × agent, for a word that matches none of them). Global rows are readable by every role
(policy ak_read: scope_type = 'global'), so a SECURITY DEFINER function that returns the ids, ranks and quality of
the Fach's active global rows adds nothing anyone could not read; it plans with the Fach as a literal (dynamic SQL),
so a partial GIN index applies. The rank is db.repos.search_global.text_rank's: ts_rank, the literal words twice.
The partial GIN indexes now hold one Fach × agent's good practices each (what a search ranks) instead of the whole
Fach: with a per-Fach index a common word made the bitmap visit every agent's and type's rows, twice as many heap rows
as scanning the slice.
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

FUNCTION = """
CREATE OR REPLACE FUNCTION wb_global_text_topk(p_fach text, p_agent text, p_type text, p_query text, p_literal text,
                                               p_k int)
RETURNS TABLE (id uuid, rank double precision, quality double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  r text := 'ts_rank(fts, to_tsquery(''german'', ' || quote_literal(p_query) || '), 32)';
BEGIN
  IF p_literal IS NOT NULL THEN
    r := r || ' + 2 * ts_rank(fts, to_tsquery(''german'', ' || quote_literal(p_literal) || '), 32)';
  END IF;
  RETURN QUERY EXECUTE format(
    'SELECT id, (%s)::double precision AS r, quality_score FROM agent_knowledge '
    'WHERE scope_type = ''global'' AND status = ''active'' AND fach = %L AND agent_type = %L AND knowledge_type = %L '
    'AND fts @@ to_tsquery(''german'', %L) ORDER BY r DESC, id LIMIT %s',
    r, p_fach, p_agent, p_type, p_query, greatest(1, least(p_k, 1000)));
END $$;
"""


FAECHER = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")
AGENTS = ("klausur", "differenzierung", "h5p")
GLOBAL = "scope_type = 'global' AND status = 'active'"


def upgrade() -> None:
    op.execute(FUNCTION)
    for fach in FAECHER:
        op.execute(f"DROP INDEX IF EXISTS ix_ak_gfts_{fach}")
        for agent in AGENTS:
            op.execute(f"CREATE INDEX IF NOT EXISTS ix_ak_gfts_{fach}_{agent} ON agent_knowledge USING gin (fts) "
                       f"WHERE {GLOBAL} AND fach = '{fach}' AND agent_type = '{agent}' "
                       "AND knowledge_type = 'good_practice'")


def downgrade() -> None:
    for fach in FAECHER:
        for agent in AGENTS:
            op.execute(f"DROP INDEX IF EXISTS ix_ak_gfts_{fach}_{agent}")
        op.execute(f"CREATE INDEX IF NOT EXISTS ix_ak_gfts_{fach} ON agent_knowledge USING gin (fts) "
                   f"WHERE {GLOBAL} AND fach = '{fach}'")
    op.execute("DROP FUNCTION IF EXISTS wb_global_text_topk(text, text, text, text, text, int)")
