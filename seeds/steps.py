"""Ordered, named seed steps. Each upserts by `external_id`, so running the seed twice changes nothing.

Content lives in `seeds/data/*.json` (validated by `seeds.schema`); this module only writes it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from db.models import AgentKnowledge, CurriculumChunk, School, SchoolClass, Teacher, TeacherClass
from db.repos import knowledge as knowledge_repo
from seeds.bank_rows import SeedRow, bank_files, bank_rows
from seeds.schema import FACH_KEYS, SubjectSeed

log = logging.getLogger(__name__)
DATA = Path(__file__).resolve().parent / "data"
SUBJECT_WIDE = knowledge_repo.SUBJECT_WIDE


@dataclass
class SeedReport:
    inserted: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)

    def count(self, step: str, *, new: bool) -> None:
        target = self.inserted if new else self.updated
        target[step] = target.get(step, 0) + 1

    def lines(self) -> list[str]:
        steps = sorted(set(self.inserted) | set(self.updated))
        return [f"{s}: {self.inserted.get(s, 0)} neu, {self.updated.get(s, 0)} aktualisiert" for s in steps] or [
            "nichts zu tun — alles schon vorhanden"
        ]


def load_subjects() -> list[SubjectSeed]:
    """All subject files, validated. Missing subjects are skipped with a warning (content may be in progress)."""
    subjects = []
    for fach in FACH_KEYS:
        path = DATA / f"{fach}.json"
        if not path.exists():
            log.warning("seed content for %s missing: %s", fach, path)
            continue
        subjects.append(SubjectSeed.model_validate(json.loads(path.read_text(encoding="utf-8"))))
    return subjects


def load_demo() -> dict[str, Any]:
    return json.loads((DATA / "demo.json").read_text(encoding="utf-8"))


# --- upserts -----------------------------------------------------------------------------------------------------


def content_hash(content: Any, description: str | None) -> str:
    return hashlib.md5(json.dumps([content, description], sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _edited(row: AgentKnowledge) -> bool:
    """Changed by a curator or teacher since the seed wrote it: the seed never overwrites such a row."""
    if row.seed_hash is None:
        return row.source != "system"
    return content_hash(row.content, row.description) != row.seed_hash


def _apply(row: AgentKnowledge, fields: dict[str, Any], text: str, embedding: list[float]) -> None:
    for key, value in fields.items():
        setattr(row, key, value)
    row.search_text = text
    row.embedding = embedding
    row.embedding_model = embedding_model_name()
    row.seed_hash = content_hash(fields["content"], fields.get("description"))
    row.revision += 1


def seed_id(kind: str, key: str) -> uuid.UUID:
    """The same id for a seeded row on every installation: ids break ties in ranking and layout (`ORDER BY quality,
    id`; equal-weight tasks in an exam) and a teacher's id seeds her generated numbers — with random ids the same
    request gave another exam in every new database (and tests failed by chance)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"werkbank:{kind}:{key}")


def _upsert_knowledge(db: Session, report: SeedReport, step: str, external_id: str, **fields: Any) -> AgentKnowledge:
    """Insert a knowledge row, or update it when the seed content changed (then it is re-embedded) — unless a
    curator or teacher edited it since: their version is kept."""
    existing = knowledge_repo.find_by_external_id(db=db, external_id=external_id)
    text = knowledge_text(content=fields["content"], thema=fields.get("thema"), description=fields.get("description"))
    new_hash = content_hash(fields["content"], fields.get("description"))
    if existing is not None:
        if existing.content == fields["content"] and existing.description == fields.get("description"):
            existing.seed_hash = new_hash
            return existing
        if _edited(existing):
            report.count(f"{step} (bearbeitet, behalten)", new=False)
            return existing
        _apply(existing, fields, text, embed_documents([text])[0])
        report.count(step, new=False)
        return existing
    row = knowledge_repo.add_knowledge(
        db=db,
        id=seed_id("knowledge", external_id),
        external_id=external_id,
        search_text=text,
        embedding=embed_documents([text])[0],
        embedding_model=embedding_model_name(),
        seed_hash=new_hash,
        **fields,
    )
    report.count(step, new=True)
    return row


