"""Chemie generators for amount of substance: molar masses from a table of atomic masses, n = m/M with the number
of particles, and judging a claim that equal masses contain equal numbers of particles.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.chemie.elemente import (
    AVOGADRO,
    atommassen_tabelle,
    molare_masse,
    molare_masse_rechnung,
    wissenschaftlich,
)
from core.composition.generators.physik.common import aufgabe, gr, runden, stellen_sig, ungefaehr, z

# (formula, name, kind of particle)
STOFFE = (
    ("H₂O", "Wasser", "Moleküle"), ("CO₂", "Kohlenstoffdioxid", "Moleküle"), ("NH₃", "Ammoniak", "Moleküle"),
    ("CH₄", "Methan", "Moleküle"), ("C₂H₅OH", "Ethanol", "Moleküle"), ("H₂SO₄", "Schwefelsäure", "Moleküle"),
    ("CaCO₃", "Calciumcarbonat", "Formeleinheiten"), ("NaCl", "Natriumchlorid", "Formeleinheiten"),
    ("NaOH", "Natriumhydroxid", "Formeleinheiten"), ("Ca(OH)₂", "Calciumhydroxid", "Formeleinheiten"),
    ("MgO", "Magnesiumoxid", "Formeleinheiten"), ("Al₂O₃", "Aluminiumoxid", "Formeleinheiten"),
    ("Fe₂O₃", "Eisen(III)-oxid", "Formeleinheiten"), ("C₆H₁₂O₆", "Glucose", "Moleküle"),
    ("CuSO₄", "Kupfer(II)-sulfat", "Formeleinheiten"), ("HNO₃", "Salpetersäure", "Moleküle"),
    ("Na₂CO₃", "Natriumcarbonat", "Formeleinheiten"), ("NaHCO₃", "Natriumhydrogencarbonat", "Formeleinheiten"),
    ("C₁₂H₂₂O₁₁", "Saccharose", "Moleküle"), ("CaCl₂", "Calciumchlorid", "Formeleinheiten"),
)


def sig(x: F, einheit: str, signifikant: int = 3) -> str:
    """The value with `signifikant` significant digits, as chemists write it: '0,0150 mol', '10,0 mol'."""
    return gr(x, einheit, stellen_sig(x, signifikant))


def gleich_sig(x: F, einheit: str, signifikant: int = 3) -> str:
    """'= 0,100 mol' or '≈ 0,0877 mol': relation and value with `signifikant` significant digits."""
    return f"{ungefaehr(x, stellen_sig(x, signifikant))} {sig(x, einheit, signifikant)}"


def gerundet_sig(x: F, signifikant: int = 3) -> F:
    return F(runden(x, stellen_sig(x, signifikant)))


# --- molar masses ----------------------------------------------------------------------------------------------------


def _molare_masse(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    stoffe = rng.sample(STOFFE, 3)
    formeln = [f for f, _, _ in stoffe]
    namen = ", ".join(f"{name} ({f})" for f, name, _ in stoffe[:2]) + f" und {stoffe[2][1]} ({stoffe[2][0]})"
    text = f"Berechne die molaren Massen von {namen}. Die Atommassen findest du im Material."
    schritte = [("Ansatz: Die molare Masse ist die Summe der Atommassen aller Atome der Formel; Indizes geben die "
                 "Anzahl der Atome an.", 1)]
    schritte += [(molare_masse_rechnung(f) + ".", 1) for f in formeln]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=6, material=atommassen_tabelle(formeln), werte={"formeln": " ".join(formeln)},
                   ergebnis={f: gr(molare_masse(f), "g/mol", 1) for f in formeln})


# --- amount of substance and number of particles ---------------------------------------------------------------------

_PORTIONEN = (
    # (situation with {m}, formula, masses in g)
    ("Ein Glas enthält {m} Wasser.", "H₂O", (90, 180, 198, 216, 250)),
    ("Eine Packung Speisesalz enthält {m} Natriumchlorid.", "NaCl", (250, 500)),
    ("Ein Kohlenstoffdioxid-Zylinder für einen Wassersprudler enthält {m} Kohlenstoffdioxid.", "CO₂", (425, 450)),
    ("Ein Zuckerwürfel besteht aus {m} Saccharose.", "C₁₂H₂₂O₁₁", (F(3), F("3.5"), F(4))),
    ("Ein Stück Tafelkreide besteht aus {m} Calciumcarbonat.", "CaCO₃", (5, 8, 10, 12)),
    ("Ein Päckchen Backpulver enthält {m} Natriumhydrogencarbonat (Natron).", "NaHCO₃",
     (F("4.2"), F("5.0"), F("8.4"))),
    ("Ein gestrichener Teelöffel Kochsalz (Natriumchlorid) hat die Masse {m}.", "NaCl", (F("5.85"), 6, F("8.0"))),
    ("In einer Flasche Brennspiritus sind {m} Ethanol enthalten.", "C₂H₅OH", (230, 400, 460, 690)),
    ("Eine Tablette Traubenzucker enthält {m} Glucose.", "C₆H₁₂O₆", (F("2.7"), F("3.6"), F("4.5"))),
)


def _stoffmenge(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, formel, massen = rng.choice(_PORTIONEN)
    m = F(rng.choice(massen))
    mm = molare_masse(formel)
    n = m / mm
    n_r = gerundet_sig(n)
    teilchen = gerundet_sig(n_r * AVOGADRO)
    art = next(a for f, _, a in STOFFE if f == formel)
    text = (f"{vorlage.format(m=gr(m, 'g'))} Berechne die Stoffmenge (Formel {formel}) und die Anzahl der {art} in "
            "dieser Portion. Die Atommassen findest du im Material; N_A = 6,022 · 10²³ mol⁻¹. Runde auf drei "
            "gültige Ziffern.")
    schritte = [
        (molare_masse_rechnung(formel) + ".", 1),
        ("Ansatz: n = m / M.", 1),
        (f"n = {gr(m, 'g')} / {gr(mm, 'g/mol', 1)} {gleich_sig(n, 'mol')}.", 1),
        ("Ansatz: N = n · N_A.", 1),
        (f"N = {sig(n_r, 'mol')} · 6,022 · 10²³ mol⁻¹ ≈ {wissenschaftlich(teilchen)} {art}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=7, material=atommassen_tabelle([formel]), werte={"m": gr(m, "g"), "formel": formel},
                   ergebnis={"n": sig(n_r, "mol"), "N": wissenschaftlich(teilchen)})


# --- equal masses, equal numbers of particles? ----------------------------------------------------------------------

_PAARE = (("H₂O", "C₂H₅OH"), ("H₂O", "C₁₂H₂₂O₁₁"), ("NaCl", "C₁₂H₂₂O₁₁"), ("CO₂", "CH₄"), ("H₂O", "NH₃"),
          ("CaCO₃", "MgO"), ("NaCl", "CaCl₂"), ("C₆H₁₂O₆", "H₂O"))
_BEHAUPTUNGEN = ("gleich", "mehr_a", "mehr_b")


def _teilchenvergleich(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    fa, fb = rng.sample(rng.choice(_PAARE), 2)
    name = {f: n for f, n, _ in STOFFE}
    m = F(rng.choice((10, 20, 50, 100)))
    ma, mb = molare_masse(fa), molare_masse(fb)
    na, nb = m / ma, m / mb
    behauptung = rng.choice(_BEHAUPTUNGEN)
    person = rng.choice(("Tom", "Lara", "Emre", "Nele"))
    if behauptung == "gleich":
        zitat = (f"„{gr(m, 'g')} {name[fa]} und {gr(m, 'g')} {name[fb]} enthalten gleich viele Teilchen, weil die "
                 "Masse gleich ist.“")
        stimmt = na == nb
    else:
        mehr, weniger = (fa, fb) if behauptung == "mehr_a" else (fb, fa)
        zitat = (f"„In {gr(m, 'g')} {name[mehr]} sind mehr Teilchen als in {gr(m, 'g')} {name[weniger]}, weil "
                 f"{name[mehr]}-Teilchen {'leichter' if molare_masse(mehr) < molare_masse(weniger) else 'schwerer'} "
                 "sind.“")
        stimmt = m / molare_masse(mehr) > m / molare_masse(weniger)
    faktor = max(na, nb) / min(na, nb)
    kleiner = fa if ma < mb else fb
    text = (f"{person} behauptet: {zitat} Beurteile diese Aussage mithilfe einer Rechnung (Formeln: {name[fa]} {fa}, "
            f"{name[fb]} {fb}; Atommassen im Material).")
    schritte = [
        (molare_masse_rechnung(fa) + ".", 1),
        (molare_masse_rechnung(fb) + ".", 1),
        (f"n({fa}) = {gr(m, 'g')} / {gr(ma, 'g/mol', 1)} {gleich_sig(na, 'mol')}; n({fb}) = {gr(m, 'g')} / "
         f"{gr(mb, 'g/mol', 1)} {gleich_sig(nb, 'mol')}.", 1),
        (f"Vergleich: Gleiche Stoffmenge bedeutet gleiche Teilchenzahl; in {name[kleiner]} sind etwa "
         f"{z(faktor, 1)}-mal so viele Teilchen.", 1),
        (f"Urteil: Die Aussage ist {'richtig' if stimmt else 'falsch'}.", 1),
        ("Begründung: Bei gleicher Masse enthält der Stoff mit der kleineren molaren Masse mehr Teilchen, weil jedes "
         "einzelne Teilchen leichter ist.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=9, material=atommassen_tabelle([fa, fb]),
                   werte={"m": gr(m, "g"), "A": fa, "B": fb, "behauptung": behauptung},
                   ergebnis={"nA": sig(na, "mol"), "nB": sig(nb, "mol"),
                             "urteil": "richtig" if stimmt else "falsch"})


_SCHLAGWORTE = ("Stoffmenge", "Mol", "molare Masse", "Stöchiometrie", "Teilchenanzahl", "Avogadro")

GENERATORS: tuple[Generator, ...] = (
    Generator("chemie.stoffmenge.molare_masse", "chemie", "Stoffmenge und molare Masse", "Molare Masse berechnen",
              (*_SCHLAGWORTE, "Atommasse", "Formel"), (9, 11), "I", "Berechnen", _molare_masse, ("Sek I", "gA")),
    Generator("chemie.stoffmenge.stoffmenge", "chemie", "Stoffmenge und molare Masse", "Stoffmenge und Teilchenzahl",
              (*_SCHLAGWORTE, "n = m/M", "Avogadro-Konstante"), (9, 11), "I", "Berechnen", _stoffmenge,
              ("Sek I", "gA")),
    Generator("chemie.stoffmenge.teilchenvergleich", "chemie", "Stoffmenge und molare Masse",
              "Gleiche Masse – gleiche Teilchenzahl?", (*_SCHLAGWORTE, "Teilchenzahl", "Vergleich"), (9, 11), "III",
              "Beurteilen", _teilchenvergleich, ("Sek I", "gA")),
)
