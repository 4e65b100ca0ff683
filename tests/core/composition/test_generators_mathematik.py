"""Mathematik generators: for any seed and grade the Erwartungshorizont is arithmetically right (recomputed here from
the task's parameters, independently of the generator code), the verifier finds nothing, and the task is well-formed.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.checks.arithmetic.calculations import check_calculations
from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik import GENERATORS

SEEDS = Path(__file__).resolve().parents[3] / "seeds" / "data" / "mathematik.json"
OPERATOREN = {o["operator"]: o["afb"] for o in json.loads(SEEDS.read_text(encoding="utf-8"))["operatoren"]}
BY_KEY = {g.key: g for g in GENERATORS}
SUP = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# fewer distinct tasks in 20 seeds are expected where the parameter space is deliberately small
MIN_DISTINCT = {"mathematik.quadratisch.durchfahrt": 12, "mathematik.differential.optimierung": 12,
                "mathematik.pythagoras.berechnen": 13, "mathematik.pythagoras.rechter_winkel": 13}


# --- parsing the German number format back -----------------------------------------------------------------------


def zahl(text: str) -> F:
    """'12 017,50 €' -> 12017.5, '−3/4' -> -3/4, '40 %' -> 40 (the unit is dropped)."""
    t = text.strip().replace("\u202f", " ").replace("\u2009", " ").replace("\xa0", " ").replace("−", "-")
    m = re.match(r"^-?\d{1,3}(?: \d{3})+(?:,\d+)?|^-?\d+(?:,\d+)?(?:/\d+)?", t)
    assert m, f"keine Zahl in {text!r}"
    return F(m.group().replace(" ", "").replace(",", "."))


def gemischt(text: str) -> F:
    """'2 1/2' -> 5/2, '3/4' -> 3/4."""
    m = re.fullmatch(r"(\d+) (\d+)/(\d+)", text.strip())
    return F(int(m[1])) + F(int(m[2]), int(m[3])) if m else zahl(text)


def ausdruck(text: str, **variablen: F) -> F:
    """Evaluate a linear term as the generators print it ('4 · (x + 6) − 7', '3k + 5s') exactly."""
    t = text.replace("−", "-").replace("·", "*").replace(":", "/")
    t = re.sub(r"\d+(?:,\d+)?", lambda m: f"F('{m.group().replace(',', '.')}')", t)
    t = re.sub(r"\)\s*(?=[a-z(])", ")*", t)
    return eval(t, {"F": F}, dict(variablen))  # noqa: S307 - our own generated text, in a test


def linear(text: str, namen: tuple[str, ...]) -> tuple[list[F], F]:
    """'6x − y = 37' -> ([6, -1], 37): coefficients of a linear equation in the given variables."""
    links, rechts = text.split("=")
    null = {n: F(0) for n in namen}
    basis = ausdruck(links, **null) - ausdruck(rechts, **null)
    koeff = [ausdruck(links, **{**null, n: F(1)}) - ausdruck(rechts, **{**null, n: F(1)}) - basis for n in namen]
    return koeff, -basis


def polynom(text: str, var: str = "x") -> dict[int, F]:
    """'−0,05x² + 0,8x + 1,8' / 'x³/3 − 2x' -> {power: coefficient}."""
    out: dict[int, F] = {}
    for vorzeichen, term in re.findall(r"([+−-]?)\s*([^\s+−-][^+−]*)", text.replace(" - ", " − ")):
        term = term.strip()
        m = re.fullmatch(rf"(\d+(?:,\d+)?)?({var})?([⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?:/(\d+))?", term)
        assert m, f"Term {term!r} in {text!r}"
        c = F(m[1].replace(",", ".")) if m[1] else F(1)
        if m[4]:
            c /= int(m[4])
        n = 0 if not m[2] else (int(m[3].translate(SUP)) if m[3] else 1)
        out[n] = out.get(n, F(0)) + (-c if vorzeichen in ("−", "-") else c)
    return out


def f_wert(p: dict[int, F], x: F) -> F:
    return sum((c * x ** n for n, c in p.items()), F(0))


def ableiten(p: dict[int, F]) -> dict[int, F]:
    return {n - 1: c * n for n, c in p.items() if n}


def integrieren(p: dict[int, F], a: F, b: F) -> F:
    return sum((c / (n + 1) * (b ** (n + 1) - a ** (n + 1)) for n, c in p.items()), F(0))


def rund(x: F | float, stellen: int) -> F:
    """Half-up rounding as the generators promise ('auf Cent gerundet')."""
    q = F(10) ** stellen
    x = F(x)
    return F(math.floor(abs(x) * q + F(1, 2)), q) * (1 if x >= 0 else -1)


def punkt(text: str) -> tuple[F, F]:
    x, y = text.strip("() ").split("|")
    return zahl(x), zahl(y)


def nah(a: F | float, b: F | float, tol: float = 1e-9) -> bool:
    return abs(float(a) - float(b)) <= tol


# --- independent recomputation per generator -------------------------------------------------------------------


def chk_brueche_rechnen(t: GeneratedTask) -> None:
    ops = {"+": lambda a, b: a + b, "−": lambda a, b: a - b, "·": lambda a, b: a * b, ":": lambda a, b: a / b}
    for teil in "abcd":
        a, op, b = t.werte[teil].split(" ")
        assert zahl(t.ergebnis[teil]) == ops[op](zahl(a), zahl(b))
        assert all(zahl(x).denominator <= 20 for x in (a, b))


def chk_brueche_vergleichen(t: GeneratedTask) -> None:
    werte = [zahl(x) for x in t.werte["brueche"].split(", ")]
    kette = t.ergebnis["ordnung"]
    teile = re.findall(r"\(([^()]+)\)", kette) if "(" in kette else kette.split(" < ")
    geordnet = [zahl(x) for x in teile]
    assert geordnet == sorted(werte) and len(set(werte)) == 4
    if "dazwischen" in t.ergebnis:
        s = sorted(werte)
        assert s[0] < zahl(t.ergebnis["dazwischen"]) < s[1]
    else:
        assert zahl(t.ergebnis["unterschied"]) == max(werte) - min(werte)


def chk_brueche_anteile(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if w["art"] == "rest":
        rest = 1 - zahl(w["anteil_1"]) - zahl(w["anteil_2"])
        assert zahl(e["anteil"]) == rest and zahl(e["menge"]) == zahl(w["ganzes"]) * rest
        assert (zahl(w["ganzes"]) * rest).denominator == 1
    elif w["art"] == "vom_rest":
        rest = (1 - zahl(w["anteil_1"])) * (1 - zahl(w["anteil_2"]))
        assert zahl(e["anteil"]) == rest and zahl(e["uebrig"]) == zahl(w["betrag"]) * rest
    else:
        v, g1, g2 = zahl(w["vorrat"]), zahl(w["portion_1"]), zahl(w["portion_2"])
        assert zahl(e["anzahl_1"]) == v / g1 and (v / g1).denominator == 1
        n2 = math.floor(v / g2)
        assert zahl(e["anzahl_2"]) == n2 and zahl(e["rest"]) == v - n2 * g2


def chk_brueche_fehler(t: GeneratedTask) -> None:
    links, *_, falsch = t.werte["rechnung"].split(" = ")
    a_text, op, b_text = re.fullmatch(r"(.+?) ([+−·:]) (.+)", links).groups()
    a, b = gemischt(a_text), gemischt(b_text)
    richtig = {"+": a + b, "−": a - b, "·": a * b, ":": a / b}[op]
    assert zahl(t.ergebnis["richtig"]) == richtig
    assert gemischt(falsch) == zahl(t.ergebnis["falsch"]) != richtig


def chk_prozentwert(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    p = zahl(w["prozentsatz"]) / 100
    if w["art"] == "rabatt":
        g = zahl(w["preis"])
        assert zahl(e["nachlass"]) == g * p and zahl(e["neu"]) == g * (1 - p)
    elif w["art"] == "mwst":
        n = zahl(w["netto"])
        assert zahl(e["mwst"]) == n * p and zahl(e["brutto"]) == n * (1 + p)
    else:
        g = zahl(w["preis"])
        assert zahl(e["erhoehung"]) == g * p and zahl(e["neu"]) == g * (1 + p)
    assert all((zahl(v) * 100).denominator == 1 for v in e.values())  # whole cents


def chk_grundwert(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if w["art"] == "grundwert":
        p = zahl(w["prozentsatz"]) / 100
        assert zahl(e["grundwert"]) == zahl(w["neu"]) / (1 + p if w["richtung"] == "plus" else 1 - p)
    elif w["art"] == "netto":
        assert zahl(e["netto"]) == zahl(w["brutto"]) / F(119, 100)
        assert zahl(e["mwst"]) == zahl(w["brutto"]) - zahl(e["netto"])
    else:
        assert zahl(e["prozentsatz"]) == (zahl(w["neu"]) - zahl(w["alt"])) / zahl(w["alt"]) * 100


def chk_angebote(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if w["art"] == "skonto":
        g = zahl(w["preis"])
        a = g * (1 - zahl(w["rabatt_a"]) / 100) * (1 - zahl(w["skonto_a"]) / 100)
        b = g * (1 - zahl(w["rabatt_b"]) / 100)
        assert zahl(e["a"]) == rund(a, 2) and zahl(e["b"]) == b and e["guenstiger"] == ("A" if a < b else "B")
    elif w["art"] == "hin_und_zurueck":
        p, q = zahl(w["erst"]) / 100, zahl(w["dann"]) / 100
        f1, f2 = (1 + p, 1 - q) if w["richtung"] == "hoch" else (1 - p, 1 + q)
        assert zahl(e["endpreis"]) == rund(zahl(w["preis"]) * f1 * f2, 2)
    else:
        p, k, r = zahl(w["stueckpreis"]), int(w["anzahl"]), zahl(w["rabatt_b"]) / 100
        assert zahl(e["a"]) == (k - k // 3) * p and zahl(e["b"]) == k * p * (1 - r)


def chk_jahreszinsen(t: GeneratedTask) -> None:
    k, p, m = zahl(t.werte["kapital"]), zahl(t.werte["zinssatz"]), int(t.werte["monate"])
    z = k * p / 100 * F(m, 12)
    assert zahl(t.ergebnis["zinsen"]) == z and zahl(t.ergebnis["endbetrag"]) == k + z
    assert (z * 100).denominator == 1 and 500 <= k <= 12000


def chk_zinseszins(t: GeneratedTask) -> None:
    k, p, n = zahl(t.werte["kapital"]), zahl(t.werte["zinssatz"]), int(t.werte["jahre"])
    kn = rund(k * (1 + p / 100) ** n, 2)
    assert zahl(t.ergebnis["endkapital"]) == kn and zahl(t.ergebnis["zinsen"]) == kn - k
    assert zahl(t.ergebnis["einfach"]) == k * p / 100 * n
    if "verdopplung_jahre" in t.ergebnis:
        assert int(t.ergebnis["verdopplung_jahre"]) == math.ceil(math.log(2) / math.log(1 + p / 100))


def chk_sparangebote(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    k, n = zahl(w["kapital"]), int(w["jahre"])
    a = rund(k * (1 + zahl(w["zinssatz_a"]) / 100) ** n, 2)
    prod = F(1)
    for f in w["faktoren_b"].split(" · "):
        prod *= zahl(f)
    b = rund(k * prod, 2) + k * zahl(w["bonus_b"]) / 100
    assert len(w["faktoren_b"].split(" · ")) == n
    assert zahl(e["a"]) == a and zahl(e["b"]) == b and e["besser"] == ("A" if a > b else "B")


def chk_gleichungen(t: GeneratedTask) -> None:
    for teil in "ab":
        (k,), c = linear(t.werte[teil], ("x",))
        assert k != 0 and zahl(t.ergebnis[teil]) == c / k and (c / k).denominator == 1


def chk_zwei_punkte(t: GeneratedTask) -> None:
    (x1, y1), (x2, y2) = punkt(t.werte["P"]), punkt(t.werte["Q"])
    m = (y2 - y1) / (x2 - x1)
    b = y1 - m * x1
    assert zahl(t.ergebnis["m"]) == m and zahl(t.ergebnis["b"]) == b and zahl(t.ergebnis["nullstelle"]) == -b / m
    assert all(v.denominator == 1 for v in (x1, y1, x2, y2))


def chk_wertetabelle(t: GeneratedTask) -> None:
    xs = [zahl(v) for v in t.werte["x"].split(", ")]
    ys = [zahl(v) for v in t.werte["y"].split(", ")]
    m = (ys[1] - ys[0]) / (xs[1] - xs[0])
    b = ys[0] - m * xs[0]
    assert all(y == m * x + b for x, y in zip(xs, ys, strict=True))  # really linear
    assert zahl(t.ergebnis["m"]) == m and zahl(t.ergebnis["b"]) == b
    assert zahl(t.ergebnis["x_ziel"]) == (zahl(t.werte["ziel"]) - b) / m > max(xs)


def chk_tarife(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    ga, ka, gb, kb = (zahl(w[k]) for k in ("grund_a", "preis_a", "grund_b", "preis_b"))
    um = zahl(w["durchschnitt"])
    fa, fb = ka * um + ga, kb * um + gb
    assert zahl(e["gleich_bei"]) == (gb - ga) / (ka - kb)
    assert zahl(e["kosten_a"]) == fa and zahl(e["kosten_b"]) == fb and e["empfehlung"] == ("A" if fa < fb else "B")
    assert zahl(w["von"]) < um < zahl(w["bis"])


def _lgs(t: GeneratedTask, namen: tuple[str, str]) -> tuple[F, F]:
    (a1, b1), c1 = linear(t.werte["I"], namen)
    (a2, b2), c2 = linear(t.werte["II"], namen)
    det = a1 * b2 - a2 * b1
    assert det != 0
    return (c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det


def chk_lgs_loesen(t: GeneratedTask) -> None:
    x, y = _lgs(t, ("x", "y"))
    assert zahl(t.ergebnis["x"]) == x and zahl(t.ergebnis["y"]) == y


def chk_lgs_sachaufgabe(t: GeneratedTask) -> None:
    namen = tuple(t.ergebnis)
    u, v = _lgs(t, namen)
    assert zahl(t.ergebnis[namen[0]]) == u > 0 and zahl(t.ergebnis[namen[1]]) == v > 0


def chk_kasse(t: GeneratedTask) -> None:
    pu, pv, n, e = (zahl(t.werte[k]) for k in ("preis_u", "preis_v", "anzahl", "einnahmen"))
    x = (e - pv * n) / (pu - pv)
    moeglich = x.denominator == 1 and 0 <= x <= n
    assert t.ergebnis["moeglich"] == ("ja" if moeglich else "nein")
    assert nah(zahl(t.ergebnis["x"]), x, 0.006) and nah(zahl(t.ergebnis["y"]), n - x, 0.006)


def _wurzeln(p: dict[int, F]) -> list[float]:
    a, b, c = p.get(2, F(0)), p.get(1, F(0)), p.get(0, F(0))
    d = b * b - 4 * a * c
    if d < 0:
        return []
    return sorted([(-float(b) - math.sqrt(d)) / (2 * float(a)), (-float(b) + math.sqrt(d)) / (2 * float(a))])


def chk_nullstellen(t: GeneratedTask) -> None:
    fa = _wurzeln(polynom(t.werte["f"]))
    assert [zahl(v) for v in t.ergebnis["a"].split("; ")] == [F(round(r)) for r in fa]
    assert all(nah(r, round(r)) for r in fa)  # part a has whole-number zeros
    gb = _wurzeln(polynom(t.werte["g"]))
    assert t.ergebnis["b"] == "keine" if not gb else [zahl(v) for v in t.ergebnis["b"].split("; ")] == [
        rund(r, 2) for r in gb]


def chk_scheitelpunkt(t: GeneratedTask) -> None:
    p = polynom(t.werte["f"])
    xs = -p[1] / (2 * p[2]) if 1 in p else F(0)
    assert punkt(t.ergebnis["scheitel"]) == (xs, f_wert(p, xs))
    assert all(f_wert(p, zahl(r)) == 0 for r in t.ergebnis["nullstellen"].split("; "))


def chk_bruecke(t: GeneratedTask) -> None:
    s, h, d, z = (zahl(t.werte[k]) for k in ("halbe_breite", "hoehe", "abstand", "hoehe_breite"))
    a = -h / s ** 2
    assert zahl(t.ergebnis["a"]) == a and zahl(t.ergebnis["hoehe_bei_abstand"]) == a * d * d + h
    assert zahl(t.ergebnis["breite"]) == 2 * rund(math.sqrt((z - h) / a), 2) and 0 < d < s and 0 < z < h


def chk_wurf(t: GeneratedTask) -> None:
    p = polynom(t.werte["h"])
    d, hindernis = zahl(t.werte["abstand"]), zahl(t.werte["hindernis"])
    xs = -p[1] / (2 * p[2])
    assert zahl(t.ergebnis["hoehe_hindernis"]) == f_wert(p, d) and zahl(t.ergebnis["max"]) == f_wert(p, xs)
    assert zahl(t.ergebnis["landung"]) == rund(max(_wurzeln(p)), 2)
    assert t.ergebnis["drueber"] == ("ja" if f_wert(p, d) > hindernis else "nein")
    assert F(3, 2) <= p[0] <= F(5, 2)  # thrown from a realistic height


def chk_durchfahrt(t: GeneratedTask) -> None:
    s, h, b, hoch = (zahl(t.werte[k]) for k in ("halbe_breite", "hoehe", "fahrzeug_breite", "fahrzeug_hoehe"))
    x = F(2, 10) + b if t.werte["spur"] == "ja" else b / 2
    kante = rund(-h / s ** 2 * x * x + h, 2)
    assert zahl(t.ergebnis["hoehe_kante"]) == kante and zahl(t.ergebnis["max_hoehe"]) == kante - F(1, 10)
    assert t.ergebnis["passt"] == ("ja" if kante - hoch >= F(1, 10) else "nein")


def chk_pythagoras(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if "hypotenuse" in w:
        assert zahl(e["laenge"]) == rund(math.sqrt(zahl(w["hypotenuse"]) ** 2 - zahl(w["kathete"]) ** 2), 2)
    elif "hoehe" in w:
        d = math.sqrt(zahl(w["breite"]) ** 2 + zahl(w["hoehe"]) ** 2)
        assert zahl(e["laenge"]) == rund(d, 1) and zahl(e["zoll"]) == rund(d / 2.54, 1)
    else:
        d = math.sqrt(zahl(w["laenge"]) ** 2 + zahl(w["breite"]) ** 2)
        assert zahl(e["diagonale"]) == rund(d, 1)
        assert zahl(e["ersparnis"]) == rund(zahl(w["laenge"]) + zahl(w["breite"]) - F(d), 1)


def chk_rechter_winkel(t: GeneratedTask) -> None:
    a, b, c = (zahl(t.werte[k]) for k in "abc")
    assert c > max(a, b)
    assert t.ergebnis["rechtwinklig"] == ("ja" if a * a + b * b == c * c else "nein")


def chk_passt_es(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if "raum" in w:
        d = math.sqrt(zahl(w["hoehe"]) ** 2 + zahl(w["tiefe"]) ** 2)
        assert zahl(e["diagonale"]) == rund(d, 2) and e["passt"] == ("ja" if d < zahl(w["raum"]) else "nein")
    elif "leiter" in w:
        lang = zahl(w["leiter"])
        h = math.sqrt(lang ** 2 - (lang / 4) ** 2)
        assert zahl(e["anlegehoehe"]) == rund(h, 2)
        assert e["reicht"] == ("ja" if h >= zahl(w["bruestung"]) + 1 else "nein")
    else:
        breite = int(w["zoll"]) * 2.54 * 16 / math.sqrt(337) + 2
        assert zahl(e["breite"]) == rund(breite, 1)
        assert e["passt"] == ("ja" if breite <= zahl(w["nische"]) else "nein")


def chk_trig_hoehe(t: GeneratedTask) -> None:
    fn = {"tan": math.tan, "sin": math.sin}[t.werte["funktion"]]
    h = float(zahl(t.werte["strecke"])) * fn(math.radians(zahl(t.werte["winkel"]))) + 1.6
    assert zahl(t.ergebnis["hoehe"]) == rund(h, 1)


def chk_trig_steigung(t: GeneratedTask) -> None:
    alpha = math.atan(zahl(t.werte["steigung"]) / 100)
    assert zahl(t.ergebnis["winkel"]) == rund(math.degrees(alpha), 1)
    assert zahl(t.ergebnis["hoehenunterschied"]) == rund(float(zahl(t.werte["laenge"])) * math.sin(alpha), 0)


def chk_trig_regel(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if "laenge" in w:
        p = zahl(w["hoehe"]) / zahl(w["laenge"]) * 100
        assert zahl(e["steigung"]) == rund(p, 1) and e["zulaessig"] == ("ja" if p <= 6 else "nein")
        assert zahl(e["mindestlaenge"]) == rund(zahl(w["hoehe"]) / F(6, 100), 2)
    elif "leiter" in w:
        alpha = math.degrees(math.acos(zahl(w["abstand"]) / zahl(w["leiter"])))
        assert zahl(e["winkel"]) == rund(alpha, 1) and e["sicher"] == ("ja" if 65 <= alpha <= 75 else "nein")
    else:
        alpha = math.degrees(math.atan(zahl(w["firsthoehe"]) / (zahl(w["breite"]) / 2)))
        assert zahl(e["winkel"]) == rund(alpha, 1) and e["zulaessig"] == ("ja" if alpha >= 22 else "nein")


def chk_exp_bestand(t: GeneratedTask) -> None:
    n0, p, zeit = zahl(t.werte["start"]), zahl(t.werte["prozent"]), int(t.werte["zeit"])
    stellen = 1 if t.werte["einheit"] == "mg" else 0
    assert zahl(t.ergebnis["bestand"]) == rund(n0 * (1 + p / 100) ** zeit, stellen)


def chk_exp_verdopplung(t: GeneratedTask) -> None:
    n0, p, g = zahl(t.werte["start"]), zahl(t.werte["prozent"]), zahl(t.werte["grenze"])
    q = 1 + p / 100
    ziel = 2 if p > 0 else 0.5
    assert zahl(t.ergebnis["zeit_2"]) == rund(math.log(ziel) / math.log(q), 1)
    assert zahl(t.ergebnis["zeit_grenze"]) == rund(math.log(g / n0) / math.log(q), 1)
    assert (g > n0) == (p > 0)


def chk_exp_modellwahl(t: GeneratedTask) -> None:
    werte = [int(v) for v in t.werte["werte"].split(", ")]
    q = sum(F(b, a) for a, b in zip(werte, werte[1:], strict=False)) / 4
    assert zahl(t.ergebnis["faktor"]) == rund(q, 2)
    assert zahl(t.ergebnis["prognose"]) == rund(werte[-1] * rund(q, 2), 0)
    stimmt = t.werte["behauptung"] == "verdopplung" and abs(q * q - 2) <= F(15, 100)
    assert t.ergebnis["aussage_stimmt"] == ("ja" if stimmt else "nein")
    assert len({b - a for a, b in zip(werte, werte[1:], strict=False)}) > 1  # visibly not linear


def chk_e_funktion(t: GeneratedTask) -> None:
    a, b, t1, t2 = (zahl(t.werte[k]) for k in ("a", "b", "t1", "t2"))
    k = math.log(b / a) / t1
    assert zahl(t.ergebnis["k"]) == rund(k, 4)
    assert zahl(t.ergebnis["zeit"]) == rund(math.log(2) / abs(k), 2)
    assert zahl(t.ergebnis["rate"]) == rund(float(a) * k * math.exp(k * float(t2)), 2)


def chk_e_kurvendiskussion(t: GeneratedTask) -> None:
    a, b, c = (float(zahl(t.werte[k])) for k in ("a", "b", "c"))

    def f(x: float) -> float:
        return (a * x + b) * math.exp(c * x)

    def d(g: Callable[[float], float], x: float, h: float = 1e-4) -> float:
        return (g(x + h) - g(x - h)) / (2 * h)

    assert abs(f(float(gemischt(t.ergebnis["nullstelle"])))) < 1e-9
    x_e, y_e = (float(zahl(v)) for v in t.ergebnis["extrempunkt"].strip("()").split("|"))
    assert abs(d(f, x_e)) < 1e-6 and zahl(t.ergebnis["extrempunkt"].split("|")[1]) == rund(f(x_e), 2)
    kruemmung = d(lambda x: d(f, x), x_e)
    assert t.ergebnis["art"] == ("Hochpunkt" if kruemmung < 0 else "Tiefpunkt")
    x_w, _ = (float(zahl(v)) for v in t.ergebnis["wendepunkt"].strip("()").split("|"))
    assert zahl(t.ergebnis["wendepunkt"].split("|")[1]) == rund(f(x_w), 2)
    links, rechts = (d(lambda x: d(f, x), x_w + s) for s in (-0.5, 0.5))
    assert links * rechts < 0, "kein Vorzeichenwechsel von f'' an der Wendestelle"


def chk_tangente(t: GeneratedTask) -> None:
    p, x0 = polynom(t.werte["f"]), zahl(t.werte["x0"])
    m, y0 = f_wert(ableiten(p), x0), f_wert(p, x0)
    assert zahl(t.ergebnis["steigung"]) == m and zahl(t.ergebnis["y0"]) == y0
    tang = polynom(t.ergebnis["tangente"])
    assert tang.get(1, F(0)) == m and tang.get(0, F(0)) == y0 - m * x0


def chk_extrempunkte(t: GeneratedTask) -> None:
    p = polynom(t.werte["f"])
    d1, d2 = ableiten(p), ableiten(ableiten(p))
    assert set(t.ergebnis) == {"Hochpunkt", "Tiefpunkt"}
    for art, text in t.ergebnis.items():
        x, y = punkt(text)
        assert f_wert(d1, x) == 0 and f_wert(p, x) == y and x.denominator == 1 and y.denominator == 1
        assert (f_wert(d2, x) < 0) == (art == "Hochpunkt")


def chk_wendepunkt(t: GeneratedTask) -> None:
    p = polynom(t.werte["f"])
    x, y = punkt(t.ergebnis["wendepunkt"])
    assert f_wert(ableiten(ableiten(p)), x) == 0 and f_wert(p, x) == y
    m = f_wert(ableiten(p), x)
    tang = polynom(t.ergebnis["tangente"]) if t.ergebnis["tangente"] != "0" else {}
    assert tang.get(1, F(0)) == m and tang.get(0, F(0)) == y - m * x


def chk_optimierung(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if w["art"] == "gehege":
        zaun, teile = zahl(w["zaun"]), int(w["teile"])
        x = zaun / (2 * teile)
        assert zahl(e["x"]) == x and zahl(e["flaeche"]) == x * (zaun - teile * x) and x.denominator == 1
    elif w["art"] == "schachtel":
        a, b, x = zahl(w["laenge"]), zahl(w["breite"]), zahl(e["x"])
        v = {3: F(4), 2: -2 * (a + b), 1: a * b}
        assert f_wert(ableiten(v), x) == 0 and f_wert(ableiten(ableiten(v)), x) < 0 and 0 < x < b / 2
        assert zahl(e["volumen"]) == x * (a - 2 * x) * (b - 2 * x)
    else:
        p = polynom(w["f"])
        u = F(math.isqrt(int(p[0] / (3 * -p[2]))))
        assert u * u * 3 * -p[2] == p[0]
        assert zahl(e["breite"]) == 2 * u and zahl(e["flaeche"]) == 2 * u * f_wert(p, u)


def chk_integral_berechnen(t: GeneratedTask) -> None:
    p = polynom(t.werte["f"])
    assert zahl(t.ergebnis["integral"]) == integrieren(p, zahl(t.werte["a"]), zahl(t.werte["b"]))


def chk_integral_flaeche(t: GeneratedTask) -> None:
    p = polynom(t.werte["f"])
    null = [zahl(v) for v in t.ergebnis["nullstellen"].split(", ")]
    assert all(f_wert(p, r) == 0 for r in null) and len(null) == max(p)
    assert zahl(t.ergebnis["flaeche"]) == sum(abs(integrieren(p, a, b)) for a, b in zip(null, null[1:], strict=False))


def chk_integral_zwischen(t: GeneratedTask) -> None:
    f, g = polynom(t.werte["f"]), polynom(t.werte["g"])
    x1, x2 = (zahl(v) for v in t.ergebnis["schnittstellen"].split("; "))
    assert f_wert(f, x1) == f_wert(g, x1) and f_wert(f, x2) == f_wert(g, x2)
    diff = {n: g.get(n, F(0)) - f.get(n, F(0)) for n in set(f) | set(g)}
    assert zahl(t.ergebnis["flaeche"]) == abs(integrieren(diff, x1, x2))


def chk_integral_bilanz(t: GeneratedTask) -> None:
    w, e = t.werte, t.ergebnis
    if w["art"] == "schuelerfehler":
        p, a, b = polynom(w["f"]), zahl(w["a"]), zahl(w["b"])
        r = [F(round(x)) for x in _wurzeln(p) if a < x < b]
        assert len(r) == 1 and f_wert(p, r[0]) == 0
        assert zahl(e["bilanz"]) == integrieren(p, a, b)
        assert zahl(e["flaeche"]) == abs(integrieren(p, a, r[0])) + abs(integrieren(p, r[0], b))
    else:
        p, ende = polynom(w["r"], "t"), zahl(w["ende"])
        bilanz = integrieren(p, F(0), ende)
        assert zahl(e["bilanz"]) == bilanz
        t1 = zahl(e["maximum_bei"])
        assert f_wert(p, t1) == 0 and f_wert(p, t1 - F(1, 2)) > 0 > f_wert(p, t1 + F(1, 2))
        stimmt = bilanz < 0 if w["behauptung"] == "weniger" else False
        assert e["stimmt"] == ("ja" if stimmt else "nein")


def chk_laplace(t: GeneratedTask) -> None:
    for name in ("A", "B"):
        assert zahl(t.ergebnis[f"P({name})"]) == zahl(t.werte[name])
    assert zahl(t.ergebnis["P(nicht A)"]) == 1 - zahl(t.werte["A"])


def chk_relative_haeufigkeit(t: GeneratedTask) -> None:
    h = [int(v) for v in t.werte["anzahlen"].split(", ")]
    assert all(0 <= b - a <= n2 - n1 for a, b, n1, n2 in zip(h[:-1], h[1:], (20, 50, 100, 200),
                                                                 (50, 100, 200, 500), strict=True))
    s = rund(F(h[-1], 500), 2)
    assert zahl(t.ergebnis["schaetzung"]) == s and zahl(t.ergebnis["erwartung"]) == int(t.werte["zukunft"]) * s


def chk_baumdiagramm(t: GeneratedTask) -> None:
    summe = F(0)
    for pfad in t.werte["pfade"].split("; "):
        a, b = pfad.split(": ")[1].split(" · ")
        summe += zahl(a) * zahl(b)
    assert zahl(t.ergebnis["p"]) == summe and 0 < summe < 1


def _pbin(n: int, p: F, k: int) -> F:
    return math.comb(n, k) * p ** k * (1 - p) ** (n - k)


def chk_binomial(t: GeneratedTask) -> None:
    n, p, k = int(t.werte["n"]), zahl(t.werte["p"]), int(t.werte["k"])
    assert zahl(t.ergebnis["p_k"]) == rund(_pbin(n, p, k), 4)
    gegen = 1 - (1 - p) ** n if p < F(1, 2) else 1 - p ** n
    assert zahl(t.ergebnis["p_gegen"]) == rund(gegen, 4)
    assert _pbin(n, p, k) >= F(1, 1000)  # k near the expected value, not a 0,0000 answer


def chk_mindestens(t: GeneratedTask) -> None:
    n, p, k = int(t.werte["n"]), zahl(t.werte["p"]), int(t.werte["k"])
    if t.werte["art"] == "mindestens":
        wert = sum((_pbin(n, p, i) for i in range(k, n + 1)), F(0))
    else:
        wert = sum((_pbin(n, p, i) for i in range(k + 1)), F(0))
    assert nah(zahl(t.ergebnis["p"]), wert, 0.00051)  # from rounded summands, as a pupil computes
    assert zahl(t.ergebnis["erwartungswert"]) == n * p


def chk_faires_spiel(t: GeneratedTask) -> None:
    verteilung = [(zahl(p), zahl(a)) for p, a in (x.split(" → ") for x in t.werte["verteilung"].split("; "))]
    assert sum(p for p, _ in verteilung) == 1
    aus = sum(p * a for p, a in verteilung)
    assert nah(zahl(t.ergebnis["erwartete_auszahlung"]), aus, 0.005)
    assert nah(zahl(t.ergebnis["erwarteter_gewinn"]), aus - zahl(t.werte["einsatz"]), 0.005)


CHECKS: dict[str, Callable[[GeneratedTask], None]] = {
    "mathematik.brueche.rechnen": chk_brueche_rechnen, "mathematik.brueche.vergleichen": chk_brueche_vergleichen,
    "mathematik.brueche.anteile": chk_brueche_anteile, "mathematik.brueche.fehler": chk_brueche_fehler,
    "mathematik.prozent.prozentwert": chk_prozentwert, "mathematik.prozent.grundwert": chk_grundwert,
    "mathematik.prozent.angebote": chk_angebote, "mathematik.zinsen.jahreszinsen": chk_jahreszinsen,
    "mathematik.zinsen.zinseszins": chk_zinseszins, "mathematik.zinsen.sparangebote": chk_sparangebote,
    "mathematik.linear.gleichungen": chk_gleichungen, "mathematik.linear.zwei_punkte": chk_zwei_punkte,
    "mathematik.linear.wertetabelle": chk_wertetabelle, "mathematik.linear.tarife": chk_tarife,
    "mathematik.lgs.loesen": chk_lgs_loesen, "mathematik.lgs.sachaufgabe": chk_lgs_sachaufgabe,
    "mathematik.lgs.kasse_pruefen": chk_kasse, "mathematik.quadratisch.nullstellen": chk_nullstellen,
    "mathematik.quadratisch.scheitelpunkt": chk_scheitelpunkt, "mathematik.quadratisch.bruecke": chk_bruecke,
    "mathematik.quadratisch.wurf": chk_wurf, "mathematik.quadratisch.durchfahrt": chk_durchfahrt,
    "mathematik.pythagoras.berechnen": chk_pythagoras, "mathematik.pythagoras.rechter_winkel": chk_rechter_winkel,
    "mathematik.pythagoras.passt_es": chk_passt_es, "mathematik.trigonometrie.hoehe": chk_trig_hoehe,
    "mathematik.trigonometrie.steigung": chk_trig_steigung, "mathematik.trigonometrie.regel_pruefen": chk_trig_regel,
    "mathematik.exponential.bestand": chk_exp_bestand, "mathematik.exponential.verdopplung": chk_exp_verdopplung,
    "mathematik.exponential.modellwahl": chk_exp_modellwahl, "mathematik.exponential.e_funktion": chk_e_funktion,
    "mathematik.exponential.e_kurvendiskussion": chk_e_kurvendiskussion,
    "mathematik.differential.tangente": chk_tangente, "mathematik.differential.extrempunkte": chk_extrempunkte,
    "mathematik.differential.wendepunkt": chk_wendepunkt, "mathematik.differential.optimierung": chk_optimierung,
    "mathematik.integral.berechnen": chk_integral_berechnen, "mathematik.integral.flaeche": chk_integral_flaeche,
    "mathematik.integral.zwischen_graphen": chk_integral_zwischen, "mathematik.integral.bilanz": chk_integral_bilanz,
    "mathematik.stochastik.laplace": chk_laplace, "mathematik.stochastik.relative_haeufigkeit":
        chk_relative_haeufigkeit, "mathematik.stochastik.baumdiagramm": chk_baumdiagramm,
    "mathematik.stochastik.binomial": chk_binomial, "mathematik.stochastik.mindestens": chk_mindestens,
    "mathematik.stochastik.faires_spiel": chk_faires_spiel,
}


# --- the properties --------------------------------------------------------------------------------------------


def alle_texte(t: GeneratedTask) -> list[str]:
    texte = [t.text, *(s.text for s in t.erwartung), *t.werte.values(), *t.ergebnis.values()]
    if t.material is not None and t.material.tabelle is not None:
        texte += [*t.material.tabelle.spalten, *(z for zeile in t.material.tabelle.zeilen for z in zeile)]
    return texte


ROH = re.compile(r"\d\.\d|\d[eE][+-]?\d|(?<![\w−])-\d|\bNone\b|\bnan\b|\binf\b|Fraction|\{[a-z_]+\}")


def test_every_generator_has_an_independent_check_and_a_unique_key():
    assert set(CHECKS) == set(BY_KEY)
    assert len(GENERATORS) == len(BY_KEY) >= 40


@pytest.mark.parametrize("gen", GENERATORS, ids=lambda g: g.key)
def test_declaration_fits_curriculum_and_operator_list(gen: Generator):
    assert gen.fach == "mathematik" and gen.key.startswith("mathematik.") and gen.key.count(".") == 2
    assert OPERATOREN.get(gen.operator) == gen.afb, f"{gen.operator} ist nicht AFB {gen.afb}"
    lo, hi = gen.klassenstufen
    assert 5 <= lo <= hi <= 13
    assert gen.niveaus == ("Sek I",) if hi <= 10 else (lo >= 11 and set(gen.niveaus) <= {"gA", "eA"})
    assert gen.thema and gen.unterthema and len(gen.schlagworte) >= 4


@pytest.mark.parametrize("gen", GENERATORS, ids=lambda g: g.key)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_task_is_exact_and_well_formed(gen: Generator, data: st.DataObject):
    seed = data.draw(st.integers(min_value=0, max_value=10 ** 6), label="seed")
    klasse = data.draw(st.integers(*gen.klassenstufen), label="klasse")
    t = gen.generate(seed, klasse)
    CHECKS[gen.key](t)  # the result, recomputed independently from the task's parameters
    bericht = check_calculations([s.text for s in t.erwartung])
    assert bericht.issues == [], [i.message for i in bericht.issues]
    assert (t.generator, t.seed, t.klassenstufe, t.operator, t.afb) == (gen.key, seed, klasse, gen.operator, gen.afb)
    assert all(s.punkte >= 1 for s in t.erwartung) and t.punkte == sum(s.punkte for s in t.erwartung)
    assert 2 <= t.punkte <= 12 and 3 <= t.minuten <= 25 and t.minuten >= t.punkte // 2
    assert len(t.text) > 60 and t.text.split()[0][0].isupper()
    for text in alle_texte(t):
        assert not ROH.search(text), f"unformatiert: {text!r}"
    if t.afb == "III":  # judgement needs a criterion of its own, not only calculation steps
        assert any(s.text.startswith(("Urteil", "Begründete Empfehlung", "Antwortsatz", "Modellkritik",
                                      "Grenzen des Modells", "Praxis")) for s in t.erwartung) or gen.operator == \
            "Entwickeln"


@pytest.mark.parametrize("gen", GENERATORS, ids=lambda g: g.key)
def test_same_seed_same_task_and_seeds_vary(gen: Generator):
    for klasse in range(gen.klassenstufen[0], gen.klassenstufen[1] + 1):
        assert gen.generate(7, klasse) == gen.generate(7, klasse)
        aufgaben = {(t.text, t.material.model_dump_json() if t.material else "")
                    for t in (gen.generate(seed, klasse) for seed in range(20))}
        assert len(aufgaben) >= MIN_DISTINCT.get(gen.key, 15), (klasse, len(aufgaben))


def test_a_wrong_result_in_an_erwartungshorizont_would_be_caught():
    """The verifier really reads the generated steps: a falsified result is flagged."""
    t = BY_KEY["mathematik.prozent.prozentwert"].generate(1, 7)
    falsch = [s.text.replace(t.ergebnis[next(iter(t.ergebnis))], "999 €") for s in t.erwartung]
    assert check_calculations(falsch).issues
