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

import importlib

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# 0009's function text (frozen there), with the normalisation changed
_FUNCTION_0009: str = importlib.import_module("db.migrations.versions.0009_global_text_topk").FUNCTION


def upgrade() -> None:
    op.execute(_FUNCTION_0009.replace("), 32)", "), 33)"))


def downgrade() -> None:
    op.execute(_FUNCTION_0009)
