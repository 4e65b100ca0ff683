"""Trigonometrie am rechtwinkligen Dreieck (Klasse 9–10): heights from angles, road gradients in percent and
degrees, and judging ramps, ladders and roofs against a rule. Angles in whole degrees, lengths rounded as stated.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, ca, dez, gr, prozent, runde, wahl

F = Fraction


def sin(grad: Fraction) -> Fraction:
    return F(math.sin(math.radians(grad)))


def cos(grad: Fraction) -> Fraction:
    return F(math.cos(math.radians(grad)))


def tan(grad: Fraction) -> Fraction:
    return F(math.tan(math.radians(grad)))


def arctan(x: Fraction) -> Fraction:
    return F(math.degrees(math.atan(x)))


def winkel(grad: Fraction, stellen: int = 1) -> str:
    return f"{dez(grad, stellen) if grad.denominator != 1 else dez(grad)}°"


_HOEHEN = (
    ("Baum", "Um die Höhe eines Baums zu bestimmen, stellt sich Lina {e} vom Stamm entfernt auf und peilt die "
     "Baumspitze unter einem Höhenwinkel von {a} an. Ihre Augen sind 1,6 m über dem Boden.", (F(10), F(25)),
     (30, 50), "tan", "Augenhöhe"),
    ("Kirchturm", "Vom Marktplatz aus sieht man die Spitze eines Kirchturms, der {e} entfernt ist, unter einem "
     "Höhenwinkel von {a}. Das Messgerät steht 1,6 m über dem Boden.", (F(40), F(90)), (25, 44), "tan",
     "Höhe des Messgeräts"),
    ("Drachen", "Ein Drachen hängt an einer {e} langen, straff gespannten Schnur. Die Schnur bildet mit dem "
     "Boden einen Winkel von {a}; die Hand hält die Schnur 1,6 m über dem Boden.", (F(30), F(80)), (35, 65), "sin",
     "Handhöhe"),
)


def build_hoehe(rng: random.Random, klasse: int) -> GeneratedTask:
    was, satz, (lo, hi), (alo, ahi), fn, sockel = wahl(rng, _HOEHEN)
    e, a = F(rng.randint(int(lo), int(hi))), F(rng.randint(alo, ahi))
    wert = tan(a) if fn == "tan" else sin(a)
    teil = e * wert
    h = teil + F(16, 10)
    seite = "Ankathete" if fn == "tan" else "Hypotenuse"
    genitiv = "Drachens" if was == "Drachen" else was + "s"
    text = satz.format(e=gr(e, "m"), a=winkel(a)) + f" Berechne die Höhe des {genitiv} über dem Boden. Runde auf " \
        "Dezimeter."
    schritte = [
        (f"Im rechtwinkligen Dreieck ist die gesuchte Strecke die Gegenkathete, {gr(e, 'm')} ist die {seite}; "
         f"also {fn}(α) = Gegenkathete / {seite}.", 1),
        (f"Gegenkathete = {gr(e, 'm')} · {fn}({winkel(a)}) ≈ {gr(teil, 'm', 2)}.", 1),
        (f"{sockel} addiert: {gr(teil, 'm', 2)} + 1,6 m ≈ {gr(h, 'm', 1)}.", 1),
        (f"Antwortsatz: Die Höhe beträgt etwa {gr(h, 'm', 1)}.", 1),
    ]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=5,
                   werte={"strecke": gr(e, "m"), "winkel": winkel(a), "funktion": fn, "grundhoehe": "1,6 m"},
                   ergebnis={"hoehe": gr(h, "m", 1)})


_STEIGUNGEN = (
    ("Auf einem Verkehrsschild an einer Passstraße steht „{p} Steigung“. Die Straße ist {s} lang.",
     (8, 10, 12, 14, 15), (F(1500), F(2000), F(2500), F(3000))),
    ("Eine Zahnradbahn überwindet auf ihrer steilsten Strecke eine Steigung von {p}. Dieser Abschnitt ist {s} lang "
     "(entlang der Schiene gemessen).", (18, 20, 22, 25), (F(800), F(1000), F(1200), F(1500))),
    ("Ein Radweg führt mit gleichmäßiger Steigung von {p} einen Hügel hinauf; er ist {s} lang.",
     (4, 5, 6, 7), (F(600), F(800), F(900), F(1200))),
)


def _naeherung(p: Fraction, s: Fraction, dh: Fraction, dx: Fraction) -> str:
    grob = s * p / 100
    anfang = (f"Die Prozentangabe bezieht sich auf die waagerechte Strecke (≈ {gr(dx, 'm', 0)}); "
              f"{prozent(p)} von {gr(s, 'm')} = {gr(grob, 'm')} ist deshalb nur eine Näherung")
    if runde(grob - dh, 0) == 0:
        return anfang + ", die bei so kleiner Steigung auf den Meter genau stimmt."
    return anfang + f", die um etwa {gr(grob - dh, 'm', 0)} zu groß ist."


def build_steigung(rng: random.Random, klasse: int) -> GeneratedTask:
    satz, prozente, laengen = wahl(rng, _STEIGUNGEN)
    p, s = F(wahl(rng, prozente)), wahl(rng, laengen)
    alpha = arctan(p / 100)
    dh, dx = s * sin(alpha), s * cos(alpha)
    text = (satz.format(p=prozent(p), s=gr(s, "m")) + " Bestimme den Steigungswinkel und den Höhenunterschied, der "
            "auf dieser Strecke überwunden wird. Runde auf eine Nachkommastelle bzw. auf Meter.")
    schritte = [
        (f"Eine Steigung von {prozent(p)} bedeutet {dez(p)} m Höhenunterschied auf 100 m waagerechter Strecke: "
         f"tan(α) = {dez(p)} m / 100 m = {dez(p / 100)}.", 1),
        (f"α ≈ {winkel(alpha, 1)} (Kontrolle: tan({winkel(alpha, 1)}) ≈ {dez(tan(runde(alpha, 1)), 3)}).", 1),
        (f"Die Streckenlänge ist die Hypotenuse; mit dem genaueren Winkel: Δh = {gr(s, 'm')} · "
         f"sin({winkel(alpha, 2)}) ≈ {gr(dh, 'm', 0)}.", 2),
        (_naeherung(p, s, dh, dx), 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=8,
                   werte={"steigung": prozent(p), "laenge": gr(s, "m")},
                   ergebnis={"winkel": winkel(alpha, 1), "hoehenunterschied": gr(dh, "m", 0)})


def arccos(x: Fraction) -> Fraction:
    return F(math.degrees(math.acos(x)))


def _rampe(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    h, lang = F(rng.randint(6, 12), 20), F(rng.randint(8, 24), 2)
    p = h / lang * 100
    ok = p <= 6
    lmin = h / F(6, 100)
    schraeg = F(math.sqrt(lang * lang + h * h))
    ort = wahl(rng, ("zum Eingang der Schule", "zur Tür einer Arztpraxis", "auf die Bühne der Aula"))
    text = (f"Eine Rollstuhlrampe {ort} soll einen Höhenunterschied von {gr(h, 'm')} überwinden; geplant ist eine "
            f"waagerechte Länge von {gr(lang, 'm')}. Nach der Norm DIN 18040 darf eine solche Rampe höchstens 6 % "
            "Steigung haben, und nach spätestens 6 m Rampenlänge ist ein Zwischenpodest nötig. Beurteile die Planung.")
    schritte = [
        (f"Steigung: {gr(h, 'm')} : {gr(lang, 'm')} ≈ {dez(h / lang, 4)} ≈ {prozent(runde(p, 1))}.", 1),
        (f"Winkel: tan(α) = {dez(h / lang, 4)}, α ≈ {winkel(arctan(h / lang), 1)}.", 1),
        (f"Vergleich: {prozent(runde(p, 1))} {'≤' if ok else '>'} 6 %.", 1),
        (f"Mindestlänge bei 6 % Steigung: {gr(h, 'm')} : 0,06 {ca(lmin, 2, 'm')}.", 1),
        (f"Länge der schrägen Fläche: √(({gr(lang, 'm')})² + ({gr(h, 'm')})²) ≈ {gr(schraeg, 'm', 2)}; "
         + ("ein Zwischenpodest ist nötig." if schraeg > 6 else "ein Zwischenpodest ist nicht nötig."), 1),
        (("Urteil: Die Steigung ist zulässig" if ok else
          f"Urteil: Die Rampe ist zu steil; sie müsste mindestens {gr(lmin, 'm', 2)} lang werden")
         + (", wegen der Länge aber nur mit Zwischenpodest." if schraeg > 6 else "."), 1),
    ]
    return text, schritte, {"hoehe": gr(h, "m"), "laenge": gr(lang, "m")}, \
        {"steigung": prozent(runde(p, 1)), "zulaessig": "ja" if ok else "nein", "mindestlaenge": gr(lmin, "m", 2)}


def _leiterwinkel(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    lang, fuss = wahl(rng, (F(3), F(4), F(5), F(6))), F(rng.randint(5, 25), 10)
    alpha = arccos(fuss / lang)
    ok = 65 <= alpha <= 75
    lo, hi = lang * cos(F(75)), lang * cos(F(65))
    text = (f"Eine {gr(lang, 'm')} lange Anlegeleiter steht mit dem Fuß {gr(fuss, 'm')} von der Wand entfernt. Die "
            "Berufsgenossenschaft empfiehlt einen Anstellwinkel zwischen 65° und 75°. Beurteile, ob die Leiter sicher "
            "steht, und gib an, in welchem Abstand von der Wand ihr Fuß stehen sollte.")
    schritte = [
        (f"Leiter als Hypotenuse, Abstand als Ankathete: cos(α) = {gr(fuss, 'm')} / {gr(lang, 'm')} ≈ "
         f"{dez(fuss / lang, 3)}.", 1),
        (f"α ≈ {winkel(alpha, 1)} (Kontrolle: cos({winkel(alpha, 1)}) ≈ {dez(cos(runde(alpha, 1)), 3)}).", 1),
        (f"Vergleich mit der Empfehlung: {winkel(alpha, 1)} liegt {'innerhalb' if ok else 'außerhalb'} von 65° bis "
         "75°.", 1),
        (("Urteil: Die Leiter steht sicher." if ok else "Urteil: Die Leiter steht "
          + ("zu flach, sie kann wegrutschen." if alpha < 65 else "zu steil, sie kann nach hinten kippen.")), 1),
        (f"Empfohlener Abstand: {gr(lang, 'm')} · cos(75°) ≈ {gr(lo, 'm', 2)} bis {gr(lang, 'm')} · cos(65°) ≈ "
         f"{gr(hi, 'm', 2)}.", 2),
    ]
    return text, schritte, {"leiter": gr(lang, "m"), "abstand": gr(fuss, "m")}, \
        {"winkel": winkel(alpha, 1), "sicher": "ja" if ok else "nein"}


def _dach(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    breite, h = F(rng.randint(16, 24), 2), F(rng.randint(10, 40), 10)
    w = breite / 2
    alpha = arctan(h / w)
    ok = alpha >= 22
    hmin = w * tan(F(22))
    sparren = F(math.sqrt(w * w + h * h))
    text = (f"Ein Haus ist {gr(breite, 'm')} breit und bekommt ein symmetrisches Satteldach, dessen First "
            f"{gr(h, 'm')} über der Dachkante liegt. Die gewünschten Tondachziegel brauchen eine Dachneigung von "
            "mindestens 22°. Beurteile, ob die Ziegel verwendet werden können.")
    schritte = [
        (f"Halbe Hausbreite {gr(w, 'm')} und Firsthöhe {gr(h, 'm')} bilden die Katheten: tan(α) = {gr(h, 'm')} / "
         f"{gr(w, 'm')} ≈ {dez(h / w, 3)}.", 1),
        (f"α ≈ {winkel(alpha, 1)} (Kontrolle: tan({winkel(alpha, 1)}) ≈ {dez(tan(runde(alpha, 1)), 3)}).", 1),
        (f"Vergleich: {winkel(alpha, 1)} {'≥' if ok else '<'} 22°.", 1),
        (f"Urteil: Die Ziegel {'können verwendet werden' if ok else 'können nicht verwendet werden'}.", 1),
        (f"Mindesthöhe des Firsts bei 22° Neigung: {gr(w, 'm')} · tan(22°) ≈ {gr(hmin, 'm', 2)}.", 1),
        (f"Sparrenlänge zur Kontrolle: √(({gr(w, 'm')})² + ({gr(h, 'm')})²) ≈ {gr(sparren, 'm', 2)}.", 1),
    ]
    return text, schritte, {"breite": gr(breite, "m"), "firsthoehe": gr(h, "m")}, \
        {"winkel": winkel(alpha, 1), "zulaessig": "ja" if ok else "nein"}


def build_regel(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_rampe, _leiterwinkel, _dach))(rng)
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=12, werte=werte,
                   ergebnis=ergebnis)


_THEMA = "Trigonometrie"
_SW = ("Trigonometrie", "Sinus", "Kosinus", "Tangens", "rechtwinkliges Dreieck")
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.trigonometrie.hoehe", fach="mathematik", thema=_THEMA,
              unterthema="Höhen mit Sinus und Tangens berechnen",
              schlagworte=(*_SW, "Höhenwinkel", "Höhe", "Gegenkathete"),
              klassenstufen=(9, 10), afb="I", operator="Berechnen", build=build_hoehe),
    Generator(key="mathematik.trigonometrie.steigung", fach="mathematik", thema=_THEMA,
              unterthema="Steigung in Prozent und Steigungswinkel",
              schlagworte=(*_SW, "Steigung", "Steigungswinkel", "Prozent", "Straße"),
              klassenstufen=(9, 10), afb="II", operator="Bestimmen", build=build_steigung),
    Generator(key="mathematik.trigonometrie.regel_pruefen", fach="mathematik", thema=_THEMA,
              unterthema="Rampe, Leiter und Dach nach einer Regel beurteilen",
              schlagworte=(*_SW, "Rampe", "Anstellwinkel", "Dachneigung", "Steigung", "Norm"),
              klassenstufen=(9, 10), afb="III", operator="Beurteilen", build=build_regel),
)
