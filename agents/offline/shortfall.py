"""The teacher's answer to the options under a shortened material („Fertig: … Möglichkeiten: (1) die kürzere Klausur
so verwenden; (2) um verwandte Themen ergänzen: „A“ (12) …“): the chosen option carried out — the same request with the
nearest topics or the whole topic, or a plain reply (keep it, upload own tasks, configure a model). Anything else she
says is no choice and goes on to the follow-up rules (changes, additions, feedback)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_ai.messages import ModelResponse

from agents.offline import refusal
from agents.offline.messages import call, say
from core.language.fold import prepare
from core.language.text import fold

_WORDS = re.compile(r"[a-z0-9]+")
_MAX_WORDS = 8  # a longer message is a change or a new request, read by the other rules
_BY_WORDS = (("fill", re.compile(r"\bauf(?:zu)?fuell")),
             ("related", re.compile(r"\b(naechstliegend|verwandt|benachbart|aehnlich)\w*\b.*\bthem")),
             ("whole", re.compile(r"\b(ganze|ganzes|gesamte|gesamtes|komplette|ganzen)\b.*\bthema")),
             ("shorter", re.compile(r"\bso (verwenden|lassen|nehmen|behalten|bleiben)\b|\bpasst so\b|\bbehalt")),
             ("upload", re.compile(r"\bhochlad|\beigene aufgaben")),
             ("model", re.compile(r"\bsprachmodell|\bmodell konfig")))
KEEP = "Gut – dann bleibt es bei dieser Fassung. Sie finden sie jederzeit unter „Meine Materialien“."
NO_NEAR = ("Nächstliegende Themen mit geprüften Aufgaben für diese Klassenstufe gibt es in der Aufgabensammlung "
           "nicht – darum habe ich sie nicht angeboten.")


def offered_after(summary: str) -> tuple[str, ...]:
    """The options under a finished material (its summary's „Möglichkeiten: …“ line); none when it is complete."""
    line = next((x for x in summary.splitlines() if x.startswith(refusal.OFFERED)), "")
    return refusal.offered(line)


def _wanted(text: str) -> str | None:
    words = _WORDS.findall(fold(prepare(text)))
    if not words or len(words) > _MAX_WORDS:
        return None
    joined = " ".join(words)
    return next((kind for kind, pattern in _BY_WORDS if pattern.search(joined)), None)


def answer(text: str, options: Sequence[str], request: Mapping[str, Any]) -> ModelResponse | None:
    """The chosen option carried out with the material's request, or None when the message chooses none."""
    number = refusal.number_of(text, options)
    if number is None:
        wanted = _wanted(text)
        kinds = [refusal.kind_of(o) for o in options]
        if wanted is None:
            return None
        if wanted not in kinds:
            return say(f"{NO_NEAR} {refusal.which_one(options)}" if wanted == "related" else refusal.which_one(options))
        number = kinds.index(wanted) + 1
    if refusal.kind_of(options[number - 1]) == "shorter":
        return say(KEEP)
    choice = refusal.carry_out(options, number, request)
    return call("generate_material", choice.args) if choice.args is not None else say(choice.reply or "")
