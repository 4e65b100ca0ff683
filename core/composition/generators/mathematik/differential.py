"""Differentialrechnung (Oberstufe): tangents, extreme and turning points of cubics with whole-number results, and
optimisation problems whose optimum is a whole number. Functions are built backwards from their special points.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import isqrt

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import (
    ableitung,
    aufgabe,
    dez,
    einsetzen,
    gr,
    kl,
    poly,
    punkt,
    wahl,
    wert,
    zahl_oder_bruch,
)

F = Fraction
OBERSTUFE = ("gA", "eA")


def _kubisch(rng: random.Random) -> list[Fraction]:
    return [F(wahl(rng, (-2, -1, 1, 2))), F(rng.randint(-4, 4)), F(rng.randint(-6, 6)), F(rng.randint(-5, 5))]


def build_tangente(rng: random.Random, klasse: int) -> GeneratedTask:
    ko = _kubisch(rng)
    x0 = F(wahl(rng, (-2, -1, 1, 2, 3)))
    d1 = ableitung(ko)
    y0, m = wert(ko, x0), wert(d1, x0)
    n = y0 - m * x0
    text = (f"Gegeben ist die Funktion f mit f(x) = {poly(ko)}. Berechne f'(x) und die Steigung des Graphen an der "
            f"Stelle x = {dez(x0)}, und gib die Gleichung der Tangente an den Graphen von f in diesem Punkt an.")
    schritte = [
        (f"f'(x) = {poly(d1)} (Potenz-, Faktor- und Summenregel).", 1),
        (f"Punkt: f({dez(x0)}) = {einsetzen(ko, x0)} = {dez(y0)}, also {punkt(x0, y0, 'P')}.", 1),
        (f"Steigung: f'({dez(x0)}) = {einsetzen(d1, x0)} = {dez(m)}.", 1),
        (f"Achsenabschnitt aus t(x) = mx + n: n = {dez(y0)} − {kl(m)} · {kl(x0)} = {dez(n)}.", 1),
        (f"Tangentengleichung: t(x) = {poly([m, n])}.", 1),
    ]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=7,
                   werte={"f": poly(ko), "x0": dez(x0)},
                   ergebnis={"steigung": dez(m), "tangente": poly([m, n]), "y0": dez(y0)})


def _mit_extremstellen(rng: random.Random) -> tuple[list[Fraction], Fraction, Fraction]:
    """A cubic whose derivative is 3a(x − p)(x − q) with whole numbers everywhere and moderate values."""
    while True:
        a = F(wahl(rng, (-2, -1, 1, 2)))
        p, q = sorted(rng.sample(range(-3, 5), 2))
        if (a * (p + q)) % 2 or q - p > 5:
            continue
        ko = [a, -F(3, 2) * a * (p + q), 3 * a * p * q, F(rng.randint(-5, 5))]
        if all(abs(wert(ko, x)) <= 40 for x in (p, q)):
            return ko, F(p), F(q)


def build_extrempunkte(rng: random.Random, klasse: int) -> GeneratedTask:
    ko, p, q = _mit_extremstellen(rng)
    d1, d2 = ableitung(ko), ableitung(ableitung(ko))
    a = ko[0]
    text = (f"Untersuche den Graphen der Funktion f mit f(x) = {poly(ko)} auf Extrempunkte. Gib ihre Art und ihre "
            "Koordinaten an.")
    art = {x: ("Hochpunkt" if wert(d2, x) < 0 else "Tiefpunkt") for x in (p, q)}
    normiert = [F(1), d1[1] / d1[0], d1[2] / d1[0]]
    schritte = [
        (f"f'(x) = {poly(d1)} und f''(x) = {poly(d2)}.", 1),
        (f"Notwendige Bedingung f'(x) = 0: {poly(d1)} = 0, also {poly(normiert)} = 0.", 1),
        (f"Lösungen (p-q-Formel oder Faktorisieren): x₁ = {dez(p)} und x₂ = {dez(q)}.", 1),
        (f"Hinreichende Bedingung: f''({dez(p)}) = {einsetzen(d2, p)} = {dez(wert(d2, p))} "
         f"{'<' if wert(d2, p) < 0 else '>'} 0, also {art[p]}.", 1),
        (f"f''({dez(q)}) = {einsetzen(d2, q)} = {dez(wert(d2, q))} {'<' if wert(d2, q) < 0 else '>'} 0, also "
         f"{art[q]}.", 1),
        (f"Funktionswerte: f({dez(p)}) = {einsetzen(ko, p)} = {dez(wert(ko, p))} und f({dez(q)}) = "
         f"{einsetzen(ko, q)} = {dez(wert(ko, q))}.", 1),
        (f"Ergebnis: {art[p]} {punkt(p, wert(ko, p), art[p][0])}, {art[q]} {punkt(q, wert(ko, q), art[q][0])}"
         + (" (a > 0: erst Hoch-, dann Tiefpunkt)." if a > 0 else " (a < 0: erst Tief-, dann Hochpunkt)."), 1),
    ]
    return aufgabe(operator="Untersuchen", afb="II", text=text, schritte=schritte, minuten=12,
                   werte={"f": poly(ko)},
                   ergebnis={art[p]: punkt(p, wert(ko, p)), art[q]: punkt(q, wert(ko, q))})


def build_wendepunkt(rng: random.Random, klasse: int) -> GeneratedTask:
    while True:
        a, w = F(wahl(rng, (-2, -1, 1, 2))), F(rng.randint(-2, 3))
        ko = [a, -3 * a * w, F(rng.randint(-6, 6)), F(rng.randint(-5, 5))]
        if abs(wert(ko, w)) <= 30 and ko[1] != 0:
            break
    d1 = ableitung(ko)
    d2, d3 = ableitung(d1), ableitung(ableitung(d1))
    fw, m = wert(ko, w), wert(d1, w)
    n = fw - m * w
    text = (f"Bestimme den Wendepunkt des Graphen der Funktion f mit f(x) = {poly(ko)} sowie die Gleichung der "
            "Wendetangente. Gib an, ob es sich um einen Sattelpunkt handelt.")
    schritte = [
        (f"f'(x) = {poly(d1)}, f''(x) = {poly(d2)}, f'''(x) = {poly(d3)}.", 1),
        (f"Notwendige Bedingung f''(x) = 0: {poly(d2)} = 0, also x = {dez(-d2[1])} : {kl(d2[0])} = {dez(w)}.", 1),
        (f"Hinreichende Bedingung: f'''({dez(w)}) = {dez(d3[0])} ≠ 0, also Wendestelle.", 1),
        (f"f({dez(w)}) = {einsetzen(ko, w)} = {dez(fw)}, Wendepunkt {punkt(w, fw, 'W')}.", 1),
        (f"Steigung im Wendepunkt: f'({dez(w)}) = {einsetzen(d1, w)} = {dez(m)}; "
         + ("also waagerechte Tangente: Sattelpunkt." if m == 0 else f"kein Sattelpunkt, da f'({dez(w)}) ≠ 0."), 1),
        (f"Wendetangente: n = {dez(fw)} − {kl(m)} · {kl(w)} = {dez(n)}, also t(x) = {poly([m, n])}.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=10,
                   werte={"f": poly(ko)}, ergebnis={"wendepunkt": punkt(w, fw), "tangente": poly([m, n])})


def schachteln() -> list[tuple[int, int, int]]:
    """Sheets a × b (cm) whose open box of greatest volume has a whole-number height x."""
    out = []
    for a in range(12, 49):
        for b in range(8, a):
            disk = a * a - a * b + b * b
            r = isqrt(disk)
            if r * r == disk and (a + b - r) % 6 == 0:
                out.append((a, b, (a + b - r) // 6))
    return out


SCHACHTELN = tuple(schachteln())


def _gehege(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    teile = wahl(rng, (2, 3))  # 2: one enclosure at a wall; 3: two enclosures side by side
    zaun = F(wahl(rng, [v for v in range(24, 97, 2 * teile) if v % (2 * teile) == 0]))
    x = zaun / (2 * teile)
    y = zaun - teile * x
    flaeche = x * y
    art = ("ein rechteckiges Gehege" if teile == 2 else
           "zwei gleich große, nebeneinanderliegende rechteckige Gehege mit einem gemeinsamen Zaun in der Mitte")
    text = (f"Mit {gr(zaun, 'm')} Zaun {'soll' if teile == 2 else 'sollen'} an einer geraden Hauswand {art} für "
            f"{wahl(rng, ('Kaninchen', 'Hühner', 'Meerschweinchen', 'Ziegen'))} eingezäunt werden; die "
            "Hauswand braucht keinen Zaun. Entwickle eine Funktion für den gesamten Flächeninhalt und bestimme "
            "damit die Maße, für die er maximal wird.")
    schritte = [
        (f"Bezeichnungen: x für die {'beiden' if teile == 2 else 'drei'} Zaunstücke senkrecht zur Wand, "
         f"{dez(zaun)} − {teile}x für die Seite parallel zur Wand (Nebenbedingung).", 1),
        (f"Zielfunktion: A(x) = x · ({dez(zaun)} − {teile}x) = {poly([-teile, zaun, 0])}.", 2),
        (f"Sinnvoller Definitionsbereich: 0 < x < {zahl_oder_bruch(zaun / teile)}.", 1),
        (f"A'(x) = {poly([-2 * teile, zaun])} = 0, also x = {dez(zaun)} : {2 * teile} = {dez(x)}.", 1),
        (f"Nachweis des Maximums: A''(x) = {dez(-2 * teile)} < 0.", 1),
        (f"Maße: {gr(x, 'm')} senkrecht zur Wand, {dez(zaun)} m − {teile} · {dez(x)} m = {gr(y, 'm')} parallel; "
         f"A = {dez(x)} m · {dez(y)} m = {gr(flaeche, 'm²')}.", 1),
        (f"Antwortsatz im Sachkontext: Die {gr(y, 'm')} lange Seite verläuft parallel zur Hauswand; der größte "
         f"Flächeninhalt beträgt {gr(flaeche, 'm²')}.", 1),
    ]
    return text, schritte, {"art": "gehege", "zaun": gr(zaun, "m"), "teile": str(teile)}, \
        {"x": gr(x, "m"), "flaeche": gr(flaeche, "m²")}


def _schachtel(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    a, b, x = (F(v) for v in wahl(rng, SCHACHTELN))
    ko = [F(4), -2 * (a + b), a * b, F(0)]
    d1 = ableitung(ko)
    andere = (a + b) / 3 - x  # the two roots of V' add up to (a + b)/3
    vol = x * (a - 2 * x) * (b - 2 * x)
    text = (f"Aus einem rechteckigen Karton von {gr(a, 'cm')} Länge und {gr(b, 'cm')} Breite soll eine oben offene "
            "Schachtel entstehen: An den Ecken werden gleich große Quadrate herausgeschnitten und die Ränder "
            "hochgeklappt. Entwickle eine Funktion für das Volumen und bestimme die Seitenlänge der Quadrate, für "
            "die das Volumen maximal wird.")
    schritte = [
        (f"Quadratseite x ist die Höhe; Grundfläche ({dez(a)} − 2x) · ({dez(b)} − 2x).", 1),
        (f"Zielfunktion: V(x) = x · ({dez(a)} − 2x) · ({dez(b)} − 2x) = {poly(ko)}.", 2),
        (f"Definitionsbereich: 0 < x < {zahl_oder_bruch(b / 2)}.", 1),
        (f"V'(x) = {poly(d1)} = 0 liefert x₁ = {dez(x)} und x₂ = {zahl_oder_bruch(andere)}"
         + (f" ≈ {dez(andere, 2)}" if "/" in zahl_oder_bruch(andere) else "") + "; nur x₁ liegt im "
         "Definitionsbereich.", 1),
        (f"Nachweis: V''(x) = {poly(ableitung(d1))}, V''({dez(x)}) = {einsetzen(ableitung(d1), x)} = "
         f"{dez(wert(ableitung(d1), x))} < 0, also Maximum.", 1),
        (f"Maximales Volumen: V({dez(x)}) = {dez(x)} · {dez(a - 2 * x)} · {dez(b - 2 * x)} = {gr(vol, 'cm³')}.", 1),
        (f"Antwortsatz: Es müssen Quadrate mit {gr(x, 'cm')} Seitenlänge ausgeschnitten werden; die Schachtel ist "
         f"dann {dez(a - 2 * x)} cm × {dez(b - 2 * x)} cm × {dez(x)} cm groß.", 1),
    ]
    return text, schritte, {"art": "schachtel", "laenge": gr(a, "cm"), "breite": gr(b, "cm")}, \
        {"x": gr(x, "cm"), "volumen": gr(vol, "cm³")}


def _rechteck_unter_parabel(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    a, u = wahl(rng, ((F(1, 4), F(2)), (F(1, 4), F(3)), (F(1, 4), F(4)), (F(1, 2), F(2)), (F(1, 2), F(3)),
                      (F(1), F(1)), (F(1), F(2)), (F(1, 8), F(4)), (F(1, 10), F(5)), (F(1, 5), F(3))))
    bogen = wahl(rng, ("Der Querschnitt eines Tunnels", "Die Öffnung eines Torbogens",
                       "Der Querschnitt einer Lagerhalle"))
    h = 3 * a * u * u
    flaeche = 4 * a * u ** 3
    text = (f"{bogen} wird durch f(x) = {poly([-a, 0, h])} beschrieben (x und f(x) in m, "
            "Boden auf der x-Achse). Ein rechteckiges Tor soll so in den Querschnitt eingepasst werden, dass seine "
            "oberen Ecken auf dem Bogen liegen. Entwickle eine Funktion für den Flächeninhalt des Tors und bestimme "
            "die Maße des größtmöglichen Tors.")
    ziel = [-2 * a, F(0), 2 * h, F(0)]
    schritte = [
        (f"Ansatz: Ecken bei (−u|0), (u|0), (u|f(u)), (−u|f(u)); Breite 2u, Höhe f(u) = {poly([-a, 0, h], 'u')}.", 1),
        (f"Zielfunktion: A(u) = 2u · ({poly([-a, 0, h], 'u')}) = {poly(ziel, 'u')}.", 2),
        (f"Definitionsbereich: 0 < u < √{zahl_oder_bruch(h / a)}.", 1),
        (f"A'(u) = {poly(ableitung(ziel), 'u')} = 0, also u² = {zahl_oder_bruch(u * u)} und u = {dez(u)}.", 1),
        (f"Nachweis: A''(u) = {poly(ableitung(ableitung(ziel)), 'u')} < 0 für u > 0, also Maximum.", 1),
        (f"Maße: Breite 2 · {dez(u)} m = {gr(2 * u, 'm')}, Höhe f({dez(u)}) = {einsetzen([-a, 0, h], u)} = "
         f"{gr(wert([-a, 0, h], u), 'm')}.", 1),
        (f"Antwortsatz: Das größte Tor ist {gr(2 * u, 'm')} breit und {gr(wert([-a, 0, h], u), 'm')} hoch, sein "
         f"Flächeninhalt beträgt {gr(flaeche, 'm²')}.", 1),
    ]
    return text, schritte, {"art": "rechteck", "f": poly([-a, 0, h])}, \
        {"breite": gr(2 * u, "m"), "flaeche": gr(flaeche, "m²")}


def build_optimierung(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_gehege, _schachtel, _rechteck_unter_parabel))(rng)
    return aufgabe(operator="Entwickeln", afb="III", text=text, schritte=schritte, minuten=20, werte=werte,
                   ergebnis=ergebnis)


_THEMA = "Differentialrechnung"
_SW = ("Ableitung", "Differentialrechnung", "ganzrationale Funktion")
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.differential.tangente", fach="mathematik", thema=_THEMA,
              unterthema="Ableitung und Tangentengleichung",
              schlagworte=(*_SW, "Tangente", "Steigung", "Tangentengleichung", "Ableitungsregeln"),
              klassenstufen=(11, 13), afb="I", operator="Berechnen", build=build_tangente, niveaus=OBERSTUFE),
    Generator(key="mathematik.differential.extrempunkte", fach="mathematik", thema=_THEMA,
              unterthema="Extrempunkte einer Funktion dritten Grades",
              schlagworte=(*_SW, "Extrempunkt", "Hochpunkt", "Tiefpunkt", "Kurvendiskussion", "Extremstelle"),
              klassenstufen=(11, 13), afb="II", operator="Untersuchen", build=build_extrempunkte, niveaus=OBERSTUFE),
    Generator(key="mathematik.differential.wendepunkt", fach="mathematik", thema=_THEMA,
              unterthema="Wendepunkt und Wendetangente",
              schlagworte=(*_SW, "Wendepunkt", "Wendetangente", "Sattelpunkt", "Krümmung", "Kurvendiskussion"),
              klassenstufen=(11, 13), afb="II", operator="Bestimmen", build=build_wendepunkt, niveaus=OBERSTUFE),
    Generator(key="mathematik.differential.optimierung", fach="mathematik", thema=_THEMA,
              unterthema="Extremwertaufgaben mit Nebenbedingung",
              schlagworte=(*_SW, "Extremwertaufgabe", "Optimierung", "Zielfunktion", "Nebenbedingung", "Maximum"),
              klassenstufen=(11, 13), afb="III", operator="Entwickeln", build=build_optimierung, niveaus=OBERSTUFE),
)
