"""Parametric task generators for Physik: one module per task family, collected in GENERATORS."""

from core.composition.generators.base import Generator

GENERATORS: tuple[Generator, ...] = ()
