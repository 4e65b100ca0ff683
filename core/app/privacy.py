"""A teacher's own data: delete all of it, see who on the staff read what (with consent), give and take back
consent for one knowledge item or one conversation."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal
from zoneinfo import ZoneInfo

from core.app.config import get_settings
from core.app.errors import NotFoundError, UserError
from db.access_models import StaffConsent
from db.models import AgentKnowledge, Conversation
from db.repos import privacy as repo
from db.session import Identity, unit_of_work

ObjectType = Literal["knowledge", "conversation"]
TABLE_LABELS = {"conversations": "Gespräche", "generated_materials": "Materialien", "uploads": "hochgeladene Dateien",
                "agent_knowledge": "eigenes Wissen (Notizen, Beispiele, Vorlieben)", "curriculum_chunks":
                "Lehrplanauszüge", "user_memories": "Erinnerungen", "llm_calls": "Protokolle der Modellaufrufe",
                "ratings": "Bewertungen", "session_logs": "Gesprächszusammenfassungen"}


@dataclass(frozen=True)
class AccessEntry:
    when: datetime
    viewer: str
    what: str


@dataclass(frozen=True)
class Consent:
    id: uuid.UUID
    object_type: str
    label: str
    since: datetime


def _local(when: datetime) -> datetime:
    """In the school's time zone (WERKBANK_TIMEZONE), as every time the app shows."""
    return when.astimezone(ZoneInfo(get_settings().werkbank_timezone))


def delete_my_data(teacher_id: uuid.UUID, *, by: str = "Sie selbst (Seite Datenschutz)") -> dict[str, int]:
    """Everything of this teacher, deleted in one transaction (all or nothing). {German label: rows}.

    One row stays in her access log: that (and by whom) it was deleted, with the counts only."""
    with unit_of_work(Identity.system()) as db:
        counts = repo.delete_teacher_data(db=db, teacher_id=teacher_id)
        shown = {TABLE_LABELS[t]: n for t, n in counts.items() if n and t in TABLE_LABELS}
        repo.record_deletion(db=db, teacher_id=teacher_id, by=by, what="Alle Daten gelöscht: " + (
            ", ".join(f"{n} {what}" for what, n in shown.items()) or "es gab nichts"))
    return shown


def my_access_log(teacher_id: uuid.UUID) -> list[AccessEntry]:
    with unit_of_work(Identity.system()) as db:
        return [AccessEntry(when=_local(r.created_at), viewer=r.viewer_label, what=r.what)
                for r in repo.access_log_of(db=db, teacher_id=teacher_id)]


def my_consents(teacher_id: uuid.UUID) -> list[Consent]:
    with unit_of_work(Identity.system()) as db:
        return [Consent(id=c.id, object_type=c.object_type, label=c.label or str(c.object_id),
                        since=_local(c.created_at)) for c in repo.consents_of(db=db, teacher_id=teacher_id)]


def grant_consent(teacher_id: uuid.UUID, object_type: ObjectType, object_id: uuid.UUID) -> None:
    """Let curators and the product team read this one item or conversation (logged on every read)."""
    with unit_of_work(Identity.system()) as db:
        if object_type == "knowledge":
            row = db.get(AgentKnowledge, object_id)
            mine = row is not None and row.owner_id == teacher_id
            label = f"Wissen: {row.knowledge_type}, {row.fach}, {row.thema or 'ohne Thema'}" if mine else ""
        elif object_type == "conversation":
            row = db.get(Conversation, object_id)
            mine = row is not None and row.teacher_id == teacher_id
            label = f"Gespräch: {row.title}" if mine else ""
        else:
            raise UserError("Freigeben lassen sich ein Wissenseintrag oder ein Gespräch.")
        if not mine:
            raise NotFoundError("Diesen Eintrag gibt es nicht (oder er gehört nicht Ihnen).")
        db.add(StaffConsent(teacher_id=teacher_id, object_type=object_type, object_id=object_id, label=label[:300]))


def revoke_consent(teacher_id: uuid.UUID, consent_id: uuid.UUID) -> None:
    with unit_of_work(Identity.system()) as db:
        row = db.get(StaffConsent, consent_id)
        if row is None or row.teacher_id != teacher_id:
            raise NotFoundError("Diese Freigabe gibt es nicht.")
        row.revoked_at = datetime.now(UTC)
