"""Shared Chemie data for the generators: rounded atomic masses, formulas of common substances, molar masses
written out step by step, and numbers in scientific notation ('3,01 · 10²³').
"""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

from core.composition.generators.physik.common import runden, tabelle, z
from core.materials.blocks import MaterialBlock

# atomic masses in g/mol as in school tables (one decimal)
ATOMMASSEN: dict[str, F] = {
    "H": F("1.0"), "C": F("12.0"), "N": F("14.0"), "O": F("16.0"), "Na": F("23.0"), "Mg": F("24.3"),
    "Al": F("27.0"), "Si": F("28.1"), "P": F("31.0"), "S": F("32.1"), "Cl": F("35.5"), "K": F("39.1"),
    "Ca": F("40.1"), "Fe": F("55.8"), "Cu": F("63.5"), "Zn": F("65.4"),
}
ELEMENTNAMEN: dict[str, str] = {
    "H": "Wasserstoff", "C": "Kohlenstoff", "N": "Stickstoff", "O": "Sauerstoff", "Na": "Natrium",
    "Mg": "Magnesium", "Al": "Aluminium", "Si": "Silicium", "P": "Phosphor", "S": "Schwefel", "Cl": "Chlor",
    "K": "Kalium", "Ca": "Calcium", "Fe": "Eisen", "Cu": "Kupfer", "Zn": "Zink",
}
AVOGADRO = F("6.022e23")

_TIEF = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_HOCH = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_TOKEN = re.compile(r"([A-Z][a-z]?|\(|\)|\d+)")


def zusammensetzung(formel: str) -> dict[str, int]:
    """'Ca(OH)₂' -> {'Ca': 1, 'O': 2, 'H': 2}; element order as they first appear."""
    tokens = _TOKEN.findall(formel.translate(_TIEF))
    stapel: list[dict[str, int]] = [{}]
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok == "(":
            stapel.append({})
            continue
        anzahl = 1
        if i < len(tokens) and tokens[i].isdigit():
            anzahl = int(tokens[i])
            i += 1
        teil = stapel.pop() if tok == ")" else {tok: 1}
        for el, n in teil.items():
            stapel[-1][el] = stapel[-1].get(el, 0) + n * anzahl
    return stapel[0]


def molare_masse(formel: str) -> F:
    return sum((ATOMMASSEN[el] * n for el, n in zusammensetzung(formel).items()), F(0))


def molare_masse_rechnung(formel: str) -> str:
    """'M(H₂SO₄) = 2 · 1,0 g/mol + 32,1 g/mol + 4 · 16,0 g/mol = 98,1 g/mol'."""
    teile = [(f"{n} · " if n > 1 else "") + f"{z(ATOMMASSEN[el], 1)} g/mol"
             for el, n in zusammensetzung(formel).items()]
    if len(teile) == 1 and " · " not in teile[0]:
        return f"M({formel}) = {teile[0]} (aus dem Material)"
    return f"M({formel}) = {' + '.join(teile)} = {z(molare_masse(formel), 1)} g/mol"


def atommassen_tabelle(formeln: list[str], titel: str = "M1 Atommassen (gerundet)") -> MaterialBlock:
    """A table of the atomic masses the formulas need, in a stable order."""
    elemente = [el for el in ATOMMASSEN if any(el in zusammensetzung(f) for f in formeln)]
    return tabelle(titel, ["Element", "Symbol", "Atommasse in u bzw. molare Masse in g/mol"],
                   [[ELEMENTNAMEN[el], el, z(ATOMMASSEN[el], 1)] for el in elemente])


def wissenschaftlich(x: F | float, stellen: int = 2) -> str:
    """3.011e23 -> '3,01 · 10²³' with `stellen` decimals in the mantissa."""
    exp = math.floor(math.log10(abs(float(x))))
    mant = runden(F(x) / F(10) ** exp, stellen)
    if abs(mant) >= 10:
        exp += 1
        mant = runden(F(x) / F(10) ** exp, stellen)
    return f"{z(mant, stellen)} · 10{str(exp).translate(_HOCH)}"
