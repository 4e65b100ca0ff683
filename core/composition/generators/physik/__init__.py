"""Parametric task generators for Physik: one module per task family, collected in GENERATORS."""

from core.composition.generators.base import Generator
from core.composition.generators.physik import (
    bewegung,
    dichte,
    druck,
    energie,
    kraft,
    ohm,
    optik,
    radioaktivitaet,
    schaltung,
    waerme,
    wurf,
)

GENERATORS: tuple[Generator, ...] = (
    *bewegung.GENERATORS,
    *dichte.GENERATORS,
    *druck.GENERATORS,
    *kraft.GENERATORS,
    *energie.GENERATORS,
    *ohm.GENERATORS,
    *schaltung.GENERATORS,
    *optik.GENERATORS,
    *radioaktivitaet.GENERATORS,
    *waerme.GENERATORS,
    *wurf.GENERATORS,
)
