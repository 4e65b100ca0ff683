"""The curated task bank (issue #11): every Fach at Lehrplan breadth, every item through the same checks as generated
content, and a seed that keeps what curators and teachers changed."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.checks.arithmetic.calculations import check_calculations
from core.checks.calibration import _profile, bank_tasks
from core.checks.filler import filler_reason, topic_stems
from db.models import AgentKnowledge
from seeds.bank import MIN_AUFGABEN, MIN_DIFF, MIN_QUIZ, MIN_TOPICS, check_fach, check_topic, load_coverage, load_topic
from seeds.schema import FACH_KEYS
from seeds.steps import SeedReport, step_bank


@pytest.mark.parametrize("fach", FACH_KEYS)
def test_every_fach_has_25_topics_each_with_the_full_set(fach: str) -> None:
    problems, rows = check_fach(fach)
    assert problems == [], problems[:10]
    assert len(rows) >= MIN_TOPICS
    assert all(a >= MIN_AUFGABEN and q >= MIN_QUIZ and d >= MIN_DIFF for _, a, q, d in rows), rows
    coverage = load_coverage(fach)
    assert coverage is not None
    assert any(t.stufe == "oberstufe" for t in coverage.topics) and any(t.stufe == "sek1" for t in coverage.topics)


def test_every_bank_item_passes_the_content_gate() -> None:
    flagged = []
    for fach, thema, task, exam in bank_tasks():
        _, ops = _profile(fach)
        if reason := filler_reason(task, topic_stems(thema), ops, check_criteria=exam):
            flagged.append(f"{task.ref}: {reason}")
    assert flagged == []


def test_every_calculation_in_the_bank_recomputes() -> None:
    wrong = []
    for fach in FACH_KEYS:
        coverage = load_coverage(fach)
        for topic in coverage.topics if coverage else []:
            bank = load_topic(fach, topic.id)
            for a in bank.aufgaben if bank else []:
                report = check_calculations([c.kriterium for c in a.erwartung])
                wrong += [f"{fach}/{topic.id}/{a.id}: {i.message}" for i in report.issues]
    assert wrong == []


def test_the_seed_is_idempotent_and_keeps_a_curators_edit(db: Session) -> None:
    row = db.scalar(sa.select(AgentKnowledge).where(AgentKnowledge.external_id.like("bank:physik:%"),
                                                    AgentKnowledge.agent_type == "klausur").limit(1))
    assert row is not None
    report = SeedReport()
    step_bank(db, report)
    assert report.inserted == {} and report.updated == {}  # nothing changed since the session's seed
    edited = {**row.content, "aufgabe": row.content["aufgabe"] + " Begründe deine Antwort."}
    row.content = edited
    row.description = "Von der Kuratorin geschärft"
    db.flush()
    step_bank(db, SeedReport())
    db.refresh(row)
    assert row.content == edited and row.description == "Von der Kuratorin geschärft"


def test_a_three_level_worksheet_citing_a_material_it_does_not_carry_is_a_problem() -> None:
    """Klimadiagramme d3 once said 'Nenne mithilfe von M3 …' without a material: the sheet printed no climate data."""
    coverage = load_coverage("geographie")
    topic = next(t for t in coverage.topics if t.id == "klimadiagramme") if coverage else None
    bank = load_topic("geographie", "klimadiagramme")
    assert topic is not None and bank is not None
    item = next(d for d in bank.differenzierung if d.id == "d3")
    assert item.material == "m3" and not [p for p in check_topic("geographie", topic, bank) if "d3" in p]
    broken = bank.model_copy(update={"differenzierung": [item.model_copy(update={"material": None})]})
    problems = check_topic("geographie", topic, broken)
    assert "differenzierung d3: a task refers to a material (M1, 'Z. 3' …) but the item has none" in problems
