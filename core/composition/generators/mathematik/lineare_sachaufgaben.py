"""Lineare Funktionen in Sachsituationen (Klasse 7–8): a linear model read from a Wertetabelle, and two tariffs
whose break-even point decides which one a family should take.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from core.composition.generators.base import GeneratedTask
from core.composition.generators.mathematik.bausteine import aufgabe, dez, euro, kl, poly, tabelle, wahl

F = Fraction


@dataclass(frozen=True)
class Modell:
    """A context for a linear model y = m·x + b read from a table."""

    titel: str
    einleitung: str
    x_kopf: str
    y_kopf: str
    var: str
    name: str  # 'h(t)'
    x_einheit: str
    y_einheit: str
    steigungen: tuple[Fraction, ...]
    starts: tuple[Fraction, ...]
    xs: tuple[int, ...]
    frage: str  # with {ziel}
    deutung_m: str  # with {m}
    deutung_b: str  # with {b}
    antwort: str  # with {x}


MODELLE = (
    Modell("M1 Abbrennende Kerze", "Eine Kerze wird angezündet; ihre Höhe wird in regelmäßigen Abständen gemessen.",
           "Brenndauer t in h", "Höhe h in cm", "t", "h(t)", "h", "cm",
           (F(-1, 2), F(-4, 5), F(-1), F(-6, 5), F(-3, 2), F(-2)), (F(12), F(15), F(18), F(20), F(24), F(30)),
           (1, 2, 3, 4, 5, 6, 8), "Bestimme, nach wie vielen Stunden die Kerze ganz abgebrannt ist ({ziel} cm).",
           "Die Kerze wird pro Stunde um {m} cm kürzer.", "Die Kerze war vor dem Anzünden {b} cm hoch.",
           "Die Kerze ist nach {x} Stunden abgebrannt."),
    Modell("M1 Befüllen eines Pools", "In einen Gartenpool, in dem noch etwas Wasser vom Vortag ist, wird mit einem "
           "Schlauch Wasser eingefüllt.", "Zeit t in min", "Wassermenge V in l", "t", "V(t)", "min", "l",
           (F(15), F(20), F(25), F(30), F(40)), tuple(F(v) for v in range(200, 801, 50)), (5, 10, 15, 20, 30),
           "Der Pool fasst {ziel} l. Bestimme, nach wie vielen Minuten er voll ist.",
           "Pro Minute fließen {m} l Wasser in den Pool.", "Zu Beginn waren schon {b} l Wasser im Pool.",
           "Der Pool ist nach {x} Minuten voll."),
    Modell("M1 Taxipreise", "Ein Taxiunternehmen berechnet eine Grundgebühr und einen festen Preis pro Kilometer.",
           "Fahrstrecke x in km", "Preis p in €", "x", "p(x)", "km", "€",
           (F(9, 5), F(2), F(11, 5), F(12, 5), F(5, 2)), (F(7, 2), F(4), F(9, 2), F(5)), (2, 3, 5, 8, 10, 12),
           "Bestimme, wie viele Kilometer man für {ziel} € fahren kann.",
           "Jeder gefahrene Kilometer kostet {m} €.", "Die Grundgebühr beträgt {b} €.",
           "Für diesen Betrag kann man {x} km weit fahren."),
    Modell("M1 Akkuladung beim Videoschauen", "Beim Videoschauen wird der Ladestand eines Smartphone-Akkus "
           "notiert.", "Zeit t in min", "Ladestand L in %", "t", "L(t)", "min", "%",
           (F(-1, 5), F(-1, 4), F(-2, 5), F(-1, 2)), (F(80), F(90), F(95), F(100)), (10, 20, 30, 45, 60),
           "Bei {ziel} % erscheint eine Warnung. Bestimme, nach wie vielen Minuten das passiert.",
           "Der Ladestand sinkt pro Minute um {m} Prozentpunkte.", "Zu Beginn war der Akku zu {b} % geladen.",
           "Die Warnung erscheint nach {x} Minuten."),
)


def _ziel(rng: random.Random, mod: Modell, m: Fraction, b: Fraction) -> tuple[Fraction, Fraction] | None:
    """Target value and the x where the model reaches it, or None when it is not a clean number."""
    if mod.var == "t" and m < 0 and mod.y_einheit == "cm":
        ziel = F(0)
    elif mod.y_einheit == "%":
        ziel = F(20)
    else:
        x = F(rng.randint(30, 120) if mod.y_einheit == "l" else rng.randint(8, 25))
        return m * x + b, x
    x = (ziel - b) / m
    return (ziel, x) if 0 < x <= 300 and (x * 10).denominator == 1 else None


def _y(mod: Modell, y: Fraction) -> str:
    """Values in the model's unit; euro amounts with cents ('8,50')."""
    return dez(y, 2) if mod.y_einheit == "€" and y.denominator != 1 else dez(y)


