"""The global slice of one Fach in a teacher's search, ranked exactly through indexes that hold only that slice.

A teacher sees her own, her classes' and her school's rows (small at any installation size) and the global rows of
the Fach, which grow with the installation. Migration 0006 gives the global slice two indexes of its own:
`ix_ak_global_vec` (Fach, agent, type → id, quality, embedding; index-only, no heap or TOAST visits) for the exact
vector top-k, and partial GIN indexes over the global tsvectors (`ix_ak_gfts_<fach>_<agent>`, good practices, since
0008), so a common word no longer walks the posting lists of every teacher's rows; the text top-k reaches them through
`wb_global_text_topk` (migration 0008), since under row-level security `@@` cannot be an index condition.
Extended statistics on the filter columns let the planner see how big a slice is (it multiplied five selectivities
and chose heap scans). Predicates are rendered as literals: a bound parameter cannot prove a partial index applies
in a generic plan. docs/decisions/ explains why not HNSW.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import UUID

from db.models import AgentKnowledge

AK = AgentKnowledge
SLICE_FAECHER = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")
SLICE_AGENTS = ("klausur", "differenzierung", "h5p")  # one partial GIN index per Fach × agent (migration 0008)


# ts_rank's normalisation: 1 divides by 1 + log(length), so a long row naming a word in passing does not outrank a
# short task about it; 32 scales to rank / (rank + 1). The same in wb_global_text_topk (migration 0011).
RANK_NORMALISATION = 1 | 32


def _lit(value: str) -> sa.BindParameter[Any]:
    return sa.literal(value, literal_execute=True)


def text_rank(fts: Any, tsquery: str, literal: str | None) -> sa.ColumnElement[float]:
    """Full-text rank of a row for `tsquery` (the query's words OR the Themenfeld's expansion terms). With `literal`
    (the query's own words), matches of those count twice: a row naming the rare word the teacher typed must not sink
    below dozens of rows that only share the topic's common terms.

    `ts_rank` (term frequency), not `ts_rank_cd` (cover density): with the ~20-term OR query of an expanded topic,
    cover density cost ~9x more per matching row (12.4 vs 1.4 ms for 300 matches, 146 ms for the 1 600 matches of
    a Fach's global slice at 1M rows) and was what made the search grow with the installation; recall@3 on the
    labelled dev set is the same (0.974), among the whole bank slightly higher (0.776 vs 0.760). Length
    normalisation: see RANK_NORMALISATION."""
    rank = sa.func.ts_rank(fts, sa.func.to_tsquery("german", tsquery), RANK_NORMALISATION)
    if literal and literal != tsquery:
        rank = rank + 2 * sa.func.ts_rank(fts, sa.func.to_tsquery("german", literal), RANK_NORMALISATION)
    return rank


def global_parts(*, qvec: list[float], tsquery: str | None, fach: str, agent_type: str,
                 knowledge_type: str, k: int, literal: str | None = None) -> list[sa.Select[Any]]:
    """Selects (kind 'v' | 't', id, distance or text rank, scope_type, quality) of the vector top-k and the text
    top-k of the Fach's active global rows, both exact, for one UNION ALL with the personal rows."""
    where = [AK.scope_type == _lit("global"), AK.status == _lit("active"), AK.fach == _lit(fach),
             AK.agent_type == _lit(agent_type), AK.knowledge_type == _lit(knowledge_type)]
    # "+ 0": an order no HNSW index can deliver, so the table-wide one (filtered, it would come back short) is never
    # walked; the covering index is read index-only and its few thousand distances sorted exactly.
    dist = AK.embedding.cosine_distance(qvec) + 0
    parts = [sa.select(_lit("v"), AK.id, dist, _lit("global"), AK.quality_score)
             .where(*where, AK.embedding.is_not(None)).order_by(dist).limit(k)]
    if tsquery:
        # Through wb_global_text_topk (migration 0008): under row-level security `@@` can use no index, and the
        # function sees only what every role may read (active global rows), with the same rank as text_rank.
        topk = sa.func.wb_global_text_topk(fach, agent_type, knowledge_type, tsquery,
                                           literal if literal and literal != tsquery else None, k).table_valued(
            sa.column("id", UUID(as_uuid=True)), sa.column("rank", sa.Float), sa.column("quality", sa.Float))
        parts.append(sa.select(_lit("t"), topk.c.id, topk.c.rank, _lit("global"), topk.c.quality))
    return parts
