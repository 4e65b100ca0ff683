"""Bruchrechnung (Klasse 5–7): calculating, ordering, fractions of quantities in context and judging a pupil's error.
Denominators stay small and the common denominators stay manageable without a calculator.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd, lcm

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, wahl
from core.composition.generators.mathematik.bruch_sachaufgaben import build_anteil
from core.composition.generators.mathematik.bruchzahlen import (
    NAMEN,
    erweitert,
    genitiv,
    gleichnamig,
    nenner_fuer,
    paar,
    ungekuerzt,
    zufallsbruch,
)
from core.composition.generators.zahlen import bruch, gemischt


def _produkt_mit_kuerzen(rng: random.Random, klasse: int) -> tuple[Fraction, Fraction]:
    while True:
        a, b = zufallsbruch(rng, nenner_fuer(klasse)), zufallsbruch(rng, nenner_fuer(klasse))
        if gcd(a.numerator * b.numerator, a.denominator * b.denominator) > 1 and a * b < 1:
            return a, b


def build_rechnen(rng: random.Random, klasse: int) -> GeneratedTask:
    max_hn = 24 if klasse <= 6 else 48
    a1, a2 = paar(rng, klasse, max_hn)
    b1, b2 = sorted(paar(rng, klasse, max_hn), reverse=True)
    if klasse >= 7 and rng.random() < 0.5:
        b1, b2 = b2, b1  # rational numbers: the difference may be negative
    c1, c2 = _produkt_mit_kuerzen(rng, klasse)
    if klasse >= 7 and rng.random() < 0.5:
        c1 = -c1
    d1, d2 = paar(rng, klasse, 60)
    schritte_a, ra = gleichnamig(a1, a2, "+", "a)")
    schritte_b, rb = gleichnamig(b1, b2, "−", "b)")
    rc, rd = c1 * c2, d1 / d2
    zc, nc = c1.numerator * c2.numerator, c1.denominator * c2.denominator
    zd, nd = d1.numerator * d2.denominator, d1.denominator * d2.numerator
    kehr = bruch(1 / d2)
    ende_d = f"{ungekuerzt(zd, nd)} = {bruch(rd)}" if rd.denominator != nd else bruch(rd)
    c_text = f"({bruch(c1)})" if c1 < 0 else bruch(c1)
    schritte = [
        *schritte_a, *schritte_b,
        (f"c) Zähler mal Zähler, Nenner mal Nenner: {c_text} · {bruch(c2)} = {ungekuerzt(zc, nc)}.", 1),
        (f"c) Gekürzt: {ungekuerzt(zc, nc)} = {bruch(rc)} (Kürzen vor dem Ausmultiplizieren ebenso richtig).", 1),
        (f"d) Mit dem Kehrwert des Divisors multipliziert: {bruch(d1)} : {bruch(d2)} = {bruch(d1)} · {kehr}.", 1),
        (f"d) {bruch(d1)} · {kehr} = {ende_d}"
         + (f" (als gemischte Zahl {gemischt(rd)})." if rd > 1 and rd.denominator > 1 else "."), 1),
    ]
    text = ("Berechne. Kürze die Ergebnisse so weit wie möglich.\n"
            f"a) {bruch(a1)} + {bruch(a2)}\nb) {bruch(b1)} − {bruch(b2)}\n"
            f"c) {c_text} · {bruch(c2)}\nd) {bruch(d1)} : {bruch(d2)}")
    werte = {"a": f"{bruch(a1)} + {bruch(a2)}", "b": f"{bruch(b1)} − {bruch(b2)}",
             "c": f"{bruch(c1)} · {bruch(c2)}", "d": f"{bruch(d1)} : {bruch(d2)}"}
    ergebnis = {"a": bruch(ra), "b": bruch(rb), "c": bruch(rc), "d": bruch(rd)}
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=10, werte=werte,
                   ergebnis=ergebnis)


_VERGLEICH_SZENARIEN = ("rein", "freiwurf", "schorle", "klassen")


def _vier_brueche(rng: random.Random, klasse: int) -> list[Fraction]:
    max_hn = 24 if klasse <= 5 else 60
    while True:
        werte = [zufallsbruch(rng, nenner_fuer(klasse)) for _ in range(4)]
        hn = lcm(*(f.denominator for f in werte))
        if len(set(werte)) == 4 and len({f.denominator for f in werte}) >= 3 and hn <= max_hn:
            return werte


def _beschriftung(rng: random.Random, szenario: str, werte: list[Fraction]) -> tuple[str, list[str], list[str]]:
    """Task text, one label per fraction and the fractions as the pupils first write them."""
    roh = [bruch(f) for f in werte]
    liste = ", ".join(bruch(f) for f in werte[:-1]) + f" und {bruch(werte[-1])}"
    if szenario == "rein":
        return (f"Vergleiche die Brüche {liste}. Ordne sie der Größe nach und beginne mit dem kleinsten. Gib "
                "außerdem einen Bruch an, der zwischen den beiden kleinsten Brüchen liegt.", roh, roh)
    if szenario == "freiwurf":
        namen = rng.sample(NAMEN, 4)
        versuche = [wahl(rng, [v for v in range(8, 21) if v % f.denominator == 0]) for f in werte]
        treffer = ", ".join(f"{n} {f * v} von {v}" for n, f, v in zip(namen, werte, versuche, strict=True))
        return (f"Beim Freiwurftraining im Basketball treffen: {treffer} Würfen. Vergleiche die Trefferquoten der "
                "vier, ordne sie von der schlechtesten zur besten und berechne, um wie viel die beste Trefferquote "
                "größer ist als die schlechteste.", namen,
                [f"{f * v}/{v}" for f, v in zip(werte, versuche, strict=True)])
    if szenario == "schorle":
        return ("Vier Apfelschorlen werden verglichen. Der Saftanteil beträgt in Glas A "
                f"{bruch(werte[0])}, in Glas B {bruch(werte[1])}, in Glas C {bruch(werte[2])} und in Glas D "
                f"{bruch(werte[3])}. Vergleiche die Saftanteile, ordne die Gläser vom geringsten zum größten "
                "Saftanteil und berechne, um wie viel der größte Saftanteil größer ist als der kleinste.",
                ["Glas A", "Glas B", "Glas C", "Glas D"], roh)
    klassen = ["5a", "5b", "5c", "5d"] if rng.random() < 0.5 else ["6a", "6b", "6c", "6d"]
    anteile = ", ".join(f"in der {k} {bruch(f)}" for k, f in zip(klassen, werte, strict=True))
    return (f"Bei einer Umfrage zum Schulweg kommt folgender Anteil der Kinder mit dem Fahrrad: {anteile}. "
            "Vergleiche die Anteile, ordne die Klassen vom kleinsten zum größten Anteil und berechne, um wie viel "
            "der größte Anteil größer ist als der kleinste.", klassen, roh)


def build_vergleichen(rng: random.Random, klasse: int) -> GeneratedTask:
    szenario = wahl(rng, _VERGLEICH_SZENARIEN)
    werte = _vier_brueche(rng, klasse)
    text, namen, roh = _beschriftung(rng, szenario, werte)
    hn = lcm(*(f.denominator for f in werte))
    ns = sorted({f.denominator for f in werte})
    nenner = ", ".join(map(str, ns[:-1])) + f" und {ns[-1]}"
    erweiterungen = ", ".join(r if r == erweitert(f, hn) else f"{r} = {erweitert(f, hn)}"
                              for f, r in zip(werte, roh, strict=True))
    ordnung = sorted(zip(werte, namen, strict=True))
    if szenario == "rein":
        kette = " < ".join(bruch(f) for f, _ in ordnung)
        k1, k2 = ordnung[0][0], ordnung[1][0]
        mitte = (k1 + k2) / 2
        zusatz = (f"Zum Beispiel {bruch(mitte)}, denn {bruch(k1)} = {erweitert(k1, 2 * hn)} < "
                  f"{erweitert(mitte, 2 * hn)} < {erweitert(k2, 2 * hn)} = {bruch(k2)} (jeder Bruch dazwischen zählt).")
        ergebnis = {"ordnung": kette, "dazwischen": bruch(mitte)}
    else:
        kette = " < ".join(f"{n} ({bruch(f)})" for f, n in ordnung)
        lo, hi = ordnung[0][0], ordnung[-1][0]
        zusatz = (f"Unterschied: {bruch(hi)} − {bruch(lo)} = {erweitert(hi, hn)} − {erweitert(lo, hn)} = "
                  + (f"{ungekuerzt((hi - lo).numerator * hn // (hi - lo).denominator, hn)} = " if
                     (hi - lo).denominator != hn else "") + f"{bruch(hi - lo)}.")
        ergebnis = {"ordnung": kette, "unterschied": bruch(hi - lo)}
    if szenario == "freiwurf":
        erweiterungen = "Trefferquoten als Brüche (Treffer/Würfe): " + erweiterungen
    schritte = [(f"Hauptnenner {hn} als kgV der (gekürzten) Nenner {nenner} gewählt (ein anderer gemeinsamer "
                 "Nenner ist ebenso richtig).", 1),
                (f"Alle Brüche auf den Hauptnenner erweitert: {erweiterungen}.", 2),
                (f"Richtig geordnet: {kette}.", 1), (zusatz, 1)]
    return aufgabe(operator="Vergleichen", afb="II", text=text, schritte=schritte, minuten=7,
                   werte={"brueche": ", ".join(bruch(f) for f in werte), "szenario": szenario}, ergebnis=ergebnis)


def _vergleich(x: Fraction, x_text: str, y: Fraction) -> str:
    """'2/14 = 4/28 < 7/28 = 1/4': both sides on a common denominator, written as the pupil's numbers."""
    hn = lcm(x.denominator, y.denominator)
    rel = "<" if x < y else ">"
    links = x_text if x_text == erweitert(x, hn) else f"{x_text} = {erweitert(x, hn)}"
    rechts = bruch(y) if bruch(y) == erweitert(y, hn) else f"{erweitert(y, hn)} = {bruch(y)}"
    return f"{links} {rel} {rechts}"


