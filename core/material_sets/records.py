"""The records of a material set: its open questions, what became of each part, and the combined outcome whose
`.text` the main agent presents (`MATERIALSET_FERTIG …` or `MATERIALSET_RÜCKFRAGEN …` with markers)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Literal

from pydantic_ai import UsageLimitExceeded
from pydantic_ai.exceptions import FallbackExceptionGroup, ModelAPIError, RunTimedOut, UnexpectedModelBehavior

from agents.planner import TYPE_LABELS, Plan, PlanPart
from core.app.errors import UserError
from core.generation.outcomes import GenerationOutcome
from core.materials.request import MaterialRequest
from core.materials.wording import anzahl
from db.models import GeneratedMaterial

HEADER_DONE = "MATERIALSET_FERTIG"
HEADER_QUESTIONS = "MATERIALSET_RÜCKFRAGEN"
# Failures of the model side inside one sub-request: that part is reported, the others still finish.
PART_FAILURES = (ModelAPIError, UnexpectedModelBehavior, FallbackExceptionGroup, RunTimedOut, TimeoutError,
                 UsageLimitExceeded)
SHORT = {"klausur": "Klausur", "differenzierung": "Arbeitsblatt", "h5p": "H5P-Übung"}


class PlanRefused(UserError):
    """The request cannot be planned (impossible values, too many parts, an invalid model plan)."""


@dataclass
class CollectedQuestion:
    """One open question of a combined request: a paused sub-request (with session) or a missing fact (without)."""

    part_key: str
    material_type: str
    frage: str
    kontext: str = ""
    vorschlaege: list[str] = field(default_factory=list)
    session_id: uuid.UUID | None = None

    @property
    def label(self) -> str:
        return TYPE_LABELS.get(self.material_type, self.material_type)


@dataclass
class PartResult:
    """What became of one sub-request."""

    part: PlanPart
    request: MaterialRequest | None = None
    outcome: GenerationOutcome | None = None
    material: GeneratedMaterial | None = None
    error: str | None = None


@dataclass
class CombinedOutcome:
    """The supervisor's result. `.text` is the tool return for the main agent; `.answer` the German answer alone."""

    kind: Literal["materials", "rueckfrage", "error"]
    text: str
    answer: str
    plan: Plan | None = None
    parts: list[PartResult] = field(default_factory=list)
    material_ids: list[uuid.UUID] = field(default_factory=list)
    zip_bytes: bytes | None = None
    zip_name: str | None = None
    conflicts: list[str] = field(default_factory=list)
    questions: list[CollectedQuestion] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def session_ids(self) -> list[uuid.UUID]:
        return [q.session_id for q in self.questions if q.session_id is not None]


def part_name(part: PlanPart) -> str:
    """'Klausur („Stromkreise“)' — a part as the answer names it."""
    return f"{TYPE_LABELS.get(part.material_type, part.material_type)} („{part.thema}“)" if part.thema else \
        TYPE_LABELS.get(part.material_type, part.material_type)


def count_text(count: int, one: str, many: str) -> str:
    return anzahl(count, one, many)
