"""Shared building blocks of the Mathematik generators: exact decimal formatting, polynomial terms, task assembly.
Everything here is public so that every family module writes numbers and terms the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from core.composition.generators.base import AFB, GeneratedTask, Schritt
from core.composition.generators.zahlen import bruch, zahl
from core.materials.blocks import MaterialBlock, Tabelle

Zahl = int | Fraction | Decimal
_HOCH = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_TIEF = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def abbrechend(x: Zahl) -> bool:
    """True when x has a finite decimal expansion (denominator only 2s and 5s)."""
    d = Fraction(x).denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def runde(x: Zahl, stellen: int) -> Fraction:
    """x rounded half-up to `stellen` decimals, exactly."""
    f = Fraction(x)
    with localcontext() as ctx:
        ctx.prec = 60
        d = (Decimal(f.numerator) / Decimal(f.denominator)).quantize(Decimal(1).scaleb(-stellen), ROUND_HALF_UP)
    return Fraction(d)


def dez(x: Zahl, stellen: int | None = None) -> str:
    """Exact German decimal: dez(Fraction(1, 40)) -> '0,025'; with `stellen` rounded half-up and zero-padded."""
    f = Fraction(x)
    if stellen is None:
        if not abbrechend(f):
            raise ValueError(f"{f} has no finite decimal expansion; give stellen")
        with localcontext() as ctx:
            ctx.prec = 60
            return zahl(Decimal(f.numerator) / Decimal(f.denominator))
    r = runde(f, stellen)
    return zahl(Decimal(r.numerator) / Decimal(r.denominator), stellen)


def ca(x: Zahl, stellen: int, einheit: str = "") -> str:
    """'= 12,5' when x is exact at that precision, else '≈ 12,47' (with an optional unit)."""
    f = Fraction(x)
    text = f"= {dez(f)}" if runde(f, stellen) == f else f"≈ {dez(f, stellen)}"
    return f"{text} {einheit}".rstrip()


def gr(x: Zahl, einheit: str, stellen: int | None = None) -> str:
    """A quantity with its unit: gr(Fraction(5, 2), 'm') -> '2,5 m'."""
    return f"{dez(x, stellen)} {einheit}".strip()


def euro(x: Zahl) -> str:
    """Money as written on a price tag: whole euros without cents ('80 €'), otherwise with cents ('45,60 €')."""
    f = runde(x, 2)
    return gr(f, "€") if f.denominator == 1 else gr(f, "€", 2)


def prozent(p: Zahl) -> str:
    """A percentage: prozent(Fraction(5, 2)) -> '2,5 %'."""
    return gr(p, "%")


def hoch(n: int) -> str:
    """A superscript exponent: hoch(3) -> '³'."""
    return str(n).translate(_HOCH)


def tief(n: int) -> str:
    """A subscript index: tief(2) -> '₂'."""
    return str(n).translate(_TIEF)


def zahl_oder_bruch(x: Zahl) -> str:
    """Integers and finite decimals as decimals ('0,25'), other rationals as fractions ('1/3')."""
    f = Fraction(x)
    return dez(f) if abbrechend(f) else bruch(f)


def kl(x: Zahl) -> str:
    """A number as an operand: negative or fractional values in parentheses ('(−2)', '(1/3)')."""
    f = Fraction(x)
    text = zahl_oder_bruch(f)
    return f"({text})" if f < 0 or "/" in text else text


def vz(x: Zahl) -> str:
    """A signed addend: vz(3) -> '+ 3', vz(-3) -> '− 3' (for building equations)."""
    f = Fraction(x)
    return f"{'−' if f < 0 else '+'} {zahl_oder_bruch(abs(f))}"


def _monom(c: Fraction, n: int, var: str, brueche: bool = False) -> str:
    """|c|·var^n as written in school: '3x²', 'x', '0,05x²', 'x³/3', '2x³/3' (with `brueche` also '3x⁴/4')."""
    c = abs(c)
    potenz = "" if n == 0 else var + (hoch(n) if n > 1 else "")
    if n == 0:
        return bruch(c) if brueche else zahl_oder_bruch(c)
    if c == 1:
        return potenz
    if abbrechend(c) and not (brueche and c.denominator > 1):
        return dez(c) + potenz
    zaehler = "" if c.numerator == 1 else str(c.numerator)
    return f"{zaehler}{potenz}/{c.denominator}"


def poly(koeff: Sequence[Zahl], var: str = "x", brueche: bool = False) -> str:
    """A polynomial from its coefficients, highest degree first: poly([1, -6, 5]) -> 'x² − 6x + 5'.

    With `brueche` non-integer coefficients are written as fractions ('3x⁴/4') as usual for Stammfunktionen.
    """
    grad = len(koeff) - 1
    teile: list[str] = []
    for i, c in enumerate(koeff):
        f = Fraction(c)
        if f == 0:
            continue
        m = _monom(f, grad - i, var, brueche)
        if not teile:
            teile.append(("−" if f < 0 else "") + m)
        else:
            teile.append(("− " if f < 0 else "+ ") + m)
    return " ".join(teile) if teile else "0"


def einsetzen(koeff: Sequence[Zahl], x: Zahl, brueche: bool = False) -> str:
    """The polynomial with x substituted, as a checkable calculation: '2 · 3³ − 4 · 3 + 1'."""
    zahl_text = bruch if brueche else zahl_oder_bruch
    grad = len(koeff) - 1
    basis = kl(x)
    teile: list[str] = []
    for i, c in enumerate(koeff):
        f, n = Fraction(c), grad - i
        if f == 0:
            continue
        potenz = basis + (hoch(n) if n > 1 else "")
        if n == 0:
            m = zahl_text(abs(f))
        elif abs(f) == 1:
            m = potenz
        else:
            m = f"{zahl_text(abs(f))} · {potenz}"
        if not teile:
            teile.append(("−" if f < 0 else "") + m)
        else:
            teile.append(("− " if f < 0 else "+ ") + m)
    return " ".join(teile) if teile else "0"


def wert(koeff: Sequence[Zahl], x: Zahl) -> Fraction:
    """The polynomial's value at x, exactly (Horner)."""
    acc = Fraction(0)
    for c in koeff:
        acc = acc * Fraction(x) + Fraction(c)
    return acc


