"""What the learning loop stored for a teacher stays hers to undo: she deletes one of her own good practices (the
tasks a rating made hers), e.g. from the Wissenskarte (decision 071)."""

from __future__ import annotations

import uuid

from core.app.acting import acting
from core.app.errors import NotFoundError
from db.repos import knowledge as knowledge_repo


def forget_good_practice(*, teacher_id: uuid.UUID, knowledge_id: uuid.UUID) -> str:
    """Delete one of the teacher's own good practices; the next Wissenskarte and composition no longer see it."""
    with acting(teacher_id) as (db, teacher, _):
        if not knowledge_repo.delete_own_entry(
            db=db, entry_id=knowledge_id, owner_id=teacher.id, knowledge_type="good_practice"
        ):
            raise NotFoundError("Nur eigene bewährte Aufgaben lassen sich hier löschen.")
    return "Gelöscht: Die Aufgabe gehört nicht mehr zu Ihren bewährten Aufgaben."
