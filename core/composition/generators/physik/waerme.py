"""Physik generators for heat: Q = c·m·ΔT, mixing temperature, a kettle's time and cost, and judging whether it
matters which device heats the water.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, euro, gleich, gr, runden, terminiert, ungefaehr, wert, z

C_WASSER = F("4.19")  # kJ/(kg·K)
_C = "kJ/(kg · K)"

# --- heat ------------------------------------------------------------------------------------------------------------

_ERWAERMEN = (
    # (situation with {m}, {t1}, {t2}, substance, c in kJ/(kg·K), masses in kg, start and end temperatures in °C)
    ("In einem Topf werden {m} Wasser von {t1} auf {t2} erwärmt.", "Wasser", C_WASSER,
     (F("0.5"), 1, F("1.5"), 2, F("2.5"), 3), (12, 15, 18, 20), (60, 80, 90, 100)),
    ("Für ein Bad werden {m} Wasser von {t1} auf {t2} erwärmt.", "Wasser", C_WASSER, (120, 150, 180),
     (10, 12, 15), (36, 37, 38, 40)),
    ("Ein leerer Aluminiumtopf mit der Masse {m} wird auf der Herdplatte von {t1} auf {t2} erhitzt.", "Aluminium",
     F("0.90"), (F("0.8"), 1, F("1.2"), F("1.5")), (18, 20, 22), (120, 150, 180, 200)),
    ("Eine gusseiserne Pfanne mit der Masse {m} wird von {t1} auf {t2} erhitzt.", "Eisen", F("0.45"),
     (F("1.5"), 2, F("2.5"), 3), (18, 20, 22), (150, 180, 200, 220)),
    ("In einer Fritteuse werden {m} Speiseöl von {t1} auf {t2} erhitzt.", "Speiseöl", F("1.97"),
     (1, F("1.5"), 2, F("2.5")), (18, 20, 22), (160, 170, 180)),
)


def _waermemenge(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, stoff, c, massen, starts, ziele = rng.choice(_ERWAERMEN)
    m, t1, t2 = F(rng.choice(massen)), rng.choice(starts), rng.choice(ziele)
    dt = t2 - t1
    q = c * m * dt
    text = (f"{vorlage.format(m=gr(m, 'kg'), t1=gr(t1, '°C'), t2=gr(t2, '°C'))} Berechne die dafür nötige Wärme in "
            f"kJ (auf ganze kJ gerundet). Die spezifische Wärmekapazität von {stoff} beträgt c = {z(c, 2)} {_C}.")
    schritte = [
        (f"Temperaturänderung: ΔT = {gr(t2, '°C')} − {gr(t1, '°C')} = {gr(dt, 'K')}.", 1),
        ("Ansatz: Q = c · m · ΔT.", 1),
        (f"Einsetzen: Q = {z(c, 2)} {_C} · {gr(m, 'kg')} · {gr(dt, 'K')}.", 1),
        (f"Q {ungefaehr(q, 0)} {gr(q, 'kJ', 0)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"m": gr(m, "kg"), "t1": gr(t1, "°C"), "t2": gr(t2, "°C"), "c": z(c, 2)},
                   ergebnis={"Q": gr(q, "kJ", 0)})


# --- mixing temperature ----------------------------------------------------------------------------------------------

_MISCHEN = (
    # (situation, hot part, cold part, masses hot, masses cold, temperatures hot, temperatures cold)
    ("In eine Badewanne laufen {m1} heißes Wasser mit {t1} und {m2} kaltes Wasser mit {t2}.", (40, 50, 60, 80),
     (40, 60, 80, 100), (55, 60, 65), (10, 12, 15)),
    ("Zu {m1} frisch aufgebrühtem Tee mit {t1} gibt Jana {m2} kaltes Wasser mit {t2}.",
     (F("0.2"), F("0.25"), F("0.3")), (F("0.05"), F("0.1"), F("0.15")), (85, 90, 95), (10, 15, 20)),
    ("Bei einem Teilwasserwechsel im Aquarium bleiben {m1} Wasser mit {t1} im Becken; nachgefüllt werden {m2} "
     "Leitungswasser mit {t2}.", (60, 80, 100), (20, 25, 30, 40), (24, 25, 26), (12, 14, 16)),
)


def _mischtemperatur(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        vorlage, heiss_m, kalt_m, heiss_t, kalt_t = rng.choice(_MISCHEN)
        m1, m2 = F(rng.choice(heiss_m)), F(rng.choice(kalt_m))
        t1, t2 = rng.choice(heiss_t), rng.choice(kalt_t)
        tm = (m1 * t1 + m2 * t2) / (m1 + m2)
        if terminiert(tm) and runden(tm, 1) == tm:
            break
    text = (f"{vorlage.format(m1=gr(m1, 'kg'), m2=gr(m2, 'kg'), t1=gr(t1, '°C'), t2=gr(t2, '°C'))} Bestimme die "
            "Mischungstemperatur. Wärmeverluste an die Umgebung werden vernachlässigt.")
    schritte = [
        ("Energiebilanz: Die vom warmen Wasser abgegebene Wärme ist gleich der vom kalten Wasser aufgenommenen "
         "Wärme.", 1),
        ("m₁ · c · (ϑ₁ − ϑ_m) = m₂ · c · (ϑ_m − ϑ₂); c kürzt sich heraus, weil beide Male Wasser.", 1),
        ("Umgestellt: ϑ_m = (m₁ · ϑ₁ + m₂ · ϑ₂) / (m₁ + m₂).", 1),
        (f"ϑ_m = ({gr(m1, 'kg')} · {gr(t1, '°C')} + {gr(m2, 'kg')} · {gr(t2, '°C')}) / ({gr(m1, 'kg')} + "
         f"{gr(m2, 'kg')}) = {gr(tm, '°C')}.", 1),
        (f"Plausibilität: Die Mischungstemperatur liegt zwischen {gr(t2, '°C')} und {gr(t1, '°C')}, näher an der "
         f"Temperatur der {'größeren' if m1 != m2 else 'gleich großen'} Wassermenge.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte={"m1": gr(m1, "kg"), "t1": gr(t1, "°C"), "m2": gr(m2, "kg"), "t2": gr(t2, "°C")},
                   ergebnis={"tm": gr(tm, "°C")})


# --- kettle: time and cost -------------------------------------------------------------------------------------------


def _wasserkocher(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    leistung = F(rng.choice((1800, 2000, 2200, 2400)))
    m = F(rng.choice(("0.5", "0.75", "1", "1.2", "1.5", "1.7")))
    t1 = rng.choice((12, 15, 18, 20))
    eta = F(rng.choice((85, 90)), 100)
    preis = F(rng.choice((30, 35, 40)), 100)
    dt = 100 - t1
    q = C_WASSER * m * dt  # kJ
    e = F(runden(q / eta, 1))  # kJ, rounded as written
    t = e * 1000 / leistung
    kwh = F(runden(e / 3600, 3))
    kosten = kwh * preis
    text = (f"Ein Wasserkocher ({gr(leistung, 'W')}) erhitzt {gr(m, 'L')} Wasser von {gr(t1, '°C')} bis zum Sieden "
            f"(100 °C). {z(eta * 100)} % der elektrischen Energie erwärmen das Wasser. Bestimme die nötige Zeit und "
            f"die Kosten bei einem Strompreis von {gr(preis, '€/kWh', 2)} (c = 4,19 {_C}; 1 L Wasser hat die Masse "
            "1 kg).")
    schritte = [
        (f"Wärme für das Wasser: Q = c · m · ΔT = 4,19 {_C} · {gr(m, 'kg')} · {gr(dt, 'K')} {gleich(q, 'kJ', 1)}.", 2),
        (f"Elektrische Energie: E = Q / η = {wert(q, 'kJ', 1)} / {z(eta, 2)} {ungefaehr(q / eta, 1)} {gr(e, 'kJ')}.",
         1),
        (f"Zeit: t = E / P = {gr(e * 1000, 'J')} / {gr(leistung, 'W')} {gleich(t, 's', 0)} ≈ {gr(t / 60, 'min', 1)}.",
         1),
        (f"Umrechnung mit 1 kWh = 3600 kJ: E = {gr(e, 'kJ')} / 3600 kJ/kWh ≈ {gr(kwh, 'kWh', 3)}.", 1),
        (f"Kosten: {gr(kwh, 'kWh', 3)} · {gr(preis, '€/kWh', 2)} {ungefaehr(kosten, 3)} {gr(kosten, '€', 3)}, also "
         f"etwa {gr(kosten * 100, 'Cent', 1)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=10,
                   werte={"P": gr(leistung, "W"), "m": gr(m, "kg"), "t1": gr(t1, "°C"), "eta": z(eta, 2),
                          "preis": gr(preis, "€/kWh", 2)},
                   ergebnis={"t": gr(t, "s", 0), "kosten": gr(kosten * 100, "Cent", 1)})


# --- does the device matter? -----------------------------------------------------------------------------------------

# (with …, at …, nominative, share of the electrical energy that heats the water)
_GERAETE = (("dem Wasserkocher", "beim Wasserkocher", "der Wasserkocher", F("0.90")),
            ("einem Topf auf der Elektro-Herdplatte", "bei der Herdplatte", "die Herdplatte", F("0.55")),
            ("einem Topf auf dem Induktionsfeld", "beim Induktionsfeld", "das Induktionsfeld", F("0.80")),
            ("der Mikrowelle", "bei der Mikrowelle", "die Mikrowelle", F("0.60")))


def _geraetevergleich(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    (g1, bei1, wer1, eta1), (g2, bei2, _, eta2) = sorted(rng.sample(_GERAETE, 2), key=lambda g: -g[3])
    liter = F(rng.choice((1, F("1.5"), 2)))
    t1 = rng.choice((12, 15))
    preis = F(rng.choice((30, 35, 40)), 100)
    q_kwh = C_WASSER * liter * (100 - t1) / 3600
    q_r = F(runden(q_kwh, 3))
    e1, e2 = F(runden(q_r / eta1, 3)), F(runden(q_r / eta2, 3))
    jahr = (e2 - e1) * 365
    kosten = F(runden(jahr, 1)) * preis
    name = rng.choice(("Malte", "Ayşe", "Jonas", "Frieda"))
    text = (f"In einer WG werden täglich {gr(liter, 'L')} Wasser von {gr(t1, '°C')} zum Sieden gebracht. {name} "
            f"meint: „Es ist egal, ob wir das mit {g1} oder mit {g2} machen – die Wärme für das Wasser ist ja immer "
            f"gleich.“ Bewerte diese Aussage. Der Anteil der elektrischen Energie, der im Wasser ankommt, beträgt "
            f"{bei1} {z(eta1 * 100)} %, {bei2} {z(eta2 * 100)} % (c = 4,19 {_C}; Strompreis "
            f"{gr(preis, '€/kWh', 2)}).")
    schritte = [
        (f"Wärme für das Wasser: Q = 4,19 {_C} · {gr(liter, 'kg')} · {gr(100 - t1, 'K')} ≈ "
         f"{gr(q_kwh * 3600, 'kJ', 0)} ≈ {gr(q_r, 'kWh', 3)}; dieser Teil der Aussage stimmt.", 1),
        (f"Elektrische Energie: {gr(q_r, 'kWh', 3)} / {z(eta1, 2)} ≈ {gr(e1, 'kWh', 3)} bzw. {gr(q_r, 'kWh', 3)} / "
         f"{z(eta2, 2)} ≈ {gr(e2, 'kWh', 3)}.", 2),
        (f"Mehrverbrauch im Jahr: ({gr(e2, 'kWh', 3)} − {gr(e1, 'kWh', 3)}) · 365 {gleich(jahr, 'kWh', 1)}.", 1),
        (f"Mehrkosten im Jahr: {wert(jahr, 'kWh', 1)} · {gr(preis, '€/kWh', 2)} {ungefaehr(kosten, 2)} "
         f"{euro(runden(kosten, 2))}.", 1),
        ("Urteil: Die Aussage ist falsch. Nicht die Wärme für das Wasser, sondern die aufgenommene elektrische "
         f"Energie entscheidet über die Kosten; {wer1} gibt weniger Energie an Gefäß und Umgebung ab.", 1),
        ("Weitere Gesichtspunkte abgewogen, z. B. nur so viel Wasser erhitzen wie nötig, Deckel verwenden, "
         "Zeitersparnis; begründetes Gesamturteil.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bewerten", afb="III", text=text, schritte=schritte,
                   minuten=12,
                   werte={"V": gr(liter, "L"), "t1": gr(t1, "°C"), "eta1": z(eta1, 2), "eta2": z(eta2, 2),
                          "preis": gr(preis, "€/kWh", 2)},
                   ergebnis={"mehr": wert(jahr, "kWh", 1), "kosten": euro(runden(kosten, 2))})


_SCHLAGWORTE = ("Wärme", "Wärmelehre", "Temperatur", "spezifische Wärmekapazität", "Thermodynamik")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.waerme.waermemenge", "physik", "Wärme", "Wärme berechnen",
              (*_SCHLAGWORTE, "Q = c·m·ΔT", "Erwärmen"), (8, 10), "I", "Berechnen", _waermemenge),
    Generator("physik.waerme.mischtemperatur", "physik", "Wärme", "Mischungstemperatur",
              (*_SCHLAGWORTE, "Mischungstemperatur", "Energiebilanz", "Richmannsche Mischungsregel"), (8, 10), "II",
              "Bestimmen", _mischtemperatur),
    Generator("physik.waerme.wasserkocher", "physik", "Wärme", "Wasserkocher: Zeit und Kosten",
              (*_SCHLAGWORTE, "Wasserkocher", "elektrische Energie", "Wirkungsgrad", "Stromkosten"), (8, 10), "II",
              "Bestimmen", _wasserkocher),
    Generator("physik.waerme.geraetevergleich", "physik", "Wärme", "Wasser erhitzen: Geräte vergleichen",
              (*_SCHLAGWORTE, "Wirkungsgrad", "Energiesparen", "Stromkosten"), (8, 10), "III", "Bewerten",
              _geraetevergleich),
)
