"""The task bank as knowledge rows: one coverage row per Fach, one good-practice row per task, question and
three-level task, each with the content the composer and the checks read (topic, sub-topic, grade, review)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from db.repos.knowledge import SUBJECT_WIDE
from seeds.bank import (
    BANK_DIR,
    COVERAGE_DIR,
    BankMaterial,
    Coverage,
    CoverageTopic,
    TopicBank,
    load_coverage,
    load_topic,
    material_ids,
)


@dataclass(frozen=True)
class SeedRow:
    """One row the seed writes (external_id is the key; everything else the row's fields)."""

    external_id: str
    fields: dict[str, Any]


def material_block(m: BankMaterial, task: str | None = None) -> dict[str, Any]:
    """A bank material as the exam model's MaterialBlock (core.materials), as `task` works with it: without the rows
    that belong to other tasks (`zeilen_aufgaben`), so a row no chosen task uses is never printed."""
    tabelle = m.tabelle.model_dump() if m.tabelle else None
    if tabelle and m.zeilen_aufgaben:
        tabelle["zeilen"] = [z for z in tabelle["zeilen"] if task in m.zeilen_aufgaben.get(z[0] if z else "", [task])]
    return {"titel": m.titel, "art": m.art, "text": m.text,
            "tabelle": tabelle,
            "zeilennummern": m.zeilennummern, "quelle": m.quelle}


def _topic_fields(topic: CoverageTopic) -> dict[str, Any]:
    return {"topic": topic.id, "themenfeld": topic.themenfeld}


def coverage_row(cov: Coverage) -> SeedRow:
    return SeedRow(f"seed:{cov.fach}:coverage", dict(
        agent_type=SUBJECT_WIDE, scope_type="global", scope_id=None, owner_id=None, fach=cov.fach, thema=None,
        knowledge_type="coverage", content=cov.model_dump(), description=f"Themenkarte {cov.fach}",
        quality_score=1.0, source="system"))


def topic_rows(fach: str, topic: CoverageTopic, bank: TopicBank) -> Iterator[SeedRow]:
    mats = {m.id: m for m in bank.materialien}
    base = f"bank:{fach}:{topic.id}"
    for a in bank.aufgaben:
        ids = material_ids(a.material)
        content = {**_topic_fields(topic), **a.model_dump(exclude={"id", "material", "description"}),
                   "materialien": [material_block(mats[i], a.id) for i in ids],
                   "material_id": f"{topic.id}/{'+'.join(ids)}" if ids else None, "bank_id": a.id}
        yield SeedRow(f"{base}:{a.id}", dict(
            agent_type="klausur", scope_type="global", scope_id=None, owner_id=None, fach=fach, thema=topic.thema,
            knowledge_type="good_practice", content=content, description=a.description, quality_score=0.8,
            source="system"))
    for q in bank.quiz:
        content = {**_topic_fields(topic), **q.model_dump(exclude={"id"}), "bank_id": q.id}
        yield SeedRow(f"{base}:{q.id}", dict(
            agent_type="h5p", scope_type="global", scope_id=None, owner_id=None, fach=fach, thema=topic.thema,
            knowledge_type="good_practice", content=content, description=q.frage[:200], quality_score=0.8,
            source="system"))
    for d in bank.differenzierung:
        content = {**_topic_fields(topic), **d.model_dump(exclude={"id", "material"}),
                   "material": material_block(mats[d.material]) if d.material else None, "bank_id": d.id}
        yield SeedRow(f"{base}:{d.id}", dict(
            agent_type="differenzierung", scope_type="global", scope_id=None, owner_id=None, fach=fach,
            thema=topic.thema, knowledge_type="good_practice", content=content, description=d.lernziel[:200],
            quality_score=0.8, source="system"))


def bank_rows() -> Iterator[SeedRow]:
    """Every coverage and bank row of every Fach that has a coverage map (files that fail validation raise)."""
    for path in sorted(COVERAGE_DIR.glob("*.json")):
        cov = load_coverage(path.stem)
        if cov is None:
            continue
        yield coverage_row(cov)
        for topic in cov.topics:
            bank = load_topic(cov.fach, topic.id)
            if bank is not None:
                yield from topic_rows(cov.fach, topic, bank)


def bank_files() -> list[str]:
    """Paths whose content the seed fingerprint covers."""
    return sorted(str(p) for p in [*COVERAGE_DIR.glob("*.json"), *BANK_DIR.glob("*/*.json")])
