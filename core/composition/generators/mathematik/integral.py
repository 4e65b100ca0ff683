"""Integralrechnung (Oberstufe): definite integrals, areas with the x-axis and between two graphs, and judging an
area that is really a Flächenbilanz. Integration limits are whole-number zeros, so results are exact fractions.
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
    stammfunktion,
    wahl,
    wert,
    zahl_oder_bruch,
)

F = Fraction
OBERSTUFE = ("gA", "eA")


def zb(x: Fraction) -> str:
    """An exact value, with a rounded decimal beside it when it is a proper fraction: '32/3 ≈ 10,67'."""
    text = zahl_oder_bruch(x)
    return f"{text} ≈ {dez(x, 2)}" if "/" in text else text


def minus(x: Fraction) -> str:
    """The subtrahend as written after '−': negative values in parentheses, others plain."""
    return kl(x) if x < 0 else zahl_oder_bruch(x)


def integral(ko: list[Fraction], a: Fraction, b: Fraction) -> Fraction:
    st = stammfunktion(ko)
    return wert(st, b) - wert(st, a)


def ausmultipliziert(k: Fraction, nullstellen: list[Fraction]) -> list[Fraction]:
    """Coefficients of k·(x − r1)(x − r2)…"""
    ko = [F(k)]
    for r in nullstellen:
        ko = [*(c for c in ko), F(0)]
        for i in range(len(ko) - 1, 0, -1):
            ko[i] -= r * ko[i - 1]
    return ko


def _grenzen_text(a: Fraction, b: Fraction, ko: list[Fraction]) -> str:
    return f"∫ von {dez(a)} bis {dez(b)} ({poly(ko)}) dx"


def build_berechnen(rng: random.Random, klasse: int) -> GeneratedTask:
    grad = wahl(rng, (2, 3))
    ko = [F(wahl(rng, (-3, -2, -1, 1, 2, 3, 4)))] + [F(rng.randint(-5, 5)) for _ in range(grad)]
    a = F(rng.randint(-2, 1))
    b = a + rng.randint(1, 3)
    st = stammfunktion(ko)
    fa, fb = wert(st, a), wert(st, b)
    ergebnis = fb - fa
    text = f"Berechne das Integral {_grenzen_text(a, b, ko)} mithilfe einer Stammfunktion."
    schritte = [
        (f"Stammfunktion: F(x) = {poly(st, brueche=True)}.", 1),
        (f"F({dez(b)}) = " + (f"{einsetzen(st, b, brueche=True)} = " if b else "") + f"{zahl_oder_bruch(fb)}.", 1),
        (f"F({dez(a)}) = " + (f"{einsetzen(st, a, brueche=True)} = " if a else "") + f"{zahl_oder_bruch(fa)}.", 1),
        (f"Integral: F({dez(b)}) − F({dez(a)}) = {zahl_oder_bruch(fb)} − {minus(fa)} = {zb(ergebnis)}.", 1),
    ]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=6,
                   werte={"f": poly(ko), "a": dez(a), "b": dez(b)}, ergebnis={"integral": zahl_oder_bruch(ergebnis)})


def _flaechenstuecke(ko: list[Fraction], stellen: list[Fraction]) -> tuple[list[tuple[str, int]], Fraction]:
    """One step per piece between neighbouring zeros; returns the steps and the total area."""
    schritte, summe = [], F(0)
    st = stammfunktion(ko)
    for a, b in zip(stellen, stellen[1:], strict=False):
        i = integral(ko, a, b)
        summe += abs(i)
        werte = f"{zahl_oder_bruch(wert(st, b))} − {minus(wert(st, a))}"
        schritte.append((f"∫ von {dez(a)} bis {dez(b)} f(x) dx = F({dez(b)}) − F({dez(a)}) = {werte} = {zb(i)}"
                         + (" (Fläche unterhalb der x-Achse, Betrag nehmen)." if i < 0 else "."), 1))
    return schritte, summe


def build_flaeche(rng: random.Random, klasse: int) -> GeneratedTask:
    if rng.random() < 0.5:
        k = F(wahl(rng, (-2, -1, 1)))
        r1 = F(rng.randint(-3, 2))
        nullstellen = [r1, r1 + rng.randint(2, 4)]
    else:
        k = F(wahl(rng, (-1, 1)))
        mitte = F(rng.randint(-1, 1))
        nullstellen = [mitte - rng.randint(1, 3), mitte, mitte + rng.randint(1, 3)]
    ko = ausmultipliziert(k, nullstellen)
    st = stammfunktion(ko)
    stuecke, summe = _flaechenstuecke(ko, nullstellen)
    teile = [abs(integral(ko, a, b)) for a, b in zip(nullstellen, nullstellen[1:], strict=False)]
    text = (f"Bestimme den Inhalt der Fläche, die der Graph der Funktion f mit f(x) = {poly(ko)} mit der x-Achse "
            "einschließt.")
    liste = ", ".join(f"x = {dez(r)}" for r in nullstellen)
    schritte = [
        (f"Nullstellen als Integrationsgrenzen: {liste} (z. B. über die Faktorisierung "
         f"f(x) = {_faktor_text(k, nullstellen)}).", 2 if len(nullstellen) == 3 else 1),
        (f"Stammfunktion: F(x) = {poly(st, brueche=True)}.", 1),
        *stuecke,
        (f"Flächeninhalt: A = {' + '.join(zahl_oder_bruch(t) for t in teile)} = {zb(summe)} FE." if len(teile) > 1
         else f"Flächeninhalt: A = {zb(summe)} FE.", 1),
        ("Begründung: Teilflächen unterhalb der x-Achse liefern negative Integrale; deshalb wird zwischen den "
         "Nullstellen getrennt integriert und der Betrag addiert.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=10 if len(nullstellen) == 2 else 14, werte={"f": poly(ko)},
                   ergebnis={"flaeche": zahl_oder_bruch(summe),
                             "nullstellen": ", ".join(dez(r) for r in nullstellen)})


def _faktor_text(k: Fraction, nullstellen: list[Fraction]) -> str:
    vorne = "" if k == 1 else ("−" if k == -1 else f"{dez(k)} · ")
    teile = []
    for r in nullstellen:
        teile.append("x" if r == 0 else f"(x {'−' if r > 0 else '+'} {dez(abs(r))})")
    return vorne + " · ".join(teile)


def build_zwischen(rng: random.Random, klasse: int) -> GeneratedTask:
    a = F(wahl(rng, (-1, 1, 2, -2)))
    x1 = F(rng.randint(-3, 2))
    x2 = x1 + rng.randint(2, 4)
    b, c = F(rng.randint(-4, 4)), F(rng.randint(-4, 4))
    f = [a, b, c]
    g = [b + a * (x1 + x2), c - a * x1 * x2]
    diff = [-a, g[0] - b, g[1] - c]  # g − f
    oben = "g" if a > 0 else "f"
    st = stammfunktion(diff)
    flaeche = abs(integral(diff, x1, x2))
    text = (f"Gegeben sind f(x) = {poly(f)} und g(x) = {poly(g)}. Bestimme den Inhalt der Fläche, die die beiden "
            "Graphen einschließen.")
    schritte = [
        (f"Gleichsetzen f(x) = g(x): {poly([a, b - g[0], c - g[1]])} = 0.", 1),
        (f"Schnittstellen: x₁ = {dez(x1)} und x₂ = {dez(x2)}.", 1),
        (f"Zwischen den Schnittstellen liegt der Graph von {oben} oberhalb, z. B. f({dez((x1 + x2) / 2)}) = "
         f"{zahl_oder_bruch(wert(f, (x1 + x2) / 2))} und g({dez((x1 + x2) / 2)}) = "
         f"{zahl_oder_bruch(wert(g, (x1 + x2) / 2))}.", 1),
        (f"Differenzfunktion d(x) = g(x) − f(x) = {poly(diff)}, Stammfunktion D(x) = {poly(st, brueche=True)}.", 1),
        (f"D({dez(x2)}) − D({dez(x1)}) = {zahl_oder_bruch(wert(st, x2))} − {minus(wert(st, x1))} = "
         f"{zb(integral(diff, x1, x2))}.", 1),
        (f"Flächeninhalt: A = {zb(flaeche)} FE.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=12,
                   werte={"f": poly(f), "g": poly(g)},
                   ergebnis={"flaeche": zahl_oder_bruch(flaeche), "schnittstellen": f"{dez(x1)}; {dez(x2)}"})


def _schuelerfehler(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    k = F(wahl(rng, (-1, 1)))
    r1 = F(rng.randint(-2, 1))
    r2 = r1 + rng.randint(1, 3)
    ende = r2 + rng.randint(1, 3)
    ko = ausmultipliziert(k, [r1, r2])
    st = stammfunktion(ko)
    i1, i2 = integral(ko, r1, r2), integral(ko, r2, ende)
    bilanz, flaeche = i1 + i2, abs(i1) + abs(i2)
    name = wahl(rng, ("Jonas", "Mia", "Leon", "Sara", "Timo", "Elif"))
    text = (f"{name} soll den Inhalt der Fläche bestimmen, die der Graph von f mit f(x) = {poly(ko)} im Intervall "
            f"[{dez(r1)}; {dez(ende)}] mit der x-Achse einschließt. {name} rechnet {_grenzen_text(r1, ende, ko)} = "
            f"{zahl_oder_bruch(bilanz)} und schreibt: „Der Flächeninhalt beträgt {zahl_oder_bruch(abs(bilanz))} FE.“ "
            f"Beurteile die Lösung von {name} und gib gegebenenfalls den richtigen Flächeninhalt an.")
    schritte = [
        (f"Kontrolle der Rechnung: F(x) = {poly(st, brueche=True)}; F({dez(ende)}) − F({dez(r1)}) = {zb(bilanz)}, "
         "das Integral ist richtig berechnet.", 1),
        (f"f hat bei x = {dez(r2)} eine Nullstelle im Intervall und wechselt dort das Vorzeichen.", 1),
        (f"∫ von {dez(r1)} bis {dez(r2)} f(x) dx = {zb(i1)}.", 1),
        (f"∫ von {dez(r2)} bis {dez(ende)} f(x) dx = {zb(i2)}.", 1),
        (f"Flächeninhalt: {zahl_oder_bruch(abs(i1))} + {zahl_oder_bruch(abs(i2))} = {zb(flaeche)} FE.", 1),
        (f"Urteil: Die Lösung ist falsch. {name} hat eine Flächenbilanz berechnet, bei der sich die Flächenstücke "
         "oberhalb und unterhalb der x-Achse teilweise aufheben; man muss an der Nullstelle trennen und die Beträge "
         "addieren.", 2),
    ]
    return text, schritte, {"art": "schuelerfehler", "f": poly(ko), "a": dez(r1), "b": dez(ende)}, \
        {"bilanz": zahl_oder_bruch(bilanz), "flaeche": zahl_oder_bruch(flaeche)}


def _zufluss(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    """A rate r(t) = k·(t1 − t)·(t + s): inflow until t1, outflow after."""
    while True:
        k, t1, s = wahl(rng, (F(1, 2), F(1), F(1, 4))), F(rng.randint(3, 6)), F(rng.randint(1, 4))
        ende = t1 + rng.randint(2, 4)
        ko = ausmultipliziert(-k, [t1, -s])
        bilanz = integral(ko, F(0), ende)
        if bilanz != 0:
            break
    st = stammfunktion(ko)
    zu, ab = integral(ko, F(0), t1), integral(ko, t1, ende)
    becken = wahl(rng, ("einem Regenrückhaltebecken", "einem Wasserspeicher", "einem Hochbehälter der Stadtwerke"))
    behauptung = wahl(rng, ("weniger", "maximum"))
    if behauptung == "weniger":
        aussage = f"„Nach {dez(ende)} Stunden ist weniger Wasser im Becken als zu Beginn.“"
        stimmt = bilanz < 0
        urteil = (f"Urteil: Die Aussage ist {'richtig' if stimmt else 'falsch'}: Die Bilanz über [0; {dez(ende)}] "
                  f"beträgt {zb(bilanz)} m³, es ist also {'weniger' if stimmt else 'mehr'} Wasser im Becken als zu "
                  "Beginn.")
    else:
        aussage = f"„Nach {dez(ende)} Stunden ist am meisten Wasser im Becken, weil dann am längsten Wasser floss.“"
        stimmt = False
        urteil = (f"Urteil: Die Aussage ist falsch: Ab t = {dez(t1)} ist r(t) < 0, es fließt also Wasser ab; am "
                  f"meisten Wasser ist bei t = {dez(t1)} im Becken.")
    text = (f"Die Änderungsrate des Wasservolumens in {becken} wird für 0 ≤ t ≤ {dez(ende)} durch "
            f"r(t) = {poly(ko, 't')} beschrieben (t in Stunden, r(t) in m³ pro Stunde; positive Werte: Zufluss). "
            f"Jemand behauptet: {aussage} Beurteile die Aussage.")
    schritte = [
        (f"Vorzeichen von r: r(t) = {_faktor_text(-k, [t1, -s]).replace('x', 't')}; Nullstelle im Intervall bei "
         f"t = {dez(t1)}, vorher Zufluss, danach Abfluss.", 1),
        (f"Stammfunktion: R(t) = {poly(st, 't', brueche=True)}.", 1),
        (f"Zufluss bis t = {dez(t1)}: R({dez(t1)}) − R(0) = {zb(zu)} m³.", 1),
        (f"Die Änderung im Zeitraum danach (bis t = {dez(ende)}) beträgt R({dez(ende)}) − R({dez(t1)}) = "
         f"{zb(ab)} m³.", 1),
        (f"Gesamtänderung: {zahl_oder_bruch(zu)} + {kl(ab)} = {zb(bilanz)} m³.", 1),
        (f"Deutung: Das Integral der Änderungsrate ist die Bestandsänderung; das Volumen ist bei t = {dez(t1)} "
         "maximal, weil r dort von positiv nach negativ wechselt.", 1),
        (urteil, 1),
    ]
    return text, schritte, {"art": "zufluss", "r": poly(ko, "t"), "ende": dez(ende), "behauptung": behauptung}, \
        {"bilanz": zahl_oder_bruch(bilanz), "maximum_bei": dez(t1), "stimmt": "ja" if stimmt else "nein"}


def build_bilanz(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_schuelerfehler, _zufluss))(rng)
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=15, werte=werte,
                   ergebnis=ergebnis)


_THEMA = "Integralrechnung"
_SW = ("Integral", "Integralrechnung", "Stammfunktion", "Hauptsatz")
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.integral.berechnen", fach="mathematik", thema=_THEMA,
              unterthema="Bestimmte Integrale mit Stammfunktionen berechnen",
              schlagworte=(*_SW, "bestimmtes Integral", "Integrationsgrenzen"),
              klassenstufen=(11, 13), afb="I", operator="Berechnen", build=build_berechnen, niveaus=OBERSTUFE),
    Generator(key="mathematik.integral.flaeche", fach="mathematik", thema=_THEMA,
              unterthema="Fläche zwischen Graph und x-Achse",
              schlagworte=(*_SW, "Flächeninhalt", "Fläche", "x-Achse", "Nullstellen"),
              klassenstufen=(11, 13), afb="II", operator="Bestimmen", build=build_flaeche, niveaus=OBERSTUFE),
    Generator(key="mathematik.integral.zwischen_graphen", fach="mathematik", thema=_THEMA,
              unterthema="Fläche zwischen zwei Graphen",
              schlagworte=(*_SW, "Flächeninhalt", "Fläche zwischen Graphen", "Schnittstellen", "Differenzfunktion"),
              klassenstufen=(11, 13), afb="II", operator="Bestimmen", build=build_zwischen, niveaus=OBERSTUFE),
    Generator(key="mathematik.integral.bilanz", fach="mathematik", thema=_THEMA,
              unterthema="Flächenbilanz und Bestandsänderung beurteilen",
              schlagworte=(*_SW, "Flächenbilanz", "Änderungsrate", "Bestand", "Rekonstruktion", "Fehleranalyse"),
              klassenstufen=(11, 13), afb="III", operator="Beurteilen", build=build_bilanz, niveaus=OBERSTUFE),
)
