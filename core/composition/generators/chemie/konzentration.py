"""Chemie generators for solutions: c = n/V, diluting a stock solution, mass fraction, and judging the sugar in a
drink or whether a stock solution suffices for a lab session.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.chemie.elemente import molare_masse
from core.composition.generators.physik.common import aufgabe, gr, runden, terminiert, ungefaehr, z


def _sauber(x: F, stellen: int) -> bool:
    return terminiert(x) and runden(x, stellen) == x


# --- molar concentration ---------------------------------------------------------------------------------------------

_GELOESTES = (("NaCl", "Natriumchlorid"), ("NaOH", "Natriumhydroxid"), ("C₆H₁₂O₆", "Glucose"),
              ("KCl", "Kaliumchlorid"), ("CuSO₄", "Kupfer(II)-sulfat"), ("Na₂CO₃", "Natriumcarbonat"))
_NAMEN = ("Lena", "Jonas", "Aylin", "Mats", "Sophie", "Emil")


def _stoffmengenkonzentration(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        formel, name = rng.choice(_GELOESTES)
        mm = molare_masse(formel)
        n = F(rng.choice(("0.01", "0.02", "0.025", "0.05", "0.1", "0.2", "0.25", "0.5")))
        v_ml = rng.choice((100, 250, 500, 1000))
        m = n * mm
        c = n / F(v_ml, 1000)
        if _sauber(m, 2) and _sauber(c, 3) and m <= 100:
            break
    v_l = F(v_ml, 1000)
    text = (f"{rng.choice(_NAMEN)} löst {gr(m, 'g')} {name} ({formel}, M = {gr(mm, 'g/mol', 1)}) in Wasser und füllt "
            f"die Lösung in einem Messkolben auf {gr(v_ml, 'mL')} auf. Berechne die Stoffmengenkonzentration der "
            "Lösung.")
    schritte = [
        ("Ansatz: n = m / M.", 1),
        (f"n = {gr(m, 'g')} / {gr(mm, 'g/mol', 1)} = {gr(n, 'mol')}.", 1),
        (f"Volumen in Litern: V = {gr(v_ml, 'mL')} = {gr(v_l, 'L')}.", 1),
        ("Ansatz: c = n / V.", 1),
        (f"c = {gr(n, 'mol')} / {gr(v_l, 'L')} = {gr(c, 'mol/L')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=6, werte={"m": gr(m, "g"), "M": gr(mm, "g/mol", 1), "V": gr(v_ml, "mL")},
                   ergebnis={"n": gr(n, "mol"), "c": gr(c, "mol/L")})


# --- dilution --------------------------------------------------------------------------------------------------------

_VORRAETE = (
    # (solution, stock concentrations in mol/L, is it an acid or a lye?)
    ("Salzsäure", (1, 2, 5), True), ("Natronlauge", (1, 2), True), ("Schwefelsäure", (1, 2), True),
    ("Kupfer(II)-sulfat-Lösung", (F("0.5"), 1), False), ("Natriumchlorid-Lösung", (1, 2), False),
)


def _verduennung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        loesung, vorraete, aetzend = rng.choice(_VORRAETE)
        c1 = F(rng.choice(vorraete))
        c2 = F(rng.choice(("0.05", "0.1", "0.2", "0.25", "0.5")))
        v2 = rng.choice((100, 250, 500, 1000))
        v1 = c2 * v2 / c1
        if c2 < c1 and _sauber(v1, 1) and v1 >= 5:
            break
    text = (f"Für einen Versuch werden {gr(v2, 'mL')} {loesung} mit c = {gr(c2, 'mol/L')} benötigt. In der Sammlung "
            f"steht {loesung} mit c = {gr(c1, 'mol/L')}. Bestimme, wie viel Milliliter der vorhandenen Lösung du "
            "brauchst, und beschreibe, wie du die verdünnte Lösung herstellst.")
    vorgehen = ("Herstellung: Die berechnete Menge abmessen (Vollpipette bzw. Messzylinder), in einen "
                f"{z(v2)}-mL-Messkolben geben und mit destilliertem Wasser bis zur Eichmarke auffüllen, dann "
                "umschwenken.")
    sicherheit = ("Sicherheit: Schutzbrille und Handschuhe; erst etwas Wasser vorlegen, dann die konzentrierte Lösung "
                  "zugeben („Erst das Wasser, dann die Säure“)." if aetzend else
                  "Genauigkeit: Messkolben erst am Schluss genau bis zur Eichmarke auffüllen, damit das Endvolumen "
                  "stimmt.")
    schritte = [
        ("Beim Verdünnen bleibt die Stoffmenge gleich: c₁ · V₁ = c₂ · V₂.", 1),
        ("Umgestellt: V₁ = c₂ · V₂ / c₁.", 1),
        (f"V₁ = {gr(c2, 'mol/L')} · {gr(v2, 'mL')} / {gr(c1, 'mol/L')} = {gr(v1, 'mL')}.", 1),
        (vorgehen, 1),
        (sicherheit, 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte={"c1": gr(c1, "mol/L"), "c2": gr(c2, "mol/L"), "V2": gr(v2, "mL")},
                   ergebnis={"V1": gr(v1, "mL")})


# --- mass fraction ---------------------------------------------------------------------------------------------------

_ZIELE = (("physiologische Kochsalzlösung", "Kochsalz", F("0.9")), ("eine Zuckerlösung für einen Keimversuch",
                                                                     "Zucker", F(5)),
          ("eine Salzlösung zum Einlegen von Gurken", "Salz", F(6)), ("ein Sirup", "Zucker", F(50)))


def _massenanteil(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        stoff = rng.choice(("Zucker", "Kochsalz"))
        ms, mw = F(rng.choice((5, 10, 12, 15, 20, 25, 30))), F(rng.choice((80, 90, 100, 115, 150, 200)))
        w = ms / (ms + mw) * 100
        loeslich = stoff == "Zucker" or ms / mw <= F(35, 100)  # about 36 g salt dissolve in 100 g water
        if _sauber(w, 1) and loeslich:
            break
    ziel, ziel_stoff, w2 = rng.choice(_ZIELE)
    m_ges = F(rng.choice((200, 250, 500, 1000)))
    m_stoff = w2 / 100 * m_ges
    genitiv = {"Zucker": "des Zuckers", "Kochsalz": "des Kochsalzes"}[stoff]
    text = (f"{rng.choice(_NAMEN)} löst {gr(ms, 'g')} {stoff} in {gr(mw, 'g')} Wasser. Berechne den Massenanteil "
            f"{genitiv} in der Lösung in Prozent. Für {ziel} beträgt der Massenanteil {z(w2)} %. Berechne außerdem, "
            f"wie viel {ziel_stoff} und wie viel Wasser man für {gr(m_ges, 'g')} dieser Lösung abwiegen muss.")
    schritte = [
        ("Ansatz: w = m(Stoff) / m(Lösung), wobei m(Lösung) = m(Stoff) + m(Wasser).", 1),
        (f"m(Lösung) = {gr(ms, 'g')} + {gr(mw, 'g')} = {gr(ms + mw, 'g')}.", 1),
        (f"w = {gr(ms, 'g')} / {gr(ms + mw, 'g')} = {z(w)} %.", 1),
        (f"Für {ziel}: m({ziel_stoff}) = {z(w2)} % · {gr(m_ges, 'g')} = {gr(m_stoff, 'g')}.", 1),
        (f"m(Wasser) = {gr(m_ges, 'g')} − {gr(m_stoff, 'g')} = {gr(m_ges - m_stoff, 'g')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=6,
                   werte={"m_stoff": gr(ms, "g"), "m_wasser": gr(mw, "g"), "w2": f"{z(w2)} %", "m_ges": gr(m_ges, "g")},
                   ergebnis={"w": f"{z(w)} %", "m_b": gr(m_stoff, "g"), "m_wasser_b": gr(m_ges - m_stoff, "g")})


# --- sugar in drinks: a value judgement ------------------------------------------------------------------------------

_GETRAENKE = (("Cola", F("10.6"), (330, 500, 1000)), ("Orangenlimonade", F("9.0"), (330, 500)),
              ("Eistee", F("7.5"), (330, 500, 1000)), ("Energydrink", F("11.0"), (250, 500)),
              ("Apfelsaftschorle", F("5.0"), (330, 500)))


def _zuckergehalt(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    getraenk, beta, volumina = rng.choice(_GETRAENKE)
    v = F(rng.choice(volumina))
    m = beta * v / 100
    wuerfel = m / 3
    anteil = m / 50 * 100
    name = rng.choice(("Finn", "Mira", "Kaan", "Lotta"))
    text = (f"{name} trinkt jeden Tag eine Flasche {getraenk} ({gr(v, 'mL')}) und sagt: „Das bisschen Zucker ist doch "
            f"kein Problem.“ Laut Etikett enthält das Getränk {gr(beta, 'g', 1)} Zucker pro 100 mL. Die "
            "Weltgesundheitsorganisation (WHO) empfiehlt, höchstens 50 g, besser weniger als 25 g zugesetzten Zucker "
            "pro Tag aufzunehmen; ein Zuckerwürfel hat etwa 3 g. Bewerte die Aussage.")
    if m > 50:
        einordnung = "Die Flasche allein überschreitet schon die Höchstmenge von 50 g."
    elif m > 25:
        einordnung = "Die Flasche allein liegt über der empfohlenen Menge von 25 g und nahe an der Höchstmenge."
    else:
        einordnung = "Die Flasche allein bleibt unter 25 g, nutzt aber schon einen großen Teil der empfohlenen Menge."
    schritte = [
        (f"Zuckermasse: m = {gr(beta, 'g', 1)} / 100 mL · {gr(v, 'mL')} {ungefaehr(m, 1)} {gr(m, 'g', 1)}.", 2),
        (f"Das entspricht {gr(m, 'g', 1)} / 3 g ≈ {z(wuerfel, 0)} Zuckerwürfeln.", 1),
        (f"Anteil an der Höchstmenge: {gr(m, 'g', 1)} / 50 g ≈ {z(anteil, 0)} %.", 1),
        (einordnung, 1),
        ("Weitere Gesichtspunkte: Im Lauf des Tages kommt Zucker aus anderen Lebensmitteln hinzu; Zucker in Getränken "
         "macht kaum satt und schadet den Zähnen; Alternativen sind Wasser oder stark verdünnte Schorle.", 1),
        ("Begründetes Werturteil: Die Aussage ist nicht haltbar bzw. verharmlosend, weil schon das Getränk einen "
         "großen Teil der empfohlenen Tageshöchstmenge ausmacht." if m > 25 else
         "Begründetes Werturteil: Für sich genommen ist die Menge vertretbar, als tägliche Gewohnheit aber nur, wenn "
         "sonst wenig Zucker gegessen wird; die Aussage ist also nur eingeschränkt richtig.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bewerten", afb="III", text=text, schritte=schritte,
                   minuten=10, werte={"beta": gr(beta, "g", 1), "V": gr(v, "mL")},
                   ergebnis={"m": gr(m, "g", 1), "wuerfel": z(wuerfel, 0), "anteil": f"{z(anteil, 0)} %"})


# --- does the stock suffice? -----------------------------------------------------------------------------------------


def _vorrat(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    soll_reichen = rng.random() < 0.5
    while True:
        loesung = rng.choice(("Salzsäure", "Natronlauge", "Essigsäure"))
        gruppen, v_gruppe = rng.choice((8, 10, 12, 14, 15)), F(rng.choice((50, 80, 100, 150)))
        c1 = F(rng.choice((1, 2)))
        c2 = F(rng.choice(("0.1", "0.2", "0.5", "1"))) * c1 / 2
        vorrat = F(rng.choice((100, 150, 200, 250, 300, 400, 500)))
        v_ges = gruppen * v_gruppe
        v1 = c2 * v_ges / c1
        if _sauber(v1, 1) and _sauber(c2, 2) and abs(v1 - vorrat) > vorrat / 10 and (v1 <= vorrat) == soll_reichen:
            break
    reicht = v1 <= vorrat
    max_gruppen = int(vorrat * c1 / (c2 * v_gruppe))
    text = (f"Für ein Praktikum brauchen {gruppen} Gruppen je {gr(v_gruppe, 'mL')} {loesung} mit "
            f"c = {gr(c2, 'mol/L')}. In der Sammlung stehen noch {gr(vorrat, 'mL')} {loesung} mit "
            f"c = {gr(c1, 'mol/L')}. Beurteile, ob der Vorrat für das Praktikum reicht, und mache gegebenenfalls "
            "einen Vorschlag.")
    schritte = [
        (f"Benötigtes Volumen der verdünnten Lösung: V₂ = {gruppen} · {gr(v_gruppe, 'mL')} = {gr(v_ges, 'mL')}.", 1),
        ("Die Stoffmenge bleibt beim Verdünnen gleich: c₁ · V₁ = c₂ · V₂, also V₁ = c₂ · V₂ / c₁.", 1),
        (f"V₁ = {gr(c2, 'mol/L')} · {gr(v_ges, 'mL')} / {gr(c1, 'mol/L')} = {gr(v1, 'mL')}.", 1),
        (f"Vergleich: {gr(v1, 'mL')} {'≤' if reicht else '>'} {gr(vorrat, 'mL')}.", 1),
        (f"Urteil: Der Vorrat {'reicht' if reicht else 'reicht nicht'}." + (
            f" Es bleiben {gr(vorrat - v1, 'mL')} als Reserve für Fehlversuche." if reicht else
            f" Er reicht nur für {max_gruppen} Gruppen; Vorschlag: weniger Lösung pro Gruppe, größere Gruppen oder "
            "rechtzeitig nachbestellen."), 2),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=9,
                   werte={"gruppen": str(gruppen), "V_gruppe": gr(v_gruppe, "mL"), "c2": gr(c2, "mol/L"),
                          "c1": gr(c1, "mol/L"), "vorrat": gr(vorrat, "mL")},
                   ergebnis={"V1": gr(v1, "mL"), "urteil": "reicht" if reicht else "reicht nicht"})


_SCHLAGWORTE = ("Konzentration", "Lösung", "Lösungen", "Stoffmengenkonzentration", "Gehaltsangaben")

GENERATORS: tuple[Generator, ...] = (
    Generator("chemie.konzentration.stoffmengenkonzentration", "chemie", "Konzentration",
              "Stoffmengenkonzentration berechnen", (*_SCHLAGWORTE, "c = n/V", "Messkolben"), (9, 13), "I",
              "Berechnen", _stoffmengenkonzentration, ("Sek I", "gA", "eA")),
    Generator("chemie.konzentration.verduennung", "chemie", "Konzentration", "Lösungen verdünnen",
              (*_SCHLAGWORTE, "Verdünnen", "Verdünnung", "Stammlösung"), (10, 13), "II", "Bestimmen", _verduennung,
              ("Sek I", "gA", "eA")),
    Generator("chemie.konzentration.massenanteil", "chemie", "Konzentration", "Massenanteil",
              (*_SCHLAGWORTE, "Massenanteil", "Prozent", "Salzlösung"), (7, 10), "I", "Berechnen", _massenanteil),
    Generator("chemie.konzentration.zuckergehalt", "chemie", "Konzentration", "Zucker in Getränken bewerten",
              (*_SCHLAGWORTE, "Massenkonzentration", "Zucker", "Ernährung", "Getränke"), (7, 10), "III", "Bewerten",
              _zuckergehalt),
    Generator("chemie.konzentration.vorrat", "chemie", "Konzentration", "Reicht die Stammlösung?",
              (*_SCHLAGWORTE, "Verdünnen", "Praktikum", "Stammlösung"), (10, 13), "III", "Beurteilen", _vorrat,
              ("Sek I", "gA", "eA")),
)
