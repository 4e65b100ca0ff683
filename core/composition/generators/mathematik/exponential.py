"""Exponentielles Wachstum (Klasse 10 und Oberstufe): values after some time, doubling and half-life times with
logarithms, deciding between a linear and an exponential model from data, and e-functions from two measurements.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import (
    aufgabe,
    dez,
    gr,
    hoch,
    prozent,
    runde,
    tabelle,
    wahl,
    zahl_oder_bruch,
)

F = Fraction


@dataclass(frozen=True)
class Prozess:
    """A growth or decay process: start values, rates in percent per unit, units and wording."""

    satz: str  # with {n0} {p} {einheit}
    groesse: str  # 'N(t)' etc.
    starts: tuple[int, ...]
    raten: tuple[int, ...]  # percent per time unit, negative for decay
    zeit: str  # 'Stunde' (singular)
    zeiten: str  # 'Stunden'
    einheit: str  # of the amount: 'Bakterien', 'mg', '€'
    dauer: tuple[int, int]
    stellen: int
    grenze_faktor: Fraction  # a threshold: start · factor
    zeiten_dativ: str  # 'nach 5 Stunden'
    verlauf: str  # 'der {n}. Stunde'
    nomen: str  # 'die Anzahl'
    schwelle: str  # 'erstmals mehr als {g} Bakterien vorhanden sind'
    hauptsatz: str  # 'sind erstmals mehr als {g} Bakterien vorhanden'


PROZESSE = (
    Prozess("In einer Nährlösung befinden sich zu Beginn {n0} Bakterien; ihre Anzahl wächst pro Stunde um {p}.",
            "N(t)", (200, 500, 800, 1000, 1500), (10, 15, 20, 25, 30), "Stunde", "Stunden", "Bakterien", (4, 10), 0,
            F(10), "Stunden", "der {n}. Stunde", "die Anzahl", "erstmals mehr als {g} Bakterien vorhanden sind",
            "sind erstmals mehr als {g} Bakterien vorhanden"),
    Prozess("Eine Kleinstadt hat {n0} Einwohnerinnen und Einwohner; die Zahl wächst jedes Jahr um {p}.", "E(t)",
            (12000, 18000, 25000, 32000, 45000), (1, 2, 3), "Jahr", "Jahre", "Einwohner", (5, 15), 0, F(3, 2),
            "Jahren", "des {n}. Jahres", "die Einwohnerzahl", "die Stadt erstmals mehr als {g} Einwohner hat",
            "hat die Stadt erstmals mehr als {g} Einwohner"),
    Prozess("Ein Patient nimmt {n0} eines Medikaments ein; der Körper baut pro Stunde {p} der vorhandenen Menge ab.",
            "m(t)", (200, 400, 500, 600, 800), (-10, -15, -20, -25), "Stunde", "Stunden", "mg", (3, 8), 1, F(1, 4),
            "Stunden", "der {n}. Stunde", "die Menge", "erstmals weniger als {g} im Körper sind",
            "sind erstmals weniger als {g} im Körper"),
    Prozess("Ein Auto kostet neu {n0}; sein Wert sinkt jedes Jahr um {p}.", "W(t)",
            (18000, 24000, 30000, 36000), (-12, -15, -18, -20), "Jahr", "Jahre", "€", (3, 8), 0, F(1, 3),
            "Jahren", "des {n}. Jahres", "der Wert", "der Wert erstmals unter {g} liegt",
            "liegt der Wert erstmals unter {g}"),
)


def _menge(proz: Prozess, x: Fraction | float, stellen: int | None = None) -> str:
    stellen = proz.stellen if stellen is None else stellen
    if proz.einheit in ("mg", "€"):
        return gr(F(x), proz.einheit, stellen)
    return f"{dez(F(x), stellen)}"


def _prozess(rng: random.Random) -> tuple[Prozess, Fraction, Fraction, Fraction]:
    proz = wahl(rng, PROZESSE)
    n0, p = F(wahl(rng, proz.starts)), F(wahl(rng, proz.raten))
    return proz, n0, p, 1 + p / 100


def _satz(proz: Prozess, n0: Fraction, p: Fraction) -> str:
    start = gr(n0, proz.einheit) if proz.einheit in ("mg", "€") else dez(n0)
    return proz.satz.format(n0=start, p=prozent(abs(p)))


def build_wachstum(rng: random.Random, klasse: int) -> GeneratedTask:
    proz, n0, p, q = _prozess(rng)
    t = rng.randint(*proz.dauer)
    wert = n0 * q ** t
    g = proz.groesse
    runden = " (auf ganze Zahlen gerundet)." if proz.stellen == 0 else " (auf eine Stelle gerundet)."
    text = (_satz(proz, n0, p) + f" Stelle eine Funktionsgleichung auf und berechne den Bestand nach {t} "
            f"{proz.zeiten_dativ}" + runden)
    schritte = [
        (f"Wachstumsfaktor: q = 1 {'+' if p > 0 else '−'} {prozent(abs(p))} = {dez(q)}.", 1),
        (f"Funktionsgleichung: {g} = {dez(n0)} · {dez(q)}ᵗ (t in {proz.zeiten}).", 1),
        (f"{g.replace('t', str(t))} = {dez(n0)} · {dez(q)}{hoch(t)} ≈ {dez(wert, proz.stellen)}.", 1),
        (f"Antwortsatz: Nach {t} {proz.zeiten_dativ} beträgt der Bestand etwa {_menge(proz, wert)}"
         + (f" {proz.einheit}." if proz.einheit not in ("mg", "€") else "."), 1),
    ]
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=5,
                   werte={"start": dez(n0), "prozent": prozent(p), "zeit": str(t), "einheit": proz.einheit},
                   ergebnis={"bestand": dez(wert, proz.stellen)})


def build_halbwertszeit(rng: random.Random, klasse: int) -> GeneratedTask:
    proz, n0, p, q = _prozess(rng)
    wachsend = p > 0
    wort, ziel = ("Verdopplungszeit", F(2)) if wachsend else ("Halbwertszeit", F(1, 2))
    tz = math.log(ziel) / math.log(q)
    grenze = n0 * proz.grenze_faktor
    tg = math.log(proz.grenze_faktor) / math.log(q)
    schwelle = proz.schwelle.format(g=_menge(proz, grenze, 0 if grenze.denominator == 1 else 1))
    text = (_satz(proz, n0, p) + f" Bestimme die {wort} und den Zeitpunkt, ab dem {schwelle}. Runde auf eine "
            "Nachkommastelle.")
    verlauf = proz.verlauf.format(n=math.ceil(tg))
    schritte = [
        (f"Ansatz: {dez(q)}ᵀ = {dez(ziel)}.", 1),
        (f"T = log {dez(ziel)} / log {dez(q)} ≈ {dez(F(tz), 1)}.", 1),
        (f"Deutung: Alle {dez(F(tz), 1)} {proz.zeiten} {'verdoppelt' if wachsend else 'halbiert'} sich "
         f"{proz.nomen}, unabhängig vom Anfangswert.", 1),
        (f"Ansatz: {dez(n0)} · {dez(q)}ᵗ = {dez(grenze)}, also {dez(q)}ᵗ = "
         f"{zahl_oder_bruch(proz.grenze_faktor)}.", 1),
        (f"t = log({dez(grenze)} / {dez(n0)}) / log {dez(q)} ≈ {dez(F(tg), 1)}.", 1),
        (f"Antwortsatz: Nach etwa {dez(F(tg), 1)} {proz.zeiten_dativ}, also im Verlauf {verlauf}, "
         f"{proz.hauptsatz.format(g=_menge(proz, grenze, 0 if grenze.denominator == 1 else 1))}.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=10,
                   werte={"start": dez(n0), "prozent": prozent(p), "grenze": dez(grenze)},
                   ergebnis={"zeit_2": dez(F(tz), 1), "zeit_grenze": dez(F(tg), 1)})


_DATEN = (
    ("M1 Nutzerzahlen einer Lern-App", "Zahl der Nutzer in Tausend", "jedes Jahr", "Jahren", "zwei Jahre",
     (12, 15, 20, 25)),
    ("M1 Fläche eines Algenteppichs", "Fläche in m²", "jede Woche", "Wochen", "zwei Wochen", (8, 10, 16, 20)),
    ("M1 Follower eines Schulkanals", "Follower in Hundert", "jeden Monat", "Monaten", "zwei Monate", (4, 5, 6, 8)),
)


def build_modellvergleich(rng: random.Random, klasse: int) -> GeneratedTask:
    titel, kopf, jede, zeiten, zwei, starts = wahl(rng, _DATEN)
    n0, q = F(wahl(rng, starts)), wahl(rng, (F(13, 10), F(7, 5), F(3, 2), F(8, 5)))
    werte = [round(n0 * q ** t) for t in range(5)]
    quots = [F(b, a) for a, b in zip(werte, werte[1:], strict=False)]
    q_mittel = sum(quots) / len(quots)
    behauptung = wahl(rng, ("linear", "verdopplung"))
    if behauptung == "linear":
        aussage = f"„Der Wert steigt {jede} ungefähr um gleich viel, also wächst er linear.“"
        stimmt = False
    else:
        aussage = f"„Der Wert verdoppelt sich etwa alle {zwei}.“"
        stimmt = abs(q_mittel ** 2 - 2) <= F(15, 100)
    prognose = F(werte[-1]) * runde(q_mittel, 2)
    material = tabelle(titel, [f"Zeit in {zeiten}", kopf], [[str(t), str(w)] for t, w in enumerate(werte)])
    text = (f"Die Tabelle (M1) zeigt Messwerte. Jemand behauptet: {aussage} Beurteile diese Aussage. Entscheide "
            "dazu anhand von Differenzen und Quotienten, ob ein lineares oder ein exponentielles Modell besser passt, "
            f"stelle eine Funktionsgleichung auf und schätze den Wert nach 5 {zeiten}.")
    kette = ", ".join(f"{b} − {a} = {b - a}" for a, b in zip(werte, werte[1:], strict=False))
    qkette = ", ".join(f"{b} : {a} ≈ {dez(F(b, a), 2)}" for a, b in zip(werte, werte[1:], strict=False))
    urteil = ("Urteil: Die Aussage ist falsch; die Zunahmen werden immer größer, das Wachstum ist exponentiell."
              if behauptung == "linear" else
              f"Urteil: Die Aussage {'trifft ungefähr zu' if stimmt else 'trifft nicht zu'}: "
              f"{dez(q_mittel, 2)}² ≈ {dez(q_mittel ** 2, 2)}"
              + (", das ist etwa 2." if stimmt else ", das ist deutlich von 2 entfernt."))
    schritte = [
        (f"Differenzen: {kette}; sie sind nicht konstant, also kein lineares Wachstum.", 1),
        (f"Quotienten: {qkette}; sie sind etwa gleich, also exponentielles Wachstum.", 1),
        (urteil, 1),
        (f"Modell: f(t) = {werte[0]} · {dez(q_mittel, 2)}ᵗ (Mittelwert der Quotienten als Wachstumsfaktor; "
         "ähnliche Werte sind richtig).", 1),
        (f"Prognose vom letzten Messwert aus: {werte[-1]} · {dez(q_mittel, 2)} ≈ {dez(prognose, 0)} (mit f(5) "
         "gerechnet ergibt sich ein ähnlicher Wert).", 1),
        ("Grenzen des Modells: Exponentielles Wachstum kann nicht unbegrenzt weitergehen (begrenzter Platz, "
         "begrenzte Zahl möglicher Nutzer); langfristige Prognosen sind unsicher.", 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=12, material=material,
                   werte={"werte": ", ".join(map(str, werte)), "behauptung": behauptung},
                   ergebnis={"faktor": dez(q_mittel, 2), "prognose": dez(prognose, 0),
                             "aussage_stimmt": "ja" if stimmt else "nein"})


_E_KONTEXTE = (
    ("Eine Bakterienkultur wird beobachtet. Zu Beginn sind es {a} Bakterien, nach {t1} Stunden {b}.", "B(t)",
     "Bakterien", "Stunden", (100, 200, 500), (F(2), F(3), F(4), F(5)), (2, 3, 4, 6), True, "die Bakterienzahl"),
    ("Die Konzentration eines Wirkstoffs im Blut beträgt direkt nach der Gabe {a} mg/l, nach {t1} Stunden noch {b} "
     "mg/l.", "c(t)", "mg/l", "Stunden", (8, 12, 16, 20), (F(1, 2), F(1, 4), F(3, 4)), (3, 4, 5, 6), False,
     "die Konzentration"),
    ("Die Zahl der Nutzer eines neuen Online-Spiels wächst in den ersten Wochen näherungsweise exponentiell: Zum Start "
     "sind es {a} Tausend, nach {t1} Wochen {b} Tausend.", "N(t)", "Tausend Nutzer", "Wochen", (5, 8, 10, 20),
     (F(3, 2), F(2), F(5, 2), F(3)), (2, 3, 4), True, "die Nutzerzahl"),
)


def build_e_funktion(rng: random.Random, klasse: int) -> GeneratedTask:
    satz, name, einheit, zeiten, starts, faktoren, zeitpunkte, wachsend, nomen = wahl(rng, _E_KONTEXTE)
    a, faktor, t1 = F(wahl(rng, starts)), wahl(rng, faktoren), rng.randint(*[min(zeitpunkte), max(zeitpunkte)])
    b = a * faktor
    k = math.log(faktor) / t1
    kr = F(round(k, 4)).limit_denominator(10 ** 4)
    t2 = t1 + wahl(rng, (1, 2, 3))
    wert2 = float(a) * math.exp(k * t2)
    rate2 = float(a) * k * math.exp(k * t2)
    halb = math.log(2) / abs(k)
    wort = "Verdopplungszeit" if wachsend else "Halbwertszeit"
    text = (satz.format(a=dez(a), t1=t1, b=dez(b)) + f" Der Verlauf wird durch {name} = a · e^(k·t) beschrieben. "
            f"Bestimme a und k (k auf vier Nachkommastellen), die {wort} und die momentane Änderungsrate zum "
            f"Zeitpunkt t = {t2}. Deute das Ergebnis im Sachzusammenhang.")
    schritte = [
        (f"a = {name.replace('t', '0')} = {dez(a)}.", 1),
        (f"Ansatz: {dez(a)} · e^({t1}k) = {dez(b)}, also e^({t1}k) = {dez(faktor)}.", 1),
        (f"k = ln({dez(faktor)}) / {t1} ≈ {dez(kr, 4)}; also {name} = {dez(a)} · e^({dez(kr, 4)}t).", 1),
        (f"{wort}: T = ln(2) / {dez(abs(kr), 4)} ≈ {dez(F(halb), 2)} ({zeiten}).", 1),
        (f"Ableitung: {name.replace('(t)', chr(39) + '(t)')} = {dez(a * kr)} · e^({dez(kr, 4)}t).", 1),
        (f"{name.replace('(t)', chr(39) + '(' + str(t2) + ')')} ≈ {dez(F(rate2), 2)} ({einheit} pro "
         f"{zeiten[:-1] if zeiten.endswith('n') else zeiten}).", 1),
        (f"Deutung: Zum Zeitpunkt t = {t2} (Wert etwa {dez(F(wert2), 1)} {einheit}) nimmt {nomen} momentan um "
         f"etwa {dez(F(abs(rate2)), 2)} {einheit} pro {zeiten[:-1] if zeiten.endswith('n') else zeiten} "
         + ("zu." if wachsend else "ab."), 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=14,
                   werte={"a": dez(a), "b": dez(b), "t1": str(t1), "t2": str(t2)},
                   ergebnis={"k": dez(kr, 4), "zeit": dez(F(halb), 2), "rate": dez(F(rate2), 2)})


def _e_hoch(c: int, x: str = "x") -> str:
    """'e^x' or 'e^(−x)'."""
    return f"e^{x}" if c == 1 else f"e^(−{x})"


def _e_wert(k: int, n: int) -> str:
    """k · e^n written exactly: '−2 · e^(−1)', 'e³', '3' for n = 0."""
    if n == 0:
        return dez(F(k))
    potenz = "e" if n == 1 else (f"e{hoch(n)}" if n > 1 else f"e^({dez(F(n))})")
    return potenz if k == 1 else (f"−{potenz}" if k == -1 else f"{dez(F(k))} · {potenz}")


def _linear(a: int, b: int) -> str:
    """'(2x − 4)', '(−x + 1)', '3x', '−x' as the factor in front of the e-term."""
    ax = {1: "x", -1: "−x"}.get(a, f"{dez(F(a))}x")
    return ax if b == 0 else f"({ax} {'+' if b > 0 else '−'} {abs(b)})"


def build_e_kurvendiskussion(rng: random.Random, klasse: int) -> GeneratedTask:
    """f(x) = (ax + b) · e^(cx) with c = ±1, built backwards from a whole-number extreme point x_E:
    f'(x) = (acx + a + bc) · e^(cx), f''(x_E) = ac · e^(c·x_E), turning point x_W = x_E − c."""
    while True:
        a, c, x_e = wahl(rng, (-3, -2, -1, 1, 2, 3)), wahl(rng, (1, -1)), rng.randint(-2, 3)
        b = -a * (x_e + c)
        if abs(b) <= 9:
            break
    x_w, x_n = x_e - c, F(-b, a)
    y_e, y_w = -a * c * math.exp(c * x_e), -2 * a * c * math.exp(c * x_w)
    art = "Hochpunkt" if a * c < 0 else "Tiefpunkt"
    f = f"{_linear(a, b)} · {_e_hoch(c)}"
    d1 = f"{_linear(a * c, a + b * c)} · {_e_hoch(c)}"
    text = (f"Gegeben ist die e-Funktion f mit f(x) = {f}. Untersuche f auf Nullstellen, Extrem- und Wendepunkte "
            "und gib das Verhalten von f(x) für x → +∞ und x → −∞ an. Gib die Koordinaten exakt und auf zwei "
            "Nachkommastellen gerundet an.")
    unendlich = ("für x → −∞ gilt f(x) → 0 (die x-Achse ist Asymptote), für x → +∞ gilt f(x) → "
                 + ("+∞" if a > 0 else "−∞")) if c == 1 else (
        "für x → +∞ gilt f(x) → 0 (die x-Achse ist Asymptote), für x → −∞ gilt f(x) → " + ("−∞" if a > 0 else "+∞"))
    erst = ("−" if a < 0 else "") + _e_hoch(c) if abs(a) == 1 else f"{dez(F(a))} · {_e_hoch(c)}"
    pe, pw = (f"{art[0]}({dez(F(x_e))} | {_e_wert(-a * c, c * x_e)})",
              f"W({dez(F(x_w))} | {_e_wert(-2 * a * c, c * x_w)})")
    schritte = [
        (f"Nullstelle: e-Term stets > 0, also {_linear(a, b).strip('()')} = 0 und x = {zahl_oder_bruch(x_n)}.", 1),
        (f"Produkt- und Kettenregel: f'(x) = {erst} {'+' if c == 1 else '−'} "
         f"{_linear(a, b)} · {_e_hoch(c)} = {d1}.", 2),
        (f"f'(x) = 0 ⇔ {_linear(a * c, a + b * c).strip('()')} = 0 ⇔ x = {dez(F(x_e))}.", 1),
        (f"f''(x) = {_linear(a, b + 2 * a * c)} · {_e_hoch(c)} mit f''({dez(F(x_e))}) = "
         f"{_e_wert(a * c, c * x_e)} {'<' if a * c < 0 else '>'} 0: {art} {pe}"
         + (f" ≈ {art[0]}({dez(F(x_e))} | {dez(F(y_e), 2)})." if c * x_e else "."), 2),
        (f"f''(x) = 0 ⇔ x = {dez(F(x_w))}; f'' wechselt dort das Vorzeichen: Wendepunkt {pw}"
         + (f" ≈ W({dez(F(x_w))} | {dez(F(y_w), 2)})." if c * x_w else "."), 2),
        (f"Verhalten: {unendlich}.", 1),
    ]
    return aufgabe(operator="Untersuchen", afb="II", text=text, schritte=schritte, minuten=12,
                   werte={"a": dez(F(a)), "b": dez(F(b)), "c": dez(F(c))},
                   ergebnis={"nullstelle": zahl_oder_bruch(x_n), "art": art,
                             "extrempunkt": f"({dez(F(x_e))} | {dez(F(y_e), 2)})",
                             "wendepunkt": f"({dez(F(x_w))} | {dez(F(y_w), 2)})"})