def ableitung(koeff: Sequence[Zahl]) -> list[Fraction]:
    """Coefficients of the derivative."""
    grad = len(koeff) - 1
    return [Fraction(c) * (grad - i) for i, c in enumerate(koeff[:-1])] or [Fraction(0)]


def stammfunktion(koeff: Sequence[Zahl]) -> list[Fraction]:
    """Coefficients of the antiderivative with constant 0."""
    grad = len(koeff) - 1
    return [Fraction(c) / (grad - i + 1) for i, c in enumerate(koeff)] + [Fraction(0)]


def punkt(x: Zahl, y: Zahl, name: str = "") -> str:
    """A point as written in German schools: 'S(3|−4)'."""
    return f"{name}({zahl_oder_bruch(x)}|{zahl_oder_bruch(y)})"


def wahl(rng: random.Random, optionen: Sequence):
    """One option, chosen by the task's random source (a named wrapper keeps the builders readable)."""
    return optionen[rng.randrange(len(optionen))]


def tabelle(titel: str, spalten: Sequence[str], zeilen: Iterable[Sequence[str]]) -> MaterialBlock:
    """A table as task material."""
    return MaterialBlock(titel=titel, art="tabelle", tabelle=Tabelle(spalten=list(spalten),
                                                                     zeilen=[list(z) for z in zeilen]),
                         quelle="selbst verfasst")


def aufgabe(*, operator: str, afb: AFB, text: str, schritte: Sequence[tuple[str, int]], minuten: int,
            material: MaterialBlock | None = None, werte: Mapping[str, str] | None = None,
            ergebnis: Mapping[str, str] | None = None) -> GeneratedTask:
    """A generated task; generator, seed and grade are filled in by `Generator.generate`."""
    return GeneratedTask(generator="", seed=0, klassenstufe=0, operator=operator, afb=afb, text=text,
                         erwartung=tuple(Schritt(t, p) for t, p in schritte), minuten=minuten, material=material,
                         werte=dict(werte or {}), ergebnis=dict(ergebnis or {}))
