"""Kinds of task a teacher asks for ("mit Quellenanalyse", "Gedichtvergleich", "Karikaturanalyse"): a wish for the
kind of task, not a topic. Next to a topic they are dropped from Thema and Unterthemen (the wording stays in the
request's Zusatz); named alone ("Klausur Gedichtanalyse") they are the topic."""

from __future__ import annotations

import re

from core.language.stopwords import word_set
from core.language.text import fold

TASK_KINDS = word_set("""
    quellenanalyse quellenanalysen quelleninterpretation quelleninterpretationen quellenarbeit quellenvergleich
    textquellenanalyse bildquellenanalyse bildanalyse karikaturanalyse karikaturinterpretation
    gedichtvergleich gedichtvergleiche gedichtanalyse gedichtanalysen gedichtinterpretation gedichtinterpretationen
    lyrikanalyse textanalyse sachtextanalyse textinterpretation textvergleich erzaehltextanalyse dramenanalyse
    szenenanalyse redeanalyse filmanalyse materialanalyse kartenanalyse""")
# What is done with a text, not its topic: "Analyse einer Kurzgeschichte" is about the short story.
GENERIC_KINDS = word_set("""
    analyse analysen interpretation interpretationen untersuchung deutung erschliessung textanalyse
    textinterpretation charakterisierung""")
GENITIVE_ARTICLES = word_set("einer eines des der zweier dreier")
# What such work is done on when it is a source, not a topic: "Analyse einer Karikatur zur Weimarer Republik".
SOURCE_KINDS = word_set("""
    karikatur karikaturen quelle quellen textquelle textquellen bildquelle bildquellen rede reden statistik
    statistiken diagramm diagramms schaubild schaubilds karte karten plakat plakats zeitungsartikel bild bilds""")
_AROUND = word_set("mit ohne samt inklusive inkl und sowie oder als eine einer einem einen ein einen")
_WORD = re.compile(r"\S+")


def is_task_kind(word: str) -> bool:
    return fold(word).strip(".,;:!?()") in TASK_KINDS


def without_task_kinds(thema: str | None, unterthemen: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """Thema and Unterthemen without the kinds of task named next to a topic: "Gedichtvergleich Expressionismus" ->
    "Expressionismus"; ("Inflation", "Quellenanalyse") -> ("Inflation",). Only kinds of task: unchanged."""
    parts = tuple(p for p in unterthemen if not all(is_task_kind(w) for w in p.split()))
    if thema is None:
        return thema, parts
    words = _WORD.findall(thema)
    keep = [w for w in words if not is_task_kind(w)]
    if not keep or len(keep) == len(words):
        return thema, parts if parts or not unterthemen else unterthemen
    while keep and fold(keep[0]) in _AROUND:
        keep.pop(0)
    while keep and fold(keep[-1]).strip(",") in _AROUND:
        keep.pop()
    rest = " ".join(keep).strip(" ,;:-")
    return (rest or thema), parts
