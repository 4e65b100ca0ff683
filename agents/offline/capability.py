"""Capability matching for the rule planner: which specialist takes a part, read from its material words
("Lückentext-Übung" -> h5p 0.9, "Übungsblatt" -> differenzierung 0.8, none -> Klausur as a low-confidence fallback)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.language.text import fold

FALLBACK_TYPE = "klausur"
FALLBACK_CONFIDENCE = 0.3
UNSURE_BELOW = 0.6


@dataclass(frozen=True)
class SpecialistChoice:
    """Which specialist takes a part, how sure that is, and why."""

    agent_type: str
    confidence: float
    reason: str
    fallback: bool = False


@dataclass(frozen=True)
class Signal:
    agent_type: str | None  # None: a material word that names no capability ("Material") -> fallback
    confidence: float
    label: str
    head: bool  # a noun that can stand for a material on its own (adjectives only modify)


_SUBJECT_PREFIX = r"(?:physik|mathe|mathematik|bio|biologie|chemie|deutsch|englisch|geschichts|erdkunde|geo|geographie)"
_HEADS: tuple[tuple[re.Pattern[str], str | None, float, str], ...] = tuple(
    (re.compile(rx), agent, conf, label) for rx, agent, conf, label in (
        (r"h5p(?:-[a-z]+)*", "h5p", 0.95, "H5P"),
        (r"[a-z-]*lueckentext[a-z-]*", "h5p", 0.9, "Lückentext"),
        (r"[a-z-]*(?:quiz|quizze|quizzes|quizfragen)", "h5p", 0.9, "Quiz"),
        (r"[a-z-]*(?:zuordnungsuebung(?:en)?|zuordnungsaufgabe(?:n)?|drag-and-drop[a-z-]*|kreuzwortraetsel)", "h5p",
         0.85, "Zuordnungsübung"),
        (r"(?:online|interaktive?|digitale?|h5p|selbstlern)-?uebung(?:en)?", "h5p", 0.9, "interaktive Übung"),
        (r"(?:online|selbst)-?tests?", "h5p", 0.75, "Selbsttest"),
        (r"[a-z-]*(?:klausur|klausuren|klassenarbeit|klassenarbeiten)", "klausur", 0.95, "Klausur"),
        (rf"(?:kurz|vokabel|wissens|einstiegs|abschluss|lernstands|zwischen|eingangs|diagnose|grammatik|"
         rf"{_SUBJECT_PREFIX})?-?tests?", "klausur", 0.85, "Test"),
        (r"(?:lern|leistungs|kurz|lernziel|lernerfolgs)kontrollen?|leistungsnachweis|schulaufgabe|stegreifaufgabe",
         "klausur", 0.85, "Lernkontrolle"),
        (r"[a-z-]*(?:foerderblatt|foerderblaetter|foerdermaterial|differenzierungsmaterial|foerderaufgaben)",
         "differenzierung", 0.9, "Fördermaterial"),
        (r"[a-z-]*(?:arbeitsblatt|arbeitsblaetter|arbeitsbogen|arbeitsboegen|aufgabenblatt|aufgabenblaetter)",
         "differenzierung", 0.85, "Arbeitsblatt"),
        (r"[a-z-]*(?:uebungsblatt|uebungsblaetter)", "differenzierung", 0.8, "Übungsblatt"),
        (r"stationenlernen|lerntheke|lernzirkel", "differenzierung", 0.6, "Lernstationen"),
        (r"uebung|uebungen", "differenzierung", 0.55, "Übung"),
        (r"material|materialien|unterlagen|lernmaterial|unterrichtsmaterial", None, 0.0, "Material"),
    )
)
_MODIFIERS: tuple[tuple[re.Pattern[str], str, float, str], ...] = tuple(
    (re.compile(rx), agent, conf, label) for rx, agent, conf, label in (
        (r"(?:binnen)?differenziert[a-z]*|niveaus|niveaustufen|anforderungsniveaus", "differenzierung", 0.9,
         "differenziert/Niveaus"),
        (r"interaktiv[a-z]*|digital[a-z]*|online", "h5p", 0.9, "interaktiv"),
        (r"multiple-choice[a-z-]*|multiplechoice", "h5p", 0.85, "Multiple Choice"),
    )
)


def head_signal(folded: str, orig: str) -> Signal | None:
    if orig == "AB":
        return Signal("differenzierung", 0.7, "AB (Arbeitsblatt)", True)
    for rx, agent, conf, label in _HEADS:
        if rx.fullmatch(folded):
            return Signal(agent, conf, label, True)
    return None


def modifier_signal(folded: str) -> Signal | None:
    for rx, agent, conf, label in _MODIFIERS:
        if rx.fullmatch(folded):
            return Signal(agent, conf, label, False)
    return None


def choose(signals: list[Signal]) -> SpecialistChoice:
    known = [s for s in signals if s.agent_type is not None]
    if not known:
        what = next((s.label for s in signals), "die Anfrage")
        return SpecialistChoice(FALLBACK_TYPE, FALLBACK_CONFIDENCE, f"„{what}“ nennt keine Materialart", True)
    best = max(known, key=lambda s: (s.confidence, s.head))
    rivals = [s for s in known if s.agent_type != best.agent_type and best.confidence - s.confidence < 0.05]
    confidence = best.confidence - (0.15 if rivals else 0.0)
    reason = best.label + (f" (auch „{rivals[0].label}“ genannt)" if rivals else "")
    return SpecialistChoice(best.agent_type or FALLBACK_TYPE, round(confidence, 2), reason)


def select_specialist(wording: str) -> SpecialistChoice:
    """Capability matching for one part's words: "Lückentext-Übung" -> h5p 0.9, "Übungsblatt" -> differenzierung 0.8,
    no material word at all -> the Klausur specialist as fallback with low confidence."""
    signals = []
    for w in read_words(wording):
        s = head_signal(w.fold, w.orig) or modifier_signal(w.fold)
        if s is not None:
            signals.append(s)
    return choose(signals)


@dataclass
class Word:
    orig: str
    fold: str
    start: int
    end: int
    cap: bool


WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")


def read_words(text: str) -> list[Word]:
    return [Word(m.group(), fold(m.group()), m.start(), m.end(), m.group()[:1].isupper())
            for m in WORD.finditer(text)]
