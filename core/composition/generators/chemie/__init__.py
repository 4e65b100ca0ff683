"""Parametric task generators for Chemie: one module per task family, collected in GENERATORS."""

from core.composition.generators.base import Generator
from core.composition.generators.chemie import gleichgewicht, konzentration, ph, stoechiometrie, stoffmenge

GENERATORS: tuple[Generator, ...] = (
    *stoffmenge.GENERATORS,
    *konzentration.GENERATORS,
    *ph.GENERATORS,
    *stoechiometrie.GENERATORS,
    *gleichgewicht.GENERATORS,
)
