"""AFB distributions in teacher text ("30/40/30", "AFB I 20 %, AFB II 50 %") and in answers to the AFB Rückfrage;
a distribution that does not sum to 100 % becomes a German problem message."""

from __future__ import annotations

import re
from typing import Literal

from core.language.fold import prepare
from core.language.text import fold

AfbLevel = Literal["I", "II", "III"]

_AFB_CONTEXT = re.compile(r"(?<![a-z])(?:afb|anforderungsbereich|verteilung|gewichtung|aufteilung)")
_AFB_TRIPLE = re.compile(
    r"(?<![\d.,/:|-])(\d{1,3})\s?%?\s?([/:|-])\s?(\d{1,3})\s?%?\s?\2\s?(\d{1,3})(?![\d])(?![.,]\d)"
    r"(?!\s?%?\s?[/:|-]\s?\d)(?:\s?%)?"
)
_AFB_LOOSE_SEP = r"\s?%?(?:\s?[,;/|:-]\s?|\sund\s|\s)"
_AFB_LOOSE = re.compile(
    rf"(?<![\d.,])(\d{{1,3}}){_AFB_LOOSE_SEP}(\d{{1,3}}){_AFB_LOOSE_SEP}(\d{{1,3}})(?![\d])(?![.,]\d)(?:\s?%)?"
)
_AFB_LEVEL = re.compile(r"(?<![a-z0-9])(?:(afb|anforderungsbereich(?:e|s)?)\s?-?\s?)?(iii|ii|i|[123])(?![a-z0-9])")
_AFB_VALUE_AFTER = re.compile(r"\s?(?:[:=]|mit|zu|->)?\s?(?:ca\.?\s)?(\d{1,3})(?!\d)(?![.,]\d)\s?(%|prozent)?")
_AFB_VALUE_BEFORE = re.compile(r"(\d{1,3})\s?(?:%|prozent)\s?(?:(?:fuer|im|in|auf|als)\s)?(?:den\s)?$")
AFB_LEVELS: dict[str, AfbLevel] = {"i": "I", "ii": "II", "iii": "III", "1": "I", "2": "II", "3": "III"}


def _afb_problem(values: tuple[int, int, int]) -> str:
    shown = "/".join(str(v) for v in values)
    return (f"Die AFB-Verteilung {shown} ergibt zusammen {sum(values)} % — die drei Anteile müssen zusammen "
            f"100 % ergeben (z. B. 30/40/30).")


def parse_afb(fold: str, *, context: bool) -> tuple[tuple[int, int, int] | None, str | None, list[tuple[int, int]]]:
    """The AFB shares in a text: (distribution, problem, consumed spans)."""
    context = context or bool(_AFB_CONTEXT.search(fold))
    spans: list[tuple[int, int]] = []
    levels: dict[str, int] = {}
    for m in _AFB_LEVEL.finditer(fold):
        prefix, level = m.group(1), m.group(2)
        if prefix is None and (level.isdigit() or not context):
            continue
        after = _AFB_VALUE_AFTER.match(fold, m.end())
        if after and (after.group(2) or context):
            levels.setdefault(AFB_LEVELS[level], int(after.group(1)))
            spans.append((m.start(), after.end()))
            continue
        if prefix is not None:
            window = max(0, m.start() - 24)
            before = _AFB_VALUE_BEFORE.search(fold[window:m.start()])
            if before:
                levels.setdefault(AFB_LEVELS[level], int(before.group(1)))
                spans.append((window + before.start(), m.end()))
    named: tuple[int, int, int] | None = None
    if len(levels) == 3:
        named = (levels["I"], levels["II"], levels["III"])
    elif len(levels) == 2 and sum(levels.values()) <= 100:
        missing = 100 - sum(levels.values())
        named = (levels.get("I", missing), levels.get("II", missing), levels.get("III", missing))
    if named is not None:
        if sum(named) == 100:
            return named, None, spans
        return None, _afb_problem(named), spans
    for rx in (_AFB_TRIPLE, _AFB_LOOSE) if context else (_AFB_TRIPLE,):
        for m in rx.finditer(fold):
            groups = [g for g in m.groups() if g and g.isdigit()]
            values = (int(groups[0]), int(groups[1]), int(groups[2]))
            if sum(values) == 100:
                return values, None, [*spans, m.span()]
            plausible = all(v % 5 == 0 for v in values) and 50 <= sum(values) <= 150
            if context or plausible:
                return None, _afb_problem(values), [*spans, m.span()]
    return None, None, spans


def parse_afb_answer(text: str) -> tuple[int, int, int] | None:
    """Three AFB shares from an answer to the AFB Rückfrage ("30/40/30 bitte", "lieber 20 50 30").

    None when the answer names no complete distribution summing to 100 — "wie vorgeschlagen" or "den ersten
    Vorschlag" are for the caller, who knows the proposals.
    """
    folded = fold(prepare(text))
    if not folded:
        return None
    values, _, _ = parse_afb(folded, context=True)
    return values
