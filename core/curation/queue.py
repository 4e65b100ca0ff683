"""The curation queue and one entry's detail: a page of the pool for the filters (newest first, paged and
counted in SQL), the entry with its audit trail."""

from __future__ import annotations

import math
import uuid

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.curation.history import history
from core.curation.rows import require_entry, subject_operators
from core.curation.views import (
    AGENT_TYPES,
    ORDERS,
    VIEWS,
    EntryView,
    QueueFilter,
    QueuePage,
    card_of,
    edit_of,
)
from core.materials.faecher import FAECHER
from db.models import AgentKnowledge
from db.repos import curation as repo

PAGE_SIZE = 20


def agent_types(agent_type: str | None) -> list[str]:
    if agent_type and agent_type not in AGENT_TYPES:
        raise UserError(f"Unbekannter Typ „{agent_type}“. Möglich sind: {', '.join(AGENT_TYPES.values())}.")
    return [agent_type] if agent_type else list(AGENT_TYPES)


def check_filter(filters: QueueFilter) -> None:
    if filters.fach not in FAECHER:
        raise UserError(f"Unbekanntes Fach „{filters.fach}“. Bekannte Fächer: {', '.join(FAECHER.values())}.")
    if filters.view not in VIEWS:
        raise UserError(f"Unbekannte Ansicht „{filters.view}“.")
    if filters.order not in ORDERS:
        raise UserError(f"Unbekannte Sortierung „{filters.order}“.")
    if len(filters.text) > 200:
        raise UserError("Der Suchtext ist zu lang (höchstens 200 Zeichen).")


def list_entries(*, db: Session, filters: QueueFilter, page: int = 1, page_size: int = PAGE_SIZE
                 ) -> tuple[QueuePage, list[AgentKnowledge]]:
    """One page of the pool for these filters (by priority or newest first), paged and counted in SQL."""
    check_filter(filters)
    args = {"fach": filters.fach, "agent_types": agent_types(filters.agent_type), "view": filters.view,
            "text": filters.text.strip() or None}
    total = repo.count_entries(db=db, **args)
    pages = max(1, math.ceil(total / page_size))
    page = min(max(1, page), pages)
    rows = repo.list_entries(db=db, **args, limit=page_size, offset=(page - 1) * page_size, order=filters.order)
    return QueuePage(entries=[card_of(r) for r in rows], total=total, page=page, pages=pages), rows


def entry_view(*, db: Session, knowledge_id: uuid.UUID) -> EntryView:
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id))
    changes = history(db, row.id)
    content = dict(row.content or {})
    merged = content.get("zusammengefuehrt_in")
    reason = repo.retire_reason(db=db, knowledge_id=row.id) if row.status == "retired" else None
    return EntryView(
        card=card_of(row), revision=row.revision, fach=row.fach, agent_type=row.agent_type, edit=edit_of(row),
        content=content, operators=subject_operators(db, row.fach), editable=row.scope_type == "global",
        shared=row.scope_type != "global", retired=row.status == "retired",
        promoted_to=repo.promoted_copy(db=db, knowledge_id=row.id), history=changes, retired_reason=reason or "",
        merged_into=uuid.UUID(merged) if isinstance(merged, str) else None,
    )
