"""Lineare Gleichungen und lineare Funktionen (Klasse 7–8): solving with a check, a line through two points,
a linear model from a Wertetabelle in context, and judging two tariffs.
"""

from __future__ import annotations

import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import (
    aufgabe,
    dez,
    einsetzen,
    kl,
    poly,
    punkt,
    vz,
    wahl,
    zahl_oder_bruch,
)
from core.composition.generators.mathematik.lineare_sachaufgaben import build_tarife, build_wertetabelle


def _gleichung_a(rng: random.Random) -> tuple[str, list[tuple[str, int]], int]:
    while True:
        x = wahl(rng, [v for v in range(-6, 13) if v != 0])
        a, c = rng.randint(2, 9), rng.randint(-4, 7)
        b = rng.randint(-15, 15)
        d = (a - c) * x + b
        if a != c and c != 0 and abs(d) <= 60 and b != 0:
            break
    links, rechts = poly([a, b]), poly([c, d])
    schritte = [
        (f"a) Sortiert: {poly([a - c, 0])} = {dez(d)} {vz(-b)} = {dez(d - b)}.", 1),
        (f"a) x = {dez(d - b)} : {kl(a - c)} = {dez(x)}." if a - c != 1 else
         f"a) Damit ist x = {dez(x)} (Koeffizient 1, keine Division nötig).", 1),
        (f"a) Probe: linke Seite {einsetzen([a, b], x)} = {dez(a * x + b)}, rechte Seite {einsetzen([c, d], x)} = "
         f"{dez(c * x + d)}; L = {{{dez(x)}}}.", 1),
    ]
    return f"{links} = {rechts}", schritte, x


def _gleichung_b(rng: random.Random, klasse: int) -> tuple[str, list[tuple[str, int]], int]:
    faktoren = [2, 3, 4, 5, 6] + ([-2, -3, -4] if klasse >= 8 else [])
    while True:
        x = wahl(rng, [v for v in range(-5, 11) if v != 0])
        p, q = wahl(rng, faktoren), wahl(rng, [v for v in range(-9, 10) if v != 0])
        r, s = rng.randint(-10, 10), rng.randint(-4, 5)
        t = p * (x + q) + r - s * x
        if p != s and s != 0 and abs(t) <= 60 and r != 0:
            break
    links = f"{dez(p)} · ({poly([1, q])}) {vz(r)}"
    rechts = poly([s, t])
    konst = p * q + r
    lhs = p * (x + q) + r
    schritte = [
        (f"b) Klammer aufgelöst und zusammengefasst: {poly([p, konst])} = {rechts}.", 1),
        (f"b) Sortiert: {poly([p - s, 0])} = {dez(t)} {vz(-konst)} = {dez(t - konst)}.", 1),
        (f"b) x = {dez(t - konst)} : {kl(p - s)} = {dez(x)}." if p - s != 1 else
         f"b) Damit ist x = {dez(x)} (Koeffizient 1, keine Division nötig).", 1),
        (f"b) Probe: {dez(p)} · ({dez(x)} {vz(q)}) {vz(r)} = {dez(lhs)} und {einsetzen([s, t], x)} = "
         f"{dez(s * x + t)}; L = {{{dez(x)}}}.", 1),
    ]
    return f"{links} = {rechts}", schritte, x


def build_gleichungen(rng: random.Random, klasse: int) -> GeneratedTask:
    ga, sa, xa = _gleichung_a(rng)
    gb, sb, xb = _gleichung_b(rng, klasse)
    text = f"Löse die Gleichungen und führe jeweils eine Probe durch.\na) {ga}\nb) {gb}"
    return aufgabe(operator="Lösen", afb="I", text=text, schritte=[*sa, *sb], minuten=9,
                   werte={"a": ga, "b": gb}, ergebnis={"a": dez(xa), "b": dez(xb)})


STEIGUNGEN = tuple(Fraction(v) for v in (-3, -2, -1, 1, 2, 3)) + (Fraction(1, 2), Fraction(-1, 2), Fraction(3, 2),
                                                                  Fraction(-3, 2), Fraction(2, 3), Fraction(-1, 3))


