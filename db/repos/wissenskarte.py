"""The Wissenskarte aggregate: everything the map shows for (teacher, agent, Fach) in one SQL round trip.

The baseline (load everything, filter in Python) is kept only for the benchmark that measures the difference.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import AgentKnowledge
from db.repos.knowledge import SUBJECT_WIDE, visible
from db.session import Identity

# One statement, one round trip. Each scope is its own branch so every count is an index(-only) range scan on
# ix_ak_map with an exact prefix (agent_type, fach, scope_type, scope_id) — no scan over all of a subject's rows.
_COUNT = """SELECT knowledge_type, '{scope}' AS scope_type, count(*) AS n FROM agent_knowledge
  WHERE agent_type = :agent AND fach = :fach AND scope_type = '{scope}' AND {cond}
    AND knowledge_type IN ('example', 'good_practice') AND status = 'active' GROUP BY knowledge_type"""

_MAP_SQL = sa.text(
    "WITH scoped AS ("
    + " UNION ALL ".join(
        _COUNT.format(scope=scope, cond=cond)
        for scope, cond in (
            ("teacher", "scope_id = :teacher"),
            ("class", "scope_id = ANY (CAST(:classes AS uuid[]))"),
            ("school", "scope_id = :school"),
            ("global", "scope_id IS NULL"),
        )
    )
    + """
), profile AS (
  SELECT content FROM agent_knowledge
  WHERE agent_type IN (:agent, :wide) AND fach = :fach AND knowledge_type = 'generic'
    AND scope_type = 'global' AND scope_id IS NULL AND status = 'active'
  ORDER BY (agent_type = :agent) DESC, updated_at DESC LIMIT 1
), pref AS (
  SELECT content FROM agent_knowledge
  WHERE agent_type = :agent AND fach = :fach AND scope_type = 'teacher' AND scope_id = :teacher
    AND knowledge_type = 'preference' AND status = 'active'
  ORDER BY updated_at DESC LIMIT 1
), notes AS (
  SELECT scope_type, description, quality_score, updated_at FROM agent_knowledge
  WHERE agent_type IN (:agent, :wide) AND fach = :fach AND knowledge_type = 'note' AND status = 'active'
    AND ((scope_type = 'class' AND scope_id = ANY (CAST(:classes AS uuid[])))
         OR (scope_type = 'school' AND scope_id = :school))
  ORDER BY quality_score DESC, updated_at DESC LIMIT 3
)
SELECT
  (SELECT coalesce(jsonb_agg(jsonb_build_object('type', knowledge_type, 'scope', scope_type, 'n', n)), '[]')
     FROM scoped) AS counts,
  (SELECT content FROM profile) AS profile,
  (SELECT content FROM pref) AS preferences,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('scope', scope_type, 'text', description)), '[]') FROM notes)
     AS notes
"""
)


def wissenskarte_facts(*, db: Session, identity: Identity, agent_type: str, fach: str) -> dict[str, Any]:
    """Everything the Wissenskarte shows, aggregated in SQL in one round trip (index-only counts)."""
    row = db.execute(
        _MAP_SQL,
        {
            "agent": agent_type,
            "wide": SUBJECT_WIDE,
            "fach": fach,
            "teacher": identity.teacher_id,
            "school": identity.school_id,
            "classes": list(identity.class_ids),
        },
    ).one()
    return {"counts": row.counts, "profile": row.profile, "preferences": row.preferences, "notes": row.notes}


def wissenskarte_baseline(*, db: Session, identity: Identity, agent_type: str, fach: str) -> dict[str, Any]:
    """The seed design's approach, kept only as the benchmark baseline: load the teacher's rows, filter in Python."""
    rows = db.execute(sa.select(AgentKnowledge).where(visible(AgentKnowledge, identity))).scalars().all()
    counts: dict[tuple[str, str], int] = {}
    profile = preferences = None
    for r in rows:
        if r.fach != fach or r.status != "active":
            continue
        if r.knowledge_type == "generic" and r.agent_type in (agent_type, SUBJECT_WIDE):
            profile = r.content
        elif r.knowledge_type == "preference" and r.agent_type == agent_type and r.scope_id == identity.teacher_id:
            preferences = r.content
        elif r.knowledge_type in ("example", "good_practice") and r.agent_type == agent_type:
            counts[(r.knowledge_type, r.scope_type)] = counts.get((r.knowledge_type, r.scope_type), 0) + 1
    return {"counts": counts, "profile": profile, "preferences": preferences}
