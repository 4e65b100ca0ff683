"""Search: the text rank divides by the log of the row's length (ts_rank normalisation 1 | 32)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24

With normalisation 32 alone a long curated task (Thema, Themenfeld, description, task text and Erwartungshorizont
in one tsvector) that names a query word once in passing outranked a short task that is about it; a teacher's own
upload is usually such a short, unlabelled text. Normalisation 1 (rank / (1 + log(length))) is the mild length
correction of the PostgreSQL manual; the same in db.repos.search_global.text_rank (the exact path) and here (the
global slice's text top-k). Decision 022 has the figures.
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_FUNCTION_0009 = """
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


def upgrade() -> None:
    op.execute(_FUNCTION_0009.replace("), 32)", "), 33)"))


def downgrade() -> None:
    op.execute(_FUNCTION_0009)
