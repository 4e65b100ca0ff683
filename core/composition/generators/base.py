"""The shape of a parametric task generator: seeded, with numbers a teacher would choose and an exact key.

A generator is one task variant (operator, AFB, grade range). `generate(seed, klassenstufe)` is deterministic; another
seed gives the same task with other numbers, which is what Gruppe A/B uses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from core.materials.blocks import MaterialBlock

AFB = Literal["I", "II", "III"]
Niveau = Literal["Sek I", "gA", "eA"]


@dataclass(frozen=True)
class Schritt:
    """One criterion of the Erwartungshorizont: what the pupil writes or computes, with its points."""

    text: str
    punkte: int


@dataclass(frozen=True)
class GeneratedTask:
    """One generated Teilaufgabe with its exactly computed Erwartungshorizont."""

    generator: str
    seed: int
    klassenstufe: int
    operator: str
    afb: AFB
    text: str
    erwartung: tuple[Schritt, ...]
    minuten: int
    material: MaterialBlock | None = None
    werte: Mapping[str, str] = field(default_factory=dict)  # chosen parameters, formatted with units
    ergebnis: Mapping[str, str] = field(default_factory=dict)  # results, formatted with units

    @property
    def punkte(self) -> int:
        return sum(s.punkte for s in self.erwartung)


Builder = Callable[[random.Random, int], GeneratedTask]


@dataclass(frozen=True)
class Generator:
    """A task variant: what it is about, for whom, and how to build it from a random source."""

    key: str  # "physik.ohm.widerstand": fach.family.variant
    fach: str  # seed key: "mathematik", "physik", "chemie"
    thema: str  # the topic as teachers name it: "Ohmsches Gesetz"
    unterthema: str  # "Widerstand berechnen"
    schlagworte: tuple[str, ...]  # words a request would use to mean this topic
    klassenstufen: tuple[int, int]  # inclusive range of grades
    afb: AFB
    operator: str  # exactly as in the Fach's operator list
    build: Builder
    niveaus: tuple[Niveau, ...] = ("Sek I",)

    def fits(self, klassenstufe: int) -> bool:
        lo, hi = self.klassenstufen
        return lo <= klassenstufe <= hi

    def generate(self, seed: int, klassenstufe: int) -> GeneratedTask:
        """The task for this seed and grade; the same arguments always give the same task."""
        rng = random.Random(f"{self.key}:{seed}:{klassenstufe}")
        task = self.build(rng, klassenstufe)
        return replace(task, generator=self.key, seed=seed, klassenstufe=klassenstufe)
