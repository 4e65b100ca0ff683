"""Checks every specialist's output validator runs beside its structure check: the content-quality gate (no filler,
no repeats, on topic, at the level, promises kept) and grounding (every cited source exists and is visible)."""

from __future__ import annotations

import uuid

from agents.deps import SpecialistDeps
from core.checks.gate import check_material
from core.checks.views import views
from core.composition.provenance import vouched_questions, vouched_sheet, vouched_tasks
from core.composition.service import topic_context_for
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from db.repos import knowledge as knowledge_repo


def gate_faults(deps: SpecialistDeps, material: object) -> list[str]:
    """The content-quality gate (no filler, no repeats, on topic, at the level, promises kept) as fault lines."""
    topic = topic_context_for(db=deps.turn.db, fach=deps.fach, themenfelder=deps.profile.get("themenfelder") or {},
                              request=deps.request)
    findings = check_material(material, request=deps.request, topic=topic,  # type: ignore[arg-type]
                              operators=list(deps.operators), vouched=vouched_refs(deps, material, topic))
    return [f.line() for f in findings]


def vouched_refs(deps: SpecialistDeps, material: object, topic: object) -> set[str]:
    """Refs of cited bank items that their authors filed under one of the requested topics and that the material
    shows unchanged (core.composition.provenance: decisions 055, 065), and of generated tasks whose generator one of
    those topics lists (the composer trusted both the same way)."""
    topics = [*getattr(topic, "resolved", ()), *(t for w in getattr(topic, "wishes", ()) for t in w.resolved)]
    wanted = {t.id for t in topics}
    if isinstance(material, H5PSet):  # a quiz question is trusted only as the bank question it shows (decision 055)
        r = deps.request
        return vouched_questions(db=deps.turn.db, identity=deps.turn.identity, quiz=material, wanted=wanted,
                                 thema=r.thema, unterthemen=r.unterthemen, klassenstufe=r.klassenstufe, kurs=r.niveau)
    generators = {g for t in topics for g in t.generatoren}
    out = {ref for v in views(material) for ref in v.refs  # type: ignore[arg-type]
           if ref.partition("#")[0] in generators}
    db, identity = deps.turn.db, deps.turn.identity
    if isinstance(material, Klausur):  # a bank task is trusted only as the task it shows (decision 065)
        return out | vouched_tasks(db=db, identity=identity, klausur=material, wanted=wanted)
    if isinstance(material, DifferenziertesMaterial):
        return out | vouched_sheet(db=db, identity=identity, sheet=material, wanted=wanted)
    return out


def check_sources(deps: SpecialistDeps, quellen: list) -> list[str]:  # noqa: ANN001
    """Grounding: every cited good practice / curriculum chunk must exist and be visible to the teacher."""
    ids: dict[str, list[uuid.UUID]] = {"good_practice": [], "curriculum": []}
    bad: list[str] = []
    for q in quellen:
        if q.art in ids:
            try:
                ids[q.art].append(uuid.UUID(q.ref))
            except ValueError:
                bad.append(q.ref)
    found = set(knowledge_repo.knowledge_by_ids(db=deps.turn.db, identity=deps.turn.identity,
                                                ids=ids["good_practice"]))
    found |= set(knowledge_repo.curriculum_by_ids(db=deps.turn.db, identity=deps.turn.identity,
                                                  ids=ids["curriculum"]))
    bad += [str(i) for i in ids["good_practice"] + ids["curriculum"] if i not in found]
    return [f"Quelle „{ref}“ gibt es nicht — nur refs aus get_good_practices/search_curriculum zitieren."
            for ref in dict.fromkeys(bad)]
