"""Pool entries as the curator may touch them: they must exist and be global to edit; the audit trail's names
and the subject's operators are read for the desk."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

from sqlalchemy.orm import Session

from core.app.errors import NotFoundError, UserError
from db.models import AgentKnowledge
from db.repos import curation as repo
from db.repos import knowledge as knowledge_repo
from db.session import Identity, act_as


@contextlib.contextmanager
def system_reads(db: Session) -> Iterator[None]:
    """Curators may not read teachers of other schools under RLS, but the audit trail must name who changed an entry
    and promotion must know the owner's name to remove it. Those reads run as system inside the same transaction;
    the curator's identity is restored before anything is written."""
    identity = db.info["identity"]
    act_as(db, Identity.system())
    try:
        yield
    finally:
        act_as(db, identity)


def teacher_names(db: Session, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    if not ids:
        return {}
    with system_reads(db):
        return repo.teacher_names(db=db, ids=ids)


def subject_operators(db: Session, fach: str) -> dict[str, str]:
    return {str(o["operator"]): str(o["afb"]) for o in knowledge_repo.operator_list(db=db, fach=fach)
            if isinstance(o, dict) and o.get("operator")}


def require_entry(row: AgentKnowledge | None) -> AgentKnowledge:
    if row is None:
        raise NotFoundError("Diesen Eintrag gibt es nicht (mehr) oder er ist nicht zur Kuration freigegeben. "
                            "Bitte die Liste neu laden.")
    return row


def require_global(row: AgentKnowledge, what: str) -> None:
    if row.scope_type != "global":
        raise UserError(f"Diese Aufgabe hat eine Lehrkraft zur Kuration geteilt; sie bleibt ihre eigene und lässt sich "
                        f"nicht {what}. Befördern Sie sie als anonymisierte allgemeine Kopie und bearbeiten Sie "
                        f"dann die Kopie — oder markieren Sie sie als geprüft.")