_THEMA = "Exponentialfunktionen"
_SW = ("exponentielles Wachstum", "Exponentialfunktion", "Wachstumsfaktor", "exponentielle Abnahme")
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.exponential.bestand", fach="mathematik", thema=_THEMA,
              unterthema="Exponentielles Wachstum und exponentielle Abnahme berechnen",
              schlagworte=(*_SW, "Bestand", "Zerfall", "Wertverlust"),
              klassenstufen=(10, 10), afb="I", operator="Berechnen", build=build_wachstum),
    Generator(key="mathematik.exponential.verdopplung", fach="mathematik", thema=_THEMA,
              unterthema="Verdopplungszeit und Halbwertszeit mit dem Logarithmus",
              schlagworte=(*_SW, "Verdopplungszeit", "Halbwertszeit", "Logarithmus", "Exponentialgleichung"),
              klassenstufen=(10, 10), afb="II", operator="Bestimmen", build=build_halbwertszeit),
    Generator(key="mathematik.exponential.modellwahl", fach="mathematik", thema=_THEMA,
              unterthema="Lineares oder exponentielles Modell beurteilen",
              schlagworte=(*_SW, "lineares Wachstum", "Modell", "Wertetabelle", "Quotienten", "Prognose"),
              klassenstufen=(10, 10), afb="III", operator="Beurteilen", build=build_modellvergleich),
    Generator(key="mathematik.exponential.e_funktion", fach="mathematik", thema=_THEMA,
              unterthema="e-Funktion aus zwei Messwerten, Änderungsrate",
              schlagworte=(*_SW, "e-Funktion", "natürlicher Logarithmus", "Änderungsrate", "Ableitung", "ln"),
              klassenstufen=(11, 13), afb="II", operator="Bestimmen", build=build_e_funktion,
              niveaus=("gA", "eA")),
    Generator(key="mathematik.exponential.e_kurvendiskussion", fach="mathematik", thema=_THEMA,
              unterthema="Kurvendiskussion einer e-Funktion",
              schlagworte=(*_SW, "e-Funktion", "Kurvendiskussion", "Extrempunkt", "Wendepunkt", "Produktregel",
                           "Asymptote"),
              klassenstufen=(11, 13), afb="II", operator="Untersuchen", build=build_e_kurvendiskussion,
              niveaus=("gA", "eA")),
)