def build_wertetabelle(rng: random.Random, klasse: int) -> GeneratedTask:
    mod = wahl(rng, MODELLE)
    while True:
        m, b = wahl(rng, mod.steigungen), wahl(rng, mod.starts)
        z = _ziel(rng, mod, m, b)
        if z is not None:
            ziel, xz = z
            xs = sorted(rng.sample([x for x in mod.xs if x < xz], 4)) if len([x for x in mod.xs if x < xz]) >= 4 \
                else None
            if xs:
                break
    ys = [m * x + b for x in xs]
    v, e = mod.var, mod.y_einheit
    text = (f"{mod.einleitung} Die Tabelle (M1) zeigt die Messwerte. Untersuche, ob ein linearer Zusammenhang "
            f"vorliegt, bestimme eine Funktionsgleichung, deute Steigung und y-Achsenabschnitt im Sachzusammenhang. "
            + mod.frage.format(ziel=_y(mod, ziel)))
    material = tabelle(mod.titel, [mod.x_kopf, mod.y_kopf], [[dez(x), _y(mod, y)] for x, y in zip(xs, ys, strict=True)])
    q1 = f"({_y(mod, ys[1])} − {_y(mod, ys[0])}) / ({xs[1]} − {xs[0]}) = {dez(m)}"
    q2 = f"({_y(mod, ys[3])} − {_y(mod, ys[2])}) / ({xs[3]} − {xs[2]}) = {dez(m)}"
    schritte = [
        (f"Differenzenquotienten sind konstant, z. B. {q1} und {q2}; also liegt ein linearer Zusammenhang vor.", 1),
        (f"y-Achsenabschnitt: b = {_y(mod, ys[0])} − {kl(m)} · {xs[0]} = {_y(mod, b)}.", 1),
        (f"Funktionsgleichung: {mod.name} = {poly([m, b], v)} ({v} in {mod.x_einheit}, {mod.name} in {e}).", 1),
        (f"Deutung der Steigung: {mod.deutung_m.format(m=_y(mod, abs(m)))}", 1),
        (f"Deutung des y-Achsenabschnitts: {mod.deutung_b.format(b=_y(mod, b))}", 1),
        (f"Ansatz {poly([m, b], v)} = {_y(mod, ziel)}, also {v} = ({_y(mod, ziel)} − {_y(mod, b)}) : {kl(m)} = "
         f"{dez(xz)}.", 1),
        (f"Antwortsatz: {mod.antwort.format(x=dez(xz))}", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=10, material=material,
                   werte={"x": ", ".join(dez(x) for x in xs), "y": ", ".join(_y(mod, y) for y in ys),
                          "ziel": dez(ziel), "kontext": mod.titel},
                   ergebnis={"m": dez(m), "b": dez(b), "x_ziel": dez(xz)})


@dataclass(frozen=True)
class Tarif:
    """Two tariffs 'grund + preis · x' for a monthly quantity x."""

    einleitung: str
    einheit: str  # after a number in the dative: 'kWh', 'Besuchen'
    frage: str  # 'bei welchem Verbrauch'
    x_def: str  # 'x: Verbrauch in kWh pro Monat'
    grund_a: tuple[Fraction, ...]
    preise_b: tuple[Fraction, ...]
    differenzen: tuple[Fraction, ...]
    schnitt: tuple[int, ...]
    streuung: int


TARIFE = (
    Tarif("Familie {name} vergleicht zwei Stromtarife. Tarif A: Grundpreis {ga} pro Monat und {ka} pro kWh. Tarif B: "
          "Grundpreis {gb} pro Monat und {kb} pro kWh. Die Familie verbraucht je nach Monat zwischen {u1} und {u2} "
          "kWh, im Jahresdurchschnitt {um} kWh pro Monat.", "kWh", "bei welchem Verbrauch",
          "x: Verbrauch in kWh pro Monat",
          (F(6), F(8), F(10), F(12)), (F(27, 100), F(28, 100), F(29, 100), F(30, 100)),
          (F(2, 100), F(3, 100), F(4, 100), F(5, 100)), (150, 200, 250, 300), 60),
    Tarif("{name} möchte Carsharing nutzen. Anbieter A: keine Monatsgebühr, {ka} pro gefahrenem Kilometer. Anbieter "
          "B: Monatsgebühr {gb} und {kb} pro Kilometer. {name} fährt je nach Monat zwischen {u1} und {u2} km, im "
          "Durchschnitt {um} km pro Monat.", "km", "bei welcher Fahrstrecke",
          "x: gefahrene Kilometer pro Monat",
          (F(0),), (F(25, 100), F(28, 100), F(30, 100)), (F(5, 100), F(10, 100), F(15, 100)),
          (60, 80, 90, 100, 120), 40),
    Tarif("{name} möchte regelmäßig in die Kletterhalle gehen. Tarif A: Einzeleintritt {ka} pro Besuch. Tarif B: "
          "Mitgliedschaft für {gb} im Monat, dann nur noch {kb} pro Besuch. {name} plant zwischen {u1} und {u2} "
          "Besuche im Monat, im Durchschnitt {um}.", "Besuchen", "bei welcher Anzahl von Besuchen",
          "x: Anzahl der Besuche pro Monat",
          (F(0),), (F(3), F(4), F(5)), (F(4), F(5), F(6)), (4, 5, 6, 7, 8), 3),
)


def _nutzung(rng: random.Random, schnitt: int, streuung: int) -> tuple[int, int, int]:
    lage = wahl(rng, ("unter", "ueber", "ueber_schnitt"))
    if lage == "unter":
        u2 = schnitt - rng.randint(1, max(1, streuung // 3))
        u1 = u2 - rng.randint(max(1, streuung // 3), streuung)
    elif lage == "ueber":
        u1 = schnitt + rng.randint(1, max(1, streuung // 3))
        u2 = u1 + rng.randint(max(1, streuung // 3), streuung)
    else:
        u1 = schnitt - rng.randint(max(1, streuung // 3), streuung)
        u2 = schnitt + rng.randint(max(1, streuung // 3), streuung)
    if (u1 + u2) % 2 or abs((u1 + u2) // 2 - schnitt) < max(1, streuung // 4) or u1 <= 0:
        return _nutzung(rng, schnitt, streuung)
    return u1, u2, (u1 + u2) // 2


def build_tarife(rng: random.Random, klasse: int) -> GeneratedTask:
    t = wahl(rng, TARIFE)
    ga, kb, d, xs = wahl(rng, t.grund_a), wahl(rng, t.preise_b), wahl(rng, t.differenzen), wahl(rng, t.schnitt)
    ka, gb = kb + d, ga + d * xs
    u1, u2, um = _nutzung(rng, xs, t.streuung)
    name = wahl(rng, ("Yilmaz", "Schulz", "Peters", "Kowalski")) if t.einheit == "kWh" else \
        wahl(rng, ("Nele", "Jonas", "Aylin", "Tom", "Greta", "Milan"))
    text = t.einleitung.format(name=name, ga=euro(ga), ka=euro(ka), gb=euro(gb), kb=euro(kb), u1=u1, u2=u2, um=um)
    text += (" Beurteile, welcher Tarif günstiger ist. Stelle dazu für beide Tarife eine Funktionsgleichung auf und "
             f"bestimme, {t.frage} beide Tarife gleich teuer sind.")
    fa, fb = ka * um + ga, kb * um + gb
    billig = "A" if fa < fb else "B"
    unter = "A" if ka > kb else "B"
    ueber = "B" if unter == "A" else "A"
    if u2 < xs or u1 > xs:
        bereich = f"Im ganzen Bereich von {u1} bis {u2} {t.einheit} ist Tarif {unter if u2 < xs else ueber} günstiger."
    else:
        bereich = (f"Der Bereich von {u1} bis {u2} {t.einheit} liegt auf beiden Seiten der Grenze; weil die Kosten "
                   f"linear sind, entscheidet über das Jahr der Durchschnitt von {um} {t.einheit}.")
    kosten_a = f"{euro(ka)} · {um}" + (f" + {euro(ga)}" if ga else "")
    ersparnis = 12 * abs(fa - fb)
    knapp = ersparnis < (12 * min(fa, fb)) / 50  # under 2 % of the yearly cost
    schritte = [
        (f"Tarif A: f(x) = {poly([ka, ga])} ({t.x_def}, f(x): Kosten in €).", 1),
        (f"Tarif B: g(x) = {poly([kb, gb])}.", 1),
        (f"Gleichsetzen: {poly([ka, ga])} = {poly([kb, gb])}, also x = {dez(gb - ga)} : {dez(d)} = {xs}; bei {xs} "
         f"{t.einheit} kosten beide {euro(ka * xs + ga)}.", 2),
        (f"Kosten beim Durchschnitt: A: {kosten_a} = {euro(fa)}, B: {euro(kb)} · {um} + {euro(gb)} = {euro(fb)}.", 1),
        (f"Unter {xs} {t.einheit} ist Tarif {unter} günstiger, darüber Tarif {ueber}. {bereich}", 1),
        (f"Begründete Empfehlung: Tarif {billig}; Ersparnis im Jahr 12 · {euro(abs(fa - fb))} = {euro(ersparnis)}."
         + (" Der Unterschied ist so klein, dass andere Gesichtspunkte (Vertragslaufzeit, Kündigungsfrist) den "
            "Ausschlag geben können." if knapp else
            " Ändert sich das Verhalten deutlich (Durchschnitt auf der anderen Seite der Grenze), kehrt sich die "
            "Empfehlung um."), 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=12,
                   werte={"grund_a": euro(ga), "preis_a": euro(ka), "grund_b": euro(gb), "preis_b": euro(kb),
                          "durchschnitt": str(um), "von": str(u1), "bis": str(u2)},
                   ergebnis={"gleich_bei": str(xs), "kosten_a": euro(fa), "kosten_b": euro(fb), "empfehlung": billig})
