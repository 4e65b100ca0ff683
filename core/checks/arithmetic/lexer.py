"""The arithmetic check's tokenizer: German numbers (1 234,5), superscripts, units, operators and relations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SUP_DIGITS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
               "⁻": "-", "⁺": "+"}
_SUP_LETTERS = "ⁿᵗˣʸᵏᵃᵇᶜᵈᵉᶠᵍʰⁱʲˡᵐᵒᵖʳˢᵘᵛʷᶻ"
VULGAR = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅕": 0.2, "⅛": 0.125}
_LETTER = r"A-Za-zÀ-ÖØ-öø-ÿΑ-Ωα-ορ-ωµ"  # Greek without π (π is the constant)
_SPACE = " \u00a0\u202f\u2009"
_TOKEN = re.compile(
    rf"(?P<sp>[{_SPACE}\t\r\n]+)"
    rf"|(?P<dotnum>\d+\.\d)"  # '1.5' or '1.000': ambiguous in German texts, never guessed
    rf"|(?P<frac>\d+(?:,\d+)?/\d+(?:,\d+)?(?![\d,]*\d))"
    rf"|(?P<num>\d{{1,3}}(?:[{_SPACE[1:]} ]\d{{3}})+(?![\d])(?:,\d+)?|\d+(?:,\d+)?)"
    rf"|(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)"
    rf"|(?P<supvar>[{_SUP_LETTERS}]+)"
    rf"|(?P<vulgar>[{''.join(VULGAR)}])"
    rf"|(?P<degc>°C(?![{_LETTER}]))"
    rf"|(?P<symunit>[%‰°€])"
    r"|(?P<pi>π)"
    r"|(?P<sqrt>√)"
    rf"|(?P<word>[{_LETTER}][{_LETTER}₀-₉\d'′_\u20d7]*)"
    r"|(?P<rel>[=≈])"
    r"|(?P<stop>[<>≤≥≠⇒→⇔⇌≙]|=>|->)"
    r"|(?P<op>[+\-−–·*×⋅/:^])"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<punct>[;,.!?\"“”„»«])"
    r"|(?P<other>.)",
    re.S,
)
_OPS = {"-": "−", "–": "−", "*": "·", "×": "·", "⋅": "·"}
FUNCS = {"sin", "cos", "tan", "log", "lg", "ln"}


@dataclass
class Tok:
    kind: str
    text: str
    start: int
    end: int
    space_before: bool


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    space = True
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind == "sp":
            space = True
            continue
        value = m.group()
        if kind == "op":
            value = _OPS.get(value, value)
        toks.append(Tok(kind, value, m.start(), m.end(), space))
        space = False
    return toks


def parse_number(text: str) -> tuple[float, int]:
    """'1 234,50' -> (1234.5, 2): the value and the stated decimals."""
    digits = re.sub(rf"[{_SPACE}]", "", text)
    whole, _, frac = digits.partition(",")
    return float(f"{whole}.{frac}" if frac else whole), len(frac)


def superscript_int(text: str) -> int | None:
    raw = "".join(_SUP_DIGITS[c] for c in text)
    try:
        return int(raw)
    except ValueError:
        return None
