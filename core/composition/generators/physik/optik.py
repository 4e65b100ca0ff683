"""Physik generators for optics: refraction with Snellius' law, a refraction Messreihe, the lens equation, and
judging whether a projector fits a room.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, runden, tabelle, terminiert, ungefaehr, z

_MEDIEN = (("Wasser", F("1.33")), ("Glas", F("1.50")), ("Plexiglas", F("1.49")), ("Diamant", F("2.42")),
           ("Eis", F("1.31")))


def _sin(grad: float) -> float:
    return math.sin(math.radians(grad))


def _asin_grad(x: float) -> float:
    return math.degrees(math.asin(x))


# --- refraction angle ------------------------------------------------------------------------------------------------


def _brechungswinkel(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    name, n = rng.choice(_MEDIEN)
    hinein = rng.random() < 0.7
    if hinein:
        alpha = rng.choice((20, 30, 35, 40, 45, 50, 60, 70))
        sin_b = _sin(alpha) / float(n)
        text = (f"Ein Lichtstrahl trifft unter einem Einfallswinkel von {alpha}° aus Luft auf {name} (Brechzahl "
                f"n = {z(n, 2)}). Bestimme den Brechungswinkel (auf eine Nachkommastelle) und beschreibe, wie der "
                "Strahl gebrochen wird.")
        gesetz = "Brechungsgesetz nach Snellius: sin α / sin β = n (mit n_Luft ≈ 1), umgestellt sin β = sin α / n."
        einsetzen = f"sin β = sin {alpha}° / {z(n, 2)} ≈ {z(sin_b, 3)}."
        richtung = f"Der Strahl wird zum Lot hin gebrochen, weil {name} optisch dichter ist als Luft."
    else:
        grenze = _asin_grad(1 / float(n))
        alpha = rng.choice([a for a in (10, 15, 20, 25, 30, 35, 40) if a < grenze - 5])
        sin_b = _sin(alpha) * float(n)
        text = (f"Ein Lichtstrahl verlässt {name} (Brechzahl n = {z(n, 2)}) und trifft unter einem Einfallswinkel von "
                f"{alpha}° auf die Grenzfläche zur Luft. Bestimme den Brechungswinkel in Luft (auf eine "
                "Nachkommastelle) und beschreibe, wie der Strahl gebrochen wird.")
        gesetz = "Brechungsgesetz nach Snellius: n · sin α = sin β (mit n_Luft ≈ 1)."
        einsetzen = f"sin β = {z(n, 2)} · sin {alpha}° ≈ {z(sin_b, 3)}."
        richtung = f"Der Strahl wird vom Lot weg gebrochen, weil Luft optisch dünner ist als {name}."
    beta = _asin_grad(sin_b)
    schritte = [
        (gesetz, 1),
        ("Winkel werden zum Lot gemessen; gesucht ist β.", 1),
        (einsetzen, 1),
        (f"β ≈ {z(beta, 1)}°.", 1),
        (richtung, 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte={"alpha": f"{alpha}°", "n": z(n, 2), "richtung": "hinein" if hinein else "heraus"},
                   ergebnis={"beta": f"{z(beta, 1)}°"})


# --- refraction Messreihe --------------------------------------------------------------------------------------------

_STOFFE_N = (("Wasser", F("1.33")), ("Plexiglas", F("1.49")), ("Flintglas", F("1.65")), ("Saphir", F("1.77")),
             ("Diamant", F("2.42")))
_KOERPER_N = ("ein Halbzylinder aus einem unbekannten durchsichtigen Stoff", "ein durchsichtiger Körper mit "
              "halbrunder Grundfläche", "ein geschliffener, durchsichtiger Halbzylinder aus der Sammlung")


def _brechzahl(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    stoff, n = rng.choice(_STOFFE_N)
    koerper = "ein mit einer klaren Flüssigkeit gefülltes Halbrundgefäß" if stoff == "Wasser" else \
        rng.choice(_KOERPER_N)
    start, schritt = rng.choice(((20, 10), (25, 10), (30, 10), (20, 15), (30, 15)))
    alphas = [start + schritt * k for k in range(4)]
    betas = [F(round(2 * _asin_grad(_sin(a) / float(n)))) / 2 for a in alphas]
    quotienten = [runden(_sin(a) / _sin(float(b)), 2) for a, b in zip(alphas, betas, strict=True)]
    mittel = sum(quotienten) / len(quotienten)
    nah = min(_STOFFE_N, key=lambda s: abs(s[1] - F(mittel)))
    material = tabelle("M1 Messreihe: Lichtbrechung beim Übergang von Luft in den Stoff",
                       ["Einfallswinkel α", "Brechungswinkel β"], [[f"{a}°", f"{z(b, 1)}°"] for a, b in
                                                                    zip(alphas, betas, strict=True)])
    tabelle_n = ", ".join(f"{s} {z(v, 2)}" for s, v in _STOFFE_N)
    text = (f"Im Unterricht wird {koerper} untersucht: Ein Lichtstrahl fällt aus Luft unter verschiedenen Winkeln ein, "
            "gemessen werden die Brechungswinkel (Material). Werte die Messreihe aus: Bestimme die Brechzahl des "
            "Stoffs als Mittelwert (auf zwei Nachkommastellen) und ermittle, um welchen Stoff es sich handeln könnte "
            f"(Brechzahlen: {tabelle_n}).")
    liste = "; ".join(z(q, 2) for q in quotienten)
    schritte = [
        ("Ansatz nach Snellius: n = sin α / sin β.", 1),
        (f"Erster Messwert: n = sin {alphas[0]}° / sin {z(betas[0], 1)}° ≈ {z(quotienten[0], 2)}.", 1),
        (f"Alle Quotienten: {liste}.", 1),
        (f"Mittelwert: n ≈ ({' + '.join(z(q, 2) for q in quotienten)}) / 4 ≈ {z(mittel, 2)}.", 1),
        (f"Der Wert passt am besten zu {nah[0]} (n = {z(nah[1], 2)}).", 1),
        ("Die Quotienten schwanken leicht, weil die Winkel nur auf 0,5° genau abgelesen werden können; die Mittelung "
         "verringert diesen Fehler.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Auswerten", afb="II", text=text, schritte=schritte,
                   minuten=10, material=material,
                   werte={"alpha": " ".join(str(a) for a in alphas), "beta": " ".join(z(b, 1) for b in betas)},
                   ergebnis={"n": z(mittel, 2), "stoff": nah[0]})


# --- lens equation ---------------------------------------------------------------------------------------------------

_GEGENSTAENDE = (
    ("Auf einer optischen Bank steht eine Kerze, deren Flamme {G} hoch ist, {g} vor einer Sammellinse mit der "
     "Brennweite {f}."),
    ("Ein leuchtender LED-Pfeil ({G} hoch) steht {g} vor einer Sammellinse mit der Brennweite {f}."),
    ("Im Schülerversuch wird ein {G} hohes Dia mit einer Lampe beleuchtet; es steht {g} vor einer Sammellinse mit "
     "der Brennweite {f}."),
)


def _linse(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        f = rng.choice((5, 6, 8, 10, 12, 15, 20))
        d = rng.choice([t for t in range(1, f * f + 1) if (f * f) % t == 0])
        g, b = f + d, f + F(f * f, d)
        groesse = F(rng.choice((1, 2, 3, 4, 5)))
        bild = groesse * b / g
        if g <= 60 and b <= 120 and terminiert(bild) and runden(bild, 2) == bild:
            break
    vorlage = rng.choice(_GEGENSTAENDE)
    text = (f"{vorlage.format(G=gr(groesse, 'cm'), g=gr(g, 'cm'), f=gr(f, 'cm'))} Bestimme, in welchem Abstand "
            "hinter der Linse ein scharfes Bild auf einem Schirm entsteht, wie groß es ist und welche Eigenschaften es "
            "hat.")
    art = "vergrößert" if b > g else ("verkleinert" if b < g else "gleich groß")
    schritte = [
        ("Linsengleichung: 1/f = 1/g + 1/b.", 1),
        ("Umgestellt: b = f · g / (g − f).", 1),
        (f"b = {gr(f, 'cm')} · {gr(g, 'cm')} / ({gr(g, 'cm')} − {gr(f, 'cm')}) = {gr(b, 'cm')}.", 1),
        ("Abbildungsmaßstab: B / G = b / g, also B = G · b / g.", 1),
        (f"B = {gr(groesse, 'cm')} · {gr(b, 'cm')} / {gr(g, 'cm')} = {gr(bild, 'cm')}.", 1),
        (f"Eigenschaften: reelles, umgekehrtes und seitenvertauschtes, {art}es Bild.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=8, werte={"f": gr(f, "cm"), "g": gr(g, "cm"), "G": gr(groesse, "cm")},
                   ergebnis={"b": gr(b, "cm"), "B": gr(bild, "cm")})


# --- does the projector fit the room? --------------------------------------------------------------------------------


def _projektor(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        panel, f = F(rng.choice((16, 20, 24))), F(rng.choice((20, 24, 25, 30)))  # mm
        breite = F(rng.choice((16, 20, 24, 30)), 10)  # m
        platz = F(rng.choice((25, 30, 35, 40, 45, 50)), 10)  # m
        v = breite * 1000 / panel
        b = f * (1 + v) / 1000  # m
        if terminiert(v) and runden(v, 1) == v and abs(b - platz) > platz / 20:
            break
    passt = b <= platz
    b_max = panel * (platz * 1000 / f - 1) / 1000
    ort = rng.choice(("Für einen Filmabend in der Aula", "Für eine Präsentation im Klassenraum",
                      "Für ein Public Viewing im Jugendzentrum"))
    text = (f"{ort} soll ein Beamer ein {gr(breite, 'm', 1)} breites Bild an die Wand werfen. Im Beamer erzeugt ein "
            f"{gr(panel, 'mm')} breites Display das Bild, das Objektiv ist eine Sammellinse mit f = {gr(f, 'mm')}. "
            f"Der Beamer kann höchstens {gr(platz, 'm', 1)} von der Wand entfernt aufgestellt werden. Beurteile, ob "
            "das gewünschte Bild so möglich ist, und schlage gegebenenfalls eine Lösung vor.")
    schritte = [
        (f"Abbildungsmaßstab: V = B / G = {gr(breite * 1000, 'mm')} / {gr(panel, 'mm')} = {z(v)}.", 1),
        ("Aus B / G = b / g folgt g = b / V; eingesetzt in 1/f = 1/g + 1/b ergibt sich b = f · (1 + V).", 2),
        (f"b = {gr(f, 'mm')} · (1 + {z(v)}) {ungefaehr(b * 1000, 0)} "
         f"{gr(b * 1000, 'mm', 0)} ≈ {gr(b, 'm', 2)}.", 1),
        (f"Vergleich: {gr(b, 'm', 2)} {'<' if passt else '>'} {gr(platz, 'm', 1)}.", 1),
        (f"Urteil: Das Bild {'passt' if passt else 'passt nicht'} – der nötige Abstand ist "
         f"{'kleiner' if passt else 'größer'} als der verfügbare.", 1),
        (f"Lösung bzw. Einordnung: Bei {gr(platz, 'm', 1)} Abstand wäre das Bild höchstens B = G · (d / f − 1) = "
         f"{gr(panel, 'mm')} · ({gr(platz * 1000, 'mm')} / {gr(f, 'mm')} − 1) ≈ {gr(b_max, 'm', 2)} breit; "
         + ("es bleibt also Spielraum." if passt else
            "kleineres Bild wählen oder ein Objektiv mit kleinerer Brennweite verwenden."), 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=12,
                   werte={"G": gr(panel, "mm"), "f": gr(f, "mm"), "B": gr(breite, "m", 1), "d": gr(platz, "m", 1)},
                   ergebnis={"b": gr(b, "m", 2), "B_max": gr(b_max, "m", 2), "urteil": "passt" if passt else
                             "passt nicht"})


_SCHLAGWORTE = ("Optik", "Licht", "Brechung", "Linsen", "Brechung und Linsen")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.optik.brechungswinkel", "physik", "Brechung und Linsen", "Brechungsgesetz",
              (*_SCHLAGWORTE, "Snellius", "Brechungsgesetz", "Brechungswinkel", "Brechzahl"), (9, 10), "II",
              "Bestimmen", _brechungswinkel),
    Generator("physik.optik.brechzahl", "physik", "Brechung und Linsen", "Brechzahl aus einer Messreihe",
              (*_SCHLAGWORTE, "Snellius", "Brechzahl", "Messreihe"), (9, 10), "II", "Auswerten", _brechzahl),
    Generator("physik.optik.linse", "physik", "Brechung und Linsen", "Linsengleichung und Bildgröße",
              (*_SCHLAGWORTE, "Linsengleichung", "Sammellinse", "Abbildungsmaßstab", "Bildweite"), (9, 10), "II",
              "Bestimmen", _linse),
    Generator("physik.optik.projektor", "physik", "Brechung und Linsen", "Abbildung mit einem Beamer",
              (*_SCHLAGWORTE, "Linsengleichung", "Abbildungsmaßstab", "Beamer", "Projektor"), (9, 10), "III",
              "Beurteilen", _projektor),
)
