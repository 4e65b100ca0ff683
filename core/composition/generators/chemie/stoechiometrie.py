"""Chemie generators for stoichiometry: product mass from a reactant mass, gas volume with the molar volume,
yield, and judging a claim about a reaction with one reactant in excess.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.chemie.elemente import atommassen_tabelle, molare_masse, molare_masse_rechnung
from core.composition.generators.physik.common import aufgabe, gr, gross, runden, terminiert, z


@dataclass(frozen=True)
class Stoff:
    koeffizient: int
    formel: str
    name: str


@dataclass(frozen=True)
class Reaktion:
    edukte: tuple[Stoff, ...]
    produkte: tuple[Stoff, ...]
    beschreibung: str  # what happens, as a sentence fragment for the task text

    @property
    def gleichung(self) -> str:
        def seite(stoffe: tuple[Stoff, ...]) -> str:
            return " + ".join((f"{s.koeffizient} " if s.koeffizient > 1 else "") + s.formel for s in stoffe)
        return f"{seite(self.edukte)} → {seite(self.produkte)}"


def _r(edukte: str, produkte: str, beschreibung: str) -> Reaktion:
    """'2 Mg:Magnesium + O₂:Sauerstoff' -> stoffe; keeps the table below readable."""
    def stoffe(text: str) -> tuple[Stoff, ...]:
        out = []
        for teil in text.split(" + "):
            formel_teil, name = teil.split(":")
            koeff, _, formel = formel_teil.rpartition(" ")
            out.append(Stoff(int(koeff) if koeff else 1, formel, name))
        return tuple(out)
    return Reaktion(stoffe(edukte), stoffe(produkte), beschreibung)


_MASSE = (
    # (reaction, index of the given reactant, index of the product asked for)
    (_r("2 Mg:Magnesium + O₂:Sauerstoff", "2 MgO:Magnesiumoxid", "Magnesium verbrennt vollständig zu Magnesiumoxid"),
     0, 0),
    (_r("Fe:Eisen + S:Schwefel", "FeS:Eisensulfid", "Eisen reagiert vollständig mit Schwefel zu Eisensulfid"), 0, 0),
    (_r("4 Al:Aluminium + 3 O₂:Sauerstoff", "2 Al₂O₃:Aluminiumoxid", "Aluminiumpulver verbrennt vollständig zu "
        "Aluminiumoxid"), 0, 0),
    (_r("Fe₂O₃:Eisen(III)-oxid + 2 Al:Aluminium", "Al₂O₃:Aluminiumoxid + 2 Fe:Eisen", "beim Thermitverfahren "
        "reagiert Eisen(III)-oxid vollständig mit Aluminium zu Eisen und Aluminiumoxid"), 0, 1),
    (_r("CaCO₃:Calciumcarbonat", "CaO:Calciumoxid + CO₂:Kohlenstoffdioxid", "beim Kalkbrennen zerfällt "
        "Calciumcarbonat vollständig in Calciumoxid und Kohlenstoffdioxid"), 0, 0),
    (_r("2 Na:Natrium + Cl₂:Chlor", "2 NaCl:Natriumchlorid", "Natrium reagiert vollständig mit Chlor zu "
        "Natriumchlorid"), 0, 0),
    (_r("2 Cu:Kupfer + O₂:Sauerstoff", "2 CuO:Kupfer(II)-oxid", "Kupfer reagiert beim Erhitzen an der Luft "
        "vollständig zu Kupfer(II)-oxid"), 0, 0),
    (_r("C₆H₁₂O₆:Glucose", "2 C₂H₅OH:Ethanol + 2 CO₂:Kohlenstoffdioxid", "bei der alkoholischen Gärung wird "
        "Glucose vollständig zu Ethanol und Kohlenstoffdioxid umgesetzt"), 0, 0),
)
_N = ("0.05", "0.1", "0.2", "0.25", "0.5", "1", "2")
_N_KLEIN = ("0.02", "0.025", "0.05", "0.1", "0.2")  # what fits into a test tube


def verhaeltnis(p: Stoff, e: Stoff) -> str:
    """The reduced ratio of the coefficients: '1 : 1' for 2 CuO : 2 Cu."""
    q = F(p.koeffizient, e.koeffizient)
    return f"{q.numerator} : {q.denominator}"


def _portion(rng: random.Random, formel: str, stellen: int = 2, mengen: tuple[str, ...] = _N) -> tuple[F, F]:
    """A stoichiometric amount n and its mass m = n · M with at most `stellen` decimals."""
    mm = molare_masse(formel)
    while True:
        n = F(rng.choice(mengen))
        m = n * mm
        if terminiert(m) and runden(m, stellen) == m:
            return n, m


def _masse_schritte(r: Reaktion, e: Stoff, p: Stoff, m_e: F, n_e: F) -> tuple[list[tuple[str, int]], F, F]:
    me, mp = molare_masse(e.formel), molare_masse(p.formel)
    n_p = n_e * p.koeffizient / e.koeffizient
    m_p = n_p * mp
    schritte = [
        (f"Reaktionsgleichung: {r.gleichung}.", 1),
        (f"n({e.formel}) = m / M = {gr(m_e, 'g')} / {gr(me, 'g/mol', 1)} = {gr(n_e, 'mol')}.", 1),
        (f"Stoffmengenverhältnis n({p.formel}) : n({e.formel}) = {verhaeltnis(p, e)}, also "
         f"n({p.formel}) = {gr(n_p, 'mol')}.", 1),
        (molare_masse_rechnung(p.formel) + ".", 1),
        (f"m({p.formel}) = n · M = {gr(n_p, 'mol')} · {gr(mp, 'g/mol', 1)} = {gr(m_p, 'g')}.", 1),
    ]
    return schritte, n_p, m_p


def _produktmasse(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    r, i_e, i_p = rng.choice(_MASSE)
    e, p = r.edukte[i_e], r.produkte[i_p]
    n_e, m_e = _portion(rng, e.formel)
    schritte, _, m_p = _masse_schritte(r, e, p, m_e, n_e)
    text = (f"{gross(r.beschreibung)}. Bestimme die Masse an {p.name}, die aus {gr(m_e, 'g')} {e.name} entsteht. "
            "Formuliere dazu zuerst die Reaktionsgleichung; die Atommassen findest du im Material.")
    deutung = ("Deutung: Die Masse nimmt zu, weil Sauerstoff gebunden wird (Erhaltung der Masse)."
               if any(s.formel == "O₂" for s in r.edukte) else
               "Kontrolle: Die Gesamtmasse bleibt bei der Reaktion erhalten (Gesetz von der Erhaltung der Masse).")
    schritte.append((deutung, 1))
    formeln = [s.formel for s in (*r.edukte, *r.produkte)]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=9, material=atommassen_tabelle(formeln),
                   werte={"m": gr(m_e, "g"), "edukt": e.formel, "produkt": p.formel,
                          "verhaeltnis": f"{p.koeffizient}:{e.koeffizient}"},
                   ergebnis={"m_p": gr(m_p, "g")})


# --- gas volume ------------------------------------------------------------------------------------------------------

_GAS = (
    (_r("Zn:Zink + 2 HCl:Salzsäure", "ZnCl₂:Zinkchlorid + H₂:Wasserstoff", "Zink reagiert vollständig mit "
        "Salzsäure"), 0, 1),
    (_r("Mg:Magnesium + 2 HCl:Salzsäure", "MgCl₂:Magnesiumchlorid + H₂:Wasserstoff", "Magnesium reagiert vollständig "
        "mit Salzsäure"), 0, 1),
    (_r("CaCO₃:Calciumcarbonat + 2 HCl:Salzsäure", "CaCl₂:Calciumchlorid + H₂O:Wasser + CO₂:Kohlenstoffdioxid",
        "Kalk (Calciumcarbonat) reagiert vollständig mit Salzsäure"), 0, 2),
    (_r("C₆H₁₂O₆:Glucose", "2 C₂H₅OH:Ethanol + 2 CO₂:Kohlenstoffdioxid", "Hefe vergärt Glucose vollständig"), 0, 1),
    (_r("2 H₂O₂:Wasserstoffperoxid", "2 H₂O:Wasser + O₂:Sauerstoff", "Wasserstoffperoxid zerfällt mithilfe eines "
        "Katalysators vollständig"), 0, 1),
    (_r("C₃H₈:Propan + 5 O₂:Sauerstoff", "3 CO₂:Kohlenstoffdioxid + 4 H₂O:Wasser", "Propan aus einer Gaskartusche "
        "verbrennt vollständig"), 0, 0),
)


def _gasvolumen(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    r, i_e, i_p = rng.choice(_GAS)
    e, p = r.edukte[i_e], r.produkte[i_p]
    n_e, m_e = _portion(rng, e.formel)
    vm, bedingung = rng.choice(((F(24), "bei 20 °C und Normaldruck"), (F("22.4"), "bei 0 °C und Normaldruck")))
    me = molare_masse(e.formel)
    n_p = n_e * p.koeffizient / e.koeffizient
    v = n_p * vm
    text = (f"{gross(r.beschreibung)}. Bestimme das Volumen an {p.name}, das aus {gr(m_e, 'g')} {e.name} entsteht "
            f"({bedingung}; molares Volumen V_m = {gr(vm, 'L/mol')}). Die Reaktionsgleichung lautet {r.gleichung}; "
            "die Atommassen findest du im Material.")
    schritte = [
        (molare_masse_rechnung(e.formel) + ".", 1),
        (f"n({e.formel}) = m / M = {gr(m_e, 'g')} / {gr(me, 'g/mol', 1)} = {gr(n_e, 'mol')}.", 1),
        (f"Laut Reaktionsgleichung n({p.formel}) : n({e.formel}) = {verhaeltnis(p, e)}, also "
         f"n({p.formel}) = {gr(n_p, 'mol')}.", 1),
        ("Ansatz: V = n · V_m.", 1),
        (f"V({p.formel}) = {gr(n_p, 'mol')} · {gr(vm, 'L/mol')} = {gr(v, 'L')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=8, material=atommassen_tabelle([e.formel]),
                   werte={"m": gr(m_e, "g"), "edukt": e.formel, "verhaeltnis": f"{p.koeffizient}:{e.koeffizient}",
                          "Vm": gr(vm, "L/mol")},
                   ergebnis={"V": gr(v, "L")})


# --- yield -----------------------------------------------------------------------------------------------------------


def _ausbeute(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    r, i_e, i_p = rng.choice(_MASSE)
    e, p = r.edukte[i_e], r.produkte[i_p]
    n_e, m_e = _portion(rng, e.formel)
    _, _, m_theo = _masse_schritte(r, e, p, m_e, n_e)
    m_ist = F(runden(m_theo * F(rng.choice((62, 70, 75, 80, 85, 88, 92)), 100), 1))
    ausbeute = m_ist / m_theo * 100
    text = (f"Im Labor wird folgende Reaktion durchgeführt: {r.gleichung}. Eingesetzt werden {gr(m_e, 'g')} "
            f"{e.name}; nach der Reaktion werden {gr(m_ist, 'g', 1)} {p.name} gewogen. Berechne die Ausbeute in "
            "Prozent (ganzzahlig gerundet). Die Atommassen findest du im Material.")
    me, mp = molare_masse(e.formel), molare_masse(p.formel)
    n_p = n_e * p.koeffizient / e.koeffizient
    schritte = [
        (f"n({e.formel}) = {gr(m_e, 'g')} / {gr(me, 'g/mol', 1)} = {gr(n_e, 'mol')}; n({p.formel}) = "
         f"{p.koeffizient}/{e.koeffizient} · {gr(n_e, 'mol')} = {gr(n_p, 'mol')}.", 1),
        (molare_masse_rechnung(p.formel) + ".", 1),
        (f"Theoretische Masse: m = {gr(n_p, 'mol')} · {gr(mp, 'g/mol', 1)} = {gr(m_theo, 'g')}.", 1),
        ("Ansatz: Ausbeute = m(erhalten) / m(theoretisch).", 1),
        (f"Ausbeute = {gr(m_ist, 'g', 1)} / {gr(m_theo, 'g')} ≈ {z(ausbeute, 0)} %.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=8, material=atommassen_tabelle([s.formel for s in (*r.edukte, *r.produkte)]),
                   werte={"m": gr(m_e, "g"), "m_ist": gr(m_ist, "g", 1), "edukt": e.formel, "produkt": p.formel,
                          "verhaeltnis": f"{p.koeffizient}:{e.koeffizient}"},
                   ergebnis={"m_theo": gr(m_theo, "g"), "ausbeute": f"{z(ausbeute, 0)} %"})


# --- one reactant in excess: judging a claim -------------------------------------------------------------------------

_UEBERSCHUSS = (
    (_r("Fe:Eisen + S:Schwefel", "FeS:Eisensulfid", "Eisenpulver und Schwefelpulver"), "Eisenpulver", "Schwefelpulver"),
    (_r("Zn:Zink + S:Schwefel", "ZnS:Zinksulfid", "Zinkpulver und Schwefelpulver"), "Zinkpulver", "Schwefelpulver"),
    (_r("2 Cu:Kupfer + S:Schwefel", "Cu₂S:Kupfersulfid", "Kupferblech und Schwefelpulver"), "Kupferblech",
     "Schwefelpulver"),
)


def _ueberschuss(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    r, name_a, name_b = rng.choice(_UEBERSCHUSS)
    a, b = r.edukte
    p = r.produkte[0]
    while True:
        n_a, m_a = _portion(rng, a.formel, mengen=_N_KLEIN)
        n_b, m_b = _portion(rng, b.formel, mengen=_N_KLEIN)
        quote = (n_a / a.koeffizient) / (n_b / b.koeffizient)
        if quote != 1 and F(1, 4) <= quote <= 4:
            break
    begrenzt, ueber = (a, b) if n_a / a.koeffizient < n_b / b.koeffizient else (b, a)
    n_begrenzt = n_a if begrenzt is a else n_b
    umsatz = n_begrenzt / begrenzt.koeffizient  # "formula turnovers"
    n_p = umsatz * p.koeffizient
    m_p = n_p * molare_masse(p.formel)
    n_rest = (n_b if ueber is b else n_a) - umsatz * ueber.koeffizient
    m_rest = n_rest * molare_masse(ueber.formel)
    art = rng.choice(("summe", "richtig", "falscher_rest"))
    if art == "summe":
        zitat = (f"„Es entstehen {gr(m_a + m_b, 'g')} {p.name}, denn bei einer chemischen Reaktion bleibt die Masse "
                 "erhalten.“")
    elif art == "richtig":
        zitat = f"„Es entstehen {gr(m_p, 'g')} {p.name}; {gr(m_rest, 'g')} {ueber.name} bleiben übrig.“"
    else:
        zitat = f"„{ueber.name} reagiert vollständig, von {begrenzt.name} bleibt etwas übrig.“"
    stimmt = art == "richtig"
    text = (f"Im Reagenzglas werden {gr(m_a, 'g')} {name_a} und {gr(m_b, 'g')} {name_b} gemischt und erhitzt; es "
            f"entsteht {p.name} ({r.gleichung}). Ein Schüler behauptet: {zitat} Beurteile diese Aussage mithilfe "
            "einer Rechnung. Die Atommassen findest du im Material.")
    ma, mb, mp = molare_masse(a.formel), molare_masse(b.formel), molare_masse(p.formel)
    schritte = [
        (f"n({a.formel}) = {gr(m_a, 'g')} / {gr(ma, 'g/mol', 1)} = {gr(n_a, 'mol')}; n({b.formel}) = "
         f"{gr(m_b, 'g')} / {gr(mb, 'g/mol', 1)} = {gr(n_b, 'mol')}.", 1),
        (f"Laut Gleichung reagieren {a.formel} und {b.formel} im Verhältnis {a.koeffizient} : {b.koeffizient}; "
         f"{begrenzt.name} reicht nur für {gr(umsatz * p.koeffizient, 'mol')} {p.formel} und begrenzt die Reaktion, "
         f"{ueber.name} liegt im Überschuss vor.", 2),
        (f"{molare_masse_rechnung(p.formel)}; m({p.formel}) = {gr(n_p, 'mol')} · {gr(mp, 'g/mol', 1)} = "
         f"{gr(m_p, 'g')}.", 1),
        (f"Übrig bleiben n({ueber.formel}) = {gr(n_rest, 'mol')}, also m = {gr(n_rest, 'mol')} · "
         f"{gr(molare_masse(ueber.formel), 'g/mol', 1)} = {gr(m_rest, 'g')} {ueber.name}.", 1),
        (f"Kontrolle: {gr(m_p, 'g')} + {gr(m_rest, 'g')} = {gr(m_a + m_b, 'g')}; die Masse bleibt erhalten, aber nicht "
         "alles wird zu Produkt.", 1),
        (f"Urteil: Die Aussage ist {'richtig' if stimmt else 'falsch'}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=11, material=atommassen_tabelle([a.formel, b.formel]),
                   werte={"m_a": gr(m_a, "g"), "m_b": gr(m_b, "g"), "A": a.formel, "B": b.formel, "art": art},
                   ergebnis={"m_p": gr(m_p, "g"), "m_rest": gr(m_rest, "g"), "ueberschuss": ueber.formel,
                             "urteil": "richtig" if stimmt else "falsch"})


_SCHLAGWORTE = ("Stöchiometrie", "Reaktionsgleichung", "Stoffmenge", "molare Masse", "Chemisches Rechnen")

GENERATORS: tuple[Generator, ...] = (
    Generator("chemie.stoechiometrie.produktmasse", "chemie", "Stöchiometrie", "Masse eines Produkts berechnen",
              (*_SCHLAGWORTE, "Produktmasse", "Massenberechnung"), (9, 13), "II", "Bestimmen", _produktmasse,
              ("Sek I", "gA", "eA")),
    Generator("chemie.stoechiometrie.gasvolumen", "chemie", "Stöchiometrie", "Gasvolumen berechnen",
              (*_SCHLAGWORTE, "molares Volumen", "Gasvolumen", "Gase"), (9, 13), "II", "Bestimmen", _gasvolumen,
              ("Sek I", "gA", "eA")),
    Generator("chemie.stoechiometrie.ausbeute", "chemie", "Stöchiometrie", "Ausbeute berechnen",
              (*_SCHLAGWORTE, "Ausbeute", "Synthese"), (10, 13), "I", "Berechnen", _ausbeute, ("Sek I", "gA", "eA")),
    Generator("chemie.stoechiometrie.ueberschuss", "chemie", "Stöchiometrie", "Edukt im Überschuss",
              (*_SCHLAGWORTE, "Überschuss", "limitierender Reaktionspartner", "Massenerhaltung"), (9, 13), "III",
              "Beurteilen", _ueberschuss, ("Sek I", "gA", "eA")),
)
