"""Physik generators for the schiefer Wurf (Oberstufe Mechanik): components, height, time of flight and range.

Every intermediate value is printed rounded to two decimals and the next step computes with the printed value, so a
pupil who rounds as shown reaches the same numbers (and the calculation checker can redo each line).
"""

from __future__ import annotations

import math
import random

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import G, aufgabe, gr, runden, z

_G = float(G)

_WUERFE = (
    # (situation with {v}, {a} and {h}, speeds in m/s, angles in degrees, heights in m, what lands)
    ("Eine Kugelstoßerin stößt die Kugel aus {h} Höhe mit {v} unter einem Winkel von {a} gegen die Horizontale ab.",
     (11, 12, 13, 14), (36, 38, 40, 42), (1.8, 2.0, 2.1), "die Kugel"),
    ("Bei einem Abstoß schießt eine Torhüterin den Ball vom Boden mit {v} unter einem Winkel von {a} ab.",
     (18, 20, 22, 24, 25), (32, 35, 40, 45, 50), (0.0,), "der Ball"),
    ("Ein Speerwerfer lässt den Speer in {h} Höhe mit {v} unter einem Winkel von {a} zur Horizontalen los.",
     (22, 24, 25, 26, 28), (32, 34, 36, 38), (1.8, 1.9, 2.0), "der Speer"),
    ("Ein Gartenschlauch wird in {h} Höhe gehalten; das Wasser tritt mit {v} unter einem Winkel von {a} gegen die "
     "Horizontale aus.", (6, 7, 8, 9, 10), (35, 40, 45, 50, 55), (0.8, 1.0, 1.2), "das Wasser"),
    ("Ein Golfball wird vom Boden mit {v} unter einem Winkel von {a} abgeschlagen.",
     (30, 35, 40, 45), (15, 20, 25, 28), (0.0,), "der Golfball"),
)


def _r(x: float) -> float:
    """The value as printed with two decimals (half-up), as the next step uses it."""
    return float(runden(x, 2))


def _schiefer_wurf(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, speeds, winkel, hoehen, was = rng.choice(_WUERFE)
    v0, alpha, h0 = rng.choice(speeds), rng.choice(winkel), rng.choice(hoehen)
    vx = _r(v0 * math.cos(math.radians(alpha)))
    vy = _r(v0 * math.sin(math.radians(alpha)))
    t_s = _r(vy / _G)
    steig = _r(vy * vy / (2 * _G))
    h_max = _r(h0 + steig)
    if h0:
        t_f = _r((vy + math.sqrt(vy * vy + 2 * _G * h0)) / _G)
        flug = (f"Flugzeit aus y(t) = 0: {gr(h0, 'm', 1)} + {gr(vy, 'm/s', 2)} · t − ½ · 9,81 m/s² · t² = 0, "
                f"positive Lösung t = ({z(vy, 2)} + √({z(vy, 2)}² + 2 · 9,81 · {z(h0, 1)})) / 9,81 ≈ "
                f"{gr(t_f, 's', 2)}.")
    else:
        t_f = _r(2 * vy / _G)
        flug = (f"Flugzeit aus y(t) = 0 (Abwurf und Landung auf gleicher Höhe): t = 2 · v₀ᵧ / g = 2 · "
                f"{gr(vy, 'm/s', 2)} / 9,81 m/s² ≈ {gr(t_f, 's', 2)}.")
    weite = _r(vx * t_f)
    hoehe_text = f" in {gr(h0, 'm', 1)} Höhe" if h0 else ""
    situation = vorlage.format(v=gr(v0, "m/s"), a=f"{alpha}°", h=gr(h0, "m", 1))
    text = (f"{situation} Der Luftwiderstand wird vernachlässigt (g = 9,81 m/s²). Bestimme die Komponenten der "
            f"Abwurfgeschwindigkeit, die größte Höhe über dem Boden, die Flugzeit und die Wurfweite, die "
            f"{was} bis zum Aufprall auf dem Boden erreicht.")
    schritte = [
        (f"Zerlegung: v₀ₓ = {gr(v0, 'm/s')} · cos({alpha}°) ≈ {gr(vx, 'm/s', 2)}; v₀ᵧ = {gr(v0, 'm/s')} · "
         f"sin({alpha}°) ≈ {gr(vy, 'm/s', 2)}.", 1),
        (f"Im höchsten Punkt ist vᵧ = 0: Steigzeit t_S = v₀ᵧ / g = {gr(vy, 'm/s', 2)} / 9,81 m/s² ≈ "
         f"{gr(t_s, 's', 2)}.", 1),
        (f"Steighöhe v₀ᵧ² / (2 · g) = ({gr(vy, 'm/s', 2)})² / (2 · 9,81 m/s²) ≈ {gr(steig, 'm', 2)}; größte Höhe "
         f"über dem Boden ≈ {gr(h_max, 'm', 2)}" + (f" ({gr(h0, 'm', 1)} + {gr(steig, 'm', 2)})." if h0 else "."),
         1),
        (flug, 2),
        (f"Wurfweite x = v₀ₓ · t = {gr(vx, 'm/s', 2)} · {gr(t_f, 's', 2)} ≈ {gr(weite, 'm', 2)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=9, werte={"v0": gr(v0, "m/s"), "alpha": f"{alpha}°", "h0": gr(h0, "m", 1),
                                      "ort": hoehe_text or "Boden"},
                   ergebnis={"vx": gr(vx, "m/s", 2), "vy": gr(vy, "m/s", 2), "h_max": gr(h_max, "m", 2),
                             "t_F": gr(t_f, "s", 2), "x_W": gr(weite, "m", 2)})


GENERATORS: tuple[Generator, ...] = (
    Generator("physik.wurf.schiefer_wurf", "physik", "Bewegungsgleichungen und Wurf", "Schiefer Wurf",
              ("schiefer Wurf", "schräger Wurf", "Wurfweite", "Steighöhe", "Abwurfwinkel", "Wurfparabel",
               "Kugelstoßen", "Mechanik"), (11, 11), "II", "Bestimmen", _schiefer_wurf, ("gA", "eA")),
)
