"""Physik generators for half-life: remaining amount after n half-lives, time until a fraction remains, judging a
storage plan or a claim, and (Oberstufe) the decay law with logarithms.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, z

# (nuclide, half-life, unit as written in texts (singular, plural), symbol the checker knows or "", sample, use)
_NUKLIDE = (
    ("Iod-131", 8, ("Tag", "Tage"), "", "Ein Präparat für eine Schilddrüsentherapie", "für Schilddrüsentherapien"),
    ("Technetium-99m", 6, ("Stunde", "Stunden"), "h", "Ein Präparat für eine Knochenszintigrafie",
     "für Knochenszintigrafien"),
    ("Fluor-18", 110, ("Minute", "Minuten"), "min", "Ein Präparat für eine PET-Untersuchung", "für PET-Untersuchungen"),
    ("Phosphor-32", 14, ("Tag", "Tage"), "", "Eine Probe für einen Laborversuch", "in Laborversuchen"),
    ("Radon-222", F("3.8"), ("Tag", "Tage"), "", "Eine Bodenluftprobe", "in der Radonmessung"),
)
_LANGLEBIG = (
    ("Cäsium-137", 30, "in einer Bodenprobe nach einem Reaktorunfall"),
    ("Strontium-90", 29, "in einer Bodenprobe nach einem Reaktorunfall"),
    ("Kobalt-60", F("5.3"), "in einer alten Bestrahlungsquelle"),
)


def _dauer(x: F | int, einheit: tuple[str, str]) -> str:
    """'8 Tage', '1 Stunde', '3,8 Tage'."""
    return f"{z(x)} {einheit[0] if x == 1 else einheit[1]}"


def _dauer_dativ(x: F | int, einheit: tuple[str, str]) -> str:
    """'nach 24 Tagen', 'nach 18 Stunden'."""
    plural = einheit[1] if einheit[1].endswith("n") else einheit[1] + "n"
    return f"{z(x)} {einheit[0] if x == 1 else plural}"


def _n_schritt(t: F | int, halb: F | int, einheit: tuple[str, str], symbol: str, n: int) -> str:
    if symbol:
        return f"Anzahl der Halbwertszeiten: n = t / T½ = {gr(t, symbol)} / {gr(halb, symbol)} = {n}."
    return (f"Anzahl der Halbwertszeiten: n = {z(t)} / {z(halb)} = {n}, denn {_dauer(t, einheit)} sind {n} "
            "Halbwertszeiten.")


# --- remaining amount ------------------------------------------------------------------------------------------------


def _restmenge(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    nuklid, halb, einheit, symbol, probe, _ = rng.choice(_NUKLIDE)
    n = rng.choice((2, 3, 4, 5))
    t = n * F(halb)
    m0 = F(rng.choice((40, 64, 80, 120, 160, 200, 240, 320, 400)))
    rest = m0 / 2 ** n
    masse = rng.choice(("mg", "µg"))
    text = (f"{probe} enthält {gr(m0, masse)} {nuklid}. Die Halbwertszeit von {nuklid} beträgt "
            f"{_dauer(halb, einheit)}. Berechne, wie viel {nuklid} nach {_dauer_dativ(t, einheit)} noch vorhanden ist "
            "und wie viel bis dahin zerfallen ist.")
    schritte = [
        (_n_schritt(t, halb, einheit, symbol, n), 1),
        ("Nach jeder Halbwertszeit ist noch die Hälfte vorhanden: m = m₀ · (1/2)ⁿ.", 1),
        (f"m = {gr(m0, masse)} · (1/2){'²³⁴⁵'[n - 2]} = {gr(rest, masse)}.", 1),
        (f"Zerfallen sind {gr(m0, masse)} − {gr(rest, masse)} = {gr(m0 - rest, masse)}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"m0": gr(m0, masse), "n": str(n)},
                   ergebnis={"m": gr(rest, masse), "zerfallen": gr(m0 - rest, masse)})


# --- time until a fraction remains -----------------------------------------------------------------------------------


def _zeit_bis_anteil(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    nuklid, halb, einheit, symbol, probe, _ = rng.choice(_NUKLIDE)
    n = rng.choice((3, 4, 5, 6))
    a0 = rng.choice((1600, 3200, 4800, 6400, 9600, 12800))
    a = F(a0, 2 ** n)
    t = n * F(halb)
    anteil = F(1, 2 ** n)
    text = (f"{probe} enthält {nuklid} (Halbwertszeit {_dauer(halb, einheit)}). Ein Zählgerät misst zu "
            f"Beginn {z(a0)} Impulse pro Minute. Bestimme, nach welcher Zeit nur noch {z(a)} Impulse pro Minute "
            "gemessen werden (Nullrate vernachlässigt).")
    if symbol:
        dauer = f"t = n · T½ = {n} · {gr(halb, symbol)} = {gr(t, symbol)}."
    else:
        dauer = f"t = n · T½ = {n} · {_dauer(halb, einheit)} = {_dauer(t, einheit)}."
    schritte = [
        (f"Verhältnis: {z(a)} / {z(a0)} = 1/{anteil.denominator} = (1/2){'³⁴⁵⁶'[n - 3]}.", 2),
        (f"Also müssen n = {n} Halbwertszeiten vergehen (die Zählrate halbiert sich {n}-mal).", 1),
        (dauer, 1),
        (f"Antwort: Nach {_dauer_dativ(t, einheit)} werden nur noch {z(a)} Impulse pro Minute gemessen.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=6, werte={"A0": z(a0), "A": z(a), "T": z(halb)}, ergebnis={"n": str(n), "t": z(t)})


# --- judging a storage plan or a claim -------------------------------------------------------------------------------

_GRENZEN = ((F(1, 100), "1 %"), (F(1, 1000), "0,1 %"), (F(1, 20), "5 %"))


def _abklinglager(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    nuklid, halb, einheit, _, _, _ = rng.choice(_NUKLIDE[:4])
    grenze, grenze_text = rng.choice(_GRENZEN)
    n = next(k for k in range(1, 20) if F(1, 2 ** k) <= grenze)
    noetig = n * F(halb)
    geplant = noetig + rng.choice((-2, -1, 1, 2)) * F(halb)
    reicht = geplant >= noetig
    text = (f"Eine Klinik lagert Abfälle, die {nuklid} (Halbwertszeit {_dauer(halb, einheit)}) enthalten, in einem "
            f"Abklinglager. Sie dürfen erst entsorgt werden, wenn ihre Aktivität auf höchstens {grenze_text} des "
            f"Anfangswerts gesunken ist. Geplant ist eine Lagerzeit von {_dauer_dativ(geplant, einheit)}. Beurteile, "
            "ob diese Lagerzeit ausreicht.")
    schritte = [
        (f"Gesucht ist die kleinste Zahl n von Halbwertszeiten mit (1/2)ⁿ ≤ {grenze_text}.", 1),
        (f"2^{n - 1} = {2 ** (n - 1)} reicht nicht, 2^{n} = {2 ** n} reicht: n = {n}.", 2),
        (f"Nötige Lagerzeit: t = {n} · {_dauer(halb, einheit)} = {_dauer(noetig, einheit)}.", 1),
        (f"Vergleich: geplant {_dauer(geplant, einheit)} {'≥' if reicht else '<'} nötig {_dauer(noetig, einheit)}.",
         1),
        (f"Urteil: Die Lagerzeit {'reicht aus' if reicht else 'reicht nicht aus'}" + (
            "." if reicht else f"; sie muss auf mindestens {_dauer(noetig, einheit)} verlängert werden.") +
         " Die Aktivität nimmt nie auf null ab, sondern halbiert sich in gleichen Zeitabständen.", 1),
    ]
    werte = {"T": z(halb), "grenze": grenze_text, "geplant": z(geplant)}
    return text, schritte, werte, {"n": str(n), "noetig": z(noetig), "urteil": "reicht" if reicht else "reicht nicht"}


def _behauptung(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    while True:
        nuklid, halb, wo = rng.choice(_LANGLEBIG)
        halb = F(halb)
        jahre = F(rng.choice((10, 15, 20, 25, 50, 70, 75, 80, 100, 110, 125, 140)))
        q = jahre / halb
        k = math.floor(q)
        grenze, grenze_text = rng.choice(((F(1, 100), "1 %"), (F(1, 10), "10 %"), (F(1, 4), "25 %")))
        # the remaining share lies between 1/2^(k+1) and 1/2^k; only unambiguous claims are asked
        if 2 <= k <= 5 and q != k and (F(1, 2 ** k) <= grenze or F(1, 2 ** (k + 1)) >= grenze):
            break
    stimmt = F(1, 2 ** k) <= grenze
    n_min = next(m for m in range(1, 20) if F(1, 2 ** m) <= grenze)
    text = (f"{nuklid} (Halbwertszeit {_dauer(halb, ('Jahr', 'Jahre'))}) wurde {wo} nachgewiesen. Jemand behauptet: "
            f"„Nach {z(jahre)} Jahren ist weniger als {grenze_text} des {nuklid} übrig.“ Beurteile diese Aussage, "
            "indem du den verbleibenden Anteil mithilfe der Halbwertszeit abschätzt.")
    schritte = [
        (f"Anzahl der Halbwertszeiten: {z(jahre)} / {z(halb)} ≈ {z(q, 1)}, also zwischen {k} und {k + 1}.", 1),
        (f"Nach {k} Halbwertszeiten ist 1/{2 ** k} ≈ {z(F(100, 2 ** k), 1)} % übrig, nach {k + 1} Halbwertszeiten "
         f"1/{2 ** (k + 1)} ≈ {z(F(100, 2 ** (k + 1)), 1)} %.", 2),
        ((f"Also ist schon weniger als {z(F(100, 2 ** k), 1)} % übrig." if stimmt else
          f"Also ist noch mehr als {z(F(100, 2 ** (k + 1)), 1)} % vorhanden."), 1),
        (f"Urteil: Die Aussage ist {'richtig' if stimmt else 'falsch'}.", 1),
        (f"Unter {grenze_text} fällt der Anteil nach {n_min} Halbwertszeiten (1/{2 ** n_min}), also nach etwa "
         f"{z(n_min * halb)} Jahren; radioaktive Stoffe verschwinden nie ganz, sondern nehmen nur immer weiter ab.",
         1),
    ]
    werte = {"T": z(halb), "jahre": z(jahre), "grenze": grenze_text}
    return text, schritte, werte, {"k": str(k), "urteil": "richtig" if stimmt else "falsch"}


def _lagerung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = (_abklinglager if rng.random() < 0.6 else _behauptung)(rng)
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=10, werte=werte, ergebnis=ergebnis)


# --- decay law with logarithms (Oberstufe) ---------------------------------------------------------------------------


def _zerfallsgesetz(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    if rng.random() < 0.5:
        anteil = F(rng.choice((15, 20, 30, 35, 40, 45, 60, 65, 70, 80)), 100)
        halb, einheit = F(5730), ("Jahr", "Jahre")
        text = (f"Ein Holzstück aus einer Ausgrabung enthält nur noch {z(anteil * 100)} % des C-14-Anteils von "
                "lebendem Holz. Die Halbwertszeit von C-14 beträgt 5730 Jahre. Bestimme mithilfe des Zerfallsgesetzes "
                "das Alter des Holzstücks (auf zehn Jahre gerundet).")
        runde = -1
    else:
        nuklid, halb, einheit, _, _, zweck = rng.choice(_NUKLIDE[:2])
        halb = F(halb)
        anteil = F(rng.choice((5, 10, 15, 20, 30)), 100)
        text = (f"{nuklid} (Halbwertszeit {_dauer(halb, einheit)}) wird {zweck} eingesetzt. Bestimme mithilfe des "
                f"Zerfallsgesetzes, nach welcher Zeit nur noch {z(anteil * 100)} % der Anfangsaktivität vorhanden "
                "sind (auf eine Nachkommastelle).")
        runde = 1
    q = math.log(float(anteil)) / math.log(0.5)
    k = math.floor(q)
    t = q * float(halb)
    t_text = z(int(round(t, -1))) if runde < 0 else z(t, 1)
    schritte = [
        ("Zerfallsgesetz: N(t) = N₀ · (1/2)^(t / T½), also N / N₀ = (1/2)^(t / T½).", 1),
        ("Logarithmieren: t / T½ = ln(N / N₀) / ln(1/2).", 1),
        (f"t / T½ = ln({z(anteil, 2)}) / ln(0,5) ≈ {z(q, 3)}.", 1),
        (f"t ≈ {z(q, 3)} · {_dauer(halb, einheit)} ≈ {t_text} {einheit[1]}.", 1),
        (f"Plausibilität: {z(anteil * 100)} % liegt zwischen {z(F(100, 2 ** k))} % und "
         f"{z(F(100, 2 ** (k + 1)))} %, das Ergebnis also zwischen {k} und {k + 1} Halbwertszeiten.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=8, werte={"anteil": z(anteil, 2), "T": z(halb)},
                   ergebnis={"t": t_text, "q": z(q, 3)})


_SCHLAGWORTE = ("Radioaktivität", "Halbwertszeit", "radioaktiver Zerfall", "Kernphysik", "Aktivität")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.radioaktivitaet.restmenge", "physik", "Halbwertszeit", "Restmenge nach n Halbwertszeiten",
              (*_SCHLAGWORTE, "Restmenge", "Zerfall"), (9, 10), "I", "Berechnen", _restmenge),
    Generator("physik.radioaktivitaet.zeit_bis_anteil", "physik", "Halbwertszeit", "Zeit bis zu einem Restanteil",
              (*_SCHLAGWORTE, "Zählrate", "Abklingen"), (9, 10), "II", "Bestimmen", _zeit_bis_anteil),
    Generator("physik.radioaktivitaet.lagerung", "physik", "Halbwertszeit", "Lagerung radioaktiver Stoffe beurteilen",
              (*_SCHLAGWORTE, "Abklinglager", "Strahlenschutz", "Endlager"), (9, 10), "III", "Beurteilen", _lagerung),
    Generator("physik.radioaktivitaet.zerfallsgesetz", "physik", "Halbwertszeit", "Zerfallsgesetz und Altersbestimmung",
              (*_SCHLAGWORTE, "Zerfallsgesetz", "C-14-Methode", "Logarithmus"), (11, 13), "II", "Bestimmen",
              _zerfallsgesetz, ("gA", "eA")),
)
