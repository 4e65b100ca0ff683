"""Operators (Nennen, Erläutern, Beurteilen, …) and their usual AFB; finding the operator a task opens with,
separable verbs ("Gib … an") and umlaut-free spellings included."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# The usual AFB of the operators in the KMK/Länder lists (the subject's own list from the database overrides).
OPERATOR_AFB: dict[str, str] = {
    "Nennen": "I", "Angeben": "I", "Benennen": "I", "Bezeichnen": "I", "Beschreiben": "I", "Skizzieren": "I",
    "Berechnen": "I", "Zeichnen": "I", "Wiedergeben": "I", "Zusammenfassen": "I", "Formulieren": "I",
    "Lokalisieren": "I", "Lösen": "I", "Darstellen": "I", "Ergänzen": "I", "Beschriften": "I", "Auflisten": "I",
    "Erklären": "II", "Erläutern": "II", "Bestimmen": "II", "Ermitteln": "II", "Vergleichen": "II",
    "Auswerten": "II", "Herleiten": "II", "Begründen": "II", "Analysieren": "II", "Charakterisieren": "II",
    "Deuten": "II", "Einordnen": "II", "Herausarbeiten": "II", "Nachweisen": "II", "Ordnen": "II",
    "Untersuchen": "II", "Zuordnen": "II", "Überarbeiten": "II", "Anwenden": "II", "Aufstellen": "II",
    "Erschließen": "II", "Interpretieren": "III", "Beurteilen": "III", "Bewerten": "III", "Diskutieren": "III",
    "Entwickeln": "III", "Planen": "III", "Erörtern": "III", "Gestalten": "III", "Beweisen": "III",
    "Widerlegen": "III", "Überprüfen": "III", "Prüfen": "III", "Stellung nehmen": "III",
    "Sich auseinandersetzen": "III",
    # English (Englisch as a subject)
    "Name": "I", "State": "I", "Outline": "I", "Describe": "I", "Summarise": "I", "Summarize": "I",
    "Complete": "I", "Explain": "II", "Analyse": "II", "Analyze": "II", "Compare": "II", "Contrast": "II",
    "Characterise": "II", "Characterize": "II", "Examine": "II", "Illustrate": "II", "Point out": "II",
    "Assess": "III", "Comment": "III", "Discuss": "III", "Evaluate": "III", "Interpret": "III", "Justify": "III",
    "Write": "III",
}

# Separable verbs: the imperative's first words and the particle that closes the clause ("Gib … an").
_SEPARABLE: dict[str, tuple[tuple[str, str], str]] = {
    "Angeben": (("gib", "geben sie"), "an"),
    "Wiedergeben": (("gib", "geben sie"), "wieder"),
    "Darstellen": (("stelle", "stell", "stellen sie"), "dar"),
    "Aufstellen": (("stelle", "stell", "stellen sie"), "auf"),
    "Herleiten": (("leite", "leiten sie"), "her"),
    "Auswerten": (("werte", "werten sie"), "aus"),
    "Zuordnen": (("ordne", "ordnen sie"), "zu"),
    "Einordnen": (("ordne", "ordnen sie"), "ein"),
    "Zusammenfassen": (("fasse", "fass", "fassen sie"), "zusammen"),
    "Herausarbeiten": (("arbeite", "arbeiten sie"), "heraus"),
    "Nachweisen": (("weise", "weisen sie"), "nach"),
    "Stellung nehmen": (("nimm", "nehmen sie"), "stellung"),
    "Sich auseinandersetzen": (("setze dich", "setz dich", "setzen sie sich"), "auseinander"),
    "Auflisten": (("liste", "listen sie"), "auf"),
    "Anwenden": (("wende", "wenden sie"), "an"),
}
_ENGLISH = frozenset({
    "Name", "State", "Outline", "Describe", "Summarise", "Summarize", "Complete", "Explain", "Analyse", "Analyze",
    "Compare", "Contrast", "Characterise", "Characterize", "Examine", "Illustrate", "Point out", "Assess", "Comment",
    "Discuss", "Evaluate", "Interpret", "Justify", "Write",
})


def _ascii(form: str) -> str:
    return form.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")


def _simple_forms(infinitive: str) -> list[str]:
    """Imperative forms of a regular (non-separable) German operator: 'Erläutern' -> erläutere, erläutern sie."""
    inf = infinitive.lower()
    forms = [f"{inf} sie"]
    if inf.endswith("eln"):
        forms += [inf[:-3] + "le", inf[:-1] + "e"]
    elif inf.endswith("ern"):
        forms += [inf[:-1] + "e"]
    elif inf.endswith("en"):
        forms += [inf[:-2] + "e"]
    return forms


@dataclass(frozen=True)
class OperatorTable:
    afb: dict[str, str]
    simple: list[tuple[str, str]]  # (form, canonical), longest forms first
    separable: list[tuple[str, str, str]]  # (form, particle, canonical)

    @classmethod
    def build(cls, overrides: Mapping[str, str] | None = None) -> OperatorTable:
        afb = dict(OPERATOR_AFB)
        known = {k.lower(): k for k in afb}
        for name, level in (overrides or {}).items():
            if level in ("I", "II", "III") and name.strip():
                afb[known.get(name.strip().lower(), name.strip())] = level
        simple: list[tuple[str, str]] = []
        separable: list[tuple[str, str, str]] = []
        for canonical in afb:
            if canonical in _SEPARABLE:
                forms, particle = _SEPARABLE[canonical]
                separable += [(f, particle, canonical) for f in forms]
            elif canonical in _ENGLISH:
                simple.append((canonical.lower(), canonical))
            else:
                simple += [(f, canonical) for f in _simple_forms(canonical)]
        # Typed without umlauts ("Erklaere", "Eroertere") the operator is still the operator.
        simple += [(_ascii(f), c) for f, c in simple if _ascii(f) != f]
        separable += [(_ascii(f), p, c) for f, p, c in separable if _ascii(f) != f]
        simple.sort(key=lambda x: -len(x[0]))
        separable.sort(key=lambda x: -len(x[0]))
        return cls(afb=afb, simple=simple, separable=separable)


_CLAUSE_END = re.compile(r"[.!?;:]")
_WORD = re.compile(r"[\wäöüß]+", re.IGNORECASE)


def _starts_with(sentence: str, form: str) -> bool:
    return sentence.startswith(form) and (len(sentence) == len(form) or not sentence[len(form)].isalpha())


def find_operator(text: str, table: OperatorTable) -> str | None:
    """The operator a task opens with (or the first sentence that opens with one), as its infinitive."""
    for sentence in re.split(r"(?<=[.!?:])\s+|\n", text):
        s = sentence.strip().lstrip("•–-*„\"(").strip().lower()
        if not s:
            continue
        for form, particle, canonical in table.separable:
            if _starts_with(s, form):
                rest = s[len(form):]
                clause = _CLAUSE_END.split(rest, maxsplit=1)[0]
                candidates = [_WORD.findall(clause)[-1:], _WORD.findall(clause.split(",")[0])[-1:],
                              _WORD.findall(rest)[:1]]
                if any(particle in c for c in candidates):
                    return canonical
        for form, canonical in table.simple:
            if _starts_with(s, form):
                return canonical
    return None
