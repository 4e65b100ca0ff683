"""Satz des Pythagoras (Klasse 8–10): lengths in right triangles, checking a right angle with the converse, and
judging whether a wardrobe, a ladder or a television fits. Lengths are measured values, results rounded to cm.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, ca, dez, gr, runde, wahl

F = Fraction
TRIPEL = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29), (9, 40, 41))


def _wurzel(x: Fraction) -> Fraction:
    return F(math.sqrt(x))


def _leiter(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    lang, fuss = wahl(rng, (F(3), F(7, 2), F(4), F(9, 2), F(5), F(11, 2), F(6))), F(rng.randint(8, 18), 10)
    h = _wurzel(lang ** 2 - fuss ** 2)
    text = (f"Eine {gr(lang, 'm')} lange Leiter lehnt an einer Hauswand. Ihr Fuß steht {gr(fuss, 'm')} von der Wand "
            "entfernt. Berechne, in welcher Höhe die Leiter die Wand berührt. Runde auf Zentimeter.")
    schritte = [("Rechtwinkliges Dreieck aus Wand, Boden und Leiter; die Leiter ist die Hypotenuse.", 1),
                (f"h² = ({gr(lang, 'm')})² − ({gr(fuss, 'm')})² = {gr(lang ** 2 - fuss ** 2, 'm²')}.", 1),
                (f"h = √{dez(lang ** 2 - fuss ** 2)} m {ca(h, 2, 'm')}.", 1),
                (f"Antwortsatz: Die Leiter berührt die Wand in etwa {gr(h, 'm', 2)} Höhe.", 1)]
    return text, schritte, {"hypotenuse": gr(lang, "m"), "kathete": gr(fuss, "m")}, {"laenge": gr(h, "m", 2)}


def _bildschirm(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    k = rng.randint(3, 9)
    b, h = (F(16 * k), F(9 * k)) if rng.random() < 0.7 else (F(16 * k), F(10 * k))
    d = _wurzel(b * b + h * h)
    zoll = d / F(254, 100)
    text = (f"Ein Fernseher hat einen Bildschirm, der {gr(b, 'cm')} breit und {gr(h, 'cm')} hoch ist. Berechne die "
            "Länge der Bildschirmdiagonale in Zentimetern und in Zoll (1 Zoll = 2,54 cm). Runde auf eine Stelle nach "
            "dem Komma.")
    schritte = [("Breite, Höhe und Diagonale bilden ein rechtwinkliges Dreieck; die Diagonale ist die Hypotenuse.", 1),
                (f"d² = ({gr(b, 'cm')})² + ({gr(h, 'cm')})² = {gr(b * b + h * h, 'cm²')}.", 1),
                (f"d = √{dez(b * b + h * h)} cm ≈ {gr(d, 'cm', 1)}.", 1),
                (f"In Zoll: {dez(d, 1)} cm : 2,54 cm ≈ {dez(zoll, 1)}; es ist also etwa ein "
                 f"{round(zoll)}-Zoll-Bildschirm.", 1)]
    return text, schritte, {"breite": gr(b, "cm"), "hoehe": gr(h, "cm")}, \
        {"laenge": gr(d, "cm", 1), "zoll": dez(zoll, 1)}


def _abkuerzung(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    a, b = F(rng.randint(30, 90)), F(rng.randint(20, 60))
    if a == b:
        b += 5
    d = _wurzel(a * a + b * b)
    ort = wahl(rng, ("Schulhof", "Parkplatz", "Sportplatz", "Marktplatz"))
    text = (f"Ein rechteckiger {ort} ist {gr(a, 'm')} lang und {gr(b, 'm')} breit. Viele gehen quer über den {ort} "
            "von einer Ecke zur gegenüberliegenden, statt am Rand entlang. Berechne, wie viele Meter sie dadurch "
            "sparen. Runde auf Dezimeter.")
    schritte = [("Die Diagonale ist die Hypotenuse des rechtwinkligen Dreiecks aus Länge und Breite.", 1),
                (f"d² = ({gr(a, 'm')})² + ({gr(b, 'm')})² = {gr(a * a + b * b, 'm²')}.", 1),
                (f"d = √{dez(a * a + b * b)} m ≈ {gr(d, 'm', 1)}.", 1),
                (f"Ersparnis: {gr(a, 'm')} + {gr(b, 'm')} − {gr(d, 'm', 1)} ≈ {gr(a + b - d, 'm', 1)}.", 1)]
    return text, schritte, {"laenge": gr(a, "m"), "breite": gr(b, "m")}, \
        {"diagonale": gr(d, "m", 1), "ersparnis": gr(a + b - d, "m", 1)}


def build_berechnen(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_leiter, _bildschirm, _abkuerzung))(rng)
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=5, werte=werte,
                   ergebnis=ergebnis)


_WINKEL_KONTEXTE = (
    ("Für ein Gartenhaus wird ein rechteckiges Fundament abgesteckt: {a} lang und {b} breit. Die Diagonale wird mit "
     "{c} gemessen.", "die Ecke des Fundaments", (F(4), F(10))),
    ("Eine Tischlerin prüft ein dreieckiges Regalbrett mit den Seitenlängen {b}, {a} und {c}.",
     "der Winkel zwischen den beiden kürzeren Seiten", (F(1, 2), F(3, 2))),
    ("Ein Beet soll eine rechtwinklige Ecke haben. Von der Ecke aus werden {a} und {b} abgemessen; der Abstand der "
     "beiden Endpunkte beträgt {c}.", "die Ecke des Beets", (F(2), F(6))),
)


def build_rechter_winkel(rng: random.Random, klasse: int) -> GeneratedTask:
    vorlage, was, (lo, hi) = wahl(rng, _WINKEL_KONTEXTE)
    while True:
        tripel = wahl(rng, TRIPEL)
        faktor = wahl(rng, (F(1, 10), F(1, 5), F(1, 4), F(3, 10), F(2, 5), F(1, 2), F(3, 5), F(4, 5), F(1), F(6, 5)))
        b, a, c = (faktor * x for x in tripel)
        if lo <= c <= hi and 3 * b >= c:
            break
    rechtwinklig = rng.random() < 0.5
    if not rechtwinklig:  # a measurably wrong corner, the diagonal still the longest side
        c += wahl(rng, (F(-1), F(1))) * runde(c * wahl(rng, (F(3, 100), F(4, 100), F(5, 100))), 2)
    text = (vorlage.format(a=gr(a, "m"), b=gr(b, "m"), c=gr(c, "m")) + f" Untersuche, ob {was} ein rechter Winkel "
            "ist.")
    summe = a * a + b * b
    schritte = [
        (f"Die längste Seite {gr(c, 'm')} müsste die Hypotenuse sein; Umkehrung des Satzes des Pythagoras.", 1),
        (f"({gr(a, 'm')})² + ({gr(b, 'm')})² = {gr(summe, 'm²')}.", 1),
        (f"({gr(c, 'm')})² = {gr(c * c, 'm²')}.", 1),
        ((f"Die Werte stimmen überein, also ist {was} ein rechter Winkel." if rechtwinklig else
          f"{gr(summe, 'm²')} ≠ {gr(c * c, 'm²')}, also ist {was} kein rechter Winkel."), 1),
        (("Begründung mit der Umkehrung: Gilt a² + b² = c², so liegt c ein rechter Winkel gegenüber." if rechtwinklig
          else f"Genauer: c² ist {'größer' if c * c > summe else 'kleiner'} als a² + b², der Winkel ist also "
               f"{'größer' if c * c > summe else 'kleiner'} als 90°."), 1),
    ]
    return aufgabe(operator="Untersuchen", afb="II", text=text, schritte=schritte, minuten=6,
                   werte={"a": gr(a, "m"), "b": gr(b, "m"), "c": gr(c, "m")},
                   ergebnis={"rechtwinklig": "ja" if rechtwinklig else "nein"})


def _schrank(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    while True:
        hoch, tief, raum = F(rng.randint(200, 240), 100), F(rng.randint(50, 65), 100), F(rng.randint(236, 260), 100)
        diag = _wurzel(hoch ** 2 + tief ** 2)
        if F(1, 100) <= abs(diag - raum) <= F(8, 100) and hoch < raum:
            break
    passt = diag < raum
    text = (f"Ein Kleiderschrank ist {gr(hoch, 'm')} hoch und {gr(tief, 'm')} tief. Er wird liegend zusammengebaut "
            f"und soll dann im Zimmer aufgerichtet werden; das Zimmer ist {gr(raum, 'm')} hoch. Beurteile, ob das "
            "gelingt.")
    schritte = [
        ("Beim Aufrichten kippt der Schrank um eine untere Kante; am höchsten reicht dabei die Diagonale der "
         "Seitenwand.", 1),
        (f"d² = ({gr(hoch, 'm')})² + ({gr(tief, 'm')})² = {gr(hoch ** 2 + tief ** 2, 'm²')}.", 1),
        (f"d = √{dez(hoch ** 2 + tief ** 2)} m ≈ {gr(diag, 'm', 2)}.", 1),
        (f"Vergleich: {gr(diag, 'm', 2)} {'<' if passt else '>'} {gr(raum, 'm')}.", 1),
        (f"Urteil: Der Schrank lässt sich {'aufrichten' if passt else 'nicht aufrichten'}"
         + (f", aber nur mit etwa {gr((raum - diag) * 100, 'cm', 0)} Luft." if passt else
            f"; es fehlen etwa {gr((diag - raum) * 100, 'cm', 0)}."), 1),
        (("Praxis: Bei so wenig Spielraum stören schon Deckenlampe, Teppich oder Sockelleiste; man sollte ihn an einer "
          "freien Stelle aufrichten." if passt else
          "Lösungsvorschlag: Den Schrank stehend zusammenbauen oder einen niedrigeren Schrank wählen."), 1),
    ]
    return text, schritte, {"hoehe": gr(hoch, "m"), "tiefe": gr(tief, "m"), "raum": gr(raum, "m")}, \
        {"diagonale": gr(diag, "m", 2), "passt": "ja" if passt else "nein"}


def _leiter_fenster(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    lang = wahl(rng, (F(4), F(9, 2), F(5), F(11, 2), F(6), F(13, 2), F(7)))
    fuss = lang / 4
    h = _wurzel(lang ** 2 - fuss ** 2)
    fenster = runde(h - 1 + wahl(rng, (F(-4, 10), F(-2, 10), F(-1, 10), F(1, 10), F(2, 10), F(4, 10))), 1)
    reicht = h >= fenster + 1
    lmin = (fenster + 1) * 4 / _wurzel(F(15))
    text = (f"Ein Maler möchte mit einer {gr(lang, 'm')} langen Anlegeleiter ein Fenster erreichen, dessen Brüstung "
            f"{gr(fenster, 'm')} hoch liegt. Sicherheitsregeln: Der Fuß der Leiter steht um ein Viertel der "
            "Leiterlänge von der Wand entfernt, und die Leiter muss mindestens 1 m über die Brüstung hinausragen. "
            "Beurteile, ob die Leiter ausreicht.")
    schritte = [
        (f"Abstand des Fußes: {gr(lang, 'm')} : 4 = {gr(fuss, 'm')}.", 1),
        (f"h² = ({gr(lang, 'm')})² − ({gr(fuss, 'm')})² {ca(lang ** 2 - fuss ** 2, 2, 'm²')}.", 1),
        (f"h ≈ {gr(h, 'm', 2)} (Anlegehöhe).", 1),
        (f"Benötigt: {gr(fenster, 'm')} + 1 m = {gr(fenster + 1, 'm')}.", 1),
        (f"Urteil: {gr(h, 'm', 2)} {'≥' if reicht else '<'} {gr(fenster + 1, 'm')}, die Leiter "
         f"{'reicht' if reicht else 'reicht nicht'}.", 1),
        (f"Nötige Leiterlänge: h = √(L² − (L/4)²) = L · √15 / 4 = {gr(fenster + 1, 'm')}, also L ≈ "
         f"{gr(lmin, 'm', 2)}.", 1),
    ]
    return text, schritte, {"leiter": gr(lang, "m"), "bruestung": gr(fenster, "m")}, \
        {"anlegehoehe": gr(h, "m", 2), "reicht": "ja" if reicht else "nein", "min_laenge": gr(lmin, "m", 2)}


def _nische(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    zoll = wahl(rng, (43, 50, 55, 65))
    d = F(zoll) * F(254, 100)
    w = d * 16 / _wurzel(F(337))
    nische = runde(w + 2 + wahl(rng, (F(-3), F(-1), F(1), F(3), F(5))), 0)
    passt = w + 2 <= nische
    text = (f"Ein {zoll}-Zoll-Fernseher (Bildformat 16 : 9, 1 Zoll = 2,54 cm) soll in eine {gr(nische, 'cm')} "
            "breite Nische im Regal. Der Rahmen ist links und rechts je 1 cm breit. Beurteile, ob der Fernseher "
            "hineinpasst.")
    schritte = [
        (f"Diagonale: {zoll} · 2,54 cm = {gr(d, 'cm')}.", 1),
        ("Breite und Höhe stehen im Verhältnis 16 : 9; die Diagonale ist die Hypotenuse: d² = (16k)² + (9k)², also "
         "d = k · √337.", 1),
        (f"Bildbreite: b = {gr(d, 'cm')} · 16 / √337 ≈ {gr(w, 'cm', 1)}.", 1),
        (f"Mit Rahmen: {dez(w, 1)} cm + 2 cm ≈ {gr(w + 2, 'cm', 1)}.", 1),
        (f"Vergleich mit der Nische: {gr(w + 2, 'cm', 1)} {'≤' if passt else '>'} {gr(nische, 'cm')}.", 1),
        (f"Urteil: Der Fernseher passt {'hinein' if passt else 'nicht hinein'}"
         + (f", allerdings mit nur etwa {gr(nische - w - 2, 'cm', 1)} Spielraum." if passt else "."), 1),
    ]
    return text, schritte, {"zoll": str(zoll), "nische": gr(nische, "cm")}, \
        {"breite": gr(w + 2, "cm", 1), "passt": "ja" if passt else "nein"}


def build_beurteilen(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_schrank, _leiter_fenster, _nische))(rng)
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=10, werte=werte,
                   ergebnis=ergebnis)


_THEMA = "Satz des Pythagoras"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.pythagoras.berechnen", fach="mathematik", thema=_THEMA,
              unterthema="Seitenlängen im rechtwinkligen Dreieck berechnen",
              schlagworte=("Pythagoras", "Satz des Pythagoras", "Hypotenuse", "Kathete", "Diagonale", "Leiter"),
              klassenstufen=(8, 9), afb="I", operator="Berechnen", build=build_berechnen),
    Generator(key="mathematik.pythagoras.rechter_winkel", fach="mathematik", thema=_THEMA,
              unterthema="Rechte Winkel mit der Umkehrung prüfen",
              schlagworte=("Pythagoras", "Umkehrung", "rechter Winkel", "rechtwinklig", "Dreieck", "prüfen"),
              klassenstufen=(8, 9), afb="II", operator="Untersuchen", build=build_rechter_winkel),
    Generator(key="mathematik.pythagoras.passt_es", fach="mathematik", thema=_THEMA,
              unterthema="Passt es? Sachsituationen beurteilen",
              schlagworte=("Pythagoras", "Satz des Pythagoras", "Diagonale", "Leiter", "Schrank", "Fernseher",
                           "Sachaufgabe"),
              klassenstufen=(8, 10), afb="III", operator="Beurteilen", build=build_beurteilen),
)
