"""The two sides of a relation: the expression a text segment starts with (right) or ends with (left).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.checks.arithmetic.lexer import FUNCS, Tok
from core.checks.arithmetic.parser import Parser
from core.checks.arithmetic.units import UNITS
from core.checks.arithmetic.values import Unparsable, Value


def parse_all(toks: Sequence[Tok]) -> Value:
    p = Parser(toks)
    value = p.expr()
    if p.i != len(toks):
        raise Unparsable("trailing tokens")
    return value


def expression_prefix(toks: Sequence[Tok]) -> tuple[Value, int] | None:
    """The expression a segment starts with (the right side of '='), if it ends cleanly."""
    if not toks:
        return None
    p = Parser(toks)
    try:
        value = p.expr()
    except Unparsable:
        return None
    if p.i == 0:
        return None
    nxt = p.peek()
    if nxt is None or _clean_end(toks, p.i):
        return value, p.i
    return None


def _clean_end(toks: Sequence[Tok], i: int) -> bool:
    t = toks[i]
    if t.kind in ("punct", "stop", "rp"):
        return True
    if t.kind == "op" and t.text == ":":
        return i + 1 == len(toks) or toks[i + 1].space_before
    if t.kind == "word":
        return t.space_before
    if t.kind == "lp" and t.space_before:
        # a remark in parentheses: '8,0 V (Kontrolle: …)', '2,5 · 10⁴ V/m (= N/C)', '≈ 503 kJ (502,8 kJ)'
        if i + 1 == len(toks):
            return True  # the segment ends here: '(' is followed by '='
        nxt = toks[i + 1]
        if nxt.kind == "stop" or (nxt.kind == "word" and len(nxt.text) > 1 and nxt.text not in FUNCS
                                  and nxt.text not in UNITS):
            return True
        close = next((j for j in range(i + 1, len(toks)) if toks[j].kind == "rp"), None)
        if close is not None:
            try:
                inner = parse_all(toks[i + 1: close])
            except Unparsable:
                return False
            return inner.ops == 0 and inner.united  # an exact value given alongside the rounded one
    return False


def expression_suffix(toks: Sequence[Tok]) -> tuple[Value, int] | None:
    """The longest expression a segment ends with (the left side of '='), starting at a clean boundary."""
    for start in range(len(toks)):
        if start == 0:
            ok = True
        else:
            before = toks[start - 1]
            cur = toks[start]
            ok = (before.kind in ("punct", "stop") or (before.kind == "op" and before.text == ":" and cur.space_before)
                  or (before.kind == "lp" and not (start >= 2 and toks[start - 2].kind == "word"
                                                   and not before.space_before))
                  or (before.kind in ("word", "rp") and cur.space_before))
            if before.kind == "word" and before.text in ("von", "x", "mal"):
                ok = False  # '25 % von 80 €': the left part belongs to the expression
        if not ok:
            continue
        try:
            value = parse_all(toks[start:])
        except Unparsable:
            continue
        if value.ops == 0 and start > 0 and toks[start - 1].kind in ("word", "rp"):
            return None  # 'Bremsweg bei 50 km/h ≈ 12,1 m': a condition, not the left side of a calculation
        return value, start
    return None
