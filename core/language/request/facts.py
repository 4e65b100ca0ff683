"""The numeric facts of a request read on its document: Klasse, Dauer, AFB distribution, number of tasks. Their
spans are marked as explained (no topic), impossible values become German problem messages."""

from __future__ import annotations

import re

from core.language.afb import parse_afb
from core.language.dauer import parse_dauer
from core.language.document import Doc
from core.language.klasse import G9, Niveau, Oberstufe, parse_klasse
from core.language.preferences import AUFGABEN_MAX, AUFGABEN_MIN, parse_count


def extract_klasse(doc: Doc, problems: list[str], oberstufe: Oberstufe = G9
                   ) -> tuple[str | None, int | None, Niveau | None]:
    found = parse_klasse(doc.fold, oberstufe)
    doc.consume_spans(list(found.spans))
    if found.problem:
        problems.append(found.problem)
    return found.klasse, found.stufe, found.niveau


def extract_dauer(doc: Doc, problems: list[str]) -> int | None:
    found = parse_dauer(doc.fold)
    doc.consume_spans(list(found.spans))
    if found.problem:
        problems.append(found.problem)
    return found.minutes


_AFB_CONTEXT_BEFORE = re.compile(r"(?:afb|anforderungsbereiche?|verteilung|gewichtung|aufteilung)\s?-?\s?:?\s?$")


def extract_afb_distribution(doc: Doc, problems: list[str]) -> tuple[int, int, int] | None:
    values, problem, spans = parse_afb(doc.fold, context=False)
    for s, _ in list(spans):  # "Verteilung 40/40/20": the word that introduces the shares is no topic
        if m := _AFB_CONTEXT_BEFORE.search(doc.fold, max(0, s - 30), s):
            spans.append((m.start(), s))
    doc.consume_spans(spans)
    if problem:
        problems.append(problem)
    return values


def extract_count(doc: Doc, problems: list[str]) -> int | None:
    value, spans = parse_count(doc.fold)
    doc.consume_spans(spans)
    if value is None:
        return None
    if not AUFGABEN_MIN <= value <= AUFGABEN_MAX:
        problems.append(f"{value} Aufgaben sind nicht möglich — bitte {AUFGABEN_MIN} bis {AUFGABEN_MAX} Aufgaben "
                        f"angeben.")
        return None
    return value
