"""Shared building blocks of the Physik and Chemie generators: exact rounding, German formatting, task assembly.

Chemie imports these too; nothing here knows a topic, so either package can use it without the other's content.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from core.composition.generators.base import AFB, GeneratedTask, Schritt
from core.composition.generators.zahlen import zahl
from core.materials.blocks import MaterialBlock, Tabelle

Zahl = int | Fraction | Decimal | float
G = Fraction("9.81")  # N/kg, as every German Physik book states it


def exakt(x: Zahl) -> Decimal:
    """The value as a Decimal; exact for terminating fractions, 40 significant digits otherwise."""
    if isinstance(x, Decimal):
        return x
    if isinstance(x, int):
        return Decimal(x)
    if isinstance(x, float):
        return Decimal(repr(x))
    with localcontext() as ctx:
        ctx.prec = 40
        return Decimal(x.numerator) / Decimal(x.denominator)


def terminiert(x: Zahl) -> bool:
    """True when the value has a finite decimal expansion (so it can be printed without rounding)."""
    if isinstance(x, int | Decimal):
        return True
    f = Fraction(x)
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def runden(x: Zahl, stellen: int) -> Decimal:
    """Half-up rounding to `stellen` decimals, done exactly."""
    return exakt(x).quantize(Decimal(1).scaleb(-stellen), rounding=ROUND_HALF_UP)


def stellen_sig(x: Zahl, signifikant: int) -> int:
    """Decimals that give `signifikant` significant digits (never negative: 2040 stays 2040)."""
    if x == 0:
        return 0
    return max(0, signifikant - 1 - math.floor(math.log10(abs(float(x)))))


def z(x: Zahl, stellen: int | None = None) -> str:
    """German number: exact when it terminates, else rounded to `stellen` (which is then required)."""
    if stellen is None:
        if not terminiert(x) or isinstance(x, float):
            raise ValueError(f"{x!r} needs rounding: pass stellen")
        return zahl(exakt(x))
    return zahl(runden(x, stellen), stellen)


def zs(x: Zahl, signifikant: int) -> str:
    """German number rounded to significant digits: zs(12.056, 3) -> '12,1'."""
    return z(x, stellen_sig(x, signifikant))


def gr(x: Zahl, einheit: str, stellen: int | None = None) -> str:
    """A quantity with its unit: gr(Fraction(1, 4), 'A') -> '0,25 A'."""
    return f"{z(x, stellen)} {einheit}".strip()


def grs(x: Zahl, einheit: str, signifikant: int) -> str:
    """A quantity rounded to significant digits, with its unit."""
    return f"{zs(x, signifikant)} {einheit}".strip()


def wert(x: Zahl, einheit: str, stellen: int) -> str:
    """The value exactly when it has at most `stellen` decimals ('3924 J'), else rounded to `stellen`."""
    return gr(x, einheit) if runden(x, stellen) == exakt(x) else gr(x, einheit, stellen)


def gleich(x: Zahl, einheit: str, stellen: int) -> str:
    """'= 3924 J' for an exact value, '≈ 2,45 J' for a rounded one: the end of a calculation chain."""
    return f"{ungefaehr(x, stellen)} {wert(x, einheit, stellen)}"


def euro(x: Zahl) -> str:
    """Money as written on a bill: '39 €', '38,50 €', '−88 €' (cents rounded half-up)."""
    return gr(x, "€") if runden(x, 0) == exakt(x) else gr(x, "€", 2)


def ungefaehr(x: Zahl, stellen: int) -> str:
    """'=' when the rounded value is exact, else '≈'."""
    return "=" if runden(x, stellen) == exakt(x) else "≈"


def gross(text: str) -> str:
    """First letter upper-case, the rest untouched ('mit breiten Reifen' -> 'Mit breiten Reifen')."""
    return text[:1].upper() + text[1:]


def tabelle(titel: str, spalten: Sequence[str], zeilen: Sequence[Sequence[str]]) -> MaterialBlock:
    """A table as material (Messreihe, Wertetabelle), 'selbst verfasst'."""
    return MaterialBlock(titel=titel, art="tabelle", tabelle=Tabelle(spalten=list(spalten),
                                                                      zeilen=[list(r) for r in zeilen]),
                         quelle="selbst verfasst")


def aufgabe(*, klassenstufe: int, operator: str, afb: AFB, text: str, schritte: Sequence[tuple[str, int]],
            minuten: int, material: MaterialBlock | None = None, werte: Mapping[str, str] | None = None,
            ergebnis: Mapping[str, str] | None = None) -> GeneratedTask:
    """The GeneratedTask of a builder; key and seed are filled in by Generator.generate."""
    return GeneratedTask(
        generator="", seed=0, klassenstufe=klassenstufe, operator=operator, afb=afb, text=text,
        erwartung=tuple(Schritt(t, p) for t, p in schritte), minuten=minuten, material=material,
        werte=dict(werte or {}), ergebnis=dict(ergebnis or {}),
    )
