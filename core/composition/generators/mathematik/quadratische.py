"""Quadratische Funktionen und Gleichungen (Klasse 9–10): zeros with the p-q-Formel and the vertex form by
quadratische Ergänzung. Parabolas are built from their zeros or vertex, so the numbers stay friendly.
"""

from __future__ import annotations

import math
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
    wahl,
    zahl_oder_bruch,
)
from core.composition.generators.mathematik.quadratische_anwendungen import build_bruecke, build_durchfahrt, build_wurf

F = Fraction


def _pq_schritte(teil: str, p: Fraction, q: Fraction) -> tuple[list[tuple[str, int]], list[Fraction] | None]:
    """p-q-Formel for x² + px + q = 0: the discriminant, the formula and the zeros (rounded when irrational)."""
    h = -p / 2
    d = h * h - q
    schritte = [(f"{teil}p = {zahl_oder_bruch(p)} und q = {zahl_oder_bruch(q)}; D = (p/2)² − q = {kl(-h)}² − {kl(q)} "
                 f"= {zahl_oder_bruch(d)}.", 1)]
    if d < 0:
        schritte.append((f"{teil}Weil D < 0 ist, gibt es keine Nullstellen; die Parabel liegt ganz oberhalb der "
                         f"x-Achse (Scheitelpunkt {punkt(h, -d, 'S')}).", 2))
        return schritte, None
    wurzel = F(math.isqrt(d.numerator), math.isqrt(d.denominator)) if _quadrat(d) else None
    if wurzel is not None:
        x1, x2 = h - wurzel, h + wurzel
        schritte += [(f"{teil}x₁,₂ = {zahl_oder_bruch(h)} ± √{zahl_oder_bruch(d)} = {zahl_oder_bruch(h)} ± "
                      f"{zahl_oder_bruch(wurzel)}.", 1),
                     (f"{teil}x₁ = {zahl_oder_bruch(h)} − {zahl_oder_bruch(wurzel)} = {zahl_oder_bruch(x1)} und "
                      f"x₂ = {zahl_oder_bruch(h)} + {zahl_oder_bruch(wurzel)} = {zahl_oder_bruch(x2)}.", 1)]
        return schritte, [x1, x2]
    r = math.sqrt(d)
    x1, x2 = F(float(h) - r), F(float(h) + r)
    schritte += [(f"{teil}x₁,₂ = {zahl_oder_bruch(h)} ± √{zahl_oder_bruch(d)}.", 1),
                 (f"{teil}x₁ = {zahl_oder_bruch(h)} − √{zahl_oder_bruch(d)} ≈ {dez(x1, 2)} und x₂ = "
                  f"{zahl_oder_bruch(h)} + √{zahl_oder_bruch(d)} ≈ {dez(x2, 2)}.", 1)]
    return schritte, [x1, x2]


def _quadrat(d: Fraction) -> bool:
    return math.isqrt(d.numerator) ** 2 == d.numerator and math.isqrt(d.denominator) ** 2 == d.denominator


def build_nullstellen(rng: random.Random, klasse: int) -> GeneratedTask:
    r1, r2 = sorted(rng.sample([v for v in range(-6, 9) if v != 0], 2))
    if r1 + r2 == 0:
        r2 += 1
    a = F(1) if klasse <= 9 else wahl(rng, (F(1), F(2), F(-1), F(3), F(1, 2), F(-2)))
    ka = [a, -a * (r1 + r2), a * r1 * r2]
    art_b = wahl(rng, ("irrational", "irrational", "keine"))
    while True:
        p = F(2 * rng.randint(-4, 4))
        q = F(rng.randint(-9, 12))
        d = (p / 2) ** 2 - q
        if (art_b == "keine" and d < 0) or (art_b == "irrational" and d > 0 and not _quadrat(d)):
            break
    kb = [F(1), p, q]
    text = (f"Berechne die Nullstellen der Funktionen f und g. Runde, falls nötig, auf zwei Nachkommastellen.\n"
            f"a) f(x) = {poly(ka)}\nb) g(x) = {poly(kb)}")
    schritte: list[tuple[str, int]] = []
    if a != 1:
        schritte.append((f"a) Normalform: f(x) = 0 durch {kl(a)} geteilt: {poly([1, ka[1] / a, ka[2] / a])} = 0.", 1))
    sa, xa = _pq_schritte("a) ", ka[1] / a, ka[2] / a)
    sb, xb = _pq_schritte("b) ", p, q)
    schritte += sa + sb
    ergebnis = {"a": "; ".join(zahl_oder_bruch(x) for x in xa or []),
                "b": "keine" if xb is None else "; ".join(dez(x, 2) for x in xb)}
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=10,
                   werte={"f": poly(ka), "g": poly(kb)}, ergebnis=ergebnis)


def _verschiebung(a: Fraction, d: Fraction, e: Fraction) -> str:
    if abs(a) == 1:
        form = "Normalparabel" + (", an der x-Achse gespiegelt," if a < 0 else "")
    else:
        form = (f"mit dem Faktor {zahl_oder_bruch(abs(a))} {'gestreckte' if abs(a) > 1 else 'gestauchte'} "
                f"Normalparabel" + (", an der x-Achse gespiegelt," if a < 0 else ""))
    links = f"um {zahl_oder_bruch(abs(d))} nach {'rechts' if d > 0 else 'links'}" if d else ""
    hoch = f"um {zahl_oder_bruch(abs(e))} nach {'oben' if e > 0 else 'unten'}" if e else ""
    wege = " und ".join(w for w in (links, hoch) if w)
    return f"Der Graph ist die {form} {wege} verschoben; sie ist nach {'oben' if a > 0 else 'unten'} geöffnet."


