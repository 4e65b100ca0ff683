"""Property tests of the Chemie task generators: every seed and grade gives a task whose key is arithmetically right
(recomputed here from the chosen values with its own table of atomic masses), passes the calculation checker, and
reads like a finished task.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.composition.generators import chemie
from core.composition.generators.base import GeneratedTask
from tests.core.composition.test_generators_physik import (
    e,
    fingerabdruck,
    gerundet,
    operatoren,
    pruefe_aufgabe,
    w,
    zahl,
)

# --- an independent molar-mass calculator ----------------------------------------------------------------------------

_MASSEN = {"H": 1.0, "C": 12.0, "N": 14.0, "O": 16.0, "Na": 23.0, "Mg": 24.3, "Al": 27.0, "S": 32.1, "Cl": 35.5,
           "K": 39.1, "Ca": 40.1, "Fe": 55.8, "Cu": 63.5, "Zn": 65.4}
_TIEF = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def molmasse(formel: str) -> float:
    """M of a formula like 'Ca(OH)₂', expanding brackets textually."""
    text = formel.translate(_TIEF)
    while "(" in text:
        text = re.sub(r"\(([A-Za-z0-9]+)\)(\d*)", lambda m: m.group(1) * int(m.group(2) or 1), text)
    return sum(_MASSEN[el] * int(n or 1) for el, n in re.findall(r"([A-Z][a-z]?)(\d*)", text))


def _verhaeltnis(t: GeneratedTask) -> float:
    p, q = t.werte["verhaeltnis"].split(":")
    return int(p) / int(q)


# --- recomputing each key --------------------------------------------------------------------------------------------


def _molare_masse(t: GeneratedTask) -> None:
    for formel in t.werte["formeln"].split():
        gerundet(molmasse(formel), e(t, formel))


def _stoffmenge(t: GeneratedTask) -> None:
    n = w(t, "m") / molmasse(t.werte["formel"])
    gerundet(n, e(t, "n"))
    gerundet(zahl(e(t, "n")) * 6.022e23, e(t, "N"))


def _teilchenvergleich(t: GeneratedTask) -> None:
    na, nb = (w(t, "m") / molmasse(t.werte[k]) for k in ("A", "B"))
    gerundet(na, e(t, "nA"))
    gerundet(nb, e(t, "nB"))
    wahr = {"gleich": math.isclose(na, nb), "mehr_a": na > nb, "mehr_b": nb > na}[t.werte["behauptung"]]
    assert e(t, "urteil") == ("richtig" if wahr else "falsch")


def _konzentration(t: GeneratedTask) -> None:
    n = w(t, "m") / w(t, "M")
    gerundet(n, e(t, "n"))
    gerundet(n / (w(t, "V") / 1000), e(t, "c"))


def _verduennung(t: GeneratedTask) -> None:
    assert w(t, "c2") < w(t, "c1")
    gerundet(w(t, "c2") * w(t, "V2") / w(t, "c1"), e(t, "V1"))


def _massenanteil(t: GeneratedTask) -> None:
    gerundet(w(t, "m_stoff") / (w(t, "m_stoff") + w(t, "m_wasser")) * 100, e(t, "w"))
    m_b = w(t, "w2") / 100 * w(t, "m_ges")
    gerundet(m_b, e(t, "m_b"))
    gerundet(w(t, "m_ges") - m_b, e(t, "m_wasser_b"))


def _zucker(t: GeneratedTask) -> None:
    m = w(t, "beta") * w(t, "V") / 100
    gerundet(m, e(t, "m"))
    gerundet(m / 3, e(t, "wuerfel"), 0.05)
    gerundet(m / 50 * 100, e(t, "anteil"), 0.2)


def _vorrat(t: GeneratedTask) -> None:
    v1 = w(t, "c2") * w(t, "gruppen") * w(t, "V_gruppe") / w(t, "c1")
    gerundet(v1, e(t, "V1"))
    assert e(t, "urteil") == ("reicht" if v1 <= w(t, "vorrat") else "reicht nicht")


def _ph_stark(t: GeneratedTask) -> None:
    p = -math.log10(w(t, "c"))
    gerundet(p if t.werte["art"] == "Säure" else 14 - p, e(t, "pH"))


def _ph_verduennung(t: GeneratedTask) -> None:
    if "V_end" in t.werte:
        gerundet(w(t, "pH1") + math.log10(w(t, "V_end") / w(t, "V0")), e(t, "pH"))
    else:
        gerundet(w(t, "V0") * (10 ** w(t, "dpH") - 1), e(t, "V_wasser"))


def _ph_schwach(t: GeneratedTask) -> None:
    ks = 10 ** -w(t, "pKs")
    gerundet(-math.log10(math.sqrt(ks * w(t, "c0"))), e(t, "pH"))
    gerundet(-math.log10(w(t, "c0")), e(t, "pH_stark"))


def _ph_behauptung(t: GeneratedTask) -> None:
    erwartet = {"doppelt": "falsch", "zehnfach": "richtig", "lauge": "falsch", "faktor": "falsch"}
    assert e(t, "urteil") == erwartet[t.werte["art"]]


def _stark_schwach(t: GeneratedTask) -> None:
    c0, pks = w(t, "c0"), w(t, "pKs")
    gerundet(-math.log10(c0), e(t, "pH_stark"))
    gerundet((pks - math.log10(c0)) / 2, e(t, "pH_schwach"))
    assert e(t, "urteil") == ("richtig" if t.werte["art"] == "richtig" else "falsch")


def _produktmasse(t: GeneratedTask) -> None:
    n = w(t, "m") / molmasse(t.werte["edukt"]) * _verhaeltnis(t)
    gerundet(n * molmasse(t.werte["produkt"]), e(t, "m_p"))


def _gasvolumen(t: GeneratedTask) -> None:
    gerundet(w(t, "m") / molmasse(t.werte["edukt"]) * _verhaeltnis(t) * w(t, "Vm"), e(t, "V"))


def _ausbeute(t: GeneratedTask) -> None:
    m_theo = w(t, "m") / molmasse(t.werte["edukt"]) * _verhaeltnis(t) * molmasse(t.werte["produkt"])
    gerundet(m_theo, e(t, "m_theo"))
    gerundet(w(t, "m_ist") / m_theo * 100, e(t, "ausbeute"))
    assert 50 < w(t, "m_ist") / m_theo * 100 < 100


_SULFIDE = {("Fe", "S"): (1, 1, "FeS"), ("Zn", "S"): (1, 1, "ZnS"), ("Cu", "S"): (2, 1, "Cu₂S")}


def _ueberschuss(t: GeneratedTask) -> None:
    a, b = t.werte["A"], t.werte["B"]
    ka, kb, produkt = _SULFIDE[(a, b)]
    na, nb = w(t, "m_a") / molmasse(a), w(t, "m_b") / molmasse(b)
    umsatz = min(na / ka, nb / kb)
    ueber, n_rest = (a, na - umsatz * ka) if na / ka > nb / kb else (b, nb - umsatz * kb)
    gerundet(umsatz * molmasse(produkt), e(t, "m_p"))
    gerundet(n_rest * molmasse(ueber), e(t, "m_rest"))
    assert e(t, "ueberschuss") == ueber
    assert e(t, "urteil") == ("richtig" if t.werte["art"] == "richtig" else "falsch")


# reaction by its set of formulas: (exponents of the products, exponents of the reactants)
_MWG = {
    frozenset({"H₂", "I₂", "HI"}): ({"HI": 2}, {"H₂": 1, "I₂": 1}),
    frozenset({"N₂O₄", "NO₂"}): ({"NO₂": 2}, {"N₂O₄": 1}),
    frozenset({"CO", "H₂O", "CO₂", "H₂"}): ({"CO₂": 1, "H₂": 1}, {"CO": 1, "H₂O": 1}),
    frozenset({"N₂", "H₂", "NH₃"}): ({"NH₃": 2}, {"N₂": 1, "H₂": 3}),
    frozenset({"SO₂", "O₂", "SO₃"}): ({"SO₃": 2}, {"SO₂": 2, "O₂": 1}),
    frozenset({"CO", "H₂", "CH₃OH"}): ({"CH₃OH": 1}, {"CO": 1, "H₂": 2}),
}


def _q(c: dict[str, float]) -> float:
    oben, unten = _MWG[frozenset(c)]
    return math.prod(c[f] ** k for f, k in oben.items()) / math.prod(c[f] ** k for f, k in unten.items())


def _konzentrationen_der_werte(t: GeneratedTask) -> dict[str, float]:
    return {f: zahl(v) for f, v in t.werte.items() if v.endswith("mol/L") and f != "K"}


def _k_berechnen(t: GeneratedTask) -> None:
    gerundet(_q(_konzentrationen_der_werte(t)), e(t, "K"))


def _gg_konzentrationen(t: GeneratedTask) -> None:
    a, k = w(t, "a"), w(t, "K")
    faktor = 2 if t.werte["art"] == "hi" else 1
    x = math.sqrt(k) * a / (faktor + math.sqrt(k))
    assert math.isclose((faktor * x) ** 2 / (a - x) ** 2, k)
    gerundet(x, e(t, "x"))
    gerundet(a - x, e(t, "edukt"))
    gerundet(faktor * x, e(t, "produkt"))


def _reaktionsquotient(t: GeneratedTask) -> None:
    q, k = _q(_konzentrationen_der_werte(t)), w(t, "K")
    gerundet(q, e(t, "Q"))
    assert e(t, "richtung") == ("rechts" if q < k else "links")
    wahr = {"gg": False, "rechts": q < k, "links": q > k}[t.werte["behauptung"]]
    assert e(t, "urteil") == ("richtig" if wahr else "falsch")


# reaction -> (sign of ΔH, change of the number of gas particles)
_LE_CHATELIER = {"Iodwasserstoff-Gleichgewicht": (-1, 0), "Stickstoffdioxid-Gleichgewicht": (1, 1),
                 "Wassergas-Shift-Reaktion": (-1, 0), "Ammoniaksynthese": (-1, -2), "Kontaktverfahren": (-1, -1),
                 "Methanolsynthese": (-1, -2)}


def _wirkung(reaktion: str, massnahme: str) -> int:
    dh, dn = _LE_CHATELIER[reaktion]
    if massnahme.startswith("Temperatur"):
        return dh * (1 if massnahme.endswith("erhöhen") else -1)
    if massnahme.startswith("Druck"):
        return -int(math.copysign(1, dn)) * (1 if massnahme.endswith("erhöhen") else -1) if dn else 0
    return 0 if massnahme.startswith("Katalysator") else 1


def _le_chatelier(t: GeneratedTask) -> None:
    w1, w2 = (_wirkung(t.werte["reaktion"], t.werte[k]) for k in ("m1", "m2"))
    assert (int(e(t, "w1")), int(e(t, "w2"))) == (w1, w2)
    assert e(t, "urteil") == ("sinnvoll" if w1 > 0 and w2 > 0 else "nicht sinnvoll")


NACHRECHNEN: dict[str, Callable[[GeneratedTask], None]] = {
    "chemie.stoffmenge.molare_masse": _molare_masse,
    "chemie.stoffmenge.stoffmenge": _stoffmenge,
    "chemie.stoffmenge.teilchenvergleich": _teilchenvergleich,
    "chemie.konzentration.stoffmengenkonzentration": _konzentration,
    "chemie.konzentration.verduennung": _verduennung,
    "chemie.konzentration.massenanteil": _massenanteil,
    "chemie.konzentration.zuckergehalt": _zucker,
    "chemie.konzentration.vorrat": _vorrat,
    "chemie.ph.stark": _ph_stark,
    "chemie.ph.verduennung": _ph_verduennung,
    "chemie.ph.schwache_saeure": _ph_schwach,
    "chemie.ph.behauptung": _ph_behauptung,
    "chemie.ph.stark_schwach": _stark_schwach,
    "chemie.stoechiometrie.produktmasse": _produktmasse,
    "chemie.stoechiometrie.gasvolumen": _gasvolumen,
    "chemie.stoechiometrie.ausbeute": _ausbeute,
    "chemie.stoechiometrie.ueberschuss": _ueberschuss,
    "chemie.gleichgewicht.k_berechnen": _k_berechnen,
    "chemie.gleichgewicht.konzentrationen": _gg_konzentrationen,
    "chemie.gleichgewicht.reaktionsquotient": _reaktionsquotient,
    "chemie.gleichgewicht.le_chatelier": _le_chatelier,
}
GENERATOREN = {g.key: g for g in chemie.GENERATORS}
OPERATOREN = operatoren("chemie")


def test_every_generator_has_an_independent_recomputation() -> None:
    assert set(NACHRECHNEN) == set(GENERATOREN)
    assert len(chemie.GENERATORS) == len(GENERATOREN), "doppelte Schlüssel"


def test_molar_masses_agree_with_the_independent_table() -> None:
    from core.composition.generators.chemie.elemente import molare_masse
    from core.composition.generators.chemie.stoffmenge import STOFFE

    for formel, _, _ in STOFFE:
        assert math.isclose(float(molare_masse(formel)), molmasse(formel)), formel


@pytest.mark.parametrize("key", sorted(GENERATOREN))
def test_generator_metadata_fits_curriculum(key: str) -> None:
    gen = GENERATOREN[key]
    fach, familie, variante = gen.key.split(".")
    assert fach == gen.fach == "chemie" and familie and variante
    assert OPERATOREN.get(gen.operator) == gen.afb
    lo, hi = gen.klassenstufen
    assert 5 <= lo <= hi <= 13
    assert ("Sek I" in gen.niveaus) == (lo <= 10)
    assert bool({"gA", "eA"} & set(gen.niveaus)) == (hi >= 11)
    assert gen.thema and gen.unterthema and gen.schlagworte


@pytest.mark.parametrize("key", sorted(GENERATOREN))
@settings(max_examples=50, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), data=st.data())
def test_generated_task_is_right_and_finished(key: str, seed: int, data: st.DataObject) -> None:
    gen = GENERATOREN[key]
    klasse = data.draw(st.integers(*gen.klassenstufen), label="klassenstufe")
    task = gen.generate(seed, klasse)
    assert task == gen.generate(seed, klasse), "gleicher Seed, gleiche Aufgabe"
    assert task.seed == seed and task.klassenstufe == klasse
    pruefe_aufgabe(gen, task, OPERATOREN, NACHRECHNEN[key])


@pytest.mark.parametrize("key", sorted(GENERATOREN))
def test_seeds_give_different_tasks(key: str) -> None:
    gen = GENERATOREN[key]
    aufgaben = {fingerabdruck(gen.generate(seed, gen.klassenstufen[0])) for seed in range(20)}
    assert len(aufgaben) >= 10, f"nur {len(aufgaben)} verschiedene Aufgaben aus 20 Seeds"
