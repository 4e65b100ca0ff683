"""Physik generators for pressure: p = F/A on a floor, judging whether snow or ice carries a person, p = ρ·g·h.

Forces use g = 9,81 N/kg; areas are given in cm² (as pupils measure them) and converted to m² in the key.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import G, aufgabe, gr, gross, grs, stellen_sig, ungefaehr

# --- pressure on a floor ---------------------------------------------------------------------------------------------

_LASTEN = (
    # (situation with {m}, {n} and {A}, pronoun, masses in kg, number of feet, area per foot in cm²)
    ("Ein voll beladener Kleiderschrank mit der Masse {m} steht auf {n} Füßen, die jeweils eine Auflagefläche von "
     "{A} haben.", "er", (80, 100, 120, 150), 4, (4, 5, 6, 8)),
    ("Ein Elefant mit der Masse {m} steht auf vier Beinen. Jede Fußsohle berührt den Boden mit einer Fläche von "
     "etwa {A}.", "er", (3000, 4000, 5000), 4, (1000, 1200, 1500, 2000)),
    ("Eine Frau mit der Masse {m} steht in Schuhen mit Pfennigabsätzen so, dass ihr ganzes Gewicht auf den beiden "
     "Absätzen ruht. Jeder Absatz hat eine Fläche von {A}.", "sie", (50, 60, 70), 2, (1, F(3, 2), 2)),
    ("Ein Auto mit der Masse {m} steht auf vier Reifen, die den Boden jeweils mit einer Fläche von {A} berühren.",
     "es", (1200, 1500, 1800), 4, (150, 200, 250)),
    ("Ein Klavier mit der Masse {m} steht auf vier Rollen mit einer Auflagefläche von je {A}.",
     "es", (200, 250, 300), 4, (2, 3, 4)),
)


def _auflagedruck(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, pronomen, massen, n, flaechen = rng.choice(_LASTEN)
    m, a1 = rng.choice(massen), F(rng.choice(flaechen))
    kraft = m * G
    a_cm2 = n * a1
    a_m2 = a_cm2 / 10000
    p = kraft / a_m2
    situation = vorlage.format(m=gr(m, "kg"), n=n, A=gr(a1, "cm²"))
    text = (f"{situation} Berechne den Druck, den {pronomen} auf den Boden ausübt, in kPa (auf ganze kPa gerundet). "
            "Verwende g = 9,81 N/kg.")
    schritte = [
        (f"Gewichtskraft: F = m · g = {gr(m, 'kg')} · 9,81 N/kg = {gr(kraft, 'N')}.", 1),
        (f"Gesamte Auflagefläche: A = {n} · {gr(a1, 'cm²')} = {gr(a_cm2, 'cm²')} = {gr(a_m2, 'm²')}.", 1),
        ("Ansatz: p = F / A.", 1),
        (f"p = {gr(kraft, 'N')} / {gr(a_m2, 'm²')} {ungefaehr(p, 0)} {gr(p, 'Pa', 0)} ≈ {gr(p / 1000, 'kPa', 0)}.",
         1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"m": gr(m, "kg"), "n": str(n), "A": gr(a1, "cm²")},
                   ergebnis={"p": gr(p / 1000, "kPa", 0)})


# --- does the snow / the ice carry? judging a claim ------------------------------------------------------------------

_UNTERGRUENDE = (
    # (situation with {pmax}, limits in kPa, who (masses in kg), option 1, option 2: (name, areas in m² per option))
    ("Eine frische Schneedecke gibt nach, wenn der Druck größer als etwa {pmax} ist.", (3, 4, 5),
     ("Ein Wanderer mit Rucksack", (70, 80, 90)),
     ("mit Winterstiefeln", (F("0.05"), F("0.06"), F("0.07"))), ("mit Schneeschuhen", (F("0.24"), F("0.30"),
                                                                                          F("0.36")))),
    ("Das Eis auf einem Teich ist so dünn, dass es nur einen Druck von höchstens etwa {pmax} aushält.", (2, 3, 4),
     ("Ein Retter", (60, 70, 80)),
     ("aufrecht stehend", (F("0.04"), F("0.05"), F("0.06"))), ("flach auf dem Eis liegend", (F("0.5"), F("0.6"),
                                                                                            F("0.7")))),
    ("Ein feuchter Ackerboden wird dauerhaft verdichtet, wenn der Druck größer als etwa {pmax} ist.", (50, 60, 70),
     ("Ein Traktor", (5000, 6000, 7000)),
     ("mit normalen Reifen", (F("0.6"), F("0.7"), F("0.8"))), ("mit breiten Niederdruckreifen", (F("1.2"), F("1.4"),
                                                                                                 F("1.6")))),
)


def _einsinken(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        situation, grenzen, (wer, massen), opt1, opt2 = rng.choice(_UNTERGRUENDE)
        pmax, m = F(rng.choice(grenzen)), rng.choice(massen)
        a1, a2 = rng.choice(opt1[1]), rng.choice(opt2[1])
        kraft = m * G
        p1, p2 = kraft / a1 / 1000, kraft / a2 / 1000
        if all(abs(p - pmax) > pmax / 10 for p in (p1, p2)):
            break
    wahr = [p1 <= pmax, p2 <= pmax]
    behauptet = [False, True]
    stimmt = behauptet == wahr
    grenze = gr(pmax, "kPa")
    text = (f"{situation.format(pmax=grenze)} {wer} hat die Masse {gr(m, 'kg')}. {gross(opt1[0])} berührt er "
            f"den Untergrund mit einer Fläche von insgesamt {gr(a1, 'm²')}, {opt2[0]} mit {gr(a2, 'm²')}. Jemand "
            f"behauptet: „{gross(opt2[0])} hält der Untergrund, {opt1[0]} nicht.“ Beurteile diese Aussage mithilfe "
            "einer Rechnung (g = 9,81 N/kg; Drücke in kPa auf eine Nachkommastelle).")

    def vergleich(p: F, name: str) -> str:
        return (f"{name}: {gr(p, 'kPa', 1)} {'<' if p <= pmax else '>'} {grenze}, der Untergrund "
                f"{'hält' if p <= pmax else 'gibt nach'}")

    if stimmt:
        urteil = "Urteil: Die Aussage trifft zu."
    elif wahr[0]:
        urteil = (f"Urteil: Die Aussage ist falsch: Auch {opt1[0]} bleibt der Druck unter der Grenze, der Untergrund "
                  "hält.")
    else:
        urteil = f"Urteil: Die Aussage ist falsch: Auch {opt2[0]} ist der Druck größer als die Grenze."
    schritte = [
        (f"Gewichtskraft: F = m · g = {gr(m, 'kg')} · 9,81 N/kg = {gr(kraft, 'N')}.", 1),
        ("Ansatz: p = F / A.", 1),
        (f"{gross(opt1[0])}: p₁ = {gr(kraft, 'N')} / {gr(a1, 'm²')} {ungefaehr(p1 * 1000, 0)} "
         f"{gr(p1 * 1000, 'Pa', 0)} ≈ {gr(p1, 'kPa', 1)}.", 1),
        (f"{gross(opt2[0])}: p₂ = {gr(kraft, 'N')} / {gr(a2, 'm²')} {ungefaehr(p2 * 1000, 0)} "
         f"{gr(p2 * 1000, 'Pa', 0)} ≈ {gr(p2, 'kPa', 1)}.", 1),
        (f"Vergleich mit der Grenze: {vergleich(p1, opt1[0])}; {vergleich(p2, opt2[0])}.", 1),
        (urteil, 1),
        ("Begründung: Dieselbe Gewichtskraft verteilt sich auf eine größere Fläche, deshalb ist der Druck umso "
         "kleiner, je größer die Auflagefläche ist.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=10, werte={"m": gr(m, "kg"), "A1": gr(a1, "m²"), "A2": gr(a2, "m²"), "p_max": grenze},
                   ergebnis={"p1": gr(p1, "kPa", 1), "p2": gr(p2, "kPa", 1),
                             "urteil": "zutreffend" if stimmt else "falsch"})


# --- hydrostatic pressure --------------------------------------------------------------------------------------------

_TIEFEN = (
    # (situation with {h} and {A}, density of the water in kg/m³, depths in m)
    ("Eine Taucherin taucht in einem Baggersee bis in {h} Tiefe. Ihre Unterwasserkamera hat ein Sichtfenster mit der "
     "Fläche {A}; im Gehäuse herrscht Luftdruck.", 1000, (5, 8, 10, 12, 15, 20)),
    ("Ein Forschungstaucher arbeitet im Meer in {h} Tiefe. Seine Unterwasserlampe hat ein Glasfenster mit der Fläche "
     "{A}; in der Lampe herrscht Luftdruck.", 1030, (10, 15, 20, 25, 30)),
    ("Ein Tauchroboter prüft in einem Stausee die Staumauer in {h} Tiefe. Das Fenster seiner Kamera hat die Fläche "
     "{A}; im Gehäuse herrscht Luftdruck.", 1000, (20, 30, 40, 50, 60)),
)


def _schweredruck(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    situation, rho, tiefen = rng.choice(_TIEFEN)
    h, a_cm2 = rng.choice(tiefen), rng.choice((40, 50, 60, 80, 100))
    p = rho * G * h
    a_m2 = F(a_cm2, 10000)
    kraft = p * a_m2
    masse = rho * h * a_m2  # F / g: the mass of the water column above the window
    text = (f"{situation.format(h=gr(h, 'm'), A=gr(a_cm2, 'cm²'))} Bestimme den Schweredruck des Wassers in dieser "
            f"Tiefe (Dichte des Wassers {gr(rho, 'kg/m³')}, g = 9,81 N/kg) in Pa und in bar sowie die Kraft, mit der "
            "das Wasser zusätzlich zum Luftdruck auf das Fenster drückt. Gib an, welcher Masse diese Kraft als "
            "Gewichtskraft entspräche.")
    schritte = [
        ("Ansatz für den Schweredruck: p = ρ · g · h.", 1),
        (f"p = {gr(rho, 'kg/m³')} · 9,81 N/kg · {gr(h, 'm')} {ungefaehr(p, 0)} {gr(p, 'Pa', 0)}.", 1),
        (f"Umrechnung mit 1 bar = 100 000 Pa: p ≈ {gr(p / 100000, 'bar', 2)}.", 1),
        (f"Ansatz F = p · A mit A = {gr(a_cm2, 'cm²')} = {gr(a_m2, 'm²')}.", 1),
        (f"F = {gr(p, 'Pa', 0)} · {gr(a_m2, 'm²')} {ungefaehr(kraft, stellen_sig(kraft, 3))} {grs(kraft, 'N', 3)}.",
         1),
        (f"Vergleich: m = F / g = {grs(kraft, 'N', 3)} / 9,81 N/kg ≈ {grs(masse, 'kg', 3)}; das Wasser drückt so "
         "stark auf das Fenster wie ein Körper dieser Masse, der darauf liegt.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=9, werte={"rho": gr(rho, "kg/m³"), "h": gr(h, "m"), "A": gr(a_cm2, "cm²")},
                   ergebnis={"p": gr(p, "Pa", 0), "p_bar": gr(p / 100000, "bar", 2), "F": grs(kraft, "N", 3),
                             "m": grs(masse, "kg", 3)})


_SCHLAGWORTE = ("Druck", "Kraft", "Fläche", "Dichte und Druck", "Pascal")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.druck.auflagedruck", "physik", "Druck", "Auflagedruck berechnen",
              (*_SCHLAGWORTE, "p = F/A", "Auflagefläche"), (7, 9), "I", "Berechnen", _auflagedruck),
    Generator("physik.druck.einsinken", "physik", "Druck", "Druck und Auflagefläche im Alltag",
              (*_SCHLAGWORTE, "Schneeschuhe", "Eis", "Auflagefläche"), (8, 9), "III", "Beurteilen", _einsinken),
    Generator("physik.druck.schweredruck", "physik", "Druck", "Schweredruck in Flüssigkeiten",
              (*_SCHLAGWORTE, "Schweredruck", "hydrostatischer Druck", "Tauchen", "p = ρ·g·h"), (9, 10), "II",
              "Bestimmen", _schweredruck),
)
