"""Physik generators for density: computing ρ = m/V, identifying a substance, judging floating and sinking.

Masses are built as ρ · V from table densities, so the computed density is the textbook value (or within 1 %).
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, runden, tabelle, ungefaehr, z

# densities in g/cm³ as in the usual school tables
_DICHTEN: dict[str, F] = {
    "Glas": F("2.50"), "Aluminium": F("2.70"), "Zink": F("7.14"), "Eisen": F("7.87"), "Messing": F("8.50"),
    "Kupfer": F("8.96"), "Silber": F("10.49"), "Blei": F("11.34"), "Gold": F("19.32"),
}

# --- density of a cuboid ---------------------------------------------------------------------------------------------

_QUADER = (
    # (object, density in g/cm³, edge lengths in cm to choose from)
    ("Ein Quader aus Aluminium", F("2.70"), (2, 3, 4, 5, 6)),
    ("Ein Quader aus Eisen", F("7.87"), (2, 3, 4, 5)),
    ("Ein Holzklotz aus Fichtenholz", F("0.47"), (4, 5, 6, 8, 10)),
    ("Ein Block aus Kerzenwachs", F("0.90"), (3, 4, 5, 6, 8)),
    ("Eine dicke Glasplatte", F("2.50"), (1, 2, 10, 12, 15)),
    ("Ein Pflasterstein aus Beton", F("2.40"), (6, 8, 10, 12)),
)


def _dichte(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    ding, rho, kanten = rng.choice(_QUADER)
    a, b, c = (rng.choice(kanten) for _ in range(3))
    v = a * b * c
    m = rho * v
    in_kg = m >= 1000
    m_text = gr(m / 1000, "kg") if in_kg else gr(m, "g")
    text = (f"{ding} ist {gr(a, 'cm')} lang, {gr(b, 'cm')} breit und {gr(c, 'cm')} hoch. Seine Masse beträgt "
            f"{m_text}. Berechne die Dichte des Stoffes in g/cm³ und in kg/m³.")
    einsetzen = f"ρ = {gr(m, 'g')} / {gr(v, 'cm³')} = {gr(rho, 'g/cm³')}."
    if in_kg:
        einsetzen = f"Mit m = {m_text} = {gr(m, 'g')}: " + einsetzen
    schritte = [
        (f"Volumen: V = a · b · c = {gr(a, 'cm')} · {gr(b, 'cm')} · {gr(c, 'cm')} = {gr(v, 'cm³')}.", 1),
        ("Ansatz: ρ = m / V.", 1),
        (einsetzen, 1),
        (f"Umrechnung: {gr(rho, 'g/cm³')} = {gr(rho * 1000, 'kg/m³')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"a": gr(a, "cm"), "b": gr(b, "cm"), "c": gr(c, "cm"), "m": gr(m, "g")},
                   ergebnis={"rho": gr(rho, "g/cm³"), "rho_kg": gr(rho * 1000, "kg/m³")})


# --- identifying the substance of an irregular body -----------------------------------------------------------------

_KOERPER = (
    # (object in the nominative, possible substances, volumes in cm³)
    ("eine kleine Figur aus Metall", ("Zink", "Messing", "Blei"), (12, 15, 16, 18, 20, 24)),
    ("ein Metallzylinder aus der Physiksammlung", ("Aluminium", "Eisen", "Kupfer", "Messing"), (10, 15, 20, 25, 30)),
    ("ein Briefbeschwerer", ("Glas", "Messing", "Eisen"), (30, 35, 40, 45, 50)),
    ("ein Gewichtsstück ohne Aufschrift", ("Eisen", "Messing", "Zink"), (8, 10, 12, 14)),
    ("ein kleiner „Goldbarren“ vom Flohmarkt", ("Gold", "Messing", "Blei"), (5, 6, 8, 10)),
    ("ein Bauteil von einem alten Fahrrad", ("Aluminium", "Eisen"), (15, 20, 25, 30, 40)),
)


def _stoff_bestimmen(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    ding, stoffe, volumina = rng.choice(_KOERPER)
    stoff, v = rng.choice(stoffe), rng.choice(volumina)
    m = F(runden(_DICHTEN[stoff] * v * (1 + F(rng.choice((-1, 0, 0, 1)), 100)), 1))
    v1 = rng.choice((40, 50, 60))
    rho = m / v
    bester = min(_DICHTEN, key=lambda s: abs(_DICHTEN[s] - rho))
    zeilen = [[s, z(d, 2)] for s, d in sorted(_DICHTEN.items(), key=lambda kv: kv[1])]
    material = tabelle("M1 Dichten einiger Stoffe", ["Stoff", "Dichte in g/cm³"], zeilen)
    text = (f"Lea möchte herausfinden, aus welchem Stoff {ding} besteht. Auf der Waage zeigt der Körper eine Masse "
            f"von {gr(m, 'g', 1)}. Dann taucht sie den Körper vollständig in einen Messzylinder, in dem "
            f"{gr(v1, 'mL')} Wasser stehen; der Wasserstand steigt auf {gr(v1 + v, 'mL')}. Bestimme die Dichte des "
            "Körpers (auf zwei Nachkommastellen) und ermittle mithilfe der Tabelle im Material, aus welchem Stoff er "
            "vermutlich besteht.")
    schritte = [
        (f"Volumen aus der Wasserverdrängung: V = {gr(v1 + v, 'mL')} − {gr(v1, 'mL')} = {gr(v, 'mL')} = "
         f"{gr(v, 'cm³')}.", 1),
        ("Ansatz: ρ = m / V.", 1),
        (f"ρ = {gr(m, 'g', 1)} / {gr(v, 'cm³')} {ungefaehr(rho, 2)} {gr(rho, 'g/cm³', 2)}.", 1),
        (f"Vergleich mit der Tabelle: Der Wert passt am besten zu {bester} ({gr(_DICHTEN[bester], 'g/cm³', 2)}).", 1),
        ("Begründung: Die Dichte ist eine Stoffeigenschaft; kleine Abweichungen entstehen durch Messungenauigkeiten "
         "(Ablesen am Messzylinder, anhaftende Luftblasen).", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, material=material, werte={"m": gr(m, "g", 1), "V": gr(v, "cm³")},
                   ergebnis={"rho": gr(rho, "g/cm³", 2), "stoff": bester})


# --- floating and sinking: judging a claim ---------------------------------------------------------------------------

_SCHWIMMER = (
    # (object, short name, densities in g/cm³, volumes in cm³, liquids: name, "in …" (dative), density)
    ("Ein rohes Ei", "Das Ei", (F("1.06"), F("1.08"), F("1.09")), (50, 55, 60),
     (("Leitungswasser", "in Leitungswasser", F(1)), ("Salzwasser mit wenig Salz", "in Salzwasser mit wenig Salz",
                                                      F("1.05")),
      ("gesättigtes Salzwasser", "in gesättigtem Salzwasser", F("1.20")))),
    ("Ein Eiswürfel", "Der Eiswürfel", (F("0.92"),), (15, 20, 25, 30),
     (("Leitungswasser", "in Leitungswasser", F(1)), ("Speiseöl", "in Speiseöl", F("0.91")),
      ("Spiritus", "in Spiritus", F("0.79")))),
    ("Ein Stück Kerzenwachs", "Das Wachs", (F("0.90"),), (20, 30, 40, 50),
     (("Leitungswasser", "in Leitungswasser", F(1)), ("Speiseöl", "in Speiseöl", F("0.91")),
      ("Spiritus", "in Spiritus", F("0.79")))),
    ("Ein Kunststoffschnipsel aus einer Recyclinganlage", "Der Schnipsel", (F("0.91"), F("0.95"), F("1.05"),
                                                                            F("1.38")), (2, 4, 5),
     (("Wasser", "in Wasser", F(1)), ("die Salzlösung", "in der Salzlösung", F("1.20")),
      ("das Wasser-Alkohol-Gemisch", "im Wasser-Alkohol-Gemisch", F("0.93")))),
    ("Ein Würfel aus Ebenholz", "Der Würfel", (F("1.15"), F("1.25")), (27, 64, 125),
     (("Leitungswasser", "in Leitungswasser", F(1)), ("gesättigtes Salzwasser", "in gesättigtem Salzwasser",
                                                     F("1.20")))),
)


def _verb(schwimmt: bool, wo: str) -> str:
    return f"schwimmt {wo}" if schwimmt else f"geht {wo} unter"


def _schwimmen(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    ding, kurz, dichten, volumina, fluessigkeiten = rng.choice(_SCHWIMMER)
    rho, v = rng.choice(dichten), rng.choice(volumina)
    f1, f2 = rng.sample(fluessigkeiten, 2)
    m = rho * v
    wahr = [rho < f1[2], rho < f2[2]]
    behauptet = list(wahr)
    if rng.random() < 0.6:
        behauptet[rng.randrange(2)] ^= True
    stimmt = behauptet == wahr
    name = rng.choice(("Paul", "Mia", "Can", "Lotta", "Ben", "Emma"))
    if behauptet[0] == behauptet[1]:
        aussage = _verb(behauptet[0], f"{f1[1]} und {f2[1]}")
    else:
        aussage = f"{_verb(behauptet[0], f1[1])}, aber {_verb(behauptet[1], f2[1])}"
    text = (f"{ding} hat die Masse {gr(m, 'g')} und das Volumen {gr(v, 'cm³')}. {name} behauptet: „{kurz} "
            f"{aussage}.“ Beurteile {name}s Behauptung mithilfe "
            f"einer Rechnung (Dichten: {f1[0]} {gr(f1[2], 'g/cm³', 2)}, {f2[0]} {gr(f2[2], 'g/cm³', 2)}).")

    def vergleich(f: tuple[str, str, F]) -> str:
        zeichen = "<" if rho < f[2] else ">"
        return f"{gr(rho, 'g/cm³', 2)} {zeichen} {gr(f[2], 'g/cm³', 2)}: {kurz} {_verb(rho < f[2], f[1])}."

    falsch = [f[0] for f, b, w in zip((f1, f2), behauptet, wahr, strict=True) if b != w]
    urteil = ("Urteil: Die Behauptung trifft vollständig zu." if stimmt else
              f"Urteil: Die Behauptung ist falsch, denn für {falsch[0]} stimmt sie nicht.")
    schritte = [
        ("Ansatz: ρ = m / V.", 1),
        (f"ρ = {gr(m, 'g')} / {gr(v, 'cm³')} = {gr(rho, 'g/cm³', 2)}.", 1),
        ("Schwimmbedingung: Ein Körper schwimmt, wenn seine Dichte kleiner ist als die der Flüssigkeit; ist sie "
         "größer, geht er unter.", 1),
        (vergleich(f1), 1),
        (vergleich(f2), 1),
        (urteil + " Entscheidend ist nicht die Masse allein, sondern die Dichte im Vergleich zur Flüssigkeit.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=8, werte={"m": gr(m, "g"), "V": gr(v, "cm³"), "rho_1": gr(f1[2], "g/cm³", 2),
                                     "rho_2": gr(f2[2], "g/cm³", 2),
                                     "behauptung": " ".join("schwimmt" if b else "sinkt" for b in behauptet)},
                   ergebnis={"rho": gr(rho, "g/cm³", 2), "urteil": "zutreffend" if stimmt else "falsch"})


_SCHLAGWORTE = ("Dichte", "Masse", "Volumen", "Stoffeigenschaft", "Dichte und Druck")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.dichte.berechnen", "physik", "Dichte", "Dichte eines Quaders berechnen",
              (*_SCHLAGWORTE, "ρ = m/V", "Quader"), (7, 8), "I", "Berechnen", _dichte),
    Generator("physik.dichte.stoff_bestimmen", "physik", "Dichte", "Stoff über die Dichte bestimmen",
              (*_SCHLAGWORTE, "Überlaufmethode", "Messzylinder", "Stoff bestimmen"), (7, 9), "II", "Bestimmen",
              _stoff_bestimmen),
    Generator("physik.dichte.schwimmen", "physik", "Dichte", "Schwimmen, Schweben, Sinken",
              (*_SCHLAGWORTE, "Schwimmen", "Sinken", "Auftrieb"), (7, 9), "III", "Beurteilen", _schwimmen),
)
