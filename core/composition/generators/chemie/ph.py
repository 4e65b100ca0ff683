"""Chemie generators for the pH value: strong acids and bases, dilution, weak acids with pKs (eA), and judging
claims about dilution and about strong versus weak acids.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, z


def _konz(c: F) -> str:
    """A concentration as decimal ('0,005'), never in scientific notation."""
    return z(c)


def zehn_hoch(k: int) -> str:
    """10 ** k written as '10⁻²'."""
    return "10" + str(k).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))


def _ph(c: F) -> float:
    return -math.log10(float(c))


def _ph_text(ph: float) -> str:
    """Integer pH values as '3', others with two decimals."""
    return z(int(round(ph))) if abs(ph - round(ph)) < 1e-9 else z(ph, 2)


def _gleich(ph: float) -> str:
    return "=" if abs(ph - round(ph, 2)) < 1e-9 else "≈"


# --- strong acids and bases ------------------------------------------------------------------------------------------

_STARK = (
    # (solution, acid?, reaction)
    ("Salzsäure", True, "HCl + H₂O → H₃O⁺ + Cl⁻"),
    ("Salpetersäure", True, "HNO₃ + H₂O → H₃O⁺ + NO₃⁻"),
    ("Natronlauge", False, "NaOH → Na⁺ + OH⁻"),
    ("Kalilauge", False, "KOH → K⁺ + OH⁻"),
)


def _konzentration(rng: random.Random, klassenstufe: int) -> F:
    k = rng.choice((1, 2, 3, 4))
    if klassenstufe <= 10:
        return F(1, 10 ** k)
    return F(rng.choice((1, 2, F(5, 2), 4, 5)), 10 ** k)


def _stark(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    loesung, saeure, gleichung = rng.choice(_STARK)
    c = _konzentration(rng, klassenstufe)
    p = _ph(c)
    ph = p if saeure else 14 - p
    ion = "H₃O⁺" if saeure else "OH⁻"
    text = (f"Berechne den pH-Wert von {loesung} mit der Konzentration c = {_konz(c)} mol/L"
            + ("" if klassenstufe <= 10 else " (auf zwei Nachkommastellen)") + ".")
    schritte = [
        (f"{loesung} ist vollständig {'protolysiert' if saeure else 'dissoziiert'}: {gleichung}, also "
         f"c({ion}) = {_konz(c)} mol/L.", 1),
    ]
    if saeure:
        schritte += [("Ansatz: pH = −lg c(H₃O⁺).", 1),
                     (f"pH = −lg({_konz(c)}) {_gleich(ph)} {_ph_text(ph)}.", 1)]
    else:
        schritte += [("Ansatz: pOH = −lg c(OH⁻) und pH = 14 − pOH.", 1),
                     (f"pOH = −lg({_konz(c)}) {_gleich(p)} {_ph_text(p)}; pH = 14 − {_ph_text(p)} "
                      f"{_gleich(ph)} {_ph_text(ph)}.", 1)]
    schritte.append((f"Die Lösung ist {'sauer (pH < 7)' if saeure else 'alkalisch (pH > 7)'}.", 1))
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=4, werte={"c": f"{_konz(c)} mol/L", "art": "Säure" if saeure else "Lauge"},
                   ergebnis={"pH": _ph_text(ph)})


# --- dilution --------------------------------------------------------------------------------------------------------


def _verduennung_ph(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    ph1 = rng.choice((1, 2, 3))
    v0 = F(rng.choice((10, 20, 25, 50)))
    oberstufe = klassenstufe > 10
    if rng.random() < 0.5:
        faktor = F(rng.choice((10, 100, 1000) if not oberstufe else (2, 4, 5, 20, 50, 100)))
        v_end = v0 * faktor
        c1, c2 = F(1, 10 ** ph1), F(1, 10 ** ph1) / faktor
        ph2 = _ph(c2)
        text = (f"{gr(v0, 'mL')} Salzsäure mit pH = {ph1} werden mit Wasser auf {gr(v_end, 'mL')} aufgefüllt. "
                "Bestimme den pH-Wert der verdünnten Lösung" + (" (auf zwei Nachkommastellen)." if oberstufe else "."))
        schritte = [
            (f"Ausgangskonzentration: c(H₃O⁺) = {zehn_hoch(-ph1)} mol/L = {_konz(c1)} mol/L.", 1),
            (f"Verdünnungsfaktor: {gr(v_end, 'mL')} / {gr(v0, 'mL')} = {z(faktor)}.", 1),
            (f"c(H₃O⁺) = {_konz(c1)} mol/L / {z(faktor)} = {_konz(c2)} mol/L.", 1),
            (f"pH = −lg({_konz(c2)}) {_gleich(ph2)} {_ph_text(ph2)}.", 1),
            (f"Deutung: Der pH-Wert steigt um lg({z(faktor)}) {_gleich(math.log10(faktor))} "
             f"{_ph_text(math.log10(faktor))}; jede Verdünnung auf das Zehnfache erhöht ihn um genau 1.", 1),
        ]
        return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                       minuten=7, werte={"pH1": str(ph1), "V0": gr(v0, "mL"), "V_end": gr(v_end, "mL")},
                       ergebnis={"pH": _ph_text(ph2)})
    dph = rng.choice((1, 2))
    v_end = v0 * 10 ** dph
    text = (f"Aus {gr(v0, 'mL')} Salzsäure mit pH = {ph1} soll durch Verdünnen mit Wasser eine Lösung mit "
            f"pH = {ph1 + dph} hergestellt werden. Bestimme, wie viel Wasser zugegeben werden muss.")
    schritte = [
        (f"pH-Zunahme um {dph} bedeutet: c(H₃O⁺) muss auf 1/{10 ** dph} sinken.", 1),
        (f"Da die Stoffmenge gleich bleibt, muss das Volumen auf das {10 ** dph}-Fache steigen.", 1),
        (f"V_end = {gr(v0, 'mL')} · {10 ** dph} = {gr(v_end, 'mL')}.", 1),
        (f"V(Wasser) = {gr(v_end, 'mL')} − {gr(v0, 'mL')} = {gr(v_end - v0, 'mL')}.", 1),
        ("Hinweis: Säure ins Wasser geben, nicht umgekehrt; Schutzbrille.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte={"pH1": str(ph1), "V0": gr(v0, "mL"), "dpH": str(dph)},
                   ergebnis={"V_wasser": gr(v_end - v0, "mL")})


# --- weak acids (eA) -------------------------------------------------------------------------------------------------

SCHWACH = (("Essigsäure", F("4.75"), "CH₃COOH + H₂O ⇌ H₃O⁺ + CH₃COO⁻"),
           ("Methansäure", F("3.75"), "HCOOH + H₂O ⇌ H₃O⁺ + HCOO⁻"),
           ("Benzoesäure", F("4.20"), "C₆H₅COOH + H₂O ⇌ H₃O⁺ + C₆H₅COO⁻"),
           ("Milchsäure", F("3.90"), "CH₃CH(OH)COOH + H₂O ⇌ H₃O⁺ + CH₃CH(OH)COO⁻"),
           ("Propansäure", F("4.87"), "C₂H₅COOH + H₂O ⇌ H₃O⁺ + C₂H₅COO⁻"))
_C0 = (F("0.01"), F("0.05"), F("0.1"), F("0.2"), F("0.5"), F(1))


def ph_schwach(pks: F, c0: F) -> float:
    return (float(pks) - math.log10(float(c0))) / 2


def _schwach(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    name, pks, gleichung = rng.choice(SCHWACH)
    c0 = rng.choice(_C0)
    ph = ph_schwach(pks, c0)
    ph_stark = _ph(c0)
    text = (f"Bestimme den pH-Wert einer {name}-Lösung mit c₀ = {_konz(c0)} mol/L (pKs = {z(pks, 2)}) auf zwei "
            "Nachkommastellen und vergleiche mit einer Salzsäure gleicher Konzentration.")
    schritte = [
        (f"Protolyse: {gleichung}; {name} ist eine schwache Säure und nur wenig protolysiert.", 1),
        ("Näherung für schwache Säuren: c(H₃O⁺) = √(Ks · c₀), also pH = ½ · (pKs − lg c₀).", 1),
        (f"pH = ½ · ({z(pks, 2)} − lg({_konz(c0)})) ≈ {z(ph, 2)}.", 2),
        (f"Salzsäure gleicher Konzentration: pH = −lg({_konz(c0)}) {_gleich(ph_stark)} {_ph_text(ph_stark)}; die "
         f"{name}-Lösung ist weniger sauer, weil nur ein kleiner Teil der Moleküle protolysiert.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=8, werte={"pKs": z(pks, 2), "c0": f"{_konz(c0)} mol/L"},
                   ergebnis={"pH": z(ph, 2), "pH_stark": _ph_text(ph_stark)})


# --- judging claims about dilution -----------------------------------------------------------------------------------


def _behauptung_doppelt(rng: random.Random) -> tuple[str, list[tuple[str, int]], bool, str]:
    p, v = rng.choice((1, 2, 3)), F(rng.choice((10, 20, 50, 100)))
    ph = p + math.log10(2)
    zitat = (f"„Verdünnt man {gr(v, 'mL')} Salzsäure mit pH = {p} mit {gr(v, 'mL')} Wasser, steigt der pH-Wert auf "
             f"{p + 1}.“")
    schritte = [
        (f"Das Volumen verdoppelt sich, die Stoffmenge der H₃O⁺-Ionen bleibt gleich: c(H₃O⁺) sinkt von "
         f"{_konz(F(1, 10 ** p))} mol/L auf {_konz(F(1, 2 * 10 ** p))} mol/L.", 2),
        (f"pH = −lg({_konz(F(1, 2 * 10 ** p))}) ≈ {z(ph, 2)}.", 1),
        (f"Urteil: Die Aussage ist falsch; der pH-Wert steigt nur um lg 2 ≈ 0,30 auf etwa {z(ph, 2)}.", 1),
        ("Für eine Zunahme um 1 muss die Konzentration auf ein Zehntel sinken, also auf das zehnfache Volumen "
         "verdünnt werden.", 1),
        ("Begründung: Der pH-Wert ist eine logarithmische Größe; gleiche pH-Schritte bedeuten gleiche Faktoren der "
         "Konzentration.", 1),
    ]
    return zitat, schritte, False, z(ph, 2)


def _behauptung_zehnfach(rng: random.Random) -> tuple[str, list[tuple[str, int]], bool, str]:
    p, v = rng.choice((1, 2, 3)), F(rng.choice((10, 20, 50)))
    zitat = f"„Gibt man {gr(v, 'mL')} Salzsäure mit pH = {p} zu {gr(9 * v, 'mL')} Wasser, hat die Lösung pH = {p + 1}.“"
    schritte = [
        (f"Gesamtvolumen: {gr(v, 'mL')} + {gr(9 * v, 'mL')} = {gr(10 * v, 'mL')}, also Verdünnung auf das Zehnfache.",
         1),
        (f"c(H₃O⁺) sinkt von {_konz(F(1, 10 ** p))} mol/L auf {_konz(F(1, 10 ** (p + 1)))} mol/L.", 2),
        (f"pH = −lg({_konz(F(1, 10 ** (p + 1)))}) = {p + 1}.", 1),
        ("Urteil: Die Aussage ist richtig (Volumenänderung beim Mischen vernachlässigt).", 1),
        ("Begründung: Eine Verdünnung auf das Zehnfache senkt c(H₃O⁺) auf ein Zehntel; wegen des Logarithmus steigt "
         "der pH-Wert dadurch genau um 1.", 1),
    ]
    return zitat, schritte, True, str(p + 1)


def _behauptung_lauge(rng: random.Random) -> tuple[str, list[tuple[str, int]], bool, str]:
    p, k = rng.choice((12, 13)), rng.choice((2, 3))
    zitat = "„Wenn man Natronlauge nur lange genug mit Wasser verdünnt, wird sie irgendwann sauer.“"
    schritte = [
        (f"Bei pH = {p} ist pOH = 14 − {p} = {14 - p}, also c(OH⁻) = {_konz(F(1, 10 ** (14 - p)))} mol/L.", 1),
        (f"Nach Verdünnung auf das {10 ** k}-Fache: c(OH⁻) = {_konz(F(1, 10 ** (14 - p + k)))} mol/L, "
         f"pOH = {14 - p + k}, pH = {p - k}.", 2),
        ("Bei sehr starker Verdünnung bestimmt die Autoprotolyse des Wassers c(H₃O⁺) und c(OH⁻); der pH-Wert nähert "
         "sich 7 an.", 1),
        ("Urteil: Die Aussage ist falsch; durch Verdünnen mit Wasser kann eine Lauge nicht sauer werden.", 1),
        ("Begründung: Beim Verdünnen kommen keine H₃O⁺-Ionen hinzu; es bleiben immer mindestens so viele OH⁻- wie "
         "H₃O⁺-Ionen.", 1),
    ]
    return zitat, schritte, False, str(p - k)


def _behauptung_faktor(rng: random.Random) -> tuple[str, list[tuple[str, int]], bool, str]:
    p1, d = rng.choice((1, 2, 3)), rng.choice((2, 3))
    zitat = (f"„Eine Salzsäure mit pH = {p1} enthält {d}-mal so viele Oxonium-Ionen pro Liter wie eine Salzsäure mit "
             f"pH = {p1 + d}.“")
    schritte = [
        (f"pH = {p1}: c(H₃O⁺) = {_konz(F(1, 10 ** p1))} mol/L; pH = {p1 + d}: c(H₃O⁺) = "
         f"{_konz(F(1, 10 ** (p1 + d)))} mol/L.", 2),
        (f"Verhältnis: {_konz(F(1, 10 ** p1))} mol/L / {_konz(F(1, 10 ** (p1 + d)))} mol/L = {10 ** d}.", 1),
        (f"Urteil: Die Aussage ist falsch; die Konzentration ist {10 ** d}-mal so groß, nicht {d}-mal.", 1),
        ("Begründung: Jede pH-Stufe entspricht einem Faktor 10 der Oxonium-Ionen-Konzentration (logarithmische "
         "Skala).", 2),
    ]
    return zitat, schritte, False, str(10 ** d)


def _behauptung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    bauer = rng.choice((_behauptung_doppelt, _behauptung_zehnfach, _behauptung_lauge, _behauptung_faktor))
    zitat, schritte, stimmt, wert = bauer(rng)
    person = rng.choice(("Ben", "Ida", "Yusuf", "Clara"))
    text = f"{person} behauptet: {zitat} Beurteile diese Aussage mithilfe einer Rechnung."
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=9, werte={"art": bauer.__name__.removeprefix("_behauptung_")},
                   ergebnis={"wert": wert, "urteil": "richtig" if stimmt else "falsch"})


# --- strong versus weak acid (eA) ------------------------------------------------------------------------------------


def _stark_schwach(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    name, pks, _ = rng.choice(SCHWACH)
    c0 = rng.choice((F("0.01"), F("0.1"), F("0.5"), F(1)))
    v = F(rng.choice((10, 20, 25)))
    c_lauge = rng.choice((F("0.1"), F("0.5"), F(1)))
    ph_s, ph_w = _ph(c0), ph_schwach(pks, c0)
    faktor = 10 ** (round(ph_w, 2) - round(ph_s, 2))
    art = rng.choice(("ph", "lauge", "richtig"))
    if art == "ph":
        zitat = f"„Salzsäure und {name} mit derselben Konzentration c = {_konz(c0)} mol/L haben denselben pH-Wert.“"
    elif art == "lauge":
        zitat = (f"„Um je {gr(v, 'mL')} Salzsäure und {name} (beide c = {_konz(c0)} mol/L) zu neutralisieren, braucht "
                 f"man für die {name} weniger Natronlauge, weil sie die schwächere Säure ist.“")
    else:
        zitat = (f"„Salzsäure mit c = {_konz(c0)} mol/L hat einen kleineren pH-Wert als {name} gleicher Konzentration, "
                 "obwohl beide gleich viel Säure enthalten.“")
    n = c0 * v / 1000
    v_lauge = n / c_lauge * 1000
    text = (f"Jemand behauptet: {zitat} Beurteile die Aussage mithilfe von Rechnungen (pKs({name}) = {z(pks, 2)}"
            + (f"; c(Natronlauge) = {_konz(c_lauge)} mol/L" if art == "lauge" else "") + ").")
    schritte = [
        (f"Salzsäure ist vollständig protolysiert: pH = −lg({_konz(c0)}) {_gleich(ph_s)} {_ph_text(ph_s)}.", 1),
        (f"{name}: pH = ½ · ({z(pks, 2)} − lg({_konz(c0)})) ≈ {z(ph_w, 2)}; c(H₃O⁺) ist etwa {z(faktor, 0)}-mal "
         "kleiner.", 2),
    ]
    if art == "lauge":
        schritte += [
            (f"Für die Neutralisation zählt die gesamte Stoffmenge der Säure: n = {_konz(c0)} mol/L · "
             f"{gr(v / 1000, 'L')} = {gr(n, 'mol')} bei beiden Säuren.", 1),
            (f"Benötigte Natronlauge jeweils: V = n / c = {gr(n, 'mol')} / {_konz(c_lauge)} mol/L = "
             f"{gr(v_lauge / 1000, 'L')} = {gr(v_lauge, 'mL')}; die schwache Säure protolysiert beim Neutralisieren "
             "nach und nach weiter.", 1),
        ]
    else:
        schritte += [
            ("Die schwache Säure liegt überwiegend als Moleküle vor; nur ein kleiner Teil bildet H₃O⁺-Ionen.", 1),
            ("Beide Lösungen enthalten gleich viel Säure (gleiche Ausgangskonzentration), aber unterschiedlich viele "
             "H₃O⁺-Ionen; der pH-Wert erfasst nur die H₃O⁺-Ionen.", 1),
        ]
    schritte.append((f"Urteil: Die Aussage ist {'richtig' if art == 'richtig' else 'falsch'}.", 1))
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=10, werte={"pKs": z(pks, 2), "c0": f"{_konz(c0)} mol/L", "art": art},
                   ergebnis={"pH_stark": _ph_text(ph_s), "pH_schwach": z(ph_w, 2),
                             "urteil": "richtig" if art == "richtig" else "falsch"})


_SCHLAGWORTE = ("pH-Wert", "Säuren und Basen", "Säure", "Lauge", "Oxonium-Ionen", "Protolyse")

GENERATORS: tuple[Generator, ...] = (
    Generator("chemie.ph.stark", "chemie", "pH-Wert", "pH-Wert starker Säuren und Laugen",
              (*_SCHLAGWORTE, "starke Säure", "Salzsäure", "Natronlauge"), (10, 13), "I", "Berechnen", _stark,
              ("Sek I", "gA", "eA")),
    Generator("chemie.ph.verduennung", "chemie", "pH-Wert", "pH-Wert beim Verdünnen",
              (*_SCHLAGWORTE, "Verdünnen", "Verdünnung"), (10, 13), "II", "Bestimmen", _verduennung_ph,
              ("Sek I", "gA", "eA")),
    Generator("chemie.ph.schwache_saeure", "chemie", "pH-Wert", "pH-Wert schwacher Säuren",
              (*_SCHLAGWORTE, "schwache Säure", "pKs-Wert", "Säurekonstante"), (11, 13), "II", "Bestimmen", _schwach,
              ("eA",)),
    Generator("chemie.ph.behauptung", "chemie", "pH-Wert", "Aussagen zum pH-Wert prüfen",
              (*_SCHLAGWORTE, "Verdünnen", "logarithmische Skala"), (10, 13), "III", "Beurteilen", _behauptung,
              ("Sek I", "gA", "eA")),
    Generator("chemie.ph.stark_schwach", "chemie", "pH-Wert", "Starke und schwache Säuren vergleichen",
              (*_SCHLAGWORTE, "schwache Säure", "starke Säure", "Neutralisation", "pKs-Wert"), (11, 13), "III",
              "Beurteilen", _stark_schwach, ("eA",)),
)
