"""Lineare Gleichungen und lineare Funktionen (Klasse 7–8): solving with a check, a line through two points,
a linear model from a Wertetabelle in context, and judging two tariffs.
"""

from __future__ import annotations

import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik import bausteine as bs
from core.composition.generators.mathematik.lineare_sachaufgaben import build_tarife, build_wertetabelle


def _gleichung_a(rng: random.Random) -> tuple[str, list[tuple[str, int]], int]:
    while True:
        x = bs.wahl(rng, [v for v in range(-6, 13) if v != 0])
        a, c = rng.randint(2, 9), rng.randint(-4, 7)
        b = rng.randint(-15, 15)
        d = (a - c) * x + b
        if a != c and c != 0 and abs(d) <= 60 and b != 0:
            break
    links, rechts = bs.poly([a, b]), bs.poly([c, d])
    schritte = [
        (f"a) Sortiert: {bs.poly([a - c, 0])} = {bs.dez(d)} {bs.vz(-b)} = {bs.dez(d - b)}.", 1),
        (f"a) x = {bs.dez(d - b)} : {bs.kl(a - c)} = {bs.dez(x)}." if a - c != 1 else
         f"a) Damit ist x = {bs.dez(x)} (Koeffizient 1, keine Division nötig).", 1),
        (f"a) Probe: linke Seite {bs.einsetzen([a, b], x)} = {bs.dez(a * x + b)}, "
         f"rechte Seite {bs.einsetzen([c, d], x)} = {bs.dez(c * x + d)}; L = {{{bs.dez(x)}}}.", 1),
    ]
    return f"{links} = {rechts}", schritte, x


def _gleichung_b(rng: random.Random, klasse: int) -> tuple[str, list[tuple[str, int]], int]:
    faktoren = [2, 3, 4, 5, 6] + ([-2, -3, -4] if klasse >= 8 else [])
    while True:
        x = bs.wahl(rng, [v for v in range(-5, 11) if v != 0])
        p, q = bs.wahl(rng, faktoren), bs.wahl(rng, [v for v in range(-9, 10) if v != 0])
        r, s = rng.randint(-10, 10), rng.randint(-4, 5)
        t = p * (x + q) + r - s * x
        if p != s and s != 0 and abs(t) <= 60 and r != 0:
            break
    links = f"{bs.dez(p)} · ({bs.poly([1, q])}) {bs.vz(r)}"
    rechts = bs.poly([s, t])
    konst = p * q + r
    lhs = p * (x + q) + r
    schritte = [
        (f"b) Klammer aufgelöst und zusammengefasst: {bs.poly([p, konst])} = {rechts}.", 1),
        (f"b) Sortiert: {bs.poly([p - s, 0])} = {bs.dez(t)} {bs.vz(-konst)} = {bs.dez(t - konst)}.", 1),
        (f"b) x = {bs.dez(t - konst)} : {bs.kl(p - s)} = {bs.dez(x)}." if p - s != 1 else
         f"b) Damit ist x = {bs.dez(x)} (Koeffizient 1, keine Division nötig).", 1),
        (f"b) Probe: {bs.dez(p)} · ({bs.dez(x)} {bs.vz(q)}) {bs.vz(r)} = {bs.dez(lhs)} und {bs.einsetzen([s, t], x)} = "
         f"{bs.dez(s * x + t)}; L = {{{bs.dez(x)}}}.", 1),
    ]
    return f"{links} = {rechts}", schritte, x


def build_gleichungen(rng: random.Random, klasse: int) -> GeneratedTask:
    ga, sa, xa = _gleichung_a(rng)
    gb, sb, xb = _gleichung_b(rng, klasse)
    text = f"Löse die Gleichungen und führe jeweils eine Probe durch.\na) {ga}\nb) {gb}"
    return bs.aufgabe(operator="Lösen", afb="I", text=text, schritte=[*sa, *sb], minuten=9,
                      werte={"a": ga, "b": gb}, ergebnis={"a": bs.dez(xa), "b": bs.dez(xb)})


STEIGUNGEN = tuple(Fraction(v) for v in (-3, -2, -1, 1, 2, 3)) + (Fraction(1, 2), Fraction(-1, 2), Fraction(3, 2),
                                                                  Fraction(-3, 2), Fraction(2, 3), Fraction(-1, 3))


def build_zwei_punkte(rng: random.Random, klasse: int) -> GeneratedTask:
    while True:  # points off the axes, so that b and the zero have to be computed
        m, b = bs.wahl(rng, STEIGUNGEN), Fraction(bs.wahl(rng, [v for v in range(-6, 7) if v != 0]))
        x1 = Fraction(m.denominator * rng.randint(-4 // m.denominator, 3 // m.denominator))
        x2 = x1 + m.denominator * rng.randint(1, 3)
        y1, y2 = m * x1 + b, m * x2 + b
        if 0 not in (x1, x2, y1, y2):
            break
    x0 = -b / m
    text = (f"Eine Gerade verläuft durch die Punkte {bs.punkt(x1, y1, 'P')} und {bs.punkt(x2, y2, 'Q')}. Berechne die "
            "Steigung m und den y-Achsenabschnitt b, gib die Funktionsgleichung an und berechne die Nullstelle.")
    schritte = [
        (f"Steigung: m = ({bs.zahl_oder_bruch(y2)} − {bs.kl(y1)}) / ({bs.zahl_oder_bruch(x2)} − {bs.kl(x1)}) = "
         f"{bs.zahl_oder_bruch(y2 - y1)} / {bs.zahl_oder_bruch(x2 - x1)} = {bs.zahl_oder_bruch(m)}.", 1),
        (f"y-Achsenabschnitt mit P: b = {bs.zahl_oder_bruch(y1)} − {bs.kl(m)} · {bs.kl(x1)} = "
         f"{bs.zahl_oder_bruch(b)}.", 1),
        (f"Funktionsgleichung: y = {bs.poly([m, b])}.", 1),
        (f"Nullstelle: {bs.poly([m, b])} = 0, also x₀ = {bs.kl(-b)} : {bs.kl(m)} = {bs.zahl_oder_bruch(x0)}"
         + (f" ≈ {bs.dez(x0, 2)}" if "/" in bs.zahl_oder_bruch(x0) else "") + ".", 1),
        (f"Probe mit Q: {bs.einsetzen([m, b], x2)} = {bs.zahl_oder_bruch(y2)}.", 1),
    ]
    return bs.aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=6,
                      werte={"P": bs.punkt(x1, y1), "Q": bs.punkt(x2, y2)},
                      ergebnis={"m": bs.zahl_oder_bruch(m), "b": bs.zahl_oder_bruch(b),
                                "nullstelle": bs.zahl_oder_bruch(x0)})


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
