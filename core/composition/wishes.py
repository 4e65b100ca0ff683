"""What the teacher does not want, in her words: the preference list 'Dinge vermeiden' (with the usual synonyms of
task formats) and question types excluded in the request ('keine Multiple-Choice-Fragen', 'ohne Lückentext')."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.checks.structure import erwaehnt
from core.language.text import fold

# Synonyms of things teachers ask to avoid, matched against task texts (casefolded substrings).
VERMEIDEN_SYNONYME = {
    "multiple choice": ("multiple choice", "multiple-choice", "ankreuz", "kreuze an", "kreuze die", "tick the",
                        "choose the correct"),
    "lückentext": ("lückentext", "lücken", "complete the", "fill in", "ergänze die fehlenden"),
    "richtig/falsch": ("richtig oder falsch", "true or false", "wahr oder falsch"),
    "zuordnung": ("ordne zu", "ordne … zu", "zuordnen", "match the"),
}
H5P_TYP_WOERTER = {
    "multichoice": ("multiple choice", "multiple-choice", "multiplechoice", "mc-fragen", "mc fragen", "ankreuz"),
    "truefalse": ("richtig/falsch", "richtig-falsch", "richtig oder falsch", "wahr/falsch", "true/false",
                  "true or false", "wahr oder falsch"),
    "blanks": ("lückentext", "lückentexte", "lücken"),
    "dragtext": ("drag-text", "dragtext", "drag text", "drag and drop", "drag & drop", "ziehen"),
}
_NEGATION = re.compile(r"\b(kein|keine|keinen|keiner|ohne|nicht|bitte nicht|verzicht\w*)\b", re.IGNORECASE)


def avoid_list(preferences: Mapping[str, Any]) -> list[str]:
    raw = preferences.get("dinge_vermeiden") or []
    if isinstance(raw, str):
        raw = re.split(r"[,;\n]", raw)
    return [str(x).strip() for x in raw if str(x).strip()] if isinstance(raw, list | tuple) else []


def to_avoid(text: str, avoid: Sequence[str]) -> bool:
    haystack = " ".join(text.split()).casefold()
    for phrase in avoid:
        p = " ".join(phrase.split()).casefold()
        if erwaehnt(phrase, text):
            return True
        for key, synonyme in VERMEIDEN_SYNONYME.items():
            if (key in p or any(s in p for s in synonyme)) and any(s in haystack for s in synonyme):
                return True
    return False


def excluded_quiz_types(zusatz: str) -> set[str]:
    """Question types the teacher excluded in words ("keine Multiple-Choice-Fragen", "ohne Lückentext")."""
    out: set[str] = set()
    for satz in re.split(r"[.;\n]", zusatz or ""):
        for m in _NEGATION.finditer(satz):
            fenster = satz[m.end(): m.end() + 60].casefold()
            for typ, woerter in H5P_TYP_WOERTER.items():
                if any(w in fenster for w in woerter):
                    out.add(typ)
    return out


_COUNT = re.compile(r"\b(\d{1,2})\s*(fragen|aufgaben|questions|items)\b", re.I)


def count_in(zusatz: str) -> int | None:
    """'Quiz mit 12 Fragen' -> 12 (when the request carries no explicit number)."""
    m = _COUNT.search(zusatz or "")
    return max(1, min(int(m.group(1)), 40)) if m else None


def own_wishes(zusatz: str) -> str:
    """The teacher's own wishes without a rework instruction (core.editing.regenerate appends „Überarbeitung: …“):
    the instruction changes what is asked through its parsed effects, not through the tie-break between equal
    tasks — so an instruction without effect gives the same exam."""
    return (zusatz or "").split(" Überarbeitung:")[0].removeprefix("Überarbeitung:")


# „nur Krisenjahr 1923“, „ausschließlich Typ 1 und 2“, „beschränkt auf …“ (folded text)
_ONLY = re.compile(r"\b(?:nur|ausschliesslich|lediglich|beschraenkt auf|only)\b")
_NOTHING_ELSE = re.compile(r"\b(?:keine anderen|nichts anderes|sonst nichts|nothing else)\b")
_EMPHASIS = re.compile(r"\(|\bschwerpunkt|\bvor allem\b|\binsbesondere\b|\bbesonders\b|\bfocus")


def only_named(zusatz: str, parts: Sequence[str]) -> bool:
    """The teacher limits the material to the parts she names: „nur“ (or „ausschließlich“, „lediglich“) right
    before one of them, or „nichts anderes“. „nur 30 Minuten“ or „nur Lückentexte“ name no part and limit nothing."""
    text = fold(own_wishes(zusatz))
    if _NOTHING_ELSE.search(text):
        return True
    words = {w for p in parts for w in re.findall(r"\w{3,}", fold(p))}
    for m in _ONLY.finditer(text):
        following = re.split(r"[,.;:!?]", text[m.end():], maxsplit=1)[0].split()[:5]  # „nur zu den Typen 1 …“
        if any(f.startswith(w) for f in following for w in words):
            return True
    return False


def names_emphasis(zusatz: str) -> bool:
    """The request marks a part as emphasis, not as the whole: parentheses, „mit Schwerpunkt …“, „vor allem …“."""
    return bool(_EMPHASIS.search(fold(own_wishes(zusatz))))
