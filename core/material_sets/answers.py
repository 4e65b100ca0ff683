"""Splitting the teacher's one answer to a set's collected Rückfragen into the part for each waiting session.

1. The answer is cut into clauses at ";", ",", " und ", " sowie ", line breaks — but never inside an AFB triple.
2. A clause that names a material ("beim Quiz …", "Klausur: …", "fürs Arbeitsblatt …") belongs to that material's
   session, and so do the following clauses until another material is named.
3. An unnamed clause goes by what it says: an AFB distribution (`parse_afb_answer`) to the session that asks about
   the AFB (else the Klausur's); a number of questions/tasks ("10 Fragen") to the session that asks for a number
   (else the H5P one).
4. What is left goes to the only session still without an answer; if several are, every one of them gets it
   ("wie vorgeschlagen" is then resolved against each session's own suggestions by the generation).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence

from core.language.afb import parse_afb_answer
from core.material_sets.records import CollectedQuestion

_MATERIAL_NAMES = (
    ("klausur", re.compile(r"klausur|klassenarbeit|\btests?\b|lernkontrolle|pr[uü]fung", re.I)),
    ("differenzierung", re.compile(r"arbeitsbl[aä]tt|[uü]bungsbl[aä]tt|\bblatt\b|f[oö]rderbl", re.I)),
    ("h5p", re.compile(r"quiz|h5p|l[uü]ckentext|zuordnungs|interaktiv", re.I)),
)
_COUNT = re.compile(r"\b(\d{1,2})\s*(?:fragen|aufgaben|items|quizfragen)\b", re.I)
_CLAUSE_SPLIT = re.compile(r"\s*(?:;|\n|,|\bund\b|\bsowie\b|\bau(?:ß|ss)erdem\b)\s*", re.I)
_AFB_TRIPLE = re.compile(r"\d{1,3}\s*%?\s*([/:|-]|,\s*)\s*\d{1,3}\s*%?\s*\1\s*\d{1,3}")


def _named_type(clause: str) -> str | None:
    return next((t for t, rx in _MATERIAL_NAMES if rx.search(clause)), None)


def _asks_afb(q: CollectedQuestion) -> bool:
    return bool(re.search(r"anforderungsbereich|afb|verteilung", f"{q.frage} {q.kontext}", re.I))


def _asks_count(q: CollectedQuestion) -> bool:
    return bool(re.search(r"wie viele|anzahl|fragen soll", f"{q.frage} {q.kontext}", re.I))


def split_answer(answer: str, questions: Sequence[CollectedQuestion]) -> tuple[dict[uuid.UUID, str], list[str]]:
    """Split one answer to several Rückfragen into the part for each session (see the module docstring).

    Returns ({session_id: answer part}, clauses nobody asked about).
    """
    waiting = [q for q in questions if q.session_id is not None]
    if not waiting:
        return {}, [answer] if answer.strip() else []
    if len(waiting) == 1:
        return {waiting[0].session_id: answer.strip()}, []  # type: ignore[dict-item]
    protected = {}

    def protect(m: re.Match[str]) -> str:
        key = f"§{len(protected)}§"
        protected[key] = m.group()
        return key

    masked = _AFB_TRIPLE.sub(protect, answer)
    clauses = [c for c in _CLAUSE_SPLIT.split(masked) if c and c.strip()]
    for i, c in enumerate(clauses):
        for key, value in protected.items():
            c = c.replace(key, value)
        clauses[i] = c.strip()
    by_type = {q.material_type: q for q in waiting}
    parts: dict[uuid.UUID, list[str]] = {}
    leftover: list[str] = []
    current: CollectedQuestion | None = None
    for clause in clauses:
        named = _named_type(clause)
        if named is not None:
            current = by_type.get(named)
            if current is None:
                leftover.append(clause)
                continue
        target = current
        if target is None:
            if parse_afb_answer(clause):
                target = next((q for q in waiting if _asks_afb(q)), by_type.get("klausur"))
            elif _COUNT.search(clause):
                target = next((q for q in waiting if _asks_count(q)), by_type.get("h5p"))
        if target is None:
            leftover.append(clause)
            continue
        parts.setdefault(target.session_id, []).append(clause)  # type: ignore[arg-type]
    rest = [q for q in waiting if q.session_id not in parts]
    unrouted: list[str] = []
    if leftover and rest:
        for q in rest:
            parts[q.session_id] = list(leftover)  # type: ignore[index]
    else:
        unrouted = leftover
    return {sid: ", ".join(cs) for sid, cs in parts.items()}, unrouted
