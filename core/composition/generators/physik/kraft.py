"""Physik generators for forces: weight force on other celestial bodies, Hooke's law from a Messreihe, levers.

The lever tasks keep the arms in clean decimals of a metre so that every force comes out exact or is rounded once.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import G, aufgabe, gr, runden, tabelle, terminiert, ungefaehr, z

# --- weight force ----------------------------------------------------------------------------------------------------

_KOERPER = (
    # (who with {m}, masses in kg)
    ("Eine Astronautin hat zusammen mit ihrem Raumanzug die Masse {m}.", (140, 150, 160, 180)),
    ("Ein Mondfahrzeug hat die Masse {m}.", (200, 210, 240, 250)),
    ("Ein Forschungsroboter hat die Masse {m}.", (80, 100, 120, 150)),
    ("Ein Rucksack mit Messgeräten hat die Masse {m}.", (12, 15, 20, 25)),
)
_HIMMELSKOERPER = (("dem Mond", F("1.62")), ("dem Mars", F("3.71")))


def _gewichtskraft(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, massen = rng.choice(_KOERPER)
    m = rng.choice(massen)
    ort, g_ort = rng.choice(_HIMMELSKOERPER)
    text = (f"{vorlage.format(m=gr(m, 'kg'))} Berechne die Gewichtskraft auf der Erde (g = 9,81 N/kg) und auf {ort} "
            f"(g = {gr(g_ort, 'N/kg')}). Gib außerdem die Masse auf {ort} an und begründe kurz.")
    schritte = [
        ("Ansatz: F_G = m · g.", 1),
        (f"Erde: F_G = {gr(m, 'kg')} · 9,81 N/kg = {gr(m * G, 'N')}.", 1),
        (f"{ort.split()[1]}: F_G = {gr(m, 'kg')} · {gr(g_ort, 'N/kg')} = {gr(m * g_ort, 'N')}.", 1),
        (f"Die Masse beträgt auch auf {ort} {gr(m, 'kg')}: Sie ist eine Eigenschaft des Körpers; nur die "
         "Gewichtskraft hängt vom Ortsfaktor ab.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"m": gr(m, "kg"), "g_ort": gr(g_ort, "N/kg")},
                   ergebnis={"F_Erde": gr(m * G, "N"), "F_Ort": gr(m * g_ort, "N")})


# --- Hooke's law from a Messreihe ------------------------------------------------------------------------------------

_FEDERN = (
    "An eine Schraubenfeder werden nacheinander verschiedene Wägestücke gehängt; gemessen werden die Zugkraft F und "
    "die Verlängerung s der Feder.",
    "Für einen selbstgebauten Kraftmesser wird eine Feder untersucht: Man hängt Wägestücke an und misst die Kraft F "
    "sowie die Verlängerung s.",
    "In einem Schülerexperiment wird die Feder einer alten Küchenwaage mit verschiedenen Kräften F gedehnt und die "
    "Verlängerung s gemessen.",
)


def _hooke(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    d = rng.choice((F(1, 10), F(1, 5), F(1, 4), F(2, 5), F(1, 2)))  # N/cm
    schritt = rng.choice([x for x in (F(1, 4), F(1, 2), F(1)) if runden(x / d, 1) == x / d and x / d <= 5])
    kraefte = [schritt * k for k in range(6)]
    dehnungen = [f / d for f in kraefte]
    ueberdehnt = rng.random() < 0.5
    if ueberdehnt:
        dehnungen[-1] = dehnungen[-1] * rng.choice((F(5, 4), F(13, 10), F(7, 5)))
    gueltig = kraefte[-2] if ueberdehnt else kraefte[-1]
    kandidaten = [F(k, 20) for k in range(1, int(gueltig * 20)) if F(k, 20) not in kraefte and F(k, 20) > schritt]
    passend = [f for f in kandidaten if runden(f / d, 1) == f / d]
    f_neu = rng.choice([f for f in passend if runden(f, 1) == f] or passend)  # 2,6 N rather than 2,65 N
    s_neu = f_neu / d
    zeilen = [[z(f, 2), z(s, 1)] for f, s in zip(kraefte, dehnungen, strict=True)]
    material = tabelle("M1 Messreihe an einer Feder", ["Kraft F in N", "Verlängerung s in cm"], zeilen)
    text = (f"{rng.choice(_FEDERN)} Werte die Messreihe im Material aus: Prüfe, ob und in welchem Bereich die Feder "
            "dem Hookeschen Gesetz folgt, bestimme die Federkonstante D und bestimme, um wie viel sich die Feder bei "
            f"einer Kraft von {gr(f_neu, 'N', 2)} verlängert.")
    f1, s1 = kraefte[2], dehnungen[2]
    if ueberdehnt:
        bereich = (f"Folgerung: Bis {gr(gueltig, 'N', 2)} sind F und s proportional (Hookesches Gesetz). Beim letzten "
                   f"Messwert ist die Verlängerung größer als erwartet ({gr(dehnungen[-1], 'cm', 1)} statt "
                   f"{gr(kraefte[-1] / d, 'cm', 1)}): Die Feder wurde überdehnt, dieser Wert gehört nicht dazu.")
    else:
        bereich = ("Folgerung: Im ganzen Messbereich sind F und s proportional, der Graph ist eine Ursprungsgerade; "
                   "die Feder folgt dem Hookeschen Gesetz.")
    schritte = [
        (f"Quotienten F / s gebildet, z. B. {gr(f1, 'N', 2)} / {gr(s1, 'cm', 1)} = {gr(d, 'N/cm', 2)}; für alle "
         f"Messpaare bis {gr(gueltig, 'N', 2)} gleich.", 1),
        (bereich, 2),
        (f"Federkonstante: D = {gr(d, 'N/cm', 2)} = {gr(d * 100, 'N/m')}.", 1),
        ("Ansatz für die Verlängerung: s = F / D.", 1),
        (f"s = {gr(f_neu, 'N', 2)} / {gr(d, 'N/cm', 2)} = {gr(s_neu, 'cm', 1)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Auswerten", afb="II", text=text, schritte=schritte,
                   minuten=9, material=material,
                   werte={"F_schritt": gr(schritt, "N", 2), "F_neu": gr(f_neu, "N", 2),
                          "ueberdehnt": "ja" if ueberdehnt else "nein"},
                   ergebnis={"D": gr(d, "N/cm", 2), "s": gr(s_neu, "cm", 1)})


# --- lever law -------------------------------------------------------------------------------------------------------


def _hebel_wippe(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    while True:
        m1, m2 = rng.sample((20, 24, 25, 30, 32, 36, 40, 45, 48), 2)
        l1 = F(rng.choice((10, 12, 15, 16, 18, 20)), 10)
        l2 = m1 * l1 / m2
        if terminiert(l2) and runden(l2, 2) == l2 and l2 <= 2 and l2 != l1:
            break
    k1, k2 = m1 * G, m2 * G
    text = (f"Auf einer Wippe, deren Balken auf jeder Seite 2,0 m lang ist, sitzt Ella ({gr(m1, 'kg')}) "
            f"{gr(l1, 'm')} vom Drehpunkt entfernt. Bestimme, in welchem Abstand vom Drehpunkt ihr Bruder Noah "
            f"({gr(m2, 'kg')}) auf der anderen Seite sitzen muss, damit die Wippe im Gleichgewicht ist.")
    schritte = [
        ("Hebelgesetz (zweiseitiger Hebel): F₁ · l₁ = F₂ · l₂.", 1),
        (f"Gewichtskräfte: F₁ = {gr(m1, 'kg')} · 9,81 N/kg = {gr(k1, 'N')}, F₂ = {gr(m2, 'kg')} · 9,81 N/kg = "
         f"{gr(k2, 'N')}.", 1),
        ("Umgestellt: l₂ = F₁ · l₁ / F₂.", 1),
        (f"l₂ = {gr(k1, 'N')} · {gr(l1, 'm')} / {gr(k2, 'N')} = {gr(l2, 'm')}.", 1),
        (f"Noah muss {gr(l2, 'm')} vom Drehpunkt entfernt sitzen; das ist auf dem 2,0 m langen Balken möglich "
         f"({'näher' if l2 < l1 else 'weiter außen'} als Ella, weil er {'schwerer' if m2 > m1 else 'leichter'} ist).",
         1),
    ]
    return text, schritte, {"m1": gr(m1, "kg"), "m2": gr(m2, "kg"), "l1": gr(l1, "m")}, {"l2": gr(l2, "m")}


def _hebel_einseitig(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    if rng.random() < 0.5:
        m, l_last, l_kraft = rng.choice((40, 50, 60, 80)), F(rng.choice((3, 4, 5)), 10), F(rng.choice((12, 14, 15)), 10)
        last = m * G
        text = (f"In einer Schubkarre liegen Steine mit der Masse {gr(m, 'kg')}. Ihr Schwerpunkt liegt "
                f"{gr(l_last, 'm')} von der Radachse entfernt, die Griffe {gr(l_kraft, 'm')}. Bestimme die Kraft, mit "
                "der man die Griffe anheben muss (Masse der Karre vernachlässigt; g = 9,81 N/kg).")
        erster = (f"Gewichtskraft der Last: F_L = {gr(m, 'kg')} · 9,81 N/kg = {gr(last, 'N')}.", 1)
        werte = {"F_L": gr(last, "N"), "l_L": gr(l_last, "m"), "l_K": gr(l_kraft, "m")}
    else:
        last = F(rng.choice((1000, 1200, 1500, 2000)))
        l_last, l_kraft = F(rng.choice((2, 3, 4)), 100), F(rng.choice((15, 18, 20)), 100)
        text = (f"Eine Walnuss bricht, wenn auf sie eine Kraft von {gr(last, 'N')} wirkt. Im Nussknacker liegt sie "
                f"{gr(l_last * 100, 'cm')} vom Gelenk entfernt; die Hand drückt {gr(l_kraft * 100, 'cm')} vom Gelenk "
                "entfernt. Bestimme die Kraft, mit der die Hand mindestens drücken muss.")
        erster = ("Erkannt: Der Nussknacker ist ein einseitiger Hebel mit dem Gelenk als Drehpunkt.", 1)
        werte = {"F_L": gr(last, "N"), "l_L": gr(l_last, "m"), "l_K": gr(l_kraft, "m")}
    kraft = last * l_last / l_kraft
    schritte = [
        erster,
        ("Hebelgesetz: F_K · l_K = F_L · l_L.", 1),
        ("Umgestellt: F_K = F_L · l_L / l_K.", 1),
        (f"F_K = {gr(last, 'N')} · {gr(l_last, 'm')} / {gr(l_kraft, 'm')} {ungefaehr(kraft, 0)} {gr(kraft, 'N', 0)}.",
         1),
        ("Deutung: Weil der Kraftarm länger ist als der Lastarm, ist die nötige Kraft kleiner als die Last.", 1),
    ]
    return text, schritte, werte, {"F_K": gr(kraft, "N", 0)}


def _hebel(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = (_hebel_wippe if rng.random() < 0.4 else _hebel_einseitig)(rng)
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte=werte, ergebnis=ergebnis)


# --- lever: can it be done? ------------------------------------------------------------------------------------------

_LASTEN = (
    ("einen schweren Gartenstein an einer Kante anheben", "an den Stein"),
    ("einen Baumstumpf aus der Erde hebeln", "an den Baumstumpf"),
    ("eine schwere Holzkiste an einer Seite anheben, um ein Rollbrett darunterzuschieben", "an die Kiste"),
)
_HELFER = (("Tim", "er"), ("Sara", "sie"), ("Jannik", "er"), ("Merve", "sie"))


def _brechstange(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        last = F(rng.choice((800, 1000, 1200, 1500, 2000)))
        laenge = F(rng.choice((10, 12, 15)), 10)
        l_last = F(rng.choice((10, 15, 20, 25, 30)), 100)
        f_max = F(rng.choice((200, 250, 300, 350)))
        l_kraft = laenge - l_last
        kraft = last * l_last / l_kraft
        if abs(kraft - f_max) > f_max / 10:
            break
    l_min = last * l_last / f_max
    was, ding = rng.choice(_LASTEN)
    name, er = rng.choice(_HELFER)
    moeglich = kraft <= f_max
    text = (f"{name} möchte mit einer {gr(laenge, 'm', 1)} langen Brechstange {was}. Dazu ist am Ende der Stange "
            f"eine Kraft von {gr(last, 'N')} nötig. Als Drehpunkt dient ein Holzklotz {gr(l_last * 100, 'cm')} vom "
            f"Ende entfernt. {name} kann mit den Händen höchstens {gr(f_max, 'N')} aufbringen. Beurteile, ob "
            f"{name} es so schafft, und bestimme, wie lang der Kraftarm mindestens sein müsste.")
    zeichen = "<" if moeglich else ">"
    schritte = [
        ("Hebelgesetz: F_K · l_K = F_L · l_L.", 1),
        (f"Kraftarm: l_K = {gr(laenge, 'm', 1)} − {gr(l_last, 'm', 2)} = {gr(l_kraft, 'm', 2)}.", 1),
        (f"F_K = F_L · l_L / l_K = {gr(last, 'N')} · {gr(l_last, 'm', 2)} / {gr(l_kraft, 'm', 2)} "
         f"{ungefaehr(kraft, 0)} {gr(kraft, 'N', 0)}.", 1),
        (f"Vergleich: {gr(kraft, 'N', 0)} {zeichen} {gr(f_max, 'N')}.", 1),
        (f"Urteil: {name} schafft es {'' if moeglich else 'nicht '}— die nötige Kraft ist "
         f"{'kleiner' if moeglich else 'größer'} als die Kraft, die {er} aufbringen kann.", 1),
        (f"Mindest-Kraftarm: l_K = F_L · l_L / F_max = {gr(last, 'N')} · {gr(l_last, 'm', 2)} / {gr(f_max, 'N')} "
         f"{ungefaehr(l_min, 2)} {gr(l_min, 'm', 2)}.", 1),
        (f"Einordnung: Der vorhandene Kraftarm ({gr(l_kraft, 'm', 2)}) ist länger als der nötige; {name} hat also "
         "Reserve. Je länger der Kraftarm im Verhältnis zum Lastarm, desto kleiner die nötige Kraft." if moeglich else
         f"Abhilfe begründet: Der Kraftarm müsste {gr(l_min, 'm', 2)} statt {gr(l_kraft, 'm', 2)} lang sein; mit "
         f"einer längeren Stange oder einem Drehpunkt näher {ding} (kürzerer Lastarm) wird die nötige Kraft kleiner.",
         1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=10,
                   werte={"F_L": gr(last, "N"), "L": gr(laenge, "m", 1), "l_L": gr(l_last, "m", 2),
                          "F_max": gr(f_max, "N")},
                   ergebnis={"F_K": gr(kraft, "N", 0), "l_min": gr(l_min, "m", 2),
                             "urteil": "möglich" if moeglich else "nicht möglich"})


_SCHLAGWORTE = ("Kraft", "Kräfte", "Mechanik", "Newton")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.kraft.gewichtskraft", "physik", "Kraft", "Gewichtskraft und Masse",
              (*_SCHLAGWORTE, "Gewichtskraft", "Ortsfaktor", "Masse", "Mond"), (7, 8), "I", "Berechnen",
              _gewichtskraft),
    Generator("physik.kraft.hooke", "physik", "Kraft", "Hookesches Gesetz",
              (*_SCHLAGWORTE, "Hookesches Gesetz", "Feder", "Federkonstante", "Messreihe"), (7, 9), "II",
              "Auswerten", _hooke),
    Generator("physik.kraft.hebel", "physik", "Kraft", "Hebelgesetz",
              (*_SCHLAGWORTE, "Hebel", "Hebelgesetz", "Drehmoment", "Wippe"), (7, 9), "II", "Bestimmen", _hebel),
    Generator("physik.kraft.brechstange", "physik", "Kraft", "Hebel im Alltag beurteilen",
              (*_SCHLAGWORTE, "Hebel", "Hebelgesetz", "Kraftarm", "Lastarm"), (8, 9), "III", "Beurteilen",
              _brechstange),
)
