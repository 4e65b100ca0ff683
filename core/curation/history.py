"""An entry's audit trail as a readable field diff (one line per changed field, full values), and restoring the
version before an edit: the later edits are undone field by field, validated and saved like any edit."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import NotFoundError
from core.curation.content_edit import CONTENT_LABELS, save_content
from core.curation.editing import FIELD_LABELS, save
from core.curation.rows import require_entry, teacher_names
from core.curation.views import Change, FieldChange, Saved, edit_of, field_text, local_time
from db.models import KnowledgeChange, Teacher
from db.repos import curation as repo

ACTION_LABELS: dict[str, str] = {
    "share": "zur Kuration geteilt", "curate.rate": "bewertet", "curate.edit": "bearbeitet",
    "curate.review": "als geprüft markiert", "curate.promote": "befördert (allgemeine Kopie angelegt)",
    "curate.create": "als anonymisierte allgemeine Kopie angelegt", "curate.retire": "ausgemustert",
    "curate.restore": "wieder aktiviert", "curate.merge": "zusammengeführt",
    "curate.restore_version": "ältere Fassung wiederhergestellt",
}
OTHER_LABELS: dict[str, str] = {
    "quality_score": "Qualität", "rating_count": "Bewertungen", "times_used": "Genutzt", "status": "Status",
    "reason": "Grund", "stars": "Sterne", "merged_into": "Zusammengeführt in", "merged_from": "Übernommen von",
    "promoted_to": "Allgemeine Kopie", "promoted_from": "Kopie von", "shared_for_curation": "Zur Kuration geteilt",
    "reviewed": "Geprüft", "anonymised_passages": "Ersetzte Angaben",
}
EDIT_ACTIONS = ("curate.edit", "curate.restore_version")
STATUS = {"active": "aktiv", "retired": "ausgemustert"}


def _value(key: str, value: Any) -> str:
    if key == "status":
        return STATUS.get(str(value), str(value))
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if key in ("merged_into", "merged_from", "promoted_to", "promoted_from") and value:
        return str(value)[:8]
    return field_text(value)


def _fields(c: KnowledgeChange) -> list[FieldChange]:
    before, after = dict(c.before or {}), dict(c.after or {})
    return [FieldChange(feld=FIELD_LABELS.get(k) or CONTENT_LABELS.get(k) or OTHER_LABELS.get(k, k),
                        vorher=_value(k, before[k]) if k in before else "",
                        nachher=_value(k, after[k]) if k in after else "")
            for k in list(dict.fromkeys([*before, *after]))]


def history(db: Session, knowledge_id: uuid.UUID) -> list[Change]:
    changes = repo.changes_of(db=db, knowledge_id=knowledge_id)
    names = teacher_names(db, {c.actor_id for c in changes if c.actor_id})
    return [Change(id=c.id, wann=local_time(c.created_at),
                   wer=names.get(c.actor_id, "System") if c.actor_id else "System",
                   aktion=ACTION_LABELS.get(c.action, c.action), felder=_fields(c),
                   restorable=c.action in EDIT_ACTIONS and bool(c.before))
            for c in changes]


def restore_version(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, change_id: int,
                    expected_revision: int) -> Saved:
    """The entry as it was before edit `change_id`: that edit and every later one undone field by field."""
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id))
    changes = repo.changes_of(db=db, knowledge_id=row.id, limit=500)  # newest first
    ids = [c.id for c in changes]
    if change_id not in ids or changes[ids.index(change_id)].action not in EDIT_ACTIONS:
        raise NotFoundError("Diese Fassung gibt es im Verlauf nicht (mehr). Bitte die Seite neu laden.")
    edit, content = edit_of(row), {}
    current = dict(row.content or {})
    for c in changes[: ids.index(change_id) + 1]:  # newest first: the oldest undone change has the last word
        if c.action in EDIT_ACTIONS:
            for key, value in (c.before or {}).items():
                if hasattr(edit, key) and (edit.is_task or key in ("thema", "description", "kontext")):
                    setattr(edit, key, value)
                else:  # a quiz question's or a three-level task's own parts
                    content[key] = value
    saved = save(db=db, curator=curator, knowledge_id=row.id, expected_revision=expected_revision, edit=edit,
                 action="curate.restore_version")
    if content:
        parts = save_content(db=db, curator=curator, knowledge_id=row.id, expected_revision=saved.revision,
                             content={**current, **content}, action="curate.restore_version")
        if parts.changed:
            saved = Saved(revision=parts.revision, changed=True, message=parts.message if not saved.changed else
                          f"{saved.message.rstrip('.')}, {parts.message.split(': ', 1)[1]}")
    if not saved.changed:
        return saved
    return Saved(revision=saved.revision, changed=True,
                 message=saved.message.replace("Gespeichert", "Ältere Fassung wiederhergestellt", 1))
