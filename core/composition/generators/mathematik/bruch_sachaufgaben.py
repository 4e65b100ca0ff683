"""Bruchrechnung in Sachaufgaben (Klasse 5–7): shares of a whole, a share of the rest, portions of a supply.
Totals are chosen as multiples of the common denominator so that every count comes out whole.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd, lcm

from core.composition.generators.base import GeneratedTask
from core.composition.generators.mathematik.bausteine import aufgabe, wahl
from core.composition.generators.mathematik.bruchzahlen import NAMEN, erweitert, paar, zufallsbruch
from core.composition.generators.zahlen import bruch, gemischt

_REST_KONTEXTE = (
    ("Kinder", "In der Klasse {kl} sind {n} Kinder. {a} der Kinder kommen mit dem Bus zur Schule, {b} mit dem "
     "Fahrrad, die übrigen gehen zu Fuß. Ermittle, welcher Anteil der Kinder zu Fuß geht und wie viele Kinder "
     "das sind.", "zu Fuß"),
    ("m²", "Ein Schulgarten ist {n} m² groß. Auf {a} der Fläche wächst Gemüse, {b} sind Beerensträucher, auf dem "
     "Rest wachsen Blumen. Ermittle, welcher Anteil der Fläche mit Blumen bepflanzt ist und wie viele "
     "Quadratmeter das sind.", "Blumen"),
    ("Minuten", "Eine Doppelstunde dauert {n} Minuten. {a} der Zeit wird eine Klassenarbeit besprochen, {b} der "
     "Zeit wird geübt, in der restlichen Zeit wird ein Spiel gespielt. Ermittle, welcher Anteil der Zeit für das "
     "Spiel bleibt und wie viele Minuten das sind.", "Spiel"),
)


def _rest_anteile(rng: random.Random, klasse: int) -> tuple[Fraction, Fraction]:
    if klasse <= 5:  # Klasse 5: one denominator is a multiple of the other, so only erweitern is needed
        d1 = wahl(rng, (2, 3, 4, 5))
        d2 = d1 * wahl(rng, (2, 3) if d1 <= 3 else (2,))
        return Fraction(1, d1), Fraction(wahl(rng, [k for k in range(1, d2 // 2) if gcd(k, d2) == 1] or [1]), d2)
    while True:
        a, b = paar(rng, klasse, 24)
        if a + b < 1 and (1 - a - b) >= Fraction(1, 12):
            return a, b


def _anteil_rest(rng: random.Random, klasse: int) -> GeneratedTask:
    einheit, vorlage, rest_name = wahl(rng, _REST_KONTEXTE)
    a, b = _rest_anteile(rng, klasse)
    hn = lcm(a.denominator, b.denominator)
    grenzen = {"Kinder": (20, 32), "m²": (24, 240), "Minuten": (90, 90)}[einheit]
    basis = [n for n in range(grenzen[0], grenzen[1] + 1) if n % hn == 0]
    if not basis:
        return _anteil_rest(rng, klasse)
    n = wahl(rng, basis)
    rest = 1 - a - b
    zr = rest.numerator * hn // rest.denominator
    za, zb = a.numerator * hn // a.denominator, b.numerator * hn // b.denominator
    kl = f"{klasse}{wahl(rng, 'abcd')}"
    text = vorlage.format(kl=kl, n=n, a=bruch(a), b=bruch(b))
    text = text[0].upper() + text[1:]
    e = "" if einheit == "Kinder" else f" {einheit}"
    summe_ab = f"{erweitert(a, hn)} + {erweitert(b, hn)} = {za + zb}/{hn}"
    rest_text = f"1 − {za + zb}/{hn} = {zr}/{hn}" + (f" = {bruch(rest)}" if rest.denominator != hn else "")
    menge = n * rest
    schritte = [
        (f"Anteile addiert: {bruch(a)} + {bruch(b)} = {summe_ab}.", 1),
        (f"Restanteil ({rest_name}): {rest_text}.", 1),
        (f"{bruch(rest)} von {n}{e}: {n}{e} : {rest.denominator} · {rest.numerator} = {menge}{e}.", 1),
        (f"Probe: {n * a}{e} + {n * b}{e} + {menge}{e} = {n}{e}.", 1),
        (f"Antwortsatz: Der Anteil für „{rest_name}“ beträgt {bruch(rest)}, das sind {menge}{e or ' Kinder'}.", 1),
    ]
    return aufgabe(operator="Ermitteln", afb="II", text=text, schritte=schritte, minuten=7,
                   werte={"art": "rest", "ganzes": f"{n}{e}", "anteil_1": bruch(a), "anteil_2": bruch(b)},
                   ergebnis={"anteil": bruch(rest), "menge": f"{menge}{e}"})


_GELD_KONTEXTE = (
    ("{name} hat in den Ferien {g} € verdient. {a} davon gibt {er} für ein Konzertticket aus, von dem restlichen "
     "Geld {b} für Kleidung."),
    ("Die Klasse {kl} hat {g} € in der Klassenkasse. {a} davon zahlt sie für den Bus zum Wandertag, vom Rest "
     "{b} für den Eintritt in den Kletterpark."),
    ("{name} bekommt zum Geburtstag {g} €. {a} davon spart {er} sofort, vom restlichen Geld gibt {er} {b} für ein "
     "Buch aus."),
)


def _anteil_vom_rest(rng: random.Random, klasse: int) -> GeneratedTask:
    a, b = zufallsbruch(rng, (3, 4, 5, 6)), zufallsbruch(rng, (2, 3, 4, 5))
    schritt = lcm(a.denominator, ((1 - a) * b).denominator)
    g = wahl(rng, [x for x in range(12, 121) if x % schritt == 0 and x % 2 == 0])
    name = wahl(rng, NAMEN)
    er = "sie" if name in ("Lea", "Emma", "Mila", "Sophie", "Lina", "Aylin") else "er"
    text = wahl(rng, _GELD_KONTEXTE).format(name=name, er=er, g=g, a=bruch(a), b=bruch(b),
                                            kl=f"{klasse}{wahl(rng, 'abc')}")
    text += " Ermittle, wie viel Geld übrig bleibt und welcher Anteil des ursprünglichen Betrags das ist."
    x1 = g * a
    r1 = g - x1
    x2 = r1 * b
    r2 = r1 - x2
    schritte = [
        (f"Erster Betrag: {bruch(a)} von {g} € = {g} € : {a.denominator} · {a.numerator} = {x1} €.", 1),
        (f"Rest: {g} € − {x1} € = {r1} €.", 1),
        (f"Zweiter Betrag, bezogen auf den Rest: {r1} € : {b.denominator} · {b.numerator} = {x2} €.", 1),
        (f"Übrig: {r1} € − {x2} € = {r2} €.", 1),
        (f"Anteil am ursprünglichen Betrag: {bruch(1 - a)} · {bruch(1 - b)} = {bruch((1 - a) * (1 - b))} "
         f"(oder {r2} € von {g} €).", 1),
    ]
    return aufgabe(operator="Ermitteln", afb="II", text=text, schritte=schritte, minuten=7,
                   werte={"art": "vom_rest", "betrag": f"{g} €", "anteil_1": bruch(a), "anteil_2": bruch(b)},
                   ergebnis={"uebrig": f"{r2} €", "anteil": bruch((1 - a) * (1 - b))})


_PORTION_KONTEXTE = (
    ("Eine Saftflasche enthält {v} l Orangensaft. Er wird in Gläser gefüllt, in die jeweils {g} l passen.",
     "Gläser", "l", (Fraction(1, 4), Fraction(1, 5), Fraction(3, 10)), (Fraction(1, 3), Fraction(2, 5))),
    ("Von einer Rolle Geschenkband sind noch {v} m übrig. Daraus werden Stücke von je {g} m Länge geschnitten.",
     "Stücke", "m", (Fraction(1, 4), Fraction(3, 4), Fraction(2, 5), Fraction(3, 8)),
     (Fraction(1, 3), Fraction(2, 3), Fraction(3, 5), Fraction(5, 8))),
    ("In einer Packung sind {v} kg Mehl. Für ein Brot braucht man jeweils {g} kg.", "Brote", "kg",
     (Fraction(1, 4), Fraction(3, 8), Fraction(2, 5), Fraction(1, 2)),
     (Fraction(1, 3), Fraction(2, 3), Fraction(3, 5))),
)


def _portionen(rng: random.Random, klasse: int) -> GeneratedTask:
    vorlage, was, einheit, groessen_1, groessen_2 = wahl(rng, _PORTION_KONTEXTE)
    while True:
        g1 = wahl(rng, groessen_1)
        anzahl = wahl(rng, [k for k in range(4, 13) if (k * g1).denominator > 1 and 1 < k * g1 <= 4])
        v = anzahl * g1
        passend = [g for g in groessen_2 if (v / g).denominator > 1 and g < v]
        if passend:
            g2 = wahl(rng, passend)
            break
    n2 = int(v // g2)
    rest = v - n2 * g2
    text = (vorlage.format(v=gemischt(v), g=bruch(g1)) + f" Ermittle, wie viele {was} man erhält. Ermittle "
            f"außerdem, wie viele volle {was} es wären, wenn jeweils {bruch(g2)} {einheit} gebraucht würden, und wie "
            "viel dann übrig bleibt.")
    kehr = bruch(1 / g1)
    schritte = [
        (f"Gemischte Zahl umgewandelt: {gemischt(v)} als Bruch {bruch(v)}.", 1),
        (f"Division durch den Bruch: {bruch(v)} : {bruch(g1)} = {bruch(v)} · {kehr} = {anzahl}.", 1),
        (f"Antwortsatz: Man erhält {anzahl} {was}.", 1),
        (f"Zweite Größe: {bruch(v)} : {bruch(g2)} = {bruch(v)} · {bruch(1 / g2)} = {bruch(v / g2)}, also {n2} volle "
         f"{was}.", 1),
        (f"Rest: {bruch(v)} − {n2} · {bruch(g2)} = {bruch(rest)}, es bleiben {bruch(rest)} {einheit} übrig.", 2),
    ]
    return aufgabe(operator="Ermitteln", afb="II", text=text, schritte=schritte, minuten=9,
                   werte={"art": "portionen", "vorrat": f"{bruch(v)} {einheit}", "portion_1": f"{bruch(g1)} {einheit}",
                          "portion_2": f"{bruch(g2)} {einheit}"},
                   ergebnis={"anzahl_1": str(anzahl), "anzahl_2": str(n2), "rest": f"{bruch(rest)} {einheit}"})


def build_anteil(rng: random.Random, klasse: int) -> GeneratedTask:
    arten = [_anteil_rest] if klasse <= 5 else [_anteil_rest, _anteil_vom_rest, _portionen]
    return wahl(rng, arten)(rng, klasse)
