"""All generators by key, and lookup by Fach, topic words and grade."""

from __future__ import annotations

from functools import cache

from core.composition.generators import chemie, mathematik, physik
from core.composition.generators.base import Generator


@cache
def all_generators() -> dict[str, Generator]:
    out: dict[str, Generator] = {}
    for module in (mathematik, physik, chemie):
        for g in module.GENERATORS:
            if g.key in out:
                raise ValueError(f"duplicate generator key {g.key}")
            out[g.key] = g
    return out


def generator(key: str) -> Generator:
    return all_generators()[key]


def for_fach(fach: str) -> list[Generator]:
    return [g for g in all_generators().values() if g.fach == fach]
