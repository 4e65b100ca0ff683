"""What an assessment says: per criterion of the Erwartungshorizont met / partly / not found, the evidence
quoted from the answer, a point range — a suggestion for the teacher, never a grade."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Literal, Protocol

from core.materials.klausur import Teilaufgabe

Met = Literal["yes", "partly", "no"]
HINWEIS = "Vorschlag — die Bewertung liegt bei Ihnen."
RULE_ASSESSOR = "regelbasiert"


@dataclass(frozen=True)
class CriterionCheck:
    """One line of the checklist: a criterion of the Erwartungshorizont and what the answer shows of it."""

    kriterium: str
    punkte: int
    met: Met
    evidence: list[str]  # sentences quoted verbatim from the answer
    gefunden: list[str]  # what was recognised: terms, values, formulas
    fehlt: list[str]  # what the criterion names but the answer does not show
    punkte_min: int
    punkte_max: int
    automatisch: bool = True  # False: nothing in the criterion can be checked by rules — the teacher judges


@dataclass(frozen=True)
class Assessment:
    material_id: uuid.UUID
    task_ref: str
    klausur: str
    aufgabe: str
    operator: str
    afb: str
    max_punkte: int
    checks: list[CriterionCheck]
    punkte_min: int
    punkte_max: int
    assessor: str
    notes: list[str] = field(default_factory=list)
    hinweis: str = HINWEIS

    @property
    def spanne(self) -> str:
        """'5–7 von 10 Punkten' (or '7 von 10 Punkten' when both ends agree)."""
        von = (f"{self.punkte_min}" if self.punkte_min == self.punkte_max
               else f"{self.punkte_min}–{self.punkte_max}")
        return f"{von} von {self.max_punkte} {'Punkt' if self.max_punkte == 1 else 'Punkten'}"


class Assessor(Protocol):
    """What checks one answer against one sub-task. The rule-based assessor works offline; an LLM assessor may be
    plugged in later — it would send the pupil's answer to a model provider, so it must stay an explicit choice of
    the school (data protection), never a silent default."""

    name: str

    def check(self, *, task: Teilaufgabe, material: str | None, answer: str) -> list[CriterionCheck]: ...
