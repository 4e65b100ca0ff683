"""Grounding: every sub-task of an exam cites what it builds on, and the cited sources exist.

Unknown refs leave a task as unsupported as no refs at all; generator refs count when the generator exists.
"""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from core.composition.generators.registry import all_generators
from core.materials.klausur import Klausur, Teilaufgabe
from db.repos import knowledge as knowledge_repo
from db.session import Identity

GROUNDING_ARTS = frozenset({"curriculum", "good_practice", "generator"})


def grounding_fault(teil: Teilaufgabe, known_refs: set[str] | None, arts: frozenset[str] = GROUNDING_ARTS
                    ) -> str | None:
    """Why a sub-task is not grounded (German), or None: no cited source of `arts`, or none of them is known."""
    cited = [q.ref.strip() for q in teil.quellen if q.art in arts and q.ref.strip()]
    if not cited:
        return "Die Teilaufgabe nennt keine Quelle aus dem Lehrplan oder den Good Practices, auf der sie aufbaut."
    if known_refs is not None and not any(r in known_refs for r in cited):
        unknown = ", ".join(f"„{r}“" for r in dict.fromkeys(cited))
        return f"Die genannten Quellen gibt es nicht: {unknown}. Die Teilaufgabe ist damit nicht belegt."
    return None


def known_source_refs(*, db: Session, identity: Identity, k: Klausur) -> set[str]:
    """The cited curriculum / good-practice refs of an exam that exist and are visible to the acting teacher."""
    ids: dict[str, dict[uuid.UUID, str]] = {"good_practice": {}, "curriculum": {}}
    for teil in k.teilaufgaben():
        for q in teil.quellen:
            if q.art in ids:
                try:
                    ids[q.art][uuid.UUID(q.ref.strip())] = q.ref.strip()
                except ValueError:
                    continue
    found = set(knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=list(ids["good_practice"])))
    found |= set(knowledge_repo.curriculum_by_ids(db=db, identity=identity, ids=list(ids["curriculum"])))
    generators = all_generators()
    computed = {q.ref.strip() for teil in k.teilaufgaben() for q in teil.quellen
                if q.art == "generator" and q.ref.strip().split("#")[0] in generators}
    return {ref for refs in ids.values() for key, ref in refs.items() if key in found} | computed