def step_bank(db: Session, report: SeedReport) -> None:
    """Coverage maps and the task bank, in one batch: new rows embedded together, edited rows kept."""
    existing = knowledge_repo.knowledge_by_external_prefix(db=db, prefix="bank:")
    existing |= {k: v for k, v in knowledge_repo.knowledge_by_external_prefix(db=db, prefix="seed:").items()
                 if k.endswith(":coverage")}
    todo: list[tuple[SeedRow, str, AgentKnowledge | None]] = []
    for row in bank_rows():
        old = existing.get(row.external_id)
        if old is not None and old.content == row.fields["content"] and old.description == row.fields["description"]:
            continue
        if old is not None and _edited(old):
            report.count("bank (bearbeitet, behalten)", new=False)
            continue
        f = row.fields
        todo.append((row, knowledge_text(content=f["content"], thema=f.get("thema"), description=f["description"]),
                     old))
    embeddings = embed_documents([text for _, text, _ in todo]) if todo else []
    fresh = []
    for (row, text, old), emb in zip(todo, embeddings, strict=True):
        if old is not None:
            _apply(old, row.fields, text, emb)
            report.count("bank", new=False)
            continue
        fresh.append({**row.fields, "id": seed_id("knowledge", row.external_id), "external_id": row.external_id,
                      "search_text": text, "embedding": emb,
                      "embedding_model": embedding_model_name(),
                      "seed_hash": content_hash(row.fields["content"], row.fields["description"])})
        report.count("bank", new=True)
    for i in range(0, len(fresh), 500):
        knowledge_repo.add_knowledge_rows(db=db, rows=fresh[i:i + 500])


def _upsert_chunk(db: Session, report: SeedReport, external_id: str, **fields: Any) -> None:
    existing = knowledge_repo.curriculum_by_external_id(db=db, external_id=external_id)
    text = " ".join([fields.get("themenfeld") or "", fields["thema"], fields["kompetenz"]])
    if existing is not None:
        if existing.kompetenz == fields["kompetenz"] and existing.thema == fields["thema"]:
            return
        for key, value in fields.items():
            setattr(existing, key, value)
        existing.embedding = embed_documents([text])[0]
        existing.embedding_model = embedding_model_name()
        report.count("curriculum", new=False)
        return
    knowledge_repo.add_curriculum(
        db=db, external_id=external_id, embedding=embed_documents([text])[0], embedding_model=embedding_model_name(),
        **fields,
    )
    report.count("curriculum", new=True)


# --- steps -------------------------------------------------------------------------------------------------------


def step_subject_profiles(db: Session, report: SeedReport) -> None:
    for s in load_subjects():
        _upsert_knowledge(
            db, report, "subject_profiles", f"seed:{s.fach}:profile",
            agent_type=SUBJECT_WIDE, scope_type="global", scope_id=None, owner_id=None, fach=s.fach, thema=None,
            knowledge_type="generic", content=s.profile.model_dump(), description=f"Fach-Profil {s.name}",
            quality_score=1.0, source="system",
        )
        _upsert_knowledge(
            db, report, "operators", f"seed:{s.fach}:operatoren",
            agent_type=SUBJECT_WIDE, scope_type="global", scope_id=None, owner_id=None, fach=s.fach, thema=None,
            knowledge_type="operator_list", content={"operatoren": [o.model_dump() for o in s.operatoren]},
            description=f"Operatorenliste {s.name}", quality_score=1.0, source="system",
        )


def step_good_practices(db: Session, report: SeedReport) -> None:
    for s in load_subjects():
        for i, gp in enumerate(s.good_practices, start=1):
            content = gp.model_dump(exclude={"thema", "description"})
            content["erwartung"] = [c.model_dump() for c in gp.erwartung]
            _upsert_knowledge(
                db, report, "good_practices", f"seed:{s.fach}:gp:{i:02d}",
                agent_type="klausur", scope_type="global", scope_id=None, owner_id=None, fach=s.fach,
                thema=gp.thema, knowledge_type="good_practice", content=content, description=gp.description,
                quality_score=0.8, source="system",
            )
        for i, q in enumerate(s.quiz, start=1):
            _upsert_knowledge(
                db, report, "quiz", f"seed:{s.fach}:quiz:{i:02d}",
                agent_type="h5p", scope_type="global", scope_id=None, owner_id=None, fach=s.fach, thema=q.thema,
                knowledge_type="good_practice", content=q.model_dump(exclude={"thema"}),
                description=q.frage[:200], quality_score=0.8, source="system",
            )
        for i, d in enumerate(s.differenzierung, start=1):
            _upsert_knowledge(
                db, report, "differenzierung", f"seed:{s.fach}:diff:{i:02d}",
                agent_type="differenzierung", scope_type="global", scope_id=None, owner_id=None, fach=s.fach,
                thema=d.thema, knowledge_type="good_practice", content=d.model_dump(exclude={"thema"}),
                description=d.lernziel[:200], quality_score=0.8, source="system",
            )


def step_curriculum(db: Session, report: SeedReport) -> None:
    for s in load_subjects():
        for i, c in enumerate(s.curriculum, start=1):
            _upsert_chunk(
                db, report, f"seed:{s.fach}:lp:{i:02d}",
                scope_type="global", scope_id=None, owner_id=None, fach=s.fach, bundesland=c.bundesland,
                schulform=c.schulform, klassenstufen=c.klassenstufen, themenfeld=c.themenfeld, thema=c.thema,
                kompetenz=c.kompetenz, quelle=c.quelle, abschnitt=c.abschnitt,
            )


