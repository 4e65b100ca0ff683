"""Physik generators for energy and power: lifting work and power, energy conservation, efficiency, E_kin, and
judging whether an energy-saving device pays off.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import G, aufgabe, euro, gleich, gr, runden, ungefaehr, wert, z

KMH = F(18, 5)

# --- lifting work and power ------------------------------------------------------------------------------------------

_HEBEN = (
    # (situation with {m}, {h}, {t}, masses in kg, heights in m, times in s)
    ("{name} ({m}) läuft im Sportunterricht eine Treppe hinauf und überwindet dabei in {t} einen Höhenunterschied "
     "von {h}.", (45, 50, 55, 60, 65), (6, 9, 12, 15), (8, 10, 12, 15)),
    ("Ein Baukran hebt eine Palette Ziegel mit der Masse {m} in {t} gleichmäßig um {h} nach oben.",
     (400, 500, 600, 800), (10, 12, 15, 20), (20, 25, 30, 40)),
    ("Ein Aufzug hebt die Kabine mit vier Personen (zusammen {m}) in {t} um {h} nach oben.",
     (600, 750, 800, 900), (12, 15, 18, 24), (10, 12, 15, 20)),
)


def _arbeit_leistung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, massen, hoehen, zeiten = rng.choice(_HEBEN)
    m, h, t = rng.choice(massen), rng.choice(hoehen), rng.choice(zeiten)
    kraft = m * G
    arbeit = kraft * h
    leistung = arbeit / t
    situation = vorlage.format(name=rng.choice(("Lina", "Finn", "Elif", "Ole")), m=gr(m, "kg"), h=gr(h, "m"),
                               t=gr(t, "s"))
    text = (f"{situation} Berechne die dabei verrichtete Hubarbeit und die mittlere Leistung (g = 9,81 N/kg; "
            "Leistung auf ganze Watt gerundet).")
    schritte = [
        (f"Gewichtskraft: F_G = m · g = {gr(m, 'kg')} · 9,81 N/kg = {gr(kraft, 'N')}.", 1),
        (f"Hubarbeit: W = F_G · h = {gr(kraft, 'N')} · {gr(h, 'm')} = {gr(arbeit, 'J')}.", 1),
        ("Ansatz: P = W / t.", 1),
        (f"P = {gr(arbeit, 'J')} / {gr(t, 's')} {ungefaehr(leistung, 0)} {gr(leistung, 'W', 0)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"m": gr(m, "kg"), "h": gr(h, "m"), "t": gr(t, "s")},
                   ergebnis={"W": gr(arbeit, "J"), "P": gr(leistung, "W", 0)})


# --- energy conservation ---------------------------------------------------------------------------------------------

_FALLEN = (
    ("Ein Achterbahnwagen startet aus der Ruhe am höchsten Punkt der Bahn, {h} über dem tiefsten Punkt.",
     "im tiefsten Punkt", (20, 25, 30, 40, 45, 50)),
    ("Eine Turmspringerin lässt sich vom {h}-Turm ins Wasser fallen.", "beim Eintauchen", (3, 5, F(15, 2), 10)),
    ("Ein Blumentopf fällt von einem Balkon aus {h} Höhe auf den Gehweg.", "beim Aufprall", (6, 8, 10, 12, 15)),
    ("Ein Skispringer fährt aus der Ruhe den Anlauf einer Sprungschanze hinunter; der Höhenunterschied bis zum "
     "Schanzentisch beträgt {h}.", "am Schanzentisch", (30, 35, 40, 45)),
)


def _energieerhaltung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, wo, hoehen = rng.choice(_FALLEN)
    h = F(rng.choice(hoehen))
    v = math.sqrt(2 * float(G) * float(h))
    v_r = F(runden(v, 1))
    text = (f"{vorlage.format(h=gr(h, 'm'))} Bestimme mithilfe der Energieerhaltung die Geschwindigkeit {wo} in m/s "
            "(auf eine Nachkommastelle) und in km/h (ganzzahlig). Reibung und Luftwiderstand werden vernachlässigt; "
            "g = 9,81 m/s².")
    schritte = [
        ("Energieerhaltung: Die Lageenergie oben wird vollständig in Bewegungsenergie umgewandelt, E_pot = E_kin.", 1),
        ("m · g · h = ½ · m · v², umgestellt v = √(2 · g · h); die Masse kürzt sich heraus.", 1),
        (f"Einsetzen: v = √(2 · 9,81 m/s² · {gr(h, 'm')}).", 1),
        (f"v ≈ {gr(v, 'm/s', 1)}.", 1),
        (f"Umrechnung: {gr(v_r, 'm/s', 1)} = {z(v_r, 1)} · 3,6 km/h ≈ {gr(v * float(KMH), 'km/h', 0)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte={"h": gr(h, "m")},
                   ergebnis={"v": gr(v, "m/s", 1), "v_kmh": gr(v * float(KMH), "km/h", 0)})


# --- efficiency ------------------------------------------------------------------------------------------------------

_MOTOREN = (
    ("Der Elektromotor einer Seilwinde hebt eine Last mit der Masse {m} in {t} um {h} nach oben. Er nimmt dabei "
     "die elektrische Leistung {P} auf.", (50, 80, 100, 120, 150), (2, 3, 4, 5)),
    ("Eine elektrische Pumpe fördert {m} Wasser in {t} in einen {h} höher gelegenen Tank. Sie nimmt dabei die "
     "elektrische Leistung {P} auf.", (100, 150, 200, 250), (3, 4, 5, 6, 8)),
    ("Ein Modellkran im Technikunterricht hebt ein Gewichtsstück mit der Masse {m} in {t} um {h} nach oben. Sein "
     "Motor nimmt dabei die elektrische Leistung {P} auf.", (F(1, 2), 1, F(3, 2), 2), (F(1, 2), 1)),
)


def _wirkungsgrad(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        vorlage, massen, hoehen = rng.choice(_MOTOREN)
        m, h = F(rng.choice(massen)), F(rng.choice(hoehen))
        t = F(rng.choice((4, 5, 8, 10, 12, 15, 20)))
        nutz = m * G * h
        roh = nutz / t / F(rng.choice((45, 55, 60, 70, 75, 80, 85)), 100)  # the power for a typical efficiency
        raster = F(50) if roh >= 200 else (F(5) if roh >= 20 else F(1, 2))
        leistung = max(raster, round(roh / raster) * raster)
        zu = leistung * t
        eta = nutz / zu
        if F(3, 10) <= eta <= F(9, 10):
            break
    wasser = "Wasser" in vorlage
    situation = vorlage.format(m=f"{z(m)} Liter" if wasser else gr(m, "kg"), h=gr(h, "m"), t=gr(t, "s"),
                               P=gr(leistung, "W"))
    text = (f"{situation} Bestimme den Wirkungsgrad (in Prozent, ganzzahlig gerundet) und gib an, was mit der "
            "restlichen Energie geschieht (g = 9,81 N/kg" + ("; 1 Liter Wasser hat die Masse 1 kg)." if wasser
                                                              else ")."))
    schritte = [
        ("Nutzenergie ist die Hubarbeit W = m · g · h.", 1),
        (f"W = {gr(m, 'kg')} · 9,81 N/kg · {gr(h, 'm')} {gleich(nutz, 'J', 2)}.", 1),
        (f"Zugeführte elektrische Energie: E = P · t = {gr(leistung, 'W')} · {gr(t, 's')} = {gr(zu, 'J')}.", 1),
        ("Ansatz: η = E_nutz / E_zu.", 1),
        (f"η = {wert(nutz, 'J', 2)} / {gr(zu, 'J')} {ungefaehr(eta, 2)} {z(eta, 2)} ≈ {z(eta * 100, 0)} %.", 1),
        (f"Die übrigen etwa {z(100 - runden(eta * 100, 0))} % werden vor allem durch Reibung und die Erwärmung von "
         "Motor und Leitungen in thermische Energie umgewandelt (Energieentwertung).", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=8, werte={"m": gr(m, "kg"), "h": gr(h, "m"), "t": gr(t, "s"), "P": gr(leistung, "W")},
                   ergebnis={"eta": f"{z(eta * 100, 0)} %"})


# --- kinetic energy --------------------------------------------------------------------------------------------------

_FAHRZEUGE = (
    ("Ein Kleinwagen", (900, 1000, 1200), (36, 54, 72)),
    ("Ein Transporter", (2000, 2500, 3000), (36, 54, 72, 90)),
    ("Eine Radfahrerin (mit Fahrrad)", (70, 75, 80), (18, F(108, 5), F(126, 5))),
    ("Ein Motorradfahrer (mit Motorrad)", (250, 300, 320), (54, 72, 90, 108)),
)


def _kinetische_energie(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    wer, massen, tempi = rng.choice(_FAHRZEUGE)
    m, v_kmh = rng.choice(massen), F(rng.choice(tempi))
    v = v_kmh / KMH
    e = m * v * v / 2
    text = (f"{wer} hat die Masse {gr(m, 'kg')} und fährt mit {gr(v_kmh, 'km/h')}. Berechne die kinetische Energie. "
            "Berechne außerdem die kinetische Energie bei doppelter Geschwindigkeit und gib an, auf das Wievielfache "
            "sie steigt.")
    schritte = [
        (f"Umrechnung: {gr(v_kmh, 'km/h')} = {gr(v, 'm/s')}.", 1),
        ("Ansatz: E_kin = ½ · m · v².", 1),
        (f"E_kin = ½ · {gr(m, 'kg')} · ({gr(v, 'm/s')})² = {gr(e, 'J')}.", 1),
        (f"Doppelte Geschwindigkeit: E_kin = ½ · {gr(m, 'kg')} · ({gr(2 * v, 'm/s')})² = {gr(4 * e, 'J')}, also das "
         "Vierfache, weil v quadratisch eingeht.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"m": gr(m, "kg"), "v": gr(v_kmh, "km/h")},
                   ergebnis={"E": gr(e, "J"), "E_doppelt": gr(4 * e, "J")})


# --- does an energy-saving device pay off? ---------------------------------------------------------------------------


def _kuehlschrank(rng: random.Random) -> tuple[str, tuple[str, int], F, F, int, str]:
    alt, neu = rng.choice((280, 320, 360, 400)), rng.choice((100, 120, 150))
    kosten, jahre = F(rng.choice((400, 500, 600, 700))), rng.choice((5, 8, 10, 12))
    text = (f"Der alte Kühlschrank von Familie Yilmaz verbraucht laut Messgerät {gr(alt, 'kWh')} pro Jahr. Ein neues, "
            f"gleich großes Gerät kostet {gr(kosten, '€')} und verbraucht laut Energielabel {gr(neu, 'kWh')} pro Jahr. "
            f"Die Familie möchte den Kühlschrank etwa {jahre} Jahre lang nutzen.")
    schritt = (f"Energieeinsparung: {gr(alt, 'kWh')} − {gr(neu, 'kWh')} = {gr(alt - neu, 'kWh')} pro Jahr.", 1)
    aspekt = ("Weiterer Gesichtspunkt: weniger CO₂ bei der Stromerzeugung; dagegen kosten Herstellung und Entsorgung "
              "eines Geräts Energie und Rohstoffe (Altgerät fachgerecht entsorgen, Kältemittel).")
    return text, schritt, F(alt - neu), kosten, jahre, aspekt


def _lampe(rng: random.Random) -> tuple[str, tuple[str, int], F, F, int, str]:
    alt, neu = rng.choice((40, 60, 75)), rng.choice((5, 7, 8, 10))
    stunden, kosten = rng.choice((2, 3, 4, 5)), F(rng.choice((3, 4, 5, 8)))
    de = F((alt - neu) * stunden * 365, 1000)
    text = (f"Im Flur brennt noch eine alte Glühlampe mit {gr(alt, 'W')} täglich etwa {stunden} Stunden. Eine gleich "
            f"helle LED-Lampe mit {gr(neu, 'W')} kostet {gr(kosten, '€')}. Die LED soll mindestens 10 Jahre halten.")
    schritt = (f"Energieeinsparung pro Jahr: ({gr(alt, 'W')} − {gr(neu, 'W')}) · {stunden} h · 365 = "
               f"{gr(de * 1000, 'Wh')} = {gr(de, 'kWh')}.", 1)
    aspekt = ("Weiterer Gesichtspunkt: Die LED hält viel länger (etwa 15 000 h statt 1000 h) und wandelt einen viel "
              "größeren Anteil der Energie in Licht um (höherer Wirkungsgrad, weniger CO₂).")
    return text, schritt, de, kosten, 10, aspekt


def _standby(rng: random.Random) -> tuple[str, tuple[str, int], F, F, int, str]:
    leistung, stunden = rng.choice((5, 8, 10, 12, 15)), rng.choice((18, 20, 22))
    kosten = F(rng.choice((10, 12, 15, 20)))
    de = F(leistung * stunden * 365, 1000)
    text = (f"Fernseher, Spielkonsole und Soundbar einer WG stehen täglich etwa {stunden} Stunden im Standby und "
            f"nehmen dabei zusammen {gr(leistung, 'W')} auf. Eine Steckdosenleiste mit Schalter kostet "
            f"{gr(kosten, '€')} und soll etwa 5 Jahre genutzt werden.")
    schritt = (f"Standby-Energie pro Jahr: {gr(leistung, 'W')} · {stunden} h · 365 = {gr(de * 1000, 'Wh')} = "
               f"{gr(de, 'kWh')}.", 1)
    aspekt = ("Weiterer Gesichtspunkt: Die Leiste muss auch wirklich ausgeschaltet werden; manche Geräte (z. B. "
              "Router, Aufnahmen) brauchen Dauerstrom.")
    return text, schritt, de, kosten, 5, aspekt


def _stromkosten(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    situation, energie_schritt, de, kosten, jahre, aspekt = rng.choice((_kuehlschrank, _lampe, _standby))(rng)
    preis = F(rng.choice((30, 35, 40)), 100)
    ersparnis = de * preis
    gespart = F(runden(ersparnis, 2))  # pupils go on with the rounded amount, and so does the key
    amortisation = kosten / gespart
    bilanz = jahre * gespart - kosten
    lohnt = amortisation < jahre
    text = (f"{situation} Bewerte die Anschaffung. Berechne dazu die Energie- und Kostenersparnis pro Jahr bei einem "
            f"Strompreis von {gr(preis, '€/kWh', 2)} und die Zeit, nach der sich die Anschaffung bezahlt gemacht hat.")
    if amortisation < 2:
        zeit = f"{gleich(amortisation, '', 2)}, also nach etwa {z(amortisation * 12, 0)} Monaten"
    else:
        zeit = f"{gleich(amortisation, '', 1)}, also nach etwa {z(amortisation, 1)} Jahren"
    vergleich = ("die Anschaffung macht sich innerhalb der Nutzungsdauer bezahlt" if lohnt else
                 "innerhalb der Nutzungsdauer macht sich die Anschaffung nicht bezahlt")
    schritte = [
        energie_schritt,
        (f"Kostenersparnis: {wert(de, 'kWh', 2)} · {gr(preis, '€/kWh', 2)} {ungefaehr(ersparnis, 2)} "
         f"{euro(ersparnis)} pro Jahr.", 1),
        (f"Amortisationszeit: {gr(kosten, '€')} / {euro(gespart)} {zeit}.", 1),
        (f"Bilanz über {jahre} Jahre: {jahre} · {euro(gespart)} − {gr(kosten, '€')} = {euro(bilanz)}; "
         f"{vergleich}.", 1),
        (aspekt, 1),
        (("Begründetes Werturteil: Die Anschaffung lohnt sich, weil sie sich vor dem Ende der Nutzungsdauer bezahlt "
          "macht und zusätzlich Energie spart; Rechnung und weitere Gesichtspunkte werden zusammengeführt." if lohnt
          else "Begründetes Werturteil: Finanziell lohnt sich die Anschaffung in diesem Zeitraum nicht; sie lässt sich "
          "nur mit weiteren Gründen (Umwelt, längere Nutzung) rechtfertigen, die gegen die Kosten abgewogen werden."),
         2),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bewerten", afb="III", text=text, schritte=schritte,
                   minuten=12,
                   werte={"dE": gr(de, "kWh"), "preis": gr(preis, "€/kWh", 2), "kosten": gr(kosten, "€"),
                          "jahre": str(jahre)},
                   ergebnis={"ersparnis": euro(ersparnis), "amortisation": z(amortisation, 2),
                             "bilanz": euro(bilanz),
                             "urteil": "lohnt" if lohnt else "lohnt nicht"})


_SCHLAGWORTE = ("Energie", "Leistung", "Arbeit", "Energie und Leistung", "Joule", "Watt")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.energie.arbeit_leistung", "physik", "Energie und Leistung", "Hubarbeit und Leistung",
              (*_SCHLAGWORTE, "Hubarbeit", "mechanische Leistung", "P = W/t"), (8, 9), "I", "Berechnen",
              _arbeit_leistung),
    Generator("physik.energie.energieerhaltung", "physik", "Energie und Leistung", "Energieerhaltung",
              (*_SCHLAGWORTE, "Energieerhaltung", "Lageenergie", "kinetische Energie", "Energieumwandlung"), (9, 10),
              "II", "Bestimmen", _energieerhaltung),
    Generator("physik.energie.wirkungsgrad", "physik", "Energie und Leistung", "Wirkungsgrad",
              (*_SCHLAGWORTE, "Wirkungsgrad", "Energieentwertung", "Elektromotor"), (8, 10), "II", "Bestimmen",
              _wirkungsgrad),
    Generator("physik.energie.kinetische_energie", "physik", "Energie und Leistung", "Kinetische Energie",
              (*_SCHLAGWORTE, "kinetische Energie", "Bewegungsenergie", "E = ½mv²"), (9, 10), "I", "Berechnen",
              _kinetische_energie),
    Generator("physik.energie.stromkosten", "physik", "Energie und Leistung", "Stromkosten und Energiesparen",
              (*_SCHLAGWORTE, "Stromkosten", "kWh", "Energiesparen", "Elektrische Energie"), (8, 10), "III",
              "Bewerten", _stromkosten),
)
