"""Parametric task generators for Chemie: one module per task family, collected in GENERATORS."""

from core.composition.generators.base import Generator

GENERATORS: tuple[Generator, ...] = ()