def step_demo_school(db: Session, report: SeedReport) -> None:
    demo = load_demo()
    schools: dict[str, uuid.UUID] = {}
    for sc in demo["schools"]:
        row = db.scalar(sa.select(School).where(School.name == sc["name"]))
        if row is None:
            row = School(name=sc["name"], bundesland=sc["bundesland"], schulform=sc["schulform"],
                         settings=sc.get("settings", {}))
            db.add(row)
            db.flush()
            report.count("demo_school", new=True)
        schools[sc["key"]] = row.id
    classes: dict[str, uuid.UUID] = {}
    for cl in demo["classes"]:
        sid = schools[cl["school"]]
        row = db.scalar(sa.select(SchoolClass).where(SchoolClass.school_id == sid, SchoolClass.name == cl["name"],
                                                     SchoolClass.schuljahr == cl["schuljahr"]))
        if row is None:
            row = SchoolClass(school_id=sid, name=cl["name"], klassenstufe=cl["klassenstufe"],
                              schuljahr=cl["schuljahr"])
            db.add(row)
            db.flush()
            report.count("demo_school", new=True)
        classes[f'{cl["school"]}:{cl["name"]}'] = row.id
    teachers: dict[str, uuid.UUID] = {}
    for t in demo["teachers"]:
        row = db.scalar(sa.select(Teacher).where(Teacher.email == t["email"]))
        if row is None:
            row = Teacher(id=seed_id("teacher", t["email"]), name=t["name"], email=t["email"],
                          bundesland=t["bundesland"], faecher=t["faecher"],
                          role=t.get("role", "teacher"), school_id=schools.get(t.get("school", "")),
                          settings=t.get("settings", {}))
            db.add(row)
            db.flush()
            report.count("demo_school", new=True)
        teachers[t["key"]] = row.id
        for link in t.get("classes", []):
            cid = classes[f'{t["school"]}:{link["class"]}']
            if db.get(TeacherClass, (row.id, cid, link["fach"])) is None:
                db.add(TeacherClass(teacher_id=row.id, class_id=cid, fach=link["fach"]))
                db.flush()
    for k in demo["knowledge"]:
        scope_type = k["scope"]
        scope_id = {"teacher": teachers.get(k.get("teacher", "")), "class": classes.get(k.get("class", "")),
                    "school": schools.get(k.get("school", ""))}.get(scope_type)
        _upsert_knowledge(
            db, report, "demo_knowledge", k["external_id"],
            agent_type=k.get("agent_type", "klausur"), scope_type=scope_type, scope_id=scope_id,
            owner_id=teachers.get(k.get("owner", k.get("teacher", ""))), fach=k["fach"], thema=k.get("thema"),
            knowledge_type=k["knowledge_type"], content=k["content"], description=k.get("description"),
            quality_score=k.get("quality_score", 0.5), source=k.get("source", "conversation"),
            rating_count=k.get("rating_count", 0),
        )


def step_prompt_versions(db: Session, report: SeedReport) -> None:
    from agents.prompts import DEFAULTS
    from db.repos import prompts as prompt_repo

    for name, text in DEFAULTS.items():
        if not prompt_repo.versions(db=db, agent_name=name):
            prompt_repo.add_version(db=db, agent_name=name, text=text, note="Standard aus dem Code",
                                    created_by=None, activate=True)
            report.count("prompt_versions", new=True)


STEPS: list[tuple[str, Callable[[Session, SeedReport], None]]] = [
    ("subject_profiles", step_subject_profiles),
    ("good_practices", step_good_practices),
    ("curriculum", step_curriculum),
    ("bank", step_bank),
    ("demo_school", step_demo_school),
    ("prompt_versions", step_prompt_versions),
]


def run_seed(db: Session) -> SeedReport:
    """Run every step in order (as the system identity). Idempotent: a second run reports nothing new."""
    report = SeedReport()
    for name, step in STEPS:
        log.info("seed step %s", name)
        step(db, report)
        db.flush()
    return report


def fingerprint() -> str:
    """Changes whenever seed content or the list of steps changes (then the idempotent seed runs again)."""
    h = hashlib.sha256(",".join(name for name, _ in STEPS).encode())
    for path in [*sorted(DATA.glob("*.json")), *map(Path, bank_files())]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    from agents.prompts import DEFAULTS

    h.update(json.dumps(DEFAULTS, sort_keys=True).encode())
    return h.hexdigest()[:16]


def is_seeded(db: Session) -> bool:
    return bool(db.scalar(sa.select(sa.func.count()).select_from(Teacher))) and bool(
        db.scalar(sa.select(sa.func.count()).select_from(CurriculumChunk))
    )
