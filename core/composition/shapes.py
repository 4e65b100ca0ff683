"""Kinds of task a teacher names beside the topic („mit Kartenarbeit“, „mit einer Textaufgabe“, „analysis of a
newspaper article plus comment“): the request reader keeps them out of the topic (decision 061), the exam is checked
for them here. An exam without a task of a named kind says so as a „fehlt“ note, never silently (decision 069)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.composition.candidates import TaskCandidate
from core.language.request.task_shapes import WRITING_FORMS

_WORD = re.compile(r"[^\W\d_]+")


def _says(pattern: str) -> Callable[[TaskCandidate], bool]:
    rx = re.compile(pattern, re.I)
    return lambda c: bool(rx.search(c.text) or rx.search(c.operator or ""))


def _shows(pattern: str, art: str = "") -> Callable[[TaskCandidate], bool]:
    """The task or its material's title names the thing („Atlaskarte“, „M1 Zeitungsartikel“), or the material is of
    `art`; not where a material comes from („nach Atlaskarten“ under a table is no map work)."""
    rx = re.compile(pattern, re.I)
    return lambda c: bool(rx.search(c.text) or any((art and m.art == art) or rx.search(m.titel) for m in c.materialien))


def _word_problem(c: TaskCandidate) -> bool:
    """A Textaufgabe: a situation told in words that holds the numbers to work with, not a bare term."""
    return len(_WORD.findall(c.text)) >= 18 and bool(re.search(r"\d", c.text))


@dataclass(frozen=True)
class Shape:
    name: str  # as the note names it
    asked: re.Pattern[str]  # how a teacher asks for it
    has: Callable[[TaskCandidate], bool]  # a task of this kind


SHAPES = (
    Shape(
        "Kartenarbeit",
        re.compile(r"\bkarten(?:arbeit|auswertung)|\bmap\s+work|\bwork\s+with\s+a\s+map", re.I),
        _shows(r"\batlas|karte\b|karten\b|\bkarte|kartenskizze|\bmaps?\b"),
    ),
    Shape("Textaufgabe", re.compile(r"\b(?:text|sach)aufgaben?\b|\bword\s+problems?\b", re.I), _word_problem),
    Shape("Erörterung", re.compile(r"\berörterung|\beroerterung", re.I), _says(r"erörter|eroerter")),
    Shape(
        "Analyse eines Zeitungsartikels",
        re.compile(r"analy[sz]\w*\s+(?:of\s+)?(?:an?\s+|eines\s+)?(?:newspaper\s+article|zeitungsartikel)", re.I),
        lambda c: _says(r"analy[sz]")(c) and _shows(r"article|newspaper|zeitung")(c),
    ),
    Shape(
        "Kommentar",
        re.compile(
            r"(?:\bplus|\band|\bund|\bmit|\bwith|\+)\s+(?:an?\s+|einem\s+)?"
            r"(?:comment|kommentar)\b",
            re.I,
        ),
        _says(r"\bcomment|kommentier"),
    ),
    Shape(
        "Stellungnahme",
        re.compile(r"(?:\bplus|\bund|\bmit|\+)\s+(?:einer\s+)?stellungnahme\b", re.I),
        _says(r"stellung\s*(?:nehmen|nahme)|nimm\s+\w*\s*stellung|beurteil"),
    ),
    Shape(
        "Quellenarbeit",
        re.compile(r"\bquellen(?:arbeit|interpretation|analyse)", re.I),
        _shows(r"\bquelle\b", art="quelle"),
    ),
    Shape("Karikatur", re.compile(r"\b(?:karikatur|cartoon)", re.I), _shows(r"karikatur|cartoon")),
)


def missing(zusatz: str, chosen: Sequence[TaskCandidate]) -> list[str]:
    """The kinds of task the teacher named that no chosen task is of."""
    return [s.name for s in SHAPES if s.asked.search(zusatz or "") and not any(s.has(c) for c in chosen)]


_WRITES = re.compile(r"\b(?:verfasse|schreibe|write)\b", re.I)


def does_form(cands: Sequence[TaskCandidate], part: str) -> list[TaskCandidate]:
    """The tasks that write the form a named part is (decision 072): for „Inhaltsangabe“ the task „Verfasse eine
    Inhaltsangabe …“, not a step towards it; none when the part is no writing form."""
    form = part.strip().casefold()
    if form not in WRITING_FORMS:
        return []
    return [c for c in cands if _WRITES.search(c.text) and form in c.text.casefold()]
