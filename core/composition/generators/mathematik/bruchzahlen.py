"""Fractions as Klasse 5–7 writes them: small denominators, expanded and unreduced forms, worked sums.
Shared by the Bruchrechnung generators (calculating, ordering, contexts, pupil errors).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd, lcm

from core.composition.generators.mathematik.bausteine import wahl
from core.composition.generators.zahlen import bruch

NENNER_KLEIN = (2, 3, 4, 5, 6, 8, 10, 12)
NENNER_GROSS = NENNER_KLEIN + (9, 15, 16, 20)
NAMEN = ("Tim", "Lea", "Jonas", "Emma", "Finn", "Mila", "Paul", "Sophie", "Can", "Lina", "Ben", "Aylin")


def nenner_fuer(klasse: int) -> tuple[int, ...]:
    return NENNER_KLEIN if klasse <= 6 else NENNER_GROSS


def zufallsbruch(rng: random.Random, nenner: tuple[int, ...]) -> Fraction:
    """A proper, fully reduced fraction with a denominator from the list."""
    d = wahl(rng, nenner)
    return Fraction(wahl(rng, [k for k in range(1, min(d, 12)) if gcd(k, d) == 1]), d)


def erweitert(f: Fraction, hn: int) -> str:
    """f written with the denominator hn (not reduced): erweitert(3/4, 12) -> '9/12'."""
    text = f"{abs(f.numerator) * hn // f.denominator}/{hn}"
    return ("−" if f < 0 else "") + text


def ungekuerzt(z: int, n: int) -> str:
    return ("−" if z * n < 0 else "") + f"{abs(z)}/{abs(n)}"


def genitiv(name: str) -> str:
    return name + ("'" if name.endswith(("s", "x", "z")) else "s")


def gleichnamig(a: Fraction, b: Fraction, op: str, teil: str) -> tuple[list[tuple[str, int]], Fraction]:
    hn = lcm(a.denominator, b.denominator)
    r = a + b if op == "+" else a - b
    za, zb = a.numerator * hn // a.denominator, b.numerator * hn // b.denominator
    zr = za + zb if op == "+" else za - zb
    ende = f"{ungekuerzt(zr, hn)} = {bruch(r)}" if r.denominator != hn else bruch(r)
    gleich = f"{erweitert(a, hn)} {op} {erweitert(b, hn)}"
    return [(f"{teil} Gleichnamig gemacht: {bruch(a)} {op} {bruch(b)} = {gleich} (Hauptnenner {hn}).", 1),
            (f"{teil} {gleich} = {ende} (vollständig gekürzt).", 1)], r


def paar(rng: random.Random, klasse: int, max_hn: int) -> tuple[Fraction, Fraction]:
    while True:
        a, b = zufallsbruch(rng, nenner_fuer(klasse)), zufallsbruch(rng, nenner_fuer(klasse))
        if a.denominator != b.denominator and lcm(a.denominator, b.denominator) <= max_hn and a != b:
            return a, b
