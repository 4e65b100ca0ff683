"""Quadratische Funktionen in Anwendungen (Klasse 9–10): parabolic arches (bridge, gate, tunnel), throws over an
obstacle, and vehicles under an arch. Arches use half-spans whose squares divide powers of ten, so coefficients end.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask
from core.composition.generators.mathematik.bausteine import aufgabe, ca, dez, einsetzen, gr, kl, poly, runde, wahl

F = Fraction

# (name, sentence, half-spans in m, heights in m, query distances, query height factor)
BOEGEN = (
    ("Brückenbogen", "Der Stahlbogen einer Fußgängerbrücke hat die Form einer Parabel. Er ist am Boden {w} breit und "
     "in der Mitte {h} hoch.", (F(10), F(20), F(25)), (F(6), F(8), F(10), F(12), F(15))),
    ("Hallentor", "Das Tor einer Lagerhalle hat die Form eines Parabelbogens. Es ist am Boden {w} breit und in der "
     "Mitte {h} hoch.", (F(2), F(5, 2), F(4), F(5)), (F(4), F(9, 2), F(5), F(6))),
    ("Torbogen", "Der Eingang eines Stadttors ist ein Parabelbogen, der am Boden {w} breit und in der Mitte {h} hoch "
     "ist.", (F(2), F(5, 2)), (F(3), F(7, 2), F(4), F(9, 2))),
)


def bogen(rng: random.Random, boegen: tuple = BOEGEN) -> tuple[str, str, Fraction, Fraction]:
    name, satz, spannen, hoehen = wahl(rng, boegen)
    s, h = wahl(rng, spannen), wahl(rng, hoehen)
    return name, satz.format(w=gr(2 * s, "m"), h=gr(h, "m")), s, h


def ansatz_bogen(s: Fraction, h: Fraction) -> tuple[Fraction, list[tuple[str, int]]]:
    """Coefficient a of f(x) = a·x² + h through (±s|0), with the steps that find it."""
    a = -h / s ** 2
    return a, [
        ("Koordinatensystem: Ursprung in der Mitte am Boden, x-Achse am Boden, y-Achse durch den höchsten Punkt; "
         f"Ansatz f(x) = ax² + {dez(h)}.", 1),
        (f"Punkt ({dez(s)}|0) eingesetzt: 0 = a · {dez(s)}² + {dez(h)}, also a = {dez(-h)} : {dez(s * s)} = "
         f"{dez(a)}.", 1),
        (f"Funktionsgleichung: f(x) = {poly([a, 0, h])} (x und f(x) in m).", 1),
    ]


def build_bruecke(rng: random.Random, klasse: int) -> GeneratedTask:
    name, satz, s, h = bogen(rng)
    d = wahl(rng, [s * k / 10 for k in range(2, 9) if (s * k / 10 * 10).denominator == 1])
    z = wahl(rng, [F(k, 2) for k in range(2, int(2 * h) - 1)])
    a, schritte = ansatz_bogen(s, h)
    fd = a * d * d + h
    x2 = (z - h) / a
    x = math.sqrt(x2)
    text = (f"{satz} Ermittle eine Funktionsgleichung, die den Bogen beschreibt (Ursprung in der Mitte am Boden). "
            f"Ermittle damit, wie hoch der Bogen {gr(d, 'm')} von der Mitte entfernt ist und wie breit er in "
            f"{gr(z, 'm')} Höhe ist. Runde auf Zentimeter.")
    schritte += [
        (f"Höhe bei x = {dez(d)}: f({dez(d)}) = {einsetzen([a, 0, h], d)} = {dez(fd)}, also "
         f"{'etwa ' if runde(fd, 2) != fd else ''}{gr(runde(fd, 2), 'm')}.", 1),
        (f"Ansatz f(x) = {dez(z)}: x² = ({dez(z)} − {dez(h)}) : {kl(a)} {ca(x2, 4)}.", 1),
        (f"x = √{dez(x2, 4) if runde(x2, 4) != x2 else dez(x2)} {ca(F(x), 2)}.", 1),
        (f"Breite in {gr(z, 'm')} Höhe: 2 · {dez(F(x), 2)} m {ca(2 * runde(F(x), 2), 2, 'm')}.", 1),
    ]
    return aufgabe(operator="Ermitteln", afb="II", text=text, schritte=schritte, minuten=12,
                   werte={"halbe_breite": gr(s, "m"), "hoehe": gr(h, "m"), "abstand": gr(d, "m"),
                          "hoehe_breite": gr(z, "m"), "bogen": name},
                   ergebnis={"a": dez(a), "hoehe_bei_abstand": gr(fd, "m"), "breite": gr(2 * runde(F(x), 2), "m")})


# (obstacle sentence with {d} {t}, genitive of the thrown thing, its subject, 'über …', obstacle heights,
#  what can turn a narrow result, fixed distance of the obstacle or None)
WUERFE = (
    ("In {d} Entfernung vom Abwurfpunkt steht eine {t} hohe Hecke.", "eines Schlagballs", "der Ball",
     "über die Hecke", (F(5, 2), F(3), F(7, 2)), "der Durchmesser des Balls (etwa 8 cm) und Wind", None),
    ("Das Volleyballnetz ist {d} vom Aufschlagpunkt entfernt und {t} hoch.", "eines Volleyballs", "der Ball",
     "über das Netz", (F(224, 100), F(243, 100)), "der Durchmesser des Balls (etwa 21 cm) und Wind", F(9)),
    ("In {d} Entfernung steht ein {t} hoher Gartenzaun.", "des Wasserstrahls aus einem Gartenschlauch",
     "der Wasserstrahl", "über den Zaun", (F(3, 2), F(9, 5), F(2)), "Wind und die Streuung des Strahls", None),
)
STRECKUNGEN = (F(2, 100), F(25, 1000), F(4, 100), F(5, 100), F(8, 100), F(1, 10), F(125, 1000), F(2, 10))


def _wurfbahn(rng: random.Random) -> tuple[Fraction, Fraction, Fraction]:
    """a, vertex x, vertex height of a throw from 1,5 m to 2,5 m height with a whole-metre vertex."""
    while True:
        a, xs = wahl(rng, STRECKUNGEN), F(rng.randint(3, 10))
        e = F(rng.randint(5, 14), 2)
        c = e - a * xs * xs
        if F(3, 2) <= c <= F(5, 2) and (c * 100).denominator == 1:
            return a, xs, e


def build_wurf(rng: random.Random, klasse: int) -> GeneratedTask:
    satz, genitiv, subjekt, ueber, hoehen, stoerung, fest = wahl(rng, WUERFE)
    while True:
        a, xs, e = _wurfbahn(rng)
        land = xs + F(math.sqrt(e / a))
        d, t = fest or F(rng.randint(int(xs) + 1, max(int(xs) + 1, int(land) - 1))), wahl(rng, hoehen)
        hd = -a * (d - xs) ** 2 + e
        if abs(hd - t) >= F(5, 100) and d < land - 1:
            break
    ko = [-a, 2 * a * xs, e - a * xs * xs]
    gross = subjekt[0].upper() + subjekt[1:]
    text = (f"Die Flugbahn {genitiv} wird durch h(x) = {poly(ko)} beschrieben (x: waagerechte Entfernung vom "
            f"Abwurfpunkt in m, h(x): Höhe in m). " + satz.format(d=gr(d, "m"), t=gr(t, "m")) +
            f" Beurteile, ob {subjekt} {ueber} gelangt. Ermittle dazu auch die größte Höhe und die "
            "Entfernung, in der er auf dem Boden auftrifft (auf Zentimeter gerundet).")
    frei = hd - t
    urteil = (f"Urteil: {gross} gelangt {ueber}, mit {gr(frei, 'm')} Abstand." if frei > 0 else
              f"Urteil: {gross} gelangt nicht {ueber}, er ist dort {gr(-frei, 'm')} zu tief.")
    knapp = abs(frei) <= F(25, 100)
    kritik = (f"Modellkritik: Der Abstand ist so klein, dass {stoerung} das Ergebnis umkehren können." if knapp else
              "Modellkritik: Das Modell vernachlässigt Luftwiderstand und Wind; bei diesem Abstand ändert das die "
              "Aussage aber nicht.")
    schritte = [
        (f"Höhe am Hindernis: h({dez(d)}) = {einsetzen(ko, d)} = {dez(hd)}.", 2),
        (f"Vergleich: {gr(hd, 'm')} {'>' if frei > 0 else '<'} {gr(t, 'm')}.", 1),
        (f"Scheitelstelle: x = {kl(-ko[1])} : (2 · {kl(ko[0])}) = {dez(xs)}; größte Höhe h({dez(xs)}) = "
         f"{einsetzen(ko, xs)} = {dez(e)}, also {gr(e, 'm')}.", 2),
        (f"Auftreffpunkt: aus h(x) = {dez(-a)} · (x − {dez(xs)})² + {dez(e)} = 0 folgt x = {dez(xs)} + "
         f"√({dez(e)} : {dez(a)}) {ca(land, 2)} (die zweite Lösung liegt hinter dem Abwurfpunkt), also nach "
         f"{'etwa ' if runde(land, 2) != land else ''}{gr(runde(land, 2), 'm')}.", 1),
        (urteil, 1),
        (kritik, 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=14,
                   werte={"h": poly(ko), "abstand": gr(d, "m"), "hindernis": gr(t, "m")},
                   ergebnis={"hoehe_hindernis": gr(hd, "m"), "max": gr(e, "m"), "landung": gr(land, "m", 2),
                             "drueber": "ja" if frei > 0 else "nein"})


# (arch name, sentence, half-spans, heights, vehicle sentence, widths, heights, lane: drive right of the centre line)
DURCHFAHRTEN = (
    ("Tunnel", "Die Einfahrt eines einspurigen Tunnels hat die Form einer Parabel; sie ist am Boden {w} breit und "
     "in der Mitte {h} hoch.", (F(4), F(5)), (F(5), F(11, 2), F(6), F(13, 2)),
     "Ein {fz} ist {b} breit und {t} hoch und fährt genau in der Mitte durch den Tunnel.",
     (F(255, 100), F(25, 10)), (F(32, 10), F(34, 10), F(7, 2), F(36, 10), F(38, 10), F(4)), False,
     ("Lkw", "Reisebus", "Feuerwehrauto")),
    ("Torbogen", "Eine Burg hat ein Tor in Form eines Parabelbogens; es ist am Boden {w} breit und in der Mitte {h} "
     "hoch.", (F(2), F(5, 2)), (F(4), F(9, 2), F(5), F(11, 2)),
     "Ein {fz} ist {b} breit und {t} hoch und fährt mittig durch das Tor.",
     (F(21, 10), F(22, 10), F(23, 10), F(235, 100)), (F(27, 10), F(28, 10), F(29, 10), F(3), F(31, 10), F(33, 10)),
     False, ("Wohnmobil", "Lieferwagen", "Kleinbus")),
    ("Tunnel", "Ein Tunnel mit Gegenverkehr hat einen parabelförmigen Querschnitt; er ist am Boden {w} breit und in "
     "der Mitte {h} hoch.", (F(5),), (F(6), F(13, 2), F(7), F(15, 2)),
     "Ein {fz} ist {b} breit und {t} hoch. Er muss auf seiner Fahrbahnhälfte bleiben und hält 0,2 m Abstand zur "
     "Mittellinie.", (F(255, 100), F(25, 10)), (F(32, 10), F(7, 2), F(38, 10), F(4)), True,
     ("Lkw", "Reisebus", "Tanklastzug")),
)


def build_durchfahrt(rng: random.Random, klasse: int) -> GeneratedTask:
    name, satz, spannen, hoehen, fz_satz, breiten, fz_hoehen, spur, fahrzeuge = wahl(rng, DURCHFAHRTEN)
    fz = fz_satz.replace("{fz}", wahl(rng, fahrzeuge))
    while True:  # arch and vehicle chosen so that the decision is not obvious at a glance
        s, h = wahl(rng, spannen), wahl(rng, hoehen)
        b, t = wahl(rng, breiten), wahl(rng, fz_hoehen)
        rand = F(2, 10) + b if spur else b / 2
        fr = runde(-h / s ** 2 * rand * rand + h, 2)
        if -F(3, 10) <= fr - t <= F(6, 10):
            break
    a, schritte = ansatz_bogen(s, h)
    exakt = a * rand * rand + h
    frei = fr - t
    abstand = F(1, 10)
    passt = frei >= abstand
    text = (satz.format(w=gr(2 * s, "m"), h=gr(h, "m")) + " " + fz.format(b=gr(b, "m"), t=gr(t, "m")) +
            " Aus Sicherheitsgründen soll nach oben mindestens 10 cm Platz bleiben. Beurteile, ob das Fahrzeug "
            f"durch den {name} fahren darf, und bestimme die größte Fahrzeughöhe, die bei dieser Breite erlaubt ist.")
    lage = (f"Die kritische Stelle ist die obere Außenkante des Fahrzeugs bei x = 0,2 + {dez(b)} = {dez(rand)}."
            if spur else f"Die kritische Stelle ist die obere Kante bei x = {dez(b)} : 2 = {dez(rand)}.")
    schritte += [
        (lage, 1),
        (f"f({dez(rand)}) = {einsetzen([a, 0, h], rand)} {ca(exakt, 2)}, dort ist der Bogen etwa {gr(fr, 'm')} "
         "hoch.", 1),
        ((f"Vergleich: {dez(fr)} m − {dez(t)} m = {gr(frei, 'm')} Platz nach oben " if frei >= 0 else
          f"Vergleich: {dez(t)} m − {dez(fr)} m = {gr(-frei, 'm')}, das Fahrzeug ist an der Kante zu hoch ")
         + ("(mindestens 0,1 m)." if passt else "(weniger als die geforderten 0,1 m)."), 1),
        (f"Urteil: Das Fahrzeug {'darf durchfahren' if passt else 'darf nicht durchfahren'}"
         + ("." if passt or frei < 0 else "; es passt zwar knapp, aber ohne den geforderten Sicherheitsabstand."), 1),
        (f"Größte erlaubte Fahrzeughöhe: {dez(fr)} m − 0,1 m = {gr(fr - abstand, 'm')}.", 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=14,
                   werte={"halbe_breite": gr(s, "m"), "hoehe": gr(h, "m"), "fahrzeug_breite": gr(b, "m"),
                          "fahrzeug_hoehe": gr(t, "m"), "spur": "ja" if spur else "nein"},
                   ergebnis={"hoehe_kante": gr(fr, "m"), "passt": "ja" if passt else "nein",
                             "max_hoehe": gr(fr - abstand, "m")})