def _fehler_summe(rng: random.Random, klasse: int) -> tuple[str, str, list[tuple[str, int]], Fraction, Fraction]:
    plus = rng.random() < 0.5
    while True:
        a, b = sorted(paar(rng, klasse, 24), reverse=True)
        zf = a.numerator + b.numerator if plus else a.numerator - b.numerator
        nf = a.denominator + b.denominator if plus else a.denominator - b.denominator
        if nf > 1 and zf > 0 and zf % nf != 0:
            break
    falsch, f_text = Fraction(zf, nf), f"{zf}/{nf}"
    op = "+" if plus else "−"
    rechnung = f"{bruch(a)} {op} {bruch(b)} = {f_text}"
    if plus:
        abschaetzung = (f"Abschätzung: Das Ergebnis ist kleiner als der Summand {bruch(a)} "
                        f"({_vergleich(falsch, f_text, a)}); eine Summe zweier positiver Brüche muss aber größer "
                        "sein als jeder Summand.")
    else:
        abschaetzung = (f"Abschätzung: Das Ergebnis ist größer als {bruch(a)} ({_vergleich(falsch, f_text, a)}); wer "
                        "etwas Positives abzieht, muss aber weniger erhalten.")
    wort = "addiert" if plus else "subtrahiert"
    fehler = (f"Fehler: Zähler und Nenner wurden einzeln {wort}. Brüche werden {wort}, indem man sie gleichnamig "
              f"macht und nur die Zähler {wort}.")
    richtig, r = gleichnamig(a, b, op, "Richtig:")
    return rechnung, abschaetzung, [(fehler, 1), *richtig], falsch, r


