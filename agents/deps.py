"""Dependencies the agents' tools reach data through: the turn's session, identity and a log of outcomes."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.usage import RunUsage
from sqlalchemy.orm import Session

from core.chat.toolsets import Selection
from core.generation.outcomes import TurnOutcome
from core.materials.request import MaterialRequest
from db.models import Teacher
from db.session import Identity


@dataclass
class TurnContext:
    """One teacher turn: who acts, where results go, and what happened (for the chat service and the UI)."""

    db: Session
    identity: Identity
    teacher: Teacher
    conversation_id: uuid.UUID | None = None
    request_id: str = ""
    on_step: Callable[[str], None] | None = None
    outcomes: list[TurnOutcome] = field(default_factory=list)
    usage: RunUsage | None = None  # the main run's usage, shared with specialist runs
    toolsets: Selection | None = None  # the tool groups offered this turn (None: every tool)
    specialist_traces: list[dict[str, Any]] = field(default_factory=list)  # finished specialist runs' messages

    def step(self, text: str) -> None:
        """Report a step to whoever watches (the chat's live status). A failing display never stops the work."""
        if self.on_step is not None:
            try:
                self.on_step(text)
            except Exception:  # e.g. a UI callback called outside its script thread
                logging.getLogger(__name__).debug("step display failed", exc_info=True)


@dataclass
class SpecialistDeps:
    """What a specialist (klausur | differenzierung | h5p) knows for this request."""

    turn: TurnContext
    agent_type: str
    fach: str
    request: MaterialRequest
    wissenskarte: str
    preferences: dict[str, Any]
    profile: dict[str, Any]
    operators: dict[str, str]
    afb_ziel: dict[str, int]
    afb_quelle: str  # request | preference | profile | answer
    rueckfragen: int = 0
    final: bool = False  # no more Rückfragen allowed: generate with what is known
    # The last composed exam draft ({"klausur": JSON, "hinweise": [...]}): the Klausur specialist's plan refers to it.
    entwurf: dict[str, Any] | None = None
    # What the teacher can do about a shortened draft (core.composition.report.Befund.optionen) and the notes that
    # say what it lacks: the reply offers the options while the stored material still carries one of those notes.
    optionen: list[str] = field(default_factory=list)
    knapp: list[str] = field(default_factory=list)

    def snapshot(self) -> dict[str, Any]:
        """The JSON-able part that a paused session stores (db/identity are re-attached on resume)."""
        return {
            "agent_type": self.agent_type, "fach": self.fach, "wissenskarte": self.wissenskarte,
            "preferences": self.preferences, "afb_ziel": self.afb_ziel, "afb_quelle": self.afb_quelle,
            "rueckfragen": self.rueckfragen, "entwurf": self.entwurf,
        }
