"""Stochastik in der Oberstufe: Bernoulli chains and the binomial distribution, and judging whether a game of chance
is fair. Probabilities are computed exactly and rounded to four decimals as a calculator would show them.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import (
    aufgabe,
    dez,
    euro,
    hoch,
    prozent,
    runde,
    wahl,
    zahl_oder_bruch,
)

F = Fraction
OBERSTUFE = ("gA", "eA")

# (situation with {n} and {p}, the success in the nominative and genitive plural, n choices, p choices)
_KETTEN = (
    ("Bei einem Multiple-Choice-Test mit {n} Fragen hat jede Frage vier Antworten, von denen genau eine richtig ist. "
     "Lea kreuzt bei jeder Frage zufällig eine Antwort an.", "richtige Antworten", "der richtigen Antworten",
     (8, 10, 12, 15, 20), (F(1, 4),)),
    ("Ein Hersteller gibt an, dass {p} seiner Bauteile fehlerhaft sind. Einer Lieferung werden {n} Bauteile "
     "zufällig entnommen.", "fehlerhafte Bauteile", "der fehlerhaften Bauteile", (10, 15, 20, 25, 30),
     (F(1, 20), F(1, 10), F(2, 100), F(3, 100))),
    ("Ein Saatgut keimt laut Packung mit einer Wahrscheinlichkeit von {p}. Es werden {n} Samen ausgesät.",
     "keimende Samen", "der keimenden Samen", (10, 12, 15, 20), (F(8, 10), F(85, 100), F(9, 10), F(95, 100))),
    ("Eine Basketballspielerin trifft Freiwürfe mit einer Wahrscheinlichkeit von {p}. Sie wirft {n} Freiwürfe.",
     "Treffer", "der Treffer", (8, 10, 12, 15), (F(7, 10), F(3, 4), F(4, 5), F(65, 100))),
)


def pbin(n: int, p: Fraction, k: int) -> Fraction:
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


def bin_text(n: int, p: Fraction, k: int) -> str:
    """'120 · 0,25³ · 0,75⁷' for P(X = k)."""
    q = 1 - p
    teile = [str(comb(n, k))] if comb(n, k) != 1 else []
    if k:
        teile.append(f"{dez(p)}{hoch(k) if k > 1 else ''}")
    if n - k:
        teile.append(f"{dez(q)}{hoch(n - k) if n - k > 1 else ''}")
    return " · ".join(teile)


def _kette(rng: random.Random) -> tuple[str, str, str, int, Fraction]:
    satz, erfolg, genitiv, ns, ps = wahl(rng, _KETTEN)
    n, p = wahl(rng, ns), wahl(rng, ps)
    return satz.format(n=n, p=prozent(p * 100)), erfolg, genitiv, n, p


def build_binomial(rng: random.Random, klasse: int) -> GeneratedTask:
    satz, erfolg, genitiv, n, p = _kette(rng)
    mu = round(float(n * p))
    k = rng.randint(max(1, mu - 2), min(n - 1, mu + 2))
    pk = pbin(n, p, k)
    if p < F(1, 2):
        frage, rand, ansatz = "P(X ≥ 1)", (1 - p) ** n, f"P(X ≥ 1) = 1 − P(X = 0) = 1 − {dez(1 - p)}{hoch(n)}"
    else:
        frage, rand, ansatz = f"P(X ≤ {n - 1})", p ** n, f"P(X ≤ {n - 1}) = 1 − P(X = {n}) = 1 − {dez(p)}{hoch(n)}"
    text = (f"{satz} Die Zufallsgröße X gibt die Anzahl {genitiv} an. Begründe kurz, dass X binomialverteilt ist, "
            f"und berechne P(X = {k}) sowie {frage}. Runde auf vier Nachkommastellen.")
    schritte = [
        (f"Bernoulli-Kette: {n}-mal dasselbe Experiment mit zwei Ausgängen, unabhängig, gleichbleibende "
         f"Trefferwahrscheinlichkeit p = {dez(p)}; also X ~ B({n}; {dez(p)}).", 1),
        (f"Anzahl der Pfade: ({n} über {k}) = {comb(n, k)}.", 1),
        (f"P(X = {k}) = {bin_text(n, p, k)} ≈ {dez(pk, 4)}.", 1),
        (f"Gegenereignis: {ansatz} ≈ {dez(1 - rand, 4)}.", 2),
    ]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=7,
                   werte={"n": str(n), "p": dez(p), "k": str(k)},
                   ergebnis={"p_k": dez(pk, 4), "p_gegen": dez(1 - rand, 4)})


def build_mindestens(rng: random.Random, klasse: int) -> GeneratedTask:
    satz, erfolg, genitiv, n, p = _kette(rng)
    mu = n * p
    if mu < F(n, 2):  # few successes: 'mindestens k' through the complement X ≤ k − 1
        k = 2 if mu < 1 else wahl(rng, (2, 3))
        frage, gegen, werte_i = f"mindestens {k} {erfolg}", f"P(X ≥ {k}) = 1 − P(X ≤ {k - 1})", range(k)
    else:  # many successes: 'höchstens k' through the complement X ≥ k + 1
        k = n - wahl(rng, (2, 3))
        frage, gegen, werte_i = f"höchstens {k} {erfolg}", f"P(X ≤ {k}) = 1 − P(X ≥ {k + 1})", range(k + 1, n + 1)
    teile = [pbin(n, p, i) for i in werte_i]
    rest = sum(teile)
    text = (f"{satz} Die Zufallsgröße X gibt die Anzahl {genitiv} an. Bestimme die Wahrscheinlichkeit dafür, dass "
            f"{frage} dabei sind, und den Erwartungswert von X. Deute den Erwartungswert im Sachzusammenhang.")
    einzel = "; ".join(f"P(X = {i}) = {bin_text(n, p, i)} ≈ {dez(pbin(n, p, i), 4)}" for i in werte_i)
    schritte = [
        (f"Ansatz über das Gegenereignis: {gegen}.", 1),
        (f"{einzel}.", len(teile)),
        (f"Ergebnis: 1 − {dez(rest, 4)} ≈ {dez(1 - rest, 4)}, also etwa {prozent(runde((1 - rest) * 100, 1))} "
         "(mit dem Taschenrechner oder einer Tabelle der kumulierten Binomialverteilung ebenso).", 1),
        (f"Erwartungswert: μ = n · p = {n} · {dez(p)} = {zahl_oder_bruch(mu)}.", 1),
        (f"Deutung: Wiederholt man die Versuchsreihe sehr oft, liegt die Anzahl {genitiv} im Mittel bei "
         f"{zahl_oder_bruch(mu)}.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=12,
                   werte={"n": str(n), "p": dez(p), "k": str(k), "art": frage.split()[0]},
                   ergebnis={"p": dez(1 - rest, 4), "erwartungswert": zahl_oder_bruch(mu)})


def _gluecksrad(rng: random.Random) -> tuple[str, list[tuple[str, Fraction, Fraction]], Fraction]:
    felder = wahl(rng, (8, 10, 12))
    gross, mittel = rng.randint(1, 2), rng.randint(1, 3)
    auszahl_gross, auszahl_mittel = F(wahl(rng, (5, 8, 10))), F(wahl(rng, (2, 3)))
    einsatz = F(wahl(rng, (1, 2)))
    text = (f"Die Klasse plant für das Schulfest ein Glücksrad mit {felder} gleich großen Feldern. {gross} "
            f"{'Feld bringt' if gross == 1 else 'Felder bringen'} eine Auszahlung von {euro(auszahl_gross)}, {mittel} "
            f"{'Feld bringt' if mittel == 1 else 'Felder bringen'} {euro(auszahl_mittel)}, alle anderen nichts. Ein "
            f"Spiel kostet {euro(einsatz)} Einsatz.")
    verteilung = [(euro(auszahl_gross), F(gross, felder), auszahl_gross),
                  (euro(auszahl_mittel), F(mittel, felder), auszahl_mittel),
                  ("0 €", F(felder - gross - mittel, felder), F(0))]
    return text, verteilung, einsatz


def _wuerfel(rng: random.Random) -> tuple[str, list[tuple[str, Fraction, Fraction]], Fraction]:
    sechs, pasch = F(wahl(rng, (10, 12, 15, 20))), F(wahl(rng, (2, 3, 4)))
    einsatz = F(wahl(rng, (1, 2)))
    text = (f"Beim Schulfest bietet die Klasse ein Würfelspiel an: Man wirft zwei faire Würfel. Bei einem Sechserpasch "
            f"werden {euro(sechs)} ausgezahlt, bei jedem anderen Pasch {euro(pasch)}, sonst nichts. Ein Spiel kostet "
            f"{euro(einsatz)} Einsatz.")
    verteilung = [("Sechserpasch", F(1, 36), sechs), ("anderer Pasch", F(5, 36), pasch),
                  ("kein Pasch", F(30, 36), F(0))]
    return text, verteilung, einsatz


def geld(x: Fraction) -> str:
    """Expected amounts exactly when they end within tenths of a cent ('0,875 €'), otherwise rounded to cents."""
    return f"{dez(x)} €" if (x * 1000).denominator == 1 else euro(x)


def build_faires_spiel(rng: random.Random, klasse: int) -> GeneratedTask:
    text, verteilung, einsatz = wahl(rng, (_gluecksrad, _wuerfel))(rng)
    spiele = wahl(rng, (200, 300, 500))
    aus = sum(p * a for _, p, a in verteilung)
    gewinn = aus - einsatz  # expected net win of a player
    text += (f" Beurteile, ob das Spiel fair ist und ob es sich für die Klassenkasse lohnt, wenn etwa {spiele} Spiele "
             "gespielt werden. Schlage gegebenenfalls eine Änderung vor, die das Spiel fair macht.")
    tabelle_text = "; ".join(f"{name}: P = {zahl_oder_bruch(p)}" for name, p, _ in verteilung)
    summanden = " + ".join(f"{zahl_oder_bruch(p)} · {euro(a)}" for _, p, a in verteilung if a)
    schritte = [
        (f"Wahrscheinlichkeitsverteilung der Auszahlung: {tabelle_text}.", 2),
        (f"Erwartete Auszahlung: {summanden} {'=' if runde(aus, 4) == aus else '≈'} {geld(aus)}.", 1),
        (f"Erwarteter Gewinn eines Spielers: {geld(aus)} − {euro(einsatz)} {'=' if runde(gewinn, 4) == gewinn else '≈'}"
         f" {geld(gewinn)} pro Spiel.", 1),
        ((f"Urteil: Das Spiel ist nicht fair (Erwartungswert {'kleiner' if gewinn < 0 else 'größer'} als 0); es "
          f"begünstigt {'die Klasse' if gewinn < 0 else 'die Spieler'}.") if gewinn != 0 else
         "Urteil: Das Spiel ist fair, der Erwartungswert des Gewinns ist 0.", 1),
        (f"Klassenkasse: {spiele} · {zahl_oder_bruch(abs(gewinn))} € ≈ {euro(spiele * abs(gewinn))} "
         + ("Einnahmen sind zu erwarten." if gewinn < 0 else "Verlust ist zu erwarten – das lohnt sich nicht."), 1),
        (f"Vorschlag: Ein Einsatz von {'' if (aus * 1000).denominator == 1 else 'etwa '}{geld(aus)} (gleich der "
         "erwarteten Auszahlung) macht das Spiel fair; für die Klassenkasse muss der Einsatz aber darüber liegen.", 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=14,
                   werte={"einsatz": euro(einsatz), "spiele": str(spiele),
                          "verteilung": "; ".join(f"{zahl_oder_bruch(p)} → {euro(a)}" for _, p, a in verteilung)},
                   ergebnis={"erwartete_auszahlung": geld(aus), "erwarteter_gewinn": geld(gewinn)})


_THEMA = "Binomialverteilung und Erwartungswert"
_SW = ("Binomialverteilung", "Bernoulli-Kette", "Wahrscheinlichkeit", "Stochastik")
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.stochastik.binomial", fach="mathematik", thema=_THEMA,
              unterthema="Wahrscheinlichkeiten einer Bernoulli-Kette berechnen",
              schlagworte=(*_SW, "Bernoulli-Formel", "Binomialkoeffizient", "Gegenereignis"),
              klassenstufen=(11, 13), afb="I", operator="Berechnen", build=build_binomial, niveaus=OBERSTUFE),
    Generator(key="mathematik.stochastik.mindestens", fach="mathematik", thema=_THEMA,
              unterthema="Mindestens-Wahrscheinlichkeiten und Erwartungswert",
              schlagworte=(*_SW, "mindestens", "kumulierte Wahrscheinlichkeit", "Erwartungswert"),
              klassenstufen=(11, 13), afb="II", operator="Bestimmen", build=build_mindestens, niveaus=OBERSTUFE),
    Generator(key="mathematik.stochastik.faires_spiel", fach="mathematik", thema=_THEMA,
              unterthema="Faires Spiel: Erwartungswert beurteilen",
              schlagworte=("Erwartungswert", "faires Spiel", "Glücksspiel", "Zufallsgröße",
                           "Wahrscheinlichkeitsverteilung", "Stochastik"),
              klassenstufen=(11, 13), afb="III", operator="Beurteilen", build=build_faires_spiel, niveaus=OBERSTUFE),
)
