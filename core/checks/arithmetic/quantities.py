"""Quantities of a text (number and unit as written), for matching pupils' answers against the key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.checks.arithmetic.lexer import Tok, tokenize
from core.checks.arithmetic.parser import Parser
from core.checks.arithmetic.values import Unparsable, Value


@dataclass(frozen=True)
class Quantity:
    """A number with its unit as written in a text: '0,25 A', '4,97 · 10⁻¹⁹ J', '40 %', '12'."""

    value: Value
    start: int
    end: int

    @property
    def united(self) -> bool:
        return self.value.united


def _is_ten_power(toks: Sequence[Tok], i: int) -> bool:
    return (i + 2 < len(toks) and toks[i].kind == "op" and toks[i].text == "·" and toks[i + 1].kind == "num"
            and toks[i + 1].text == "10" and toks[i + 2].kind == "sup" and not toks[i + 2].space_before)


def quantities(text: str) -> list[Quantity]:
    """Every number of a text with its unit, in order; numbers glued to symbols ('3x', 'R1') are skipped."""
    toks = tokenize(text)
    found: list[Quantity] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind not in ("num", "frac", "vulgar") or (i > 0 and toks[i - 1].kind == "word" and not t.space_before):
            i += 1
            continue
        p = Parser(toks[i:])
        try:
            value = p.operand()
            if _is_ten_power(p.toks, p.i):
                p.i += 1
                value = value.mul(p.operand(), 1)
        except Unparsable:
            i += 1
            continue
        start = t.start
        minus = toks[i - 1] if i > 0 and toks[i - 1].kind == "op" and toks[i - 1].text == "−" else None
        if minus is not None and not t.space_before and (
                i == 1 or minus.space_before or toks[i - 2].kind in ("op", "lp", "rel", "punct", "stop")):
            value, start = value.neg(), toks[i - 1].start
        found.append(Quantity(value, start, toks[i + p.i - 1].end))
        i += p.i
    return found
