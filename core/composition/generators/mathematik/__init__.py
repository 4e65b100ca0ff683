"""Parametric task generators for Mathematik: one module per task family, collected in GENERATORS."""

from core.composition.generators.base import Generator
from core.composition.generators.mathematik import (
    brueche,
    differential,
    exponential,
    gleichungssysteme,
    integral,
    lineare_funktionen,
    prozent,
    pythagoras,
    quadratische,
    stochastik,
    stochastik_oberstufe,
    trigonometrie,
    zinsen,
)

GENERATORS: tuple[Generator, ...] = (
    *brueche.GENERATORS,
    *prozent.GENERATORS,
    *zinsen.GENERATORS,
    *lineare_funktionen.GENERATORS,
    *gleichungssysteme.GENERATORS,
    *quadratische.GENERATORS,
    *pythagoras.GENERATORS,
    *trigonometrie.GENERATORS,
    *exponential.GENERATORS,
    *differential.GENERATORS,
    *integral.GENERATORS,
    *stochastik.GENERATORS,
    *stochastik_oberstufe.GENERATORS,
)
