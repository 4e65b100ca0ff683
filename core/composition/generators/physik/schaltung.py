"""Physik generators for series and parallel circuits: total resistance, partial voltages and currents, a mixed
circuit, whether a fuse holds, and designing the series resistor of an LED.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, runden, tabelle, terminiert, ungefaehr, z

_WERTE = (10, 12, 15, 20, 24, 30, 40, 50, 60, 80, 100, 120, 150, 200)


def _sauber(x: F, stellen: int) -> bool:
    return terminiert(x) and runden(x, stellen) == x


def _summe(teile: list[str]) -> str:
    return " + ".join(teile)


# --- series circuit --------------------------------------------------------------------------------------------------


def _reihe(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        n = rng.choice((2, 2, 3))
        rs = [F(r) for r in rng.sample(_WERTE, n)]
        u = F(rng.choice((6, 9, 12, 24)))
        r_ges = sum(rs)
        i = u / r_ges
        if _sauber(i, 3) and all(_sauber(r * i, 2) for r in rs):
            break
    namen = ["R₁", "R₂", "R₃"][:n]
    paare = [f"{name} = {gr(r, 'Ω')}" for name, r in zip(namen, rs, strict=True)]
    liste = ", ".join(paare[:-1]) + " und " + paare[-1]
    text = (f"{'Zwei' if n == 2 else 'Drei'} Widerstände {liste} sind in Reihe an eine Spannungsquelle mit "
            f"U = {gr(u, 'V')} angeschlossen. Bestimme den Gesamtwiderstand, die Stromstärke im Stromkreis und die "
            "Teilspannungen an den Widerständen.")
    teil = [r * i for r in rs]
    schritte = [
        (f"Gesamtwiderstand mit R = {_summe(namen)} angesetzt.", 1),
        (f"R = {_summe([gr(r, 'Ω') for r in rs])} = {gr(r_ges, 'Ω')}.", 1),
        ("Stromstärke mit I = U / R angesetzt.", 1),
        (f"I = {gr(u, 'V')} / {gr(r_ges, 'Ω')} = {gr(i, 'A')}.", 1),
    ]
    for k, (name, r, ut) in enumerate(zip(namen, rs, teil, strict=True), start=1):
        zeile = f"U{'₁₂₃'[k - 1]} = {name} · I = {gr(r, 'Ω')} · {gr(i, 'A')} = {gr(ut, 'V')}"
        if k == n:
            zeile += f" (Kontrolle: {_summe([gr(x, 'V') for x in teil])} = {gr(u, 'V')})"
        schritte.append((zeile + ".", 1))
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=4 + 2 * n,
                   werte={"U": gr(u, "V"), **{f"R{k}": gr(r, "Ω") for k, r in enumerate(rs, start=1)}},
                   ergebnis={"R": gr(r_ges, "Ω"), "I": gr(i, "A"),
                             **{f"U{k}": gr(x, "V") for k, x in enumerate(teil, start=1)}})


# --- parallel circuit ------------------------------------------------------------------------------------------------


def _parallel(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        r1, r2 = (F(r) for r in rng.sample(_WERTE, 2))
        u = F(rng.choice((6, 9, 12, 24)))
        i1, i2 = u / r1, u / r2
        r = r1 * r2 / (r1 + r2)
        if _sauber(i1, 2) and _sauber(i2, 2) and _sauber(r, 1):
            break
    i = i1 + i2
    text = (f"Die Widerstände R₁ = {gr(r1, 'Ω')} und R₂ = {gr(r2, 'Ω')} sind parallel an eine Spannung von "
            f"{gr(u, 'V')} angeschlossen. Ermittle die Stromstärken in beiden Zweigen, die Gesamtstromstärke und den "
            "Gesamtwiderstand der Schaltung.")
    schritte = [
        (f"Erkannt, dass an beiden Widerständen die volle Spannung von {gr(u, 'V')} anliegt.", 1),
        (f"I₁ = U / R₁ = {gr(u, 'V')} / {gr(r1, 'Ω')} = {gr(i1, 'A')}.", 1),
        (f"I₂ = U / R₂ = {gr(u, 'V')} / {gr(r2, 'Ω')} = {gr(i2, 'A')}.", 1),
        (f"Gesamtstromstärke nach der Knotenregel: I = I₁ + I₂ = {gr(i1, 'A')} + {gr(i2, 'A')} = {gr(i, 'A')}.", 1),
        ("Gesamtwiderstand R = U / I (oder 1/R = 1/R₁ + 1/R₂) angesetzt.", 1),
        (f"R = {gr(u, 'V')} / {gr(i, 'A')} = {gr(r, 'Ω')}; kleiner als jeder Einzelwiderstand.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Ermitteln", afb="II", text=text, schritte=schritte,
                   minuten=8, werte={"U": gr(u, "V"), "R1": gr(r1, "Ω"), "R2": gr(r2, "Ω")},
                   ergebnis={"I1": gr(i1, "A"), "I2": gr(i2, "A"), "I": gr(i, "A"), "R": gr(r, "Ω")})


# --- mixed circuit ---------------------------------------------------------------------------------------------------


def _gemischt(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        r1, r2, r3 = (F(r) for r in rng.sample(_WERTE, 3))
        u = F(rng.choice((6, 9, 12, 24)))
        r23 = r2 * r3 / (r2 + r3)
        r_ges = r1 + r23
        i = u / r_ges
        u1, u23 = r1 * i, r23 * i
        if _sauber(r23, 1) and _sauber(i, 3) and _sauber(u1, 2) and _sauber(u23 / r2, 3) and _sauber(u23 / r3, 3):
            break
    i2, i3 = u23 / r2, u23 / r3
    text = (f"Der Widerstand R₁ = {gr(r1, 'Ω')} ist in Reihe zu einer Parallelschaltung aus R₂ = {gr(r2, 'Ω')} und "
            f"R₃ = {gr(r3, 'Ω')} geschaltet; die Schaltung liegt an U = {gr(u, 'V')}. Bestimme den Gesamtwiderstand, "
            "die Gesamtstromstärke, die Spannung an R₁ und die Stromstärken durch R₂ und R₃.")
    schritte = [
        (f"Ersatzwiderstand der Parallelschaltung: R₂₃ = R₂ · R₃ / (R₂ + R₃) = {gr(r2, 'Ω')} · {gr(r3, 'Ω')} / "
         f"({gr(r2, 'Ω')} + {gr(r3, 'Ω')}) = {gr(r23, 'Ω')}.", 2),
        (f"Gesamtwiderstand: R = R₁ + R₂₃ = {gr(r1, 'Ω')} + {gr(r23, 'Ω')} = {gr(r_ges, 'Ω')}.", 1),
        (f"Gesamtstromstärke: I = U / R = {gr(u, 'V')} / {gr(r_ges, 'Ω')} = {gr(i, 'A')}.", 1),
        (f"U₁ = R₁ · I = {gr(r1, 'Ω')} · {gr(i, 'A')} = {gr(u1, 'V')}; an der Parallelschaltung liegen "
         f"U₂₃ = {gr(u, 'V')} − {gr(u1, 'V')} = {gr(u23, 'V')}.", 1),
        (f"I₂ = U₂₃ / R₂ = {gr(u23, 'V')} / {gr(r2, 'Ω')} = {gr(i2, 'A')} und I₃ = {gr(u23, 'V')} / {gr(r3, 'Ω')} = "
         f"{gr(i3, 'A')} (Kontrolle: {gr(i2, 'A')} + {gr(i3, 'A')} = {gr(i, 'A')}).", 2),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=11, werte={"U": gr(u, "V"), "R1": gr(r1, "Ω"), "R2": gr(r2, "Ω"), "R3": gr(r3, "Ω")},
                   ergebnis={"R": gr(r_ges, "Ω"), "I": gr(i, "A"), "U1": gr(u1, "V"), "I2": gr(i2, "A"),
                             "I3": gr(i3, "A")})


# --- does the fuse hold? ---------------------------------------------------------------------------------------------

_HAUSHALT = (("Wasserkocher", "m", 2000), ("Toaster", "m", 900), ("Föhn", "m", 1800), ("Staubsauger", "m", 700),
             ("Mikrowelle", "f", 800), ("Kaffeemaschine", "f", 1000), ("Heizlüfter", "m", 2000),
             ("Bügeleisen", "n", 2200), ("Fernseher", "m", 120), ("Wäschetrockner", "m", 2500), ("Laptop", "m", 65))
_EIN = {"m": "ein", "f": "eine", "n": "ein"}
_DEN = {"m": "den", "f": "die", "n": "das"}
_ORTE = ("In einer Küche", "In einem Partykeller", "In einer WG", "In einem Ferienhaus")


def _sicherung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        geraete = [(f"{_EIN[g]} {name}", f"{_DEN[g]} {name}", w) for name, g, w in rng.sample(_HAUSHALT, 3)]
        sicherung = F(rng.choice((10, 16)))
        p = sum(w for _, _, w in geraete)
        i = F(p, 230)
        if abs(i - sicherung) > 1:
            break
    haelt = i <= sicherung
    namen = ", ".join(f"{g} ({gr(w, 'W')})" for g, _, w in geraete[:-1]) + f" und {geraete[-1][0]} " \
                                                                               f"({gr(geraete[-1][2], 'W')})"
    text = (f"{rng.choice(_ORTE)} sollen an einer Steckdosenleiste gleichzeitig {namen} betrieben werden. Der "
            f"Stromkreis ist mit {gr(sicherung, 'A')} abgesichert, die Netzspannung beträgt 230 V. Beurteile, ob das "
            "möglich ist.")
    ohne = next(((den, w) for _, den, w in sorted(geraete, key=lambda gw: -gw[2]) if F(p - w, 230) <= sicherung),
                None)
    if haelt:
        folge = "Urteil: Der Betrieb ist möglich, die Sicherung hält" + (
            "; es bleibt aber wenig Reserve für weitere Geräte." if sicherung - i < 3 else ".")
    else:
        rat = (f" Ohne {ohne[0]} wären es nur etwa {gr(F(p - ohne[1], 230), 'A', 1)}, dann würde sie halten."
               if ohne else "")
        folge = ("Urteil: Betrieb nicht möglich bzw. nicht zulässig – die Sicherung löst aus; ohne Sicherung würden "
                 f"sich die Leitungen gefährlich erwärmen (Brandgefahr).{rat}")
    schritte = [
        ("Erkannt, dass die Geräte parallel geschaltet sind und sich die Leistungen bzw. Stromstärken addieren.", 1),
        (f"Gesamtleistung P = {_summe([gr(w, 'W') for _, _, w in geraete])} = {gr(p, 'W')}.", 1),
        ("Ansatz I = P / U.", 1),
        (f"I = {gr(p, 'W')} / 230 V {ungefaehr(i, 1)} {gr(i, 'A', 1)}.", 1),
        (f"Vergleich: {gr(i, 'A', 1)} {'<' if haelt else '>'} {gr(sicherung, 'A')}, die Sicherung "
         f"{'hält' if haelt else 'löst aus'}.", 1),
        (folge, 2),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=10, werte={"P": gr(p, "W"), "sicherung": gr(sicherung, "A")},
                   ergebnis={"I": gr(i, "A", 1), "urteil": "hält" if haelt else "löst aus"})


# --- designing the series resistor of an LED -------------------------------------------------------------------------

_E12 = (100, 120, 150, 180, 220, 270, 330, 390, 470, 560, 680, 820, 1000, 1200, 1500)
_LEDS = (("rote", F("1.8")), ("gelbe", F("2.0")), ("grüne", F("2.2")), ("blaue", F("3.0")), ("weiße", F("3.2")))
_QUELLEN = (("einem USB-Anschluss (5 V)", 5), ("einem 9-V-Block", 9), ("einem 12-V-Netzteil", 12))


def _vorwiderstand(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    farbe, u_led = rng.choice(_LEDS)
    quelle, u = rng.choice(_QUELLEN)
    i = F(rng.choice((10, 15, 20)), 1000)
    u_r = u - u_led
    r = u_r / i
    r_wahl = next(w for w in _E12 if w >= r)
    i_ist = u_r / r_wahl
    p_r = u_r * F(runden(i_ist * 1000, 1)) / 1000  # with the rounded current, as the pupil goes on
    material = tabelle("M1 Vorrätige Widerstände (E12-Reihe)", ["Widerstand in Ω"],
                       [[", ".join(z(w) for w in _E12)]])
    text = (f"Eine {farbe} LED soll an {quelle} leuchten. Laut Datenblatt fällt an ihr eine Spannung von "
            f"{gr(u_led, 'V', 1)} ab, der Strom darf höchstens {gr(i * 1000, 'mA')} betragen. Entwickle eine "
            "Schaltung, mit der die LED sicher betrieben werden kann: Bestimme den nötigen Vorwiderstand, wähle einen "
            "passenden Widerstand aus dem Material aus und begründe deine Wahl mit einer Kontrollrechnung.")
    schritte = [
        ("Idee: Ein Vorwiderstand wird in Reihe zur LED geschaltet; an ihm fällt die überschüssige Spannung ab.", 1),
        (f"Spannung am Vorwiderstand: U_R = {gr(u, 'V')} − {gr(u_led, 'V', 1)} = {gr(u_r, 'V', 1)}.", 1),
        (f"R = U_R / I = {gr(u_r, 'V', 1)} / {gr(i, 'A')} {ungefaehr(r, 0)} {gr(r, 'Ω', 0)}.", 1),
        (f"Auswahl: {gr(r_wahl, 'Ω')} – " + ("dieser Wert ist genau vorrätig; ein kleinerer ließe einen zu großen "
                                              "Strom zu." if r_wahl == r else "der nächstgrößere vorrätige Wert, "
                                              "denn ein kleinerer Widerstand ließe einen zu großen Strom zu."), 2),
        (f"Kontrolle: I = {gr(u_r, 'V', 1)} / {gr(r_wahl, 'Ω')} {ungefaehr(i_ist * 1000, 1)} "
         f"{gr(i_ist * 1000, 'mA', 1)} ≤ {gr(i * 1000, 'mA')}; die LED leuchtet etwas schwächer, wird aber nicht "
         "überlastet.", 1),
        (f"Leistung am Widerstand: P = U_R · I = {gr(u_r, 'V', 1)} · {gr(i_ist * 1000, 'mA', 1)} ≈ "
         f"{gr(p_r * 1000, 'mW', 0)}; ein üblicher 0,25-W-Widerstand reicht.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Entwickeln", afb="III", text=text, schritte=schritte,
                   minuten=11, material=material,
                   werte={"U": gr(u, "V"), "U_LED": gr(u_led, "V", 1), "I_max": gr(i * 1000, "mA")},
                   ergebnis={"R": gr(r, "Ω", 0), "R_wahl": gr(r_wahl, "Ω"), "I": gr(i_ist * 1000, "mA", 1)})


_SCHLAGWORTE = ("Reihenschaltung", "Parallelschaltung", "Stromkreis", "Widerstand", "Elektrizitätslehre",
                "Reihen- und Parallelschaltung")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.schaltung.reihe", "physik", "Reihen- und Parallelschaltung", "Reihenschaltung von Widerständen",
              (*_SCHLAGWORTE, "Teilspannungen", "Maschenregel"), (8, 10), "II", "Bestimmen", _reihe),
    Generator("physik.schaltung.parallel", "physik", "Reihen- und Parallelschaltung",
              "Parallelschaltung von Widerständen", (*_SCHLAGWORTE, "Knotenregel", "Teilströme"), (8, 10), "II",
              "Ermitteln", _parallel),
    Generator("physik.schaltung.gemischt", "physik", "Reihen- und Parallelschaltung", "Gemischte Schaltung",
              (*_SCHLAGWORTE, "gemischte Schaltung", "Ersatzwiderstand"), (9, 10), "II", "Bestimmen", _gemischt),
    Generator("physik.schaltung.sicherung", "physik", "Reihen- und Parallelschaltung", "Sicherung im Haushalt",
              (*_SCHLAGWORTE, "Sicherung", "Steckdosenleiste", "elektrische Leistung", "Haushalt"), (8, 10), "III",
              "Beurteilen", _sicherung),
    Generator("physik.schaltung.vorwiderstand", "physik", "Reihen- und Parallelschaltung", "Vorwiderstand einer LED",
              (*_SCHLAGWORTE, "Vorwiderstand", "LED", "Leuchtdiode"), (9, 10), "III", "Entwickeln", _vorwiderstand),
)
