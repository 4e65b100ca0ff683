"""Physik generators for Ohm's law: resistance, solving for current or voltage, U-I characteristics from a table,
and judging how dangerous a voltage is for the human body.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, runden, tabelle, terminiert, ungefaehr, z

# --- resistance ------------------------------------------------------------------------------------------------------

_GERAETE_R = (
    # (device phrase, voltages in V, currents in A)
    ("einer Fahrradlampe, die an einer Spannung von {U} betrieben wird und durch die ein Strom der Stärke {I} fließt",
     (6,), (F("0.25"), F("0.3"), F("0.4"), F("0.5"))),
    ("des Lämpchens einer Taschenlampe, das an {U} angeschlossen ist und durch das ein Strom von {I} fließt",
     (3, F("4.5")), (F("0.2"), F("0.25"), F("0.3"), F("0.5"))),
    ("eines Autoscheinwerfers, der an der Bordspannung von {U} einen Strom von {I} aufnimmt", (12,),
     (F("2.5"), 3, 4, 5)),
    ("des Heizdrahts eines Toasters, der an {U} angeschlossen ist und durch den ein Strom von {I} fließt", (230,),
     (2, F("2.5"), 4, 5)),
    ("des Motors einer Modelleisenbahn-Lok, der an {U} einen Strom von {I} aufnimmt", (12, 16),
     (F("0.4"), F("0.5"), F("0.8"))),
)


def _widerstand(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        geraet, spannungen, stroeme = rng.choice(_GERAETE_R)
        u, i = F(rng.choice(spannungen)), F(rng.choice(stroeme))
        r = u / i
        if terminiert(r) and runden(r, 1) == r:
            break
    u_text, i_text = gr(u, "V"), gr(i, "A")
    text = f"Berechne den elektrischen Widerstand {geraet.format(U=u_text, I=i_text)}."
    schritte = [
        ("Ansatz: R = U / I.", 1),
        (f"Einsetzen mit Einheiten: R = {u_text} / {i_text}.", 1),
        (f"R = {gr(r, 'Ω')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=4, werte={"U": u_text, "I": i_text}, ergebnis={"R": gr(r, "Ω")})


# --- solving Ohm's law for I or U ------------------------------------------------------------------------------------


def _umstellen(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    art = rng.randrange(3)
    if art == 0:
        u, r = F(230), F(rng.choice((23, 46, 50, 92, 115)))
        i = u / r
        text = (f"Ein Heizlüfter hat im Betrieb einen Widerstand von {gr(r, 'Ω')} und ist an die Netzspannung "
                f"{gr(u, 'V')} angeschlossen. Berechne die Stromstärke.")
        schritte = [("Ansatz umgestellt: I = U / R.", 1), (f"Einsetzen: I = {gr(u, 'V')} / {gr(r, 'Ω')}.", 1),
                    (f"I = {gr(i, 'A')}.", 1)]
        return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                       minuten=4, werte={"U": gr(u, "V"), "R": gr(r, "Ω")}, ergebnis={"I": gr(i, "A")})
    if art == 1:
        u, r = F(rng.choice((3, F("4.5"), 6, 9))), F(rng.choice((9, 12, 15, 18, 20, 30)))
        i = u / r
        text = (f"Ein Lämpchen mit dem Widerstand {gr(r, 'Ω')} wird an eine Batterie mit der Spannung {gr(u, 'V')} "
                "angeschlossen. Berechne die Stromstärke in mA (auf ganze mA gerundet).")
        schritte = [("Ansatz umgestellt: I = U / R.", 1), (f"Einsetzen: I = {gr(u, 'V')} / {gr(r, 'Ω')}.", 1),
                    (f"I {ungefaehr(i * 1000, 0)} {gr(i * 1000, 'mA', 0)}.", 1)]
        return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                       minuten=4, werte={"U": gr(u, "V"), "R": gr(r, "Ω")}, ergebnis={"I": gr(i * 1000, "mA", 0)})
    r, i_ma = F(rng.choice((47, 100, 150, 220, 330, 470))), F(rng.choice((10, 15, 20, 25, 30)))
    u = r * i_ma / 1000
    text = (f"Durch einen Widerstand von {gr(r, 'Ω')} in einer Elektronikschaltung fließt ein Strom von "
            f"{gr(i_ma, 'mA')}. Berechne die Spannung, die am Widerstand anliegt.")
    schritte = [("Ansatz umgestellt: U = R · I.", 1),
                (f"Umrechnen und einsetzen: I = {gr(i_ma, 'mA')} = {gr(i_ma / 1000, 'A')}, also U = {gr(r, 'Ω')} · "
                 f"{gr(i_ma / 1000, 'A')}.", 1),
                (f"U = {gr(u, 'V')}.", 1)]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=4, werte={"R": gr(r, "Ω"), "I": gr(i_ma, "mA")}, ergebnis={"U": gr(u, "V")})


# --- U-I characteristics from a table --------------------------------------------------------------------------------

_BAUTEILE = (("ein Konstantandraht", "eine Glühlampe"), ("ein Kohleschichtwiderstand", "ein Glühlämpchen"),
             ("ein Widerstand aus der Physiksammlung", "die Glühlampe einer alten Schreibtischlampe"))
_VERSUCHE = (
    "An zwei Bauteilen wurde bei verschiedenen Spannungen die Stromstärke gemessen (Material).",
    "In einem Schülerexperiment hat eine Gruppe die Stromstärke durch zwei Bauteile bei verschiedenen Spannungen "
    "gemessen (Material).",
    "Für zwei Bauteile wurden I-U-Kennlinien aufgenommen; die Messwerte stehen im Material.",
)


def _kennlinie(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    schritt = F(rng.choice((1, 2, 3)))
    spannungen = [schritt * k for k in range(1, 5)]
    r_draht = F(rng.choice((10, 20, 25, 40, 50)))
    r0, dr = F(rng.choice((8, 10, 12))), F(rng.choice((2, 3, 4)))
    i_draht = [u / r_draht * 1000 for u in spannungen]
    i_lampe = [F(runden(u / (r0 + dr * k) * 1000, 0)) for k, u in enumerate(spannungen)]
    r_lampe = [u / (i / 1000) for u, i in zip(spannungen, i_lampe, strict=True)]
    draht_ist_a = rng.random() < 0.5
    spalte_a, spalte_b = (i_draht, i_lampe) if draht_ist_a else (i_lampe, i_draht)
    zeilen = [[z(u), z(a, 0), z(b, 0)] for u, a, b in zip(spannungen, spalte_a, spalte_b, strict=True)]
    material = tabelle("M1 Messreihen an zwei Bauteilen", ["U in V", "I in mA (Bauteil A)", "I in mA (Bauteil B)"],
                       zeilen)
    draht, lampe = ("A", "B") if draht_ist_a else ("B", "A")
    ohmsch, gluehend = rng.choice(_BAUTEILE)
    text = (f"{rng.choice(_VERSUCHE)} Eines der Bauteile ist {ohmsch}, das andere {gluehend}. Werte die Messreihen "
            "aus: Entscheide begründet, für welches Bauteil das ohmsche Gesetz gilt und welches Bauteil die Lampe ist, "
            "und gib eine physikalische Ursache für das Verhalten der Lampe an.")
    u1 = spannungen[0]
    quotienten = "; ".join(f"{gr(u, 'V')} / {gr(i, 'mA', 0)} {ungefaehr(r, 0)} {gr(r, 'Ω', 0)}"
                           for u, i, r in zip(spannungen, i_lampe, r_lampe, strict=True))
    schritte = [
        (f"Bauteil {draht}: Quotienten U / I gebildet, z. B. {gr(u1, 'V')} / {gr(i_draht[0], 'mA', 0)} = "
         f"{gr(r_draht, 'Ω')}; für alle Messpaare {gr(r_draht, 'Ω')}.", 1),
        (f"Folgerung: Bei Bauteil {draht} sind U und I proportional, der Widerstand ist konstant – das ohmsche Gesetz "
         f"gilt; Bauteil {draht} ist {ohmsch}.", 1),
        (f"Bauteil {lampe}: Quotienten U / I: {quotienten}.", 1),
        (f"Folgerung: Der Widerstand von Bauteil {lampe} steigt mit der Spannung, U und I sind nicht proportional; "
         f"Bauteil {lampe} ist die Lampe.", 1),
        ("Ursache: Der Glühdraht erwärmt sich mit steigender Stromstärke stark.", 1),
        ("Der Widerstand eines Metalls nimmt mit der Temperatur zu (die Atomrümpfe schwingen stärker und behindern die "
         "Elektronen).", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Auswerten", afb="II", text=text, schritte=schritte,
                   minuten=9, material=material,
                   werte={"U_schritt": gr(schritt, "V"), "I_lampe": " ".join(z(i, 0) for i in i_lampe)},
                   ergebnis={"R_draht": gr(r_draht, "Ω"), "draht": draht, "lampe": lampe})


# --- how dangerous is a voltage? -------------------------------------------------------------------------------------

_QUELLEN = (
    ("die Anschlüsse eines 12-V-Trafos für Halogenlampen", 12),
    ("die Anschlüsse eines 24-V-Trafos einer Modellbahn", 24),
    ("die Klemmen eines 42-V-Trafos für Baustellenlampen", 42),
    ("die Kontakte einer 230-V-Steckdose", 230),
    ("die Anschlussklemmen eines 400-V-Herdanschlusses", 400),
)
_WIRKUNGEN = (
    (F(1, 2), "nicht spürbar"),
    (F(10), "spürbar, Kribbeln und Muskelzucken"),
    (F(50), "Verkrampfung der Muskeln, Loslassen kaum möglich"),
    (None, "Lebensgefahr durch Herzkammerflimmern"),
)


def _wirkung(i_ma: F) -> str:
    return next(text for grenze, text in _WIRKUNGEN if grenze is None or i_ma < grenze)


def _koerperstrom(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    quelle, u = rng.choice(_QUELLEN)
    r_trocken, r_nass = F(rng.choice((20, 50, 100))), F(rng.choice((1, F(3, 2), 2)))
    i_trocken, i_nass = F(u) / r_trocken, F(u) / r_nass  # V / kΩ = mA
    stimmt = i_nass < 50
    name = rng.choice(("Leon", "Hanna", "Deniz", "Marie"))
    material = tabelle("M1 Wirkung von Wechselstrom auf den menschlichen Körper (Richtwerte)",
                       ["Stromstärke durch den Körper", "Wirkung"],
                       [["unter 0,5 mA", "nicht spürbar"], ["0,5 mA bis 10 mA", "spürbar, Kribbeln und Muskelzucken"],
                        ["10 mA bis 50 mA", "Verkrampfung der Muskeln, Loslassen kaum möglich"],
                        ["über 50 mA", "Lebensgefahr durch Herzkammerflimmern"]])
    text = (f"{name} meint: „Wenn man {quelle} berührt, besteht selbst mit nassen Händen keine Lebensgefahr.“ Der "
            f"Widerstand des Körpers beträgt bei trockener Haut etwa {gr(r_trocken, 'kΩ')}, bei nasser Haut nur etwa "
            f"{gr(r_nass, 'kΩ')}. Beurteile die Aussage mithilfe einer Rechnung und des Materials.")
    schritte = [
        ("Ansatz: I = U / R.", 1),
        (f"Trockene Haut: I = {gr(u, 'V')} / {gr(r_trocken, 'kΩ')} {ungefaehr(i_trocken, 1)} "
         f"{gr(i_trocken, 'mA', 1)}.", 1),
        (f"Nasse Haut: I = {gr(u, 'V')} / {gr(r_nass, 'kΩ')} {ungefaehr(i_nass, 0)} {gr(i_nass, 'mA', 0)}.", 1),
        (f"Einordnung mit dem Material: trocken „{_wirkung(i_trocken)}“, nass „{_wirkung(i_nass)}“.", 1),
        (("Urteil: Die Aussage trifft nach den Richtwerten zu, die Stromstärke bleibt unter 50 mA; ungefährlich ist "
          "die Berührung trotzdem nicht, wenn die Stromstärke über 10 mA liegt." if stimmt and i_nass >= 10 else
          "Urteil: Die Aussage trifft nach den Richtwerten zu, die Stromstärke bleibt auch bei nasser Haut unter "
          "50 mA." if stimmt else
          "Urteil: Die Aussage ist falsch: Mit nassen Händen liegt die Stromstärke deutlich über 50 mA, es besteht "
          "Lebensgefahr."), 1),
        ("Ergänzung: Der Hautwiderstand kann plötzlich stark sinken (Schweiß, Wasser, Verletzung); deshalb gelten nur "
         "Spannungen bis 50 V Wechselspannung als Schutzkleinspannung, und Steckdosenkreise werden mit "
         "FI-Schutzschaltern abgesichert.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=9, material=material,
                   werte={"U": gr(u, "V"), "R_trocken": gr(r_trocken, "kΩ"), "R_nass": gr(r_nass, "kΩ")},
                   ergebnis={"I_trocken": gr(i_trocken, "mA", 1), "I_nass": gr(i_nass, "mA", 0),
                             "urteil": "zutreffend" if stimmt else "falsch"})


_SCHLAGWORTE = ("Ohmsches Gesetz", "Widerstand", "Stromstärke", "Spannung", "Elektrizitätslehre", "Stromkreis")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.ohm.widerstand", "physik", "Ohmsches Gesetz", "Widerstand berechnen",
              (*_SCHLAGWORTE, "R = U/I"), (8, 9), "I", "Berechnen", _widerstand),
    Generator("physik.ohm.umstellen", "physik", "Ohmsches Gesetz", "Stromstärke oder Spannung berechnen",
              (*_SCHLAGWORTE, "U = R · I", "I = U/R"), (8, 9), "I", "Berechnen", _umstellen),
    Generator("physik.ohm.kennlinie", "physik", "Ohmsches Gesetz", "Kennlinien auswerten",
              (*_SCHLAGWORTE, "Kennlinie", "Messreihe", "Glühlampe", "Konstantandraht"), (8, 10), "II", "Auswerten",
              _kennlinie),
    Generator("physik.ohm.koerperstrom", "physik", "Ohmsches Gesetz", "Gefahren des elektrischen Stroms",
              (*_SCHLAGWORTE, "Körperwiderstand", "Gefahren", "Sicherheit", "Schutzkleinspannung"), (8, 10), "III",
              "Beurteilen", _koerperstrom),
)
