"""Relations in a text ('<left> = <right>'), and steps left open for the next criterion to finish.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.checks.arithmetic.lexer import Tok, tokenize
from core.checks.arithmetic.sides import expression_prefix, expression_suffix
from core.checks.arithmetic.values import Value


@dataclass(frozen=True)
class Side:
    value: Value
    start: int  # character offsets in the text
    end: int


@dataclass(frozen=True)
class Relation:
    """'<left> = <right>' where both sides are numeric expressions."""

    left: Side
    right: Side
    symbol: str  # '=' or '≈'


@dataclass(frozen=True)
class OpenStep:
    """'R = 6,0 V / 0,25 A.' — a calculation whose result a later criterion states ('Ergebnis R = 24 Ω')."""

    name: str
    side: Side


@dataclass
class Analysis:
    relations: list[Relation] = field(default_factory=list)
    open_step: OpenStep | None = None
    first_named: tuple[str, Side] | None = None  # 'R = 24 Ω' at the start of a text: (name, right side)


_NAME = re.compile(r"(?:^|[\s:;,(])([A-Za-zΑ-Ωα-ωΔµ][A-Za-z₀-₉_'′]*(?:\([^()=]{1,20}\))?)\s*$")


def _name_before(text: str, pos: int) -> str | None:
    m = _NAME.search(text[:pos])
    return m.group(1) if m else None


def analyse(text: str) -> Analysis:
    toks = tokenize(text)
    rels = [i for i, t in enumerate(toks) if t.kind == "rel"]
    out = Analysis()
    if not rels:
        return out
    bounds = [-1, *rels, len(toks)]
    segments = [toks[bounds[k] + 1: bounds[k + 1]] for k in range(len(bounds) - 1)]
    for k, rel_index in enumerate(rels):
        left_toks, right_toks = segments[k], segments[k + 1]
        right = expression_prefix(right_toks)
        if right is None:
            continue
        r_value, r_len = right
        r_side = Side(r_value, right_toks[0].start, right_toks[r_len - 1].end)
        left = expression_suffix(left_toks)
        if left is None:
            name = _name_before(text, toks[rels[_chain_start(segments, k)]].start)
            if name and k == 0 and out.first_named is None:
                out.first_named = (name, r_side)
            is_last_rel = k == len(rels) - 1
            if name and is_last_rel and r_value.ops > 0 and r_len == len(right_toks) - _trailing_punct(right_toks):
                out.open_step = OpenStep(name, r_side)
            continue
        l_value, l_start = left
        l_side = Side(l_value, left_toks[l_start].start, left_toks[-1].end)
        out.relations.append(Relation(l_side, r_side, toks[rel_index].text))
    return out


def _chain_start(segments: Sequence[Sequence[Tok]], k: int) -> int:
    """Index of the relation that starts the chain relation k belongs to ('c(HCl) = n / V = …' -> the first)."""
    while k > 0 and not any(t.kind in ("punct", "stop") or (t.kind == "op" and t.text == ":") for t in segments[k]):
        k -= 1
    return k


def _trailing_punct(toks: Sequence[Tok]) -> int:
    n = 0
    for t in reversed(toks):
        if t.kind != "punct":
            break
        n += 1
    return n
