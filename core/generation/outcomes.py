"""What a turn's tools did, as typed records the chat reads back (never dicts with a "kind"), and what a
generation returns to the main agent's tool: a material, a Rückfrage or an error, with the tool's text."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Literal

from core.materials.replies import ClarificationRequest


@dataclass(frozen=True)
class MaterialMade:
    """A material was stored (or, with `repeat`, found again for an answer already processed)."""

    material_id: uuid.UUID
    titel: str
    material_type: str
    files: list[str] = field(default_factory=list)
    validation: list[str] = field(default_factory=list)
    version: int | None = None  # set when this is a new version of an earlier material
    parent_id: uuid.UUID | None = None
    repeat: bool = False


@dataclass(frozen=True)
class Rueckfrage:
    """A specialist asked the teacher; its run waits in the Rückfrage session."""

    session_id: uuid.UUID
    frage: str
    kontext: str
    vorschlaege: list[str]
    agent_type: str

    def question(self) -> dict[str, object]:
        """The question as the chat stores and shows it."""
        return {"frage": self.frage, "kontext": self.kontext, "vorschlaege": list(self.vorschlaege)}


@dataclass(frozen=True)
class SetMade:
    """A combined request (material set) was answered: its materials, waiting sessions and conflicts."""

    material_ids: list[uuid.UUID]
    session_ids: list[uuid.UUID]
    conflicts: list[str]
    zip_name: str | None


@dataclass(frozen=True)
class Feedback:
    """The teacher's feedback on a material was recorded."""

    material_id: str
    text: str


@dataclass(frozen=True)
class TurnError:
    """A tool could not do what was asked; `text` is the German reason the teacher reads."""

    text: str


TurnOutcome = MaterialMade | Rueckfrage | SetMade | Feedback | TurnError


@dataclass
class GenerationOutcome:
    """What one generation step returns: `.text` is the tool return the main agent presents."""

    kind: Literal["material", "rueckfrage", "error"]
    text: str
    material_id: uuid.UUID | None = None
    session_id: uuid.UUID | None = None
    question: ClarificationRequest | None = None
    files: list[str] = field(default_factory=list)