def _fehler_division(rng: random.Random, klasse: int) -> tuple[str, str, list[tuple[str, int]], Fraction, Fraction]:
    while True:
        a, b = paar(rng, klasse, 60)
        if b < 1 and a / b != a * b:
            break
    falsch, richtig = a * b, a / b
    zf, nf = a.numerator * b.numerator, a.denominator * b.denominator
    rechnung = f"{bruch(a)} : {bruch(b)} = {ungekuerzt(zf, nf)}" + (f" = {bruch(falsch)}" if falsch.denominator != nf
                                                                     else "")
    abschaetzung = (f"Abschätzung: Wer durch {bruch(b)} teilt, also durch eine Zahl kleiner als 1, muss mehr als "
                    f"{bruch(a)} erhalten; {bruch(falsch)} ist aber kleiner als {bruch(a)}.")
    zr, nr = a.numerator * b.denominator, a.denominator * b.numerator
    ende = f"{ungekuerzt(zr, nr)} = {bruch(richtig)}" if richtig.denominator != nr else bruch(richtig)
    schritte = [("Fehler: Es wurde mit dem Divisor multipliziert statt mit seinem Kehrwert.", 1),
                (f"Richtig: {bruch(a)} : {bruch(b)} = {bruch(a)} · {bruch(1 / b)}.", 1),
                (f"Richtig: {bruch(a)} · {bruch(1 / b)} = {ende}.", 1)]
    return rechnung, abschaetzung, schritte, falsch, richtig


