"""Rückfrage sessions: a specialist run that asked the teacher waits in `agent_sessions` until the answer comes.

A session is paused with its full message history, claimed by exactly one answer, finished with the material it
led to, and expires after its time; a history that no longer loads marks it expired — never a crash.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter

from agents.deps import SpecialistDeps, TurnContext
from core.app.config import get_settings
from core.generation.failures import fail
from core.generation.outcomes import GenerationOutcome, MaterialMade, Rueckfrage
from core.generation.prepare import prepare_deps
from core.generation.texts import NAMES, rueckfrage_text
from core.materials.replies import ClarificationRequest
from core.materials.request import MaterialRequest
from db.models import AgentSession
from db.repos import materials as material_repo
from db.repos import sessions as session_repo

SESSION_SCHEMA_VERSION = 1
BUSY = ("Diese Rückfrage wird gerade schon beantwortet (z. B. in einem anderen Fenster). Bitte einen Moment warten "
        "und die Seite neu laden.")


def now() -> datetime:
    return datetime.now(UTC)


def pause_run(turn: TurnContext, deps: SpecialistDeps, question: ClarificationRequest, history: list[Any],
              session_id: uuid.UUID | None) -> GenerationOutcome:
    """Keep the specialist's run (its history as JSON) waiting for the teacher's answer to `question`."""
    deps.rueckfragen += 1
    expires = now() + timedelta(minutes=get_settings().werkbank_session_ttl_minutes)
    fields = dict(message_history=history, request=deps.request.model_dump(mode="json"), deps=deps.snapshot(),
                  question=question.model_dump(mode="json"), status="waiting", clarification_count=deps.rueckfragen,
                  expires_at=expires, schema_version=SESSION_SCHEMA_VERSION)
    if session_id is None:
        row = session_repo.create_session(db=turn.db, teacher_id=turn.teacher.id,
                                          conversation_id=turn.conversation_id, agent_type=deps.agent_type, **fields)
        session_id = row.id
    else:
        session_repo.update_session(db=turn.db, session_id=session_id, **fields)
    turn.outcomes.append(Rueckfrage(session_id=session_id, frage=question.frage, kontext=question.kontext,
                                    vorschlaege=list(question.vorschlaege), agent_type=deps.agent_type))
    turn.step(f"{NAMES[deps.agent_type]} stellt eine Rückfrage")
    return GenerationOutcome(kind="rueckfrage", text=rueckfrage_text(deps.agent_type, question, session_id),
                             session_id=session_id, question=question)


def finish_session(turn: TurnContext, session_id: uuid.UUID, *, answer_hash: str | None,
                   material_id: uuid.UUID | None = None, history: list[Any] | None = None) -> None:
    """The answered session is done (with the material it led to, if any)."""
    values: dict[str, Any] = {"status": "completed", "last_answer_hash": answer_hash}
    if material_id is not None:
        values["result_material_id"] = material_id
    if history is not None:
        values["message_history"] = history
    session_repo.update_session(db=turn.db, session_id=session_id, **values)


def not_waiting(turn: TurnContext, session: AgentSession, digest: str) -> GenerationOutcome | None:
    """Why this session takes no answer now (answered, running, expired), or None when it is waiting.

    The same answer to an answered session finds its material again instead of making a second one.
    """
    if session.status == "completed":
        if session.last_answer_hash == digest and session.result_material_id:
            material = material_repo.get_material(db=turn.db, material_id=session.result_material_id)
            if material is not None:
                turn.outcomes.append(MaterialMade(material_id=material.id, titel=material.titel,
                                                  material_type=material.material_type, repeat=True,
                                                  validation=list(material.validation or [])))
                return GenerationOutcome(kind="material", material_id=material.id,
                                         text=f"MATERIAL_FERTIG [material:{material.id}]\nDiese Antwort wurde schon "
                                              f"verarbeitet: {material.titel} liegt bereits vor.")
        return fail(turn, "Diese Rückfrage ist bereits beantwortet; das Material liegt unter „Meine Materialien“.")
    if session.status == "running":
        return fail(turn, BUSY)
    if session.status in ("expired", "failed") or session.expires_at <= now():
        if session.status == "waiting":
            session_repo.update_session(db=turn.db, session_id=session.id, status="expired")
        ttl = get_settings().werkbank_session_ttl_minutes
        return fail(turn, f"Diese Rückfrage ist abgelaufen (sie gilt {ttl} Minuten). Bitte stellen Sie die Anfrage "
                          "neu — ich beginne sofort.")
    return None


def restore_run(turn: TurnContext, claimed: AgentSession) -> tuple[SpecialistDeps, list[ModelMessage]]:
    """The paused run's deps and history; raises (ValueError, ValidationError, …) when they no longer load."""
    if claimed.schema_version != SESSION_SCHEMA_VERSION:
        raise ValueError(f"Sitzungsformat {claimed.schema_version}")
    history = ModelMessagesTypeAdapter.validate_python(claimed.message_history)
    if not history:  # nothing to resume from: as unloadable as a broken history
        raise ValueError("leerer Verlauf")
    request = MaterialRequest.model_validate(claimed.request)
    return prepare_deps(turn, request, snapshot=claimed.deps), history


def history_json(messages_json: bytes) -> list[Any]:
    """A run's messages as the JSON list a session stores."""
    return json.loads(messages_json)
