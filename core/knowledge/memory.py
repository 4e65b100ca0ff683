"""Memories the main agent keeps about a teacher: what they asked it to remember, and durable facts they state
about themselves ("Ich unterrichte an einer Oberschule"). Rule-based offline; never facts about pupils."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from db.models import Teacher
from db.repos import memory as memory_repo

# Sentences in which the teacher speaks about their own work — the kind of fact worth keeping across chats.
_SELF = re.compile(
    r"(?:^|[.!?]\s+)((?:ich|wir)\s+(?:unterrichte|unterrichten|bin|sind|arbeite|arbeiten|habe|haben)\b[^.!?\n]{8,160})",
    re.IGNORECASE,
)
# Anything that looks like it is about a named pupil stays out of memory (data protection).
_PUPIL = re.compile(r"\b(schüler(in)?|kind|sohn|tochter)\s+[A-ZÄÖÜ][a-zäöüß]+|\b[A-ZÄÖÜ][a-zäöüß]+\s+aus\s+der\s+\d",
                    re.UNICODE)


def extract_facts(text: str) -> list[str]:
    facts = []
    for m in _SELF.finditer(text or ""):
        sentence = " ".join(m.group(1).split())
        if _PUPIL.search(sentence) or re.search(r"\b(frage|brauche|möchte|will|hätte gern)\b", sentence, re.I):
            continue
        facts.append(sentence[0].upper() + sentence[1:] + ("" if sentence.endswith(".") else "."))
    return facts[:3]


def remember_stated_facts(*, db: Session, teacher: Teacher, text: str) -> list[str]:
    known = {m.content for m in memory_repo.memories_of(db=db, teacher_id=teacher.id, limit=50)}
    new = [f for f in extract_facts(text) if f not in known]
    for fact in new:
        memory_repo.add_memory(db=db, teacher_id=teacher.id, content=fact, source="extracted")
    return new