def _fehler_gemischt(rng: random.Random, klasse: int) -> tuple[str, str, list[tuple[str, int]], Fraction, Fraction]:
    w1, r1 = wahl(rng, (1, 2, 3)), zufallsbruch(rng, (2, 3, 4, 5))
    r2 = zufallsbruch(rng, (2, 3, 4, 5, 6))
    a, b = w1 + r1, 1 + r2
    falsch = w1 + r1 * r2
    rechnung = f"{gemischt(a)} · {gemischt(b)} = {gemischt(falsch)}"
    abschaetzung = (f"Abschätzung: Der zweite Faktor {gemischt(b)} ist größer als 1, das Produkt muss also größer "
                    f"sein als {gemischt(a)}; {gemischt(falsch)} ist aber kleiner.")
    z, n = a.numerator * b.numerator, a.denominator * b.denominator
    ende = f"{ungekuerzt(z, n)} = {bruch(a * b)}" if (a * b).denominator != n else bruch(a * b)
    schritte = [("Fehler: Ganze und Bruchteile wurden getrennt multipliziert; die Produkte „Ganzes mal Bruchteil“ "
                 "fehlen.", 1),
                (f"Richtig: In Brüche umgewandelt: {gemischt(a)} · {gemischt(b)} = {bruch(a)} · {bruch(b)}.", 1),
                (f"Richtig: {bruch(a)} · {bruch(b)} = {ende} (als gemischte Zahl {gemischt(a * b)}).", 1)]
    return rechnung, abschaetzung, schritte, falsch, a * b


def build_fehler(rng: random.Random, klasse: int) -> GeneratedTask:
    art = wahl(rng, ("summe", "division", "gemischt"))
    erzeuger = {"summe": _fehler_summe, "division": _fehler_division, "gemischt": _fehler_gemischt}[art]
    rechnung, abschaetzung, schritte, falsch, richtig = erzeuger(rng, klasse)
    name = wahl(rng, NAMEN)
    text = (f"{name} rechnet: {rechnung}\nBeurteile {genitiv(name)} Rechnung: Überprüfe das Ergebnis mit einer "
            "Abschätzung, beschreibe den Fehler und gib das richtige Ergebnis an.")
    alle = [(f"Urteil: {genitiv(name)} Ergebnis ist falsch.", 1), (abschaetzung, 2), *schritte]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=alle, minuten=8,
                   werte={"art": art, "rechnung": rechnung}, ergebnis={"falsch": bruch(falsch),
                                                                       "richtig": bruch(richtig)})


_THEMA = "Bruchrechnung"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.brueche.rechnen", fach="mathematik", thema=_THEMA,
              unterthema="Brüche addieren, subtrahieren, multiplizieren und dividieren",
              schlagworte=("Bruch", "Brüche", "Bruchrechnung", "Hauptnenner", "kürzen", "erweitern", "Kehrwert"),
              klassenstufen=(6, 7), afb="I", operator="Berechnen", build=build_rechnen),
    Generator(key="mathematik.brueche.vergleichen", fach="mathematik", thema=_THEMA,
              unterthema="Brüche vergleichen und ordnen",
              schlagworte=("Bruch", "Brüche", "vergleichen", "ordnen", "Hauptnenner", "Anteil", "erweitern"),
              klassenstufen=(5, 7), afb="II", operator="Vergleichen", build=build_vergleichen),
    Generator(key="mathematik.brueche.anteile", fach="mathematik", thema=_THEMA,
              unterthema="Sachaufgaben mit Anteilen",
              schlagworte=("Bruch", "Brüche", "Anteil", "Anteile", "Sachaufgabe", "Bruchteil", "Rest"),
              klassenstufen=(5, 7), afb="II", operator="Ermitteln", build=build_anteil),
    Generator(key="mathematik.brueche.fehler", fach="mathematik", thema=_THEMA,
              unterthema="Fehler in einer Bruchrechnung beurteilen",
              schlagworte=("Bruch", "Brüche", "Fehleranalyse", "Schülerlösung", "Fehler", "Abschätzung"),
              klassenstufen=(6, 7), afb="III", operator="Beurteilen", build=build_fehler),
)
