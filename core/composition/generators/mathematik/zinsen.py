"""Zinsrechnung (Klasse 7–10): annual and monthly interest, Zinseszins, and judging two savings offers.
Amounts are exact fractions of a euro, rounded to cents only where a bank statement would show them.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, dez, euro, hoch, prozent, runde, tief, wahl

NAMEN = ("Jana", "Malte", "Elif", "Noah", "Marie", "Luca", "Hannah", "Emil", "Zoe", "Ole")
ZINSSAETZE = tuple(Fraction(x, 2) for x in range(2, 10))  # 1 % … 4,5 %
MONATE = (3, 4, 6, 8, 9)


def _zinsen_text(rng: random.Random, art: str, k: Fraction, p: Fraction, monate: int | None) -> str:
    dauer = "ein Jahr" if monate is None else f"{monate} Monate"
    if art == "kredit":
        return (f"Familie {wahl(rng, ('Krause', 'Yilmaz', 'Hoffmann', 'Lang'))} nimmt für einen Gebrauchtwagen einen "
                f"Kredit über {euro(k)} auf. Die Bank verlangt {prozent(p)} Zinsen pro Jahr; der Kredit wird nach "
                f"{dauer} auf einmal zurückgezahlt. Berechne die Zinsen und den Betrag, der zurückgezahlt werden "
                "muss.")
    konto = "auf einem Tagesgeldkonto" if art == "sparen" else "als Festgeld"
    return (f"{wahl(rng, NAMEN)} legt {euro(k)} {konto} an. Die Bank zahlt {prozent(p)} Zinsen pro Jahr. Berechne "
            f"die Zinsen für {dauer} und das Guthaben danach.")


def build_zinsen(rng: random.Random, klasse: int) -> GeneratedTask:
    monate = None if klasse <= 7 else wahl(rng, MONATE)
    art = wahl(rng, ("sparen", "kredit", "festgeld"))
    p = wahl(rng, ZINSSAETZE) + (3 if art == "kredit" else 0)  # loans cost more than savings pay
    while True:
        k = Fraction(wahl(rng, range(600, 12001, 100)))
        jahr = k * p / 100
        z = jahr if monate is None else jahr * monate / 12
        if runde(z, 2) == z:
            break
    text = _zinsen_text(rng, art, k, p, monate)
    wort = "Rückzahlungsbetrag" if art == "kredit" else "Guthaben"
    if monate is None:
        schritte = [("Ansatz: Jahreszinsen Z = K · p %.", 1),
                    (f"Z = {euro(k)} · {prozent(p)} = {euro(z)}.", 1),
                    (f"{wort}: {euro(k)} + {euro(z)} = {euro(k + z)}.", 1)]
    else:
        schritte = [(f"Jahreszinsen: {euro(k)} · {prozent(p)} = {euro(jahr)}.", 1),
                    (f"Zinsen für {monate} Monate: {euro(jahr)} · {monate}/12 = {euro(z)}.", 1),
                    (f"{wort}: {euro(k)} + {euro(z)} = {euro(k + z)}.", 1)]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=4,
                   werte={"kapital": euro(k), "zinssatz": prozent(p), "monate": str(monate or 12)},
                   ergebnis={"zinsen": euro(z), "endbetrag": euro(k + z)})


_ZZ_KONTEXTE = (
    ("Zur Geburt von {name} legen die Großeltern {k} in einem Sparplan an, der {p} Zinsen pro Jahr bringt. Die "
     "Zinsen werden jedes Jahr mitverzinst. Das Geld wird an {pron} 18. Geburtstag ausgezahlt.", (18,)),
    ("{name} legt {k} für {n} Jahre als Festgeld mit {p} Zinsen pro Jahr an. Die Zinsen werden am Jahresende dem "
     "Konto gutgeschrieben und mitverzinst.", tuple(range(5, 13))),
    ("Ein Sportverein legt eine Spende von {k} für {n} Jahre zu {p} Zinsen pro Jahr mit Zinseszins an, um später "
     "neue Tore zu kaufen.", tuple(range(4, 11))),
)


def build_zinseszins(rng: random.Random, klasse: int) -> GeneratedTask:
    vorlage, laufzeiten = wahl(rng, _ZZ_KONTEXTE)
    n = wahl(rng, laufzeiten)
    k, p = Fraction(wahl(rng, range(1000, 20001, 500))), wahl(rng, ZINSSAETZE[1:])
    name = wahl(rng, NAMEN)
    pron = "ihrem" if name in ("Jana", "Elif", "Marie", "Hannah", "Zoe") else "seinem"
    q = 1 + p / 100
    kn = runde(k * q ** n, 2)
    z = kn - k
    einfach = k * p / 100 * n
    text = vorlage.format(name=name, k=euro(k), p=prozent(p), n=n, pron=pron)
    text += (f" Bestimme das Guthaben nach {n} Jahren (auf Cent gerundet) und die Zinsen insgesamt. Vergleiche mit "
             "den Zinsen, die es ohne Zinseszins gäbe.")
    schritte = [(f"Wachstumsfaktor: q = 1 + {prozent(p)} = {dez(q)}.", 1),
                (f"K{tief(n)} = {euro(k)} · {dez(q)}{hoch(n)} ≈ {euro(kn)}.", 2),
                (f"Zinsen insgesamt: {euro(kn)} − {euro(k)} = {euro(z)}.", 1),
                (f"Ohne Zinseszins: {n} · {euro(k * p / 100)} = {euro(einfach)}; durch den Zinseszins gibt es "
                 f"{euro(z - einfach)} mehr.", 1)]
    ergebnis = {"endkapital": euro(kn), "zinsen": euro(z), "einfach": euro(einfach)}
    minuten = 7
    if klasse >= 10:
        t = math.log(2) / math.log(float(q))
        text += " Ermittle außerdem, nach wie vielen Jahren sich das Kapital erstmals verdoppelt hätte."
        schritte.append((f"Verdopplung: {dez(q)}ⁿ = 2, also n = log 2 / log {dez(q)} ≈ {dez(Fraction(t), 1)}; "
                         f"das Kapital hat sich nach {math.ceil(t)} Jahren erstmals verdoppelt.", 2))
        ergebnis["verdopplung_jahre"] = str(math.ceil(t))
        minuten = 10
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=minuten,
                   werte={"kapital": euro(k), "zinssatz": prozent(p), "jahre": str(n)}, ergebnis=ergebnis)


def _produkt_text(k: Fraction, faktoren: list[Fraction]) -> str:
    if len(set(faktoren)) == 1:
        return f"{euro(k)} · {dez(faktoren[0])}{hoch(len(faktoren))}"
    return f"{euro(k)} · " + " · ".join(dez(f) for f in faktoren)


def _angebot_b(rng: random.Random, n: int, p_a: Fraction) -> tuple[str, list[Fraction], Fraction, str]:
    """Offer B: either rising rates (Zuwachssparen) or a lower rate plus a bonus at the end."""
    if rng.random() < 0.6:
        schritt = wahl(rng, (Fraction(1, 2), Fraction(1)))
        mittel = p_a + wahl(rng, (Fraction(0), Fraction(0), Fraction(1, 4), Fraction(-1, 4)))
        start = mittel - schritt * (n - 1) / 2
        saetze = [start + i * schritt for i in range(n)]
        if saetze[0] < Fraction(1, 2) or any(runde(s, 2) != s for s in saetze):
            return _angebot_b(rng, n, p_a)
        liste = ", ".join(prozent(s) for s in saetze)
        return (f"Angebot B (Zuwachssparen): Der Zinssatz steigt von Jahr zu Jahr: {liste}.",
                [1 + s / 100 for s in saetze], mittel, "zuwachs")
    p_b = p_a - wahl(rng, (Fraction(1, 2), Fraction(1)))
    bonus_satz = wahl(rng, (Fraction(2), Fraction(3), Fraction(4)))
    return (f"Angebot B: {prozent(p_b)} Zinsen pro Jahr mit Zinseszins und am Ende ein Bonus von {prozent(bonus_satz)}"
            " des angelegten Betrags.", [1 + p_b / 100] * n, bonus_satz, "bonus")


def build_sparvergleich(rng: random.Random, klasse: int) -> GeneratedTask:
    n = wahl(rng, (3, 4, 5))
    k = Fraction(wahl(rng, range(2000, 20001, 1000)))
    p_a = wahl(rng, (Fraction(2), Fraction(5, 2), Fraction(3), Fraction(7, 2)))
    b_text, faktoren, bonus_satz, art = _angebot_b(rng, n, p_a)
    name = wahl(rng, NAMEN)
    end_a = runde(k * (1 + p_a / 100) ** n, 2)
    ohne_bonus = runde(k * _prod(faktoren), 2)
    mittel = bonus_satz if art == "zuwachs" else Fraction(0)
    bonus_satz = Fraction(0) if art == "zuwachs" else bonus_satz
    bonus = k * bonus_satz / 100
    end_b = ohne_bonus + bonus
    besser = "A" if end_a > end_b else "B"
    diff = abs(end_a - end_b)
    text = (f"{name} möchte {euro(k)} für {n} Jahre anlegen. Angebot A: {prozent(p_a)} Zinsen pro Jahr mit "
            f"Zinseszins, feste Laufzeit. {b_text} Die Beraterin sagt: „Angebot B bringt mehr, das sieht man doch "
            "sofort.“ Beurteile die Aussage der Beraterin und gib eine begründete Empfehlung.")
    b_rechnung = f"{_produkt_text(k, faktoren)} ≈ {euro(ohne_bonus)}"
    if art == "bonus":
        b_rechnung += f"; Bonus {prozent(bonus_satz)} von {euro(k)} = {euro(bonus)}; zusammen {euro(end_b)}"
    schritte = [
        ("Ansatz mit Wachstumsfaktoren: Endkapital = Anfangskapital · Produkt der Zinsfaktoren.", 1),
        (f"Angebot A: {_produkt_text(k, [1 + p_a / 100] * n)} ≈ {euro(end_a)}.", 1),
        (f"Angebot B: {b_rechnung}.", 2),
        (f"Vergleich: Angebot {besser} bringt {euro(diff)} mehr.", 1),
        (f"Urteil: Die Aussage der Beraterin ist {'richtig' if besser == 'B' else 'falsch'}; „sofort sehen“ kann man "
         "es nicht" + _grund(art, mittel, p_a) + " – erst die Rechnung mit den Faktoren entscheidet.", 1),
        ("Weiteres Kriterium genannt, z. B. Verfügbarkeit des Geldes (Kündigung vor Laufzeitende), Sicherheit der "
         "Bank oder die Höhe des Unterschieds im Verhältnis zum Betrag.", 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=12,
                   werte={"kapital": euro(k), "jahre": str(n), "zinssatz_a": prozent(p_a), "art_b": art,
                          "faktoren_b": " · ".join(dez(f) for f in faktoren), "bonus_b": prozent(bonus_satz)},
                   ergebnis={"a": euro(end_a), "b": euro(end_b), "besser": besser})


def _grund(art: str, mittel: Fraction, p_a: Fraction) -> str:
    if art == "bonus":
        return ": Der Bonus wird nur einmal gezahlt, der höhere Zinssatz von A wirkt jedes Jahr und wird mitverzinst"
    if mittel == p_a:
        return (f": Der mittlere Zinssatz von B beträgt ebenfalls {prozent(mittel)}, und bei gleichem Mittel bringt "
                "ein fester Zinssatz sogar etwas mehr als steigende Sätze")
    return (f": Der mittlere Zinssatz von B beträgt {prozent(mittel)} und liegt "
            f"{'über' if mittel > p_a else 'unter'} den {prozent(p_a)} von A")


def _prod(faktoren: list[Fraction]) -> Fraction:
    out = Fraction(1)
    for f in faktoren:
        out *= f
    return out


_THEMA = "Zinsrechnung"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.zinsen.jahreszinsen", fach="mathematik", thema=_THEMA,
              unterthema="Zinsen für ein Jahr und für Monate berechnen",
              schlagworte=("Zinsen", "Zinsrechnung", "Zinssatz", "Kapital", "Kredit", "Monatszinsen", "Prozent"),
              klassenstufen=(7, 8), afb="I", operator="Berechnen", build=build_zinsen),
    Generator(key="mathematik.zinsen.zinseszins", fach="mathematik", thema=_THEMA,
              unterthema="Zinseszins und Verdopplungszeit bestimmen",
              schlagworte=("Zinseszins", "Zinsen", "Wachstumsfaktor", "Kapital", "Sparplan", "exponentielles Wachstum"),
              klassenstufen=(9, 10), afb="II", operator="Bestimmen", build=build_zinseszins),
    Generator(key="mathematik.zinsen.sparangebote", fach="mathematik", thema=_THEMA,
              unterthema="Sparangebote vergleichen und beurteilen",
              schlagworte=("Zinseszins", "Sparangebot", "Zuwachssparen", "Bonus", "Angebote vergleichen", "Zinsen"),
              klassenstufen=(9, 10), afb="III", operator="Beurteilen", build=build_sparvergleich),
)
