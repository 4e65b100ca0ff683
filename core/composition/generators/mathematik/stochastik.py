"""Wahrscheinlichkeitsrechnung in der Sekundarstufe I (Klasse 6–10): Laplace experiments, relative frequencies
that settle down, and two-stage tree diagrams. Probabilities are exact fractions, shown reduced and in percent.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, dez, prozent, runde, tabelle, wahl
from core.composition.generators.zahlen import bruch

F = Fraction


def p_text(g: int, m: int) -> str:
    """'3/6 = 1/2 = 50 %' (reduced and in percent, rounded to one decimal when needed)."""
    p = F(g, m)
    roh = f"{g}/{m}"
    kette = roh if bruch(p) == roh else f"{roh} = {bruch(p)}"
    pz = p * 100
    return f"{kette} = {prozent(pz)}" if runde(pz, 1) == pz else f"{kette} ≈ {prozent(runde(pz, 1))}"


_WUERFEL = (("eine gerade Zahl", {2, 4, 6}), ("eine Primzahl", {2, 3, 5}), ("eine Zahl größer als 4", {5, 6}),
            ("ein Vielfaches von 3", {3, 6}), ("höchstens eine 2", {1, 2}), ("eine ungerade Zahl", {1, 3, 5}),
            ("eine Zahl kleiner als 5", {1, 2, 3, 4}))


def _wuerfel(rng: random.Random) -> tuple[str, list[tuple[str, set | int, int]]]:
    (na, a), (nb, b) = rng.sample(_WUERFEL, 2)
    return ("Ein fairer Würfel wird einmal geworfen. Gib die Wahrscheinlichkeiten der Ereignisse A: „Es fällt "
            f"{na}“ und B: „Es fällt {nb}“ sowie des Gegenereignisses von A an.", [("A", a, 6), ("B", b, 6)])


def _gluecksrad(rng: random.Random) -> tuple[str, list[tuple[str, set | int, int]]]:
    n = wahl(rng, (8, 10, 12))
    rot = rng.randint(1, n // 2)
    blau = rng.randint(1, n - rot - 1)
    gruen = n - rot - blau
    text = (f"Ein Glücksrad hat {n} gleich große Felder: {rot} rote, {blau} blaue und {gruen} grüne. Es wird einmal "
            "gedreht. Gib die Wahrscheinlichkeiten der Ereignisse A: „Rot“ und B: „Blau oder Grün“ sowie des "
            "Gegenereignisses von A an.")
    return text, [("A", rot, n), ("B", blau + gruen, n)]


def _lose(rng: random.Random) -> tuple[str, list[tuple[str, set | int, int]]]:
    n = wahl(rng, (50, 80, 100, 120, 200))
    gewinne = wahl(rng, [g for g in range(5, n // 2 + 1, 5)])
    haupt = wahl(rng, (1, 2, 4, 5))
    text = (f"In einer Lostrommel beim Schulfest liegen {n} Lose, davon sind {gewinne} Gewinne; {haupt} "
            f"{'davon ist ein Hauptgewinn' if haupt == 1 else 'davon sind Hauptgewinne'}. Ein Los wird gezogen. Gib "
            "die Wahrscheinlichkeiten der Ereignisse A: „Gewinn“ und B: „Hauptgewinn“ sowie des Gegenereignisses von A "
            "(„Niete“) an.")
    return text, [("A", gewinne, n), ("B", haupt, n)]


def build_laplace(rng: random.Random, klasse: int) -> GeneratedTask:
    text, ereignisse = wahl(rng, (_wuerfel, _gluecksrad, _lose))(rng)
    schritte: list[tuple[str, int]] = []
    werte: dict[str, str] = {}
    for name, guenstig, m in ereignisse:
        g = len(guenstig) if isinstance(guenstig, set) else guenstig
        detail = (f"günstige Ergebnisse {', '.join(map(str, sorted(guenstig)))}" if isinstance(guenstig, set) else
                  f"{g} günstige von {m} gleich wahrscheinlichen Ergebnissen")
        schritte.append((f"{name}: {detail}.", 1))
        schritte.append((f"P({name}) = {p_text(g, m)}.", 1))
        werte[name] = f"{g}/{m}"
    _, ga, m = ereignisse[0]
    g = len(ga) if isinstance(ga, set) else ga
    schritte.append((f"Gegenereignis: P(nicht A) = 1 − {bruch(F(g, m))} = {bruch(1 - F(g, m))}.", 1))
    ergebnis = {f"P({n})": bruch(F(len(s) if isinstance(s, set) else s, m)) for n, s, m in ereignisse}
    ergebnis["P(nicht A)"] = bruch(1 - F(g, m))
    return aufgabe(operator="Angeben", afb="I", text=text, schritte=schritte, minuten=5, werte=werte,
                   ergebnis=ergebnis)


_VERSUCHE = (
    ("einer Reißzwecke", "Die Reißzwecke", "„Spitze nach oben“",
     "Eine Klasse wirft immer wieder eine Reißzwecke und zählt, wie oft sie mit der Spitze nach oben liegen bleibt."),
    ("einem Kronkorken", "Der Kronkorken", "„Öffnung nach oben“",
     "Eine Gruppe wirft einen Kronkorken und notiert, wie oft er mit der Öffnung nach oben landet."),
    ("einem Legostein", "Der Legostein", "„Noppen nach oben“",
     "Eine Klasse wirft einen Legostein (2 × 4 Noppen) und zählt, wie oft er mit den Noppen nach oben liegen bleibt."),
)
WUERFE = (20, 50, 100, 200, 500)


def _zaehlungen(rng: random.Random, p: Fraction) -> list[int]:
    """Cumulative counts that wobble at first and settle near p."""
    while True:
        out = []
        for n in WUERFE:
            streuung = 1.2 * math.sqrt(n * float(p) * (1 - float(p)))
            out.append(max(0, min(n, round(float(p) * n + rng.uniform(-streuung, streuung)))))
        if all(b - a >= 0 and b - a <= n2 - n1 for a, b, n1, n2 in zip(out, out[1:], WUERFE, WUERFE[1:],
                                                                          strict=False)):
            return out


def build_relative_haeufigkeit(rng: random.Random, klasse: int) -> GeneratedTask:
    mit, ding, ereignis, satz = wahl(rng, _VERSUCHE)
    p = wahl(rng, (F(35, 100), F(2, 5), F(45, 100), F(55, 100), F(3, 5), F(62, 100), F(65, 100)))
    h = _zaehlungen(rng, p)
    rel = [F(a, n) for a, n in zip(h, WUERFE, strict=True)]
    zukunft = wahl(rng, (300, 1000, 2000))
    text = (f"{satz} Die Tabelle (M1) zeigt die Ergebnisse nach unterschiedlich vielen Würfen (jeweils insgesamt "
            "gezählt). Bestimme die relativen Häufigkeiten, beschreibe ihre Entwicklung und schätze damit die "
            f"Wahrscheinlichkeit für {ereignis}. Bestimme, wie oft {ereignis} bei {zukunft} weiteren Würfen etwa zu "
            f"erwarten ist, und begründe, warum man diese Wahrscheinlichkeit nicht wie beim Würfel berechnen kann.")
    material = tabelle(f"M1 Versuchsreihe mit {mit}", ["Anzahl der Würfe", f"davon {ereignis}"],
                       [[str(n), str(a)] for n, a in zip(WUERFE, h, strict=True)])
    quoten = ", ".join(f"{a} : {n} = {dez(r)}" for a, n, r in zip(h, WUERFE, rel, strict=True))
    schaetzung = runde(rel[-1], 2)
    schritte = [
        (f"Relative Häufigkeiten: {quoten}.", 2),
        ("Entwicklung: Bei wenigen Würfen schwanken die Werte stark, mit wachsender Wurfzahl stabilisieren sie sich "
         "(empirisches Gesetz der großen Zahlen).", 1),
        (f"Schätzwert: P({ereignis}) ≈ {dez(schaetzung)} (Wert der längsten Versuchsreihe).", 1),
        (f"Erwartung: {zukunft} · {dez(schaetzung)} = {dez(zukunft * schaetzung)}, also etwa "
         f"{round(zukunft * schaetzung)} Mal.", 1),
        (f"Kein Laplace-Experiment: {ding} ist nicht symmetrisch, die Lagen sind nicht gleich wahrscheinlich; "
         "die Wahrscheinlichkeit lässt sich nur über Versuche schätzen.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=9, material=material,
                   werte={"anzahlen": ", ".join(map(str, h)), "zukunft": str(zukunft)},
                   ergebnis={"schaetzung": dez(schaetzung), "erwartung": dez(zukunft * schaetzung)})


def _urne(rng: random.Random) -> tuple[str, list[tuple[str, Fraction, str]], list[str], str]:
    """Two draws without replacement; returns text, paths (name, probability, product text), event paths, event."""
    rot, blau = rng.randint(2, 6), rng.randint(2, 5)
    n = rot + blau
    pfade = {
        "rr": (F(rot, n) * F(rot - 1, n - 1), f"{rot}/{n} · {rot - 1}/{n - 1}"),
        "rb": (F(rot, n) * F(blau, n - 1), f"{rot}/{n} · {blau}/{n - 1}"),
        "br": (F(blau, n) * F(rot, n - 1), f"{blau}/{n} · {rot}/{n - 1}"),
        "bb": (F(blau, n) * F(blau - 1, n - 1), f"{blau}/{n} · {blau - 1}/{n - 1}"),
    }
    ereignis, wahl_pfade = wahl(rng, (("beide Kugeln dieselbe Farbe haben", ["rr", "bb"]),
                                      ("mindestens eine Kugel rot ist", ["rr", "rb", "br"]),
                                      ("genau eine Kugel blau ist", ["rb", "br"])))
    text = (f"In einer Urne liegen {rot} rote und {blau} blaue Kugeln. Es werden nacheinander zwei Kugeln ohne "
            f"Zurücklegen gezogen. Bestimme mithilfe eines Baumdiagramms die Wahrscheinlichkeit dafür, dass "
            f"{ereignis}.")
    namen = {"rr": "rot–rot", "rb": "rot–blau", "br": "blau–rot", "bb": "blau–blau"}
    return text, [(namen[k], *pfade[k]) for k in wahl_pfade], \
        ["zweite Stufe mit veränderten Wahrscheinlichkeiten (ohne Zurücklegen)"], ereignis


def _elfmeter(rng: random.Random) -> tuple[str, list[tuple[str, Fraction, str]], list[str], str]:
    p = wahl(rng, (F(7, 10), F(3, 4), F(4, 5), F(9, 10)))
    q = 1 - p
    name = wahl(rng, ("Lena", "Aylin", "Jonas", "Mats", "Sophie"))
    ereignis, pfade = wahl(rng, ((f"{name} mindestens einmal trifft", ["TT", "TV", "VT"]),
                                 (f"{name} genau einmal trifft", ["TV", "VT"])))
    werte = {"TT": (p * p, f"{dez(p)} · {dez(p)}"), "TV": (p * q, f"{dez(p)} · {dez(q)}"),
             "VT": (q * p, f"{dez(q)} · {dez(p)}")}
    text = (f"{name} verwandelt einen Elfmeter erfahrungsgemäß mit einer Wahrscheinlichkeit von {prozent(p * 100)}. Im "
            f"Training schießt {name} zwei Elfmeter; die Schüsse sind voneinander unabhängig. "
            f"Bestimme mithilfe eines Baumdiagramms die Wahrscheinlichkeit dafür, dass {ereignis}.")
    namen = {"TT": "Treffer–Treffer", "TV": "Treffer–vorbei", "VT": "vorbei–Treffer"}
    return text, [(namen[k], *werte[k]) for k in pfade], ["gleiche Wahrscheinlichkeiten auf beiden Stufen"], ereignis


def _p(p: Fraction) -> str:
    """Short decimals as decimals (0,21), other probabilities as reduced fractions (5/14)."""
    return dez(p) if (p * 10 ** 4).denominator == 1 else bruch(p)


def build_baumdiagramm(rng: random.Random, klasse: int) -> GeneratedTask:
    text, pfade, hinweis, ereignis = wahl(rng, (_urne, _urne, _elfmeter))(rng)
    summe = sum(p for _, p, _ in pfade)
    schritte = [(f"Baumdiagramm mit zwei Stufen, {hinweis[0]}, Pfadwahrscheinlichkeiten an allen Ästen.", 2)]
    for name, p, produkt in pfade:
        schritte.append((f"Pfad {name}: {produkt} = {_p(p)} (Pfadregel).", 1))
    glieder = " + ".join(_p(p) for _, p, _ in pfade)
    if len(pfade) > 1:
        zusatz = " (oder über das Gegenereignis)" if len(pfade) == 3 else ""
        schritte.append((f"Summenregel: {glieder} = {_p(summe)}{zusatz}.", 1))
    pz = summe * 100
    schritte.append((f"Ergebnis: P = {bruch(summe)} {'=' if runde(pz, 1) == pz else '≈'} {prozent(runde(pz, 1))}.", 1))
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=10,
                   werte={"ereignis": ereignis, "pfade": "; ".join(f"{n}: {prod}" for n, _, prod in pfade)},
                   ergebnis={"p": bruch(summe)})


_THEMA = "Wahrscheinlichkeitsrechnung"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.stochastik.laplace", fach="mathematik", thema=_THEMA,
              unterthema="Laplace-Wahrscheinlichkeiten angeben",
              schlagworte=("Wahrscheinlichkeit", "Laplace", "Zufallsexperiment", "Würfel", "Glücksrad",
                           "Gegenereignis"),
              klassenstufen=(6, 8), afb="I", operator="Angeben", build=build_laplace),
    Generator(key="mathematik.stochastik.relative_haeufigkeit", fach="mathematik", thema=_THEMA,
              unterthema="Relative Häufigkeit und Schätzen von Wahrscheinlichkeiten",
              schlagworte=("Wahrscheinlichkeit", "relative Häufigkeit", "absolute Häufigkeit", "Versuchsreihe",
                           "Gesetz der großen Zahlen", "Schätzen"),
              klassenstufen=(6, 8), afb="II", operator="Bestimmen", build=build_relative_haeufigkeit),
    Generator(key="mathematik.stochastik.baumdiagramm", fach="mathematik", thema=_THEMA,
              unterthema="Zweistufige Zufallsexperimente mit Baumdiagramm",
              schlagworte=("Wahrscheinlichkeit", "Baumdiagramm", "Pfadregel", "Summenregel", "mehrstufig",
                           "ohne Zurücklegen"),
              klassenstufen=(8, 10), afb="II", operator="Bestimmen", build=build_baumdiagramm),
)