def build_scheitelpunkt(rng: random.Random, klasse: int) -> GeneratedTask:
    a = wahl(rng, (F(1), F(1), F(-1))) if klasse <= 9 else wahl(rng, (F(1), F(-1), F(2), F(-2), F(1, 2), F(-1, 2)))
    d, k = F(wahl(rng, [v for v in range(-5, 7) if v != 0])), F(rng.randint(1, 5))
    e = -a * k * k
    ko = [a, -2 * a * d, a * (d * d - k * k)]
    quadrat = f"(x {'−' if d > 0 else '+'} {zahl_oder_bruch(abs(d))})²"
    vorfaktor = "" if a == 1 else ("−" if a == -1 else f"{zahl_oder_bruch(a)} · ")
    text = (f"Gegeben ist die Funktion f mit f(x) = {poly(ko)}. Bestimme mit quadratischer Ergänzung die "
            "Scheitelpunktform und den Scheitelpunkt. Beschreibe, wie der Graph aus der Normalparabel hervorgeht, "
            "und bestimme die Nullstellen von f.")
    innen = [F(1), ko[1] / a, ko[2] / a]
    schritte: list[tuple[str, int]] = []
    if a != 1:
        schritte.append((f"Faktor {zahl_oder_bruch(a)} ausgeklammert: f(x) = {vorfaktor}({poly(innen)}).", 1))
    schritte += [
        (f"Quadratische Ergänzung: {poly(innen)} = {quadrat} − {kl(d)}²"
         + (f" {'+' if innen[2] > 0 else '−'} {zahl_oder_bruch(abs(innen[2]))}" if innen[2] else "")
         + f" = {quadrat} − {zahl_oder_bruch(k * k)}.", 1),
        (f"Scheitelpunktform: f(x) = {vorfaktor}{quadrat} {'−' if e < 0 else '+'} {zahl_oder_bruch(abs(e))}.", 1),
        (f"Scheitelpunkt {punkt(d, e, 'S')}.", 1),
        (_verschiebung(a, d, e), 1),
        (f"Nullstellen: f(x) = 0 ⇔ {quadrat} = {zahl_oder_bruch(k * k)}, also x − {kl(d)} = ±{zahl_oder_bruch(k)}.", 1),
        (f"x₁ = {zahl_oder_bruch(d)} − {zahl_oder_bruch(k)} = {zahl_oder_bruch(d - k)} und x₂ = "
         f"{zahl_oder_bruch(d)} + {zahl_oder_bruch(k)} = {zahl_oder_bruch(d + k)}; Probe z. B. "
         f"f({zahl_oder_bruch(d + k)}) = {einsetzen(ko, d + k)} = 0.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=10,
                   werte={"f": poly(ko)},
                   ergebnis={"scheitel": punkt(d, e), "nullstellen": f"{zahl_oder_bruch(d - k)}; "
                                                                      f"{zahl_oder_bruch(d + k)}"})


_THEMA = "Quadratische Funktionen und Gleichungen"
_SW = ("quadratische Funktion", "Parabel", "quadratische Gleichung")
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.quadratisch.nullstellen", fach="mathematik", thema=_THEMA,
              unterthema="Nullstellen mit der p-q-Formel berechnen",
              schlagworte=(*_SW, "Nullstellen", "p-q-Formel", "pq-Formel", "Diskriminante", "Normalform"),
              klassenstufen=(9, 10), afb="I", operator="Berechnen", build=build_nullstellen),
    Generator(key="mathematik.quadratisch.scheitelpunkt", fach="mathematik", thema=_THEMA,
              unterthema="Scheitelpunktform mit quadratischer Ergänzung",
              schlagworte=(*_SW, "Scheitelpunkt", "Scheitelpunktform", "quadratische Ergänzung", "Verschiebung"),
              klassenstufen=(9, 10), afb="II", operator="Bestimmen", build=build_scheitelpunkt),
    Generator(key="mathematik.quadratisch.bruecke", fach="mathematik", thema=_THEMA,
              unterthema="Parabelbögen modellieren (Brücke, Tor, Tunnel)",
              schlagworte=(*_SW, "Brücke", "Brückenbogen", "Modellieren", "Anwendung", "Funktionsgleichung"),
              klassenstufen=(9, 10), afb="II", operator="Ermitteln", build=build_bruecke),
    Generator(key="mathematik.quadratisch.wurf", fach="mathematik", thema=_THEMA,
              unterthema="Wurfparabel: Flugbahn beurteilen",
              schlagworte=(*_SW, "Wurfparabel", "Flugbahn", "Wurf", "Scheitelpunkt", "Modellieren"),
              klassenstufen=(9, 10), afb="III", operator="Beurteilen", build=build_wurf),
    Generator(key="mathematik.quadratisch.durchfahrt", fach="mathematik", thema=_THEMA,
              unterthema="Passt das Fahrzeug durch den Parabelbogen?",
              schlagworte=(*_SW, "Tunnel", "Durchfahrtshöhe", "Brückenbogen", "Modellieren", "Anwendung"),
              klassenstufen=(9, 10), afb="III", operator="Beurteilen", build=build_durchfahrt),
)