def build_zwei_punkte(rng: random.Random, klasse: int) -> GeneratedTask:
    while True:  # points off the axes, so that b and the zero have to be computed
        m, b = wahl(rng, STEIGUNGEN), Fraction(wahl(rng, [v for v in range(-6, 7) if v != 0]))
        x1 = Fraction(m.denominator * rng.randint(-4 // m.denominator, 3 // m.denominator))
        x2 = x1 + m.denominator * rng.randint(1, 3)
        y1, y2 = m * x1 + b, m * x2 + b
        if 0 not in (x1, x2, y1, y2):
            break
    x0 = -b / m
    text = (f"Eine Gerade verläuft durch die Punkte {punkt(x1, y1, 'P')} und {punkt(x2, y2, 'Q')}. Berechne die "
            "Steigung m und den y-Achsenabschnitt b, gib die Funktionsgleichung an und berechne die Nullstelle.")
    schritte = [
        (f"Steigung: m = ({zahl_oder_bruch(y2)} − {kl(y1)}) / ({zahl_oder_bruch(x2)} − {kl(x1)}) = "
         f"{zahl_oder_bruch(y2 - y1)} / {zahl_oder_bruch(x2 - x1)} = {zahl_oder_bruch(m)}.", 1),
        (f"y-Achsenabschnitt mit P: b = {zahl_oder_bruch(y1)} − {kl(m)} · {kl(x1)} = {zahl_oder_bruch(b)}.", 1),
        (f"Funktionsgleichung: y = {poly([m, b])}.", 1),
        (f"Nullstelle: {poly([m, b])} = 0, also x₀ = {kl(-b)} : {kl(m)} = {zahl_oder_bruch(x0)}"
         + (f" ≈ {dez(x0, 2)}" if "/" in zahl_oder_bruch(x0) else "") + ".", 1),
        (f"Probe mit Q: {einsetzen([m, b], x2)} = {zahl_oder_bruch(y2)}.", 1),
    ]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=6,
                   werte={"P": punkt(x1, y1), "Q": punkt(x2, y2)},
                   ergebnis={"m": zahl_oder_bruch(m), "b": zahl_oder_bruch(b), "nullstelle": zahl_oder_bruch(x0)})


_THEMA = "Lineare Funktionen und Gleichungen"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.linear.gleichungen", fach="mathematik", thema="Lineare Gleichungen",
              unterthema="Lineare Gleichungen mit Klammern lösen und Probe",
              schlagworte=("Gleichung", "Gleichungen", "lineare Gleichung", "Äquivalenzumformung", "Probe",
                           "Klammer", "Lösungsmenge"),
              klassenstufen=(7, 8), afb="I", operator="Lösen", build=build_gleichungen),
    Generator(key="mathematik.linear.zwei_punkte", fach="mathematik", thema=_THEMA,
              unterthema="Geradengleichung aus zwei Punkten",
              schlagworte=("lineare Funktion", "Gerade", "Steigung", "y-Achsenabschnitt", "Nullstelle",
                           "Funktionsgleichung", "Steigungsdreieck"),
              klassenstufen=(7, 8), afb="I", operator="Berechnen", build=build_zwei_punkte),
    Generator(key="mathematik.linear.wertetabelle", fach="mathematik", thema=_THEMA,
              unterthema="Lineares Modell aus einer Wertetabelle",
              schlagworte=("lineare Funktion", "Wertetabelle", "Steigung", "Modellieren", "Sachaufgabe",
                           "lineares Wachstum"),
              klassenstufen=(7, 8), afb="II", operator="Bestimmen", build=build_wertetabelle),
    Generator(key="mathematik.linear.tarife", fach="mathematik", thema=_THEMA,
              unterthema="Tarife vergleichen und beurteilen",
              schlagworte=("lineare Funktion", "Tarif", "Tarifvergleich", "Grundgebühr", "Schnittpunkt",
                           "Angebote vergleichen"),
              klassenstufen=(7, 8), afb="III", operator="Beurteilen", build=build_tarife),
)
