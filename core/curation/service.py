"""What the Good-Practices and Wissenskarte pages call: each desk action in one unit of work acting as the
curator; a teacher sharing a good practice for curation."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.curation.content_edit import LEVEL_PARTS, LEVELS, save_content
from core.curation.duplicates import DUPLICATE_SIMILARITY, duplicates, merge
from core.curation.editing import merge_edits, save
from core.curation.histogram import HISTOGRAM_SPEC, default_fach, histogram, histogram_caption
from core.curation.history import restore_version
from core.curation.promotion import promote
from core.curation.queue import entry_view, list_entries
from core.curation.review import mark_reviewed, rate, set_retired
from core.curation.subjects import OperatorList, operator_list, save_operators
from core.curation.views import (
    AFB_STUFEN,
    AGENT_FILTER,
    ORDERS,
    VIEWS,
    DuplicatePage,
    DuplicatePair,
    EntryEdit,
    EntryView,
    FieldConflict,
    HistogramBar,
    Promoted,
    QueueFilter,
    QueuePage,
    Saved,
)
from core.materials.faecher import FAECHER
from db.models import AgentKnowledge
from db.repos import curation as repo

__all__ = [
    "AFB_STUFEN", "AGENT_FILTER", "DUPLICATE_SIMILARITY", "FAECHER", "HISTOGRAM_SPEC", "LEVELS", "LEVEL_PARTS",
    "ORDERS", "VIEWS", "DuplicatePage", "DuplicatePair", "EntryEdit", "EntryView", "FieldConflict", "HistogramBar",
    "OperatorList", "Promoted", "QueueFilter", "QueuePage", "Saved", "default_fach", "entry_detail",
    "histogram_caption", "merge_entries", "near_duplicates", "promote_entry", "quality_histogram", "queue_page",
    "rate_entry", "rebase_edit", "restore_entry_version", "retire_entry", "review_entry", "save_entry",
    "save_entry_content", "save_subject_operators", "share_for_curation", "subject_operators",
]

T = TypeVar("T")


def _as_curator(curator_id: uuid.UUID, service: Callable[..., T], **kwargs: Any) -> T:
    with acting(curator_id) as (db, teacher, _):
        if teacher.role != "curator":
            raise UserError("Kuratieren dürfen nur Kuratorinnen und Kuratoren. Bitte links eine passende Person "
                            "wählen.")
        return service(db=db, curator=teacher, **kwargs)


def queue_page(*, curator_id: uuid.UUID, filters: QueueFilter, page: int = 1) -> QueuePage:
    return _as_curator(curator_id, lambda db, curator: list_entries(db=db, filters=filters, page=page)[0])


def entry_detail(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID) -> EntryView:
    return _as_curator(curator_id, lambda db, curator: entry_view(db=db, knowledge_id=knowledge_id))


def save_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, expected_revision: int, edit: EntryEdit,
               base: EntryEdit | None = None) -> Saved:
    """Save an edit; `base` is the version the form was opened with (a stale save of other fields is merged)."""
    return _as_curator(curator_id, save, knowledge_id=knowledge_id, expected_revision=expected_revision, edit=edit,
                       base=base)


def save_entry_content(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, expected_revision: int,
                       content: dict[str, Any]) -> Saved:
    """Save the question and answers of a quiz entry, or the levels of a three-level task."""
    return _as_curator(curator_id, save_content, knowledge_id=knowledge_id, expected_revision=expected_revision,
                       content=content)


def rebase_edit(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, base: EntryEdit,
                mine: EntryEdit) -> tuple[EntryView, EntryEdit, list[FieldConflict]]:
    """After a conflict: the stored version now, my changes laid over it, and the fields both of us changed."""
    view = entry_detail(curator_id=curator_id, knowledge_id=knowledge_id)
    merged, conflicts = merge_edits(base, mine, view.edit)
    return view, merged, conflicts


def restore_entry_version(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, change_id: int,
                          expected_revision: int) -> Saved:
    return _as_curator(curator_id, restore_version, knowledge_id=knowledge_id, change_id=change_id,
                       expected_revision=expected_revision)


def rate_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, stars: int) -> str:
    return _as_curator(curator_id, rate, knowledge_id=knowledge_id, stars=stars)


def review_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID) -> str:
    return _as_curator(curator_id, mark_reviewed, knowledge_id=knowledge_id)


def retire_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, retired: bool = True, reason: str = "") -> str:
    return _as_curator(curator_id, set_retired, knowledge_id=knowledge_id, retired=retired, reason=reason)


def promote_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID) -> Promoted:
    return _as_curator(curator_id, promote, knowledge_id=knowledge_id)


def near_duplicates(*, curator_id: uuid.UUID, filters: QueueFilter, page: int = 1) -> DuplicatePage:
    return _as_curator(curator_id, lambda db, curator: duplicates(db=db, filters=filters, page=page))


def merge_entries(*, curator_id: uuid.UUID, keep_id: uuid.UUID, drop_id: uuid.UUID) -> str:
    return _as_curator(curator_id, merge, keep_id=keep_id, drop_id=drop_id)


def quality_histogram(*, curator_id: uuid.UUID, agent_type: str | None = None,
                      fach: str | None = None) -> list[HistogramBar]:
    return _as_curator(curator_id, lambda db, curator: histogram(db=db, agent_type=agent_type, fach=fach))


def subject_operators(*, curator_id: uuid.UUID, fach: str) -> OperatorList:
    return _as_curator(curator_id, lambda db, curator: operator_list(db=db, fach=fach))


def save_subject_operators(*, curator_id: uuid.UUID, fach: str, rows: list[dict[str, Any]],
                           expected_revision: int) -> str:
    return _as_curator(curator_id, save_operators, fach=fach, rows=rows, expected_revision=expected_revision)


def share_for_curation(*, teacher_id: uuid.UUID, knowledge_id: uuid.UUID) -> str:
    """A teacher offers one of their own good practices to the curators (it stays theirs until promoted)."""
    with acting(teacher_id) as (db, teacher, _):
        row = db.get(AgentKnowledge, knowledge_id)
        if row is None or row.owner_id != teacher.id or row.scope_type != "teacher":
            raise NotFoundError("Nur eigene bewährte Aufgaben können zur Kuration geteilt werden.")
        if row.knowledge_type != "good_practice":
            raise UserError("Zur Kuration lassen sich nur bewährte Aufgaben teilen.")
        if row.shared_for_curation:
            return "Diese Aufgabe ist bereits zur Kuration geteilt."
        row.shared_for_curation = True
        row.revision += 1
        repo.add_change(db=db, knowledge_id=row.id, actor_id=teacher.id, action="share",
                        before={"shared_for_curation": False}, after={"shared_for_curation": True})
        return "Geteilt: Die Kuratorinnen und Kuratoren prüfen die Aufgabe; sie bleibt bis dahin Ihre eigene."
