"""Chemie generators for chemical equilibrium (Oberstufe): K_c from equilibrium concentrations, equilibrium
concentrations from K_c, the reaction quotient, and judging proposals with Le Chatelier's principle.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.chemie.stoffmenge import gerundet_sig
from core.composition.generators.physik.common import aufgabe, gr, stellen_sig, tabelle, ungefaehr, z


@dataclass(frozen=True)
class Gleichgewicht:
    edukte: tuple[tuple[int, str], ...]
    produkte: tuple[tuple[int, str], ...]
    name: str
    dh: int  # reaction enthalpy in kJ/mol
    alle_gasfoermig: bool = True

    @property
    def gleichung(self) -> str:
        def seite(teile: tuple[tuple[int, str], ...]) -> str:
            return " + ".join((f"{k} " if k > 1 else "") + f for k, f in teile)
        return f"{seite(self.edukte)} ⇌ {seite(self.produkte)}"

    @property
    def bei(self) -> str:
        """'bei der' Ammoniaksynthese, 'beim' Kontaktverfahren."""
        return "bei der" if self.name.endswith(("synthese", "Reaktion")) else "beim"

    @property
    def dn(self) -> int:
        return sum(k for k, _ in self.produkte) - sum(k for k, _ in self.edukte)

    @property
    def mwg(self) -> str:
        def term(teile: tuple[tuple[int, str], ...]) -> str:
            faktoren = [f"c{'²³'[k - 2] if k > 1 else ''}({f})" for k, f in teile]
            return " · ".join(faktoren)
        unten = term(self.edukte)
        return f"K_c = {term(self.produkte)} / {('(' + unten + ')') if len(self.edukte) > 1 else unten}"


GLEICHGEWICHTE = (
    Gleichgewicht(((1, "H₂"), (1, "I₂")), ((2, "HI"),), "Iodwasserstoff-Gleichgewicht", -9),
    Gleichgewicht(((1, "N₂O₄"),), ((2, "NO₂"),), "Stickstoffdioxid-Gleichgewicht", 57),
    Gleichgewicht(((1, "CO"), (1, "H₂O")), ((1, "CO₂"), (1, "H₂")), "Wassergas-Shift-Reaktion", -41),
    Gleichgewicht(((1, "N₂"), (3, "H₂")), ((2, "NH₃"),), "Ammoniaksynthese", -92),
    Gleichgewicht(((2, "SO₂"), (1, "O₂")), ((2, "SO₃"),), "Kontaktverfahren", -198),
    Gleichgewicht(((1, "CO"), (2, "H₂")), ((1, "CH₃OH"),), "Methanolsynthese", -91),
)
_HOCH = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_C = ("0.010", "0.020", "0.040", "0.050", "0.10", "0.20", "0.25", "0.40", "0.50", "0.80", "1.0")


def einheit(dn: int) -> str:
    """The unit of K_c for a change dn of the number of particles: '', 'mol/L', 'L/mol', 'L²/mol²'."""
    return {0: "", 1: "mol/L", 2: "mol²/L²", -1: "L/mol", -2: "L²/mol²"}[dn]


def quotient(g: Gleichgewicht, c: dict[str, F]) -> F:
    oben, unten = F(1), F(1)
    for k, f in g.produkte:
        oben *= c[f] ** k
    for k, f in g.edukte:
        unten *= c[f] ** k
    return oben / unten


def einsetzen(g: Gleichgewicht, c: dict[str, F], stellen: dict[str, int]) -> str:
    """'(0,080 mol/L)² / (0,010 mol/L · 0,010 mol/L)': the MWG with the concentrations inserted."""
    def term(teile: tuple[tuple[int, str], ...]) -> str:
        return " · ".join(f"({gr(c[f], 'mol/L', stellen[f])}){'²³'[k - 2]}" if k > 1 else
                          gr(c[f], "mol/L", stellen[f]) for k, f in teile)
    unten = term(g.edukte)
    return f"{term(g.produkte)} / ({unten})"


def _k_wert(k: F, dn: int) -> str:
    return f"{z(k, stellen_sig(k, 3))} {einheit(dn)}".strip()


# --- K_c from equilibrium concentrations -----------------------------------------------------------------------------


def _k_berechnen(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        g = rng.choice(GLEICHGEWICHTE)
        stoffe = [f for _, f in (*g.edukte, *g.produkte)]
        c = {f: F(rng.choice(_C)) for f in stoffe}
        k = quotient(g, c)
        if F(1, 100) <= k <= 1000:
            break
    stellen = {f: stellen_sig(c[f], 2) for f in stoffe}
    material = tabelle("M1 Gleichgewichtskonzentrationen", ["Stoff", "c in mol/L"],
                       [[f, z(c[f], stellen[f])] for f in stoffe])
    text = (f"Für die Reaktion {g.gleichung} ({g.name}) wurden bei einer bestimmten Temperatur im Gleichgewicht die "
            "Konzentrationen im Material gemessen. Formuliere das Massenwirkungsgesetz und berechne die "
            "Gleichgewichtskonstante K_c (auf drei gültige Ziffern, mit Einheit).")
    schritte = [
        (f"Massenwirkungsgesetz: {g.mwg}.", 1),
        (f"K_c = {einsetzen(g, c, stellen)} {ungefaehr(k, stellen_sig(k, 3))} {_k_wert(k, g.dn)}.", 2),
        (f"Einheit: (mol/L){str(g.dn).translate(_HOCH)} = {einheit(g.dn)}, weil sich die Teilchenzahl um {z(g.dn)} "
         "ändert." if g.dn else "K_c hat hier keine Einheit, weil sich die Konzentrationseinheiten herauskürzen.", 1),
        ((f"Deutung: K_c {'>' if k > 1 else '<'} 1, im Gleichgewicht überwiegen die "
          f"{'Produkte' if k > 1 else 'Edukte'}." if g.dn == 0 else
          "Deutung: Je größer K_c, desto weiter liegt das Gleichgewicht auf der Seite der Produkte; der Wert gilt nur "
          "für diese Temperatur."), 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=7, material=material,
                   werte={f: gr(c[f], "mol/L", stellen[f]) for f in stoffe},
                   ergebnis={"K": _k_wert(k, g.dn)})


# --- equilibrium concentrations from K_c (eA) ------------------------------------------------------------------------


def _konzentrationen(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    art = rng.choice(("ester", "hi", "shift"))
    if art == "ester":
        gleichung = "CH₃COOH + C₂H₅OH ⇌ CH₃COOC₂H₅ + H₂O"
        a_name, b_name, p_name, q_name = "Essigsäure", "Ethanol", "Essigsäureethylester", "Wasser"
        wurzel, faktor_p, a = 2, 1, F(rng.choice((3, 6, 9, 12, 15)), 10)
        einheit_t, kontext = "mol", "Ein Gemisch aus je {a} Essigsäure und Ethanol wird mit etwas Schwefelsäure erhitzt"
    elif art == "hi":
        gleichung = "H₂ + I₂ ⇌ 2 HI"
        a_name, b_name, p_name, q_name = "H₂", "I₂", "HI", ""
        wurzel, faktor_p, a = 8, 2, F(rng.choice((5, 10, 20, 25, 50)), 100)
        einheit_t, kontext = "mol/L", "In einem Reaktor liegen zu Beginn je {a} Wasserstoff und Iod vor"
    else:
        gleichung = "CO + H₂O ⇌ CO₂ + H₂"
        a_name, b_name, p_name, q_name = "CO", "H₂O", "CO₂", "H₂"
        wurzel, faktor_p = rng.choice((1, 2, 3)), 1
        a = F(rng.choice({1: (4, 8, 10, 20), 2: (3, 6, 9, 12, 15), 3: (4, 8, 12, 20)}[wurzel]), 10)
        einheit_t, kontext = "mol/L", "In einem Reaktor liegen zu Beginn je {a} Kohlenstoffmonooxid und Wasserdampf vor"
    k = F(wurzel) ** 2
    # faktor_p · x / (a − x) = wurzel  ->  x = wurzel · a / (faktor_p + wurzel)
    x = wurzel * a / (faktor_p + wurzel)
    sym = "n" if art == "ester" else "c"
    produkte = f"{sym}({p_name}) = {gr(faktor_p * x, einheit_t)}" + (
        f", {sym}({q_name}) = {gr(x, einheit_t)}" if q_name else "")
    text = (f"{kontext.format(a=gr(a, einheit_t))}; es stellt sich das Gleichgewicht {gleichung} mit K_c = {z(k)} ein. "
            "Bestimme die Zusammensetzung im Gleichgewicht für alle Stoffe."
            + (" (Hinweis: Das Volumen kürzt sich heraus; rechne mit Stoffmengen.)" if art == "ester" else ""))
    mwg = f"(2x)² / (({z(a)} − x) · ({z(a)} − x))" if faktor_p == 2 else f"x² / (({z(a)} − x) · ({z(a)} − x))"
    schritte = [
        (f"Tabelle: Anfang je {gr(a, einheit_t)} für {a_name} und {b_name}, Produkte 0; Umsatz x; im Gleichgewicht "
         f"{z(a)} − x für die Edukte und {'2x' if faktor_p == 2 else 'x'} für "
         f"{'das Produkt' if not q_name else 'die Produkte'}.", 2),
        (f"Massenwirkungsgesetz: {z(k)} = {mwg}.", 1),
        (f"Wurzel ziehen: {'2x' if faktor_p == 2 else 'x'} / ({z(a)} − x) = √{z(k)} = {wurzel}.", 1),
        (f"Aufgelöst: x = {wurzel} · {z(a)} / ({faktor_p} + {wurzel}) = {z(x)}.", 1),
        (f"Gleichgewicht: {sym}({a_name}) = {sym}({b_name}) = {gr(a - x, einheit_t)}; {produkte}.", 1),
        (f"Probe: ({gr(faktor_p * x, einheit_t)})² / ({gr(a - x, einheit_t)} · {gr(a - x, einheit_t)}) = {z(k)}."
         if faktor_p == 2 or not q_name else
         f"Probe: ({gr(x, einheit_t)} · {gr(x, einheit_t)}) / ({gr(a - x, einheit_t)} · {gr(a - x, einheit_t)}) = "
         f"{z(k)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=12, werte={"a": gr(a, einheit_t), "K": z(k), "art": art},
                   ergebnis={"x": z(x), "edukt": gr(a - x, einheit_t), "produkt": gr(faktor_p * x, einheit_t)})


# --- the reaction quotient: judging a claim --------------------------------------------------------------------------

_STOERUNGEN = ("Zugabe", "Entnahme")


def _reaktionsquotient(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    while True:
        g = rng.choice(GLEICHGEWICHTE[:4])
        stoffe = [f for _, f in (*g.edukte, *g.produkte)]
        c = {f: F(rng.choice(_C)) for f in stoffe}
        k = gerundet_sig(quotient(g, c) * F(rng.choice((25, 40, 50, 200, 250, 400)), 100))
        q = quotient(g, c)
        if not (F(3, 4) < q / k < F(4, 3)) and F(1, 100) <= q <= 1000:
            break
    stellen = {f: stellen_sig(c[f], 2) for f in stoffe}
    richtung = "nach rechts (zu den Produkten)" if q < k else "nach links (zu den Edukten)"
    behauptung = rng.choice(("gg", "rechts", "links"))
    zitat = {"gg": "„Das System ist im Gleichgewicht, es ändert sich nichts mehr.“",
             "rechts": "„Bis zum Gleichgewicht werden noch weitere Produkte gebildet.“",
             "links": "„Bis zum Gleichgewicht zerfallen noch Produkte wieder in die Edukte.“"}[behauptung]
    stimmt = (behauptung == "rechts" and q < k) or (behauptung == "links" and q > k)
    werte_text = ", ".join(f"c({f}) = {gr(c[f], 'mol/L', stellen[f])}" for f in stoffe)
    text = (f"Für die Reaktion {g.gleichung} gilt bei der Versuchstemperatur K_c = {_k_wert(k, g.dn)}. In einem "
            f"Reaktor werden zu einem Zeitpunkt folgende Konzentrationen gemessen: {werte_text}. Jemand behauptet: "
            f"{zitat} Beurteile diese Aussage mithilfe des Reaktionsquotienten Q.")
    schritte = [
        (f"Reaktionsquotient wie das Massenwirkungsgesetz, aber mit den aktuellen Konzentrationen: "
         f"{g.mwg.replace('K_c', 'Q')}.", 1),
        (f"Q = {einsetzen(g, c, stellen)} {ungefaehr(q, stellen_sig(q, 3))} {_k_wert(q, g.dn)}.", 2),
        (f"Vergleich: Q {'<' if q < k else '>'} K_c ({_k_wert(q, g.dn)} {'<' if q < k else '>'} "
         f"{_k_wert(k, g.dn)}); das System ist nicht im Gleichgewicht.", 1),
        (f"Die Reaktion läuft bis zum Gleichgewicht {richtung}, bis Q = K_c ist.", 1),
        (f"Urteil: Die Aussage ist {'richtig' if stimmt else 'falsch'}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=9, werte={**{f: gr(c[f], "mol/L", stellen[f]) for f in stoffe}, "K": _k_wert(k, g.dn),
                                     "behauptung": behauptung},
                   ergebnis={"Q": _k_wert(q, g.dn), "richtung": "rechts" if q < k else "links",
                             "urteil": "richtig" if stimmt else "falsch"})


# --- Le Chatelier: judging proposals for a higher yield --------------------------------------------------------------

# (label, as said in a proposal)
_MASSNAHMEN = (("Temperatur erhöhen", "die Temperatur erhöhen"), ("Temperatur senken", "die Temperatur senken"),
               ("Druck erhöhen", "den Druck erhöhen"), ("Druck senken", "den Druck senken"),
               ("Katalysator einsetzen", "einen Katalysator einsetzen"),
               ("Edukt zuführen", "laufend Edukte nachführen"), ("Produkt entfernen", "das Produkt laufend entfernen"))


def wirkung(g: Gleichgewicht, massnahme: str) -> tuple[int, str]:
    """+1 more product, −1 less, 0 no shift of the equilibrium; with the reason in words."""
    if massnahme.startswith("Temperatur"):
        hoch = massnahme.endswith("erhöhen")
        endo = g.dh > 0
        vorz = 1 if hoch == endo else -1
        return vorz, (f"Die Hinreaktion ist {'endotherm' if endo else 'exotherm'} (ΔH = {z(g.dh)} kJ/mol); "
                      f"{'Erwärmen' if hoch else 'Abkühlen'} begünstigt die {'endotherme' if hoch else 'exotherme'} "
                      "Richtung.")
    if massnahme.startswith("Druck"):
        if g.dn == 0:
            return 0, "Die Gasteilchenzahl ändert sich nicht; der Druck verschiebt das Gleichgewicht nicht."
        hoch = massnahme.endswith("erhöhen")
        vorz = 1 if (g.dn < 0) == hoch else -1
        return vorz, (f"Die Zahl der Gasteilchen {'sinkt' if g.dn < 0 else 'steigt'} bei der Hinreaktion; "
                      f"{'Druckerhöhung' if hoch else 'Druckverminderung'} begünstigt die Seite mit "
                      f"{'weniger' if hoch else 'mehr'} Gasteilchen.")
    if massnahme.startswith("Katalysator"):
        return 0, ("Ein Katalysator beschleunigt Hin- und Rückreaktion gleichermaßen; das Gleichgewicht stellt sich "
                   "nur schneller ein, seine Lage ändert sich nicht.")
    if massnahme.startswith("Edukt"):
        return 1, "Das System weicht aus, indem es die zugeführten Edukte verbraucht; dabei entsteht mehr Produkt."
    return 1, "Das System weicht aus, indem es das entfernte Produkt nachbildet."


def _le_chatelier(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    g = rng.choice(GLEICHGEWICHTE)
    produkt = g.produkte[0][1]
    (m1, s1), (m2, s2) = rng.sample(_MASSNAHMEN[:5], 2) if rng.random() < 0.7 else (rng.choice(_MASSNAHMEN[:5]),
                                                                                     rng.choice(_MASSNAHMEN[5:]))
    w1, w2 = wirkung(g, m1), wirkung(g, m2)
    stimmt = w1[0] > 0 and w2[0] > 0
    text = (f"{g.bei.capitalize()} {g.name} ({g.gleichung}; ΔH = {z(g.dh)} kJ/mol, alle Stoffe gasförmig) soll die "
            f"Ausbeute an {produkt} im Gleichgewicht erhöht werden. Jemand schlägt vor: „Man sollte {s1} und {s2}.“ "
            "Beurteile den Vorschlag mithilfe des Prinzips von Le Chatelier.")

    def zeile(m: str, w: tuple[int, str]) -> str:
        folge = {1: "mehr", -1: "weniger", 0: "keine Änderung der Ausbeute an"}[w[0]]
        return f"{m}: {w[1]} Folge: {folge} {produkt}."

    schritte = [
        ("Prinzip von Le Chatelier: Ein Gleichgewicht weicht einem äußeren Zwang so aus, dass dessen Wirkung "
         "verringert wird.", 1),
        (zeile(m1, w1), 2),
        (zeile(m2, w2), 2),
        (f"Urteil: Der Vorschlag ist {'sinnvoll' if stimmt else 'so nicht sinnvoll'}" + (
            "." if stimmt else ", weil nicht beide Maßnahmen die Ausbeute erhöhen.") +
         " In der Technik wird zusätzlich die Reaktionsgeschwindigkeit berücksichtigt (Kompromiss bei der "
         "Temperatur, Katalysator).", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=9, werte={"reaktion": g.name, "m1": m1, "m2": m2},
                   ergebnis={"w1": str(w1[0]), "w2": str(w2[0]), "urteil": "sinnvoll" if stimmt else "nicht sinnvoll"})


_SCHLAGWORTE = ("Massenwirkungsgesetz", "chemisches Gleichgewicht", "Gleichgewicht", "Gleichgewichtskonstante",
                "MWG")

GENERATORS: tuple[Generator, ...] = (
    Generator("chemie.gleichgewicht.k_berechnen", "chemie", "Massenwirkungsgesetz", "Gleichgewichtskonstante berechnen",
              (*_SCHLAGWORTE, "K_c"), (11, 13), "I", "Berechnen", _k_berechnen, ("gA", "eA")),
    Generator("chemie.gleichgewicht.konzentrationen", "chemie", "Massenwirkungsgesetz",
              "Gleichgewichtskonzentrationen bestimmen", (*_SCHLAGWORTE, "Gleichgewichtskonzentration", "Umsatz"),
              (11, 13), "II", "Bestimmen", _konzentrationen, ("eA",)),
    Generator("chemie.gleichgewicht.reaktionsquotient", "chemie", "Massenwirkungsgesetz", "Reaktionsquotient",
              (*_SCHLAGWORTE, "Reaktionsquotient", "Gleichgewichtslage"), (11, 13), "III", "Beurteilen",
              _reaktionsquotient, ("gA", "eA")),
    Generator("chemie.gleichgewicht.le_chatelier", "chemie", "Massenwirkungsgesetz", "Prinzip von Le Chatelier",
              (*_SCHLAGWORTE, "Le Chatelier", "Ausbeute", "Haber-Bosch-Verfahren"), (11, 13), "III", "Beurteilen",
              _le_chatelier, ("gA", "eA")),
)
