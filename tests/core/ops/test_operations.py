"""Operations: the health report and the retention job (which never deletes a session that still waits)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from core.ops.health import health
from core.ops.retention import retention
from db import models as m
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person


def test_health_reports_every_check_ok_offline(database) -> None:  # noqa: ANN001
    report = health()
    names = [c["Prüfung"] for c in report.checks]
    assert report.ok, report.checks
    assert {"Datenbank erreichbar", "pgvector", "Migrationen aktuell", "Offene Rückfragen", "Embedder",
            "Modelle"} <= set(names)


def test_health_counts_evaluation_calls_apart_from_the_teachers(database) -> None:  # noqa: ANN001
    # An evaluation that probed an unreachable model is no problem of the teachers' service.
    with unit_of_work(Identity.system()) as db:
        db.add(m.LlmCall(eval_run_id=uuid.uuid4(), role="main", model="weg", outcome="connection"))
    report = health()
    checks = {c["Prüfung"]: c for c in report.checks}
    evals = checks["Modellaufrufe von Evaluationen (1 h)"]
    assert evals["Status"] == "ok" and "connection: " in evals["Details"]
    assert "connection" not in checks["Modellaufrufe der Lehrkräfte (1 h)"]["Details"]
    assert report.ok


def test_retention_keeps_waiting_sessions_and_cleans_old_ones(database) -> None:  # noqa: ANN001
    teacher_id = fresh_person()
    now = datetime.now(UTC)
    with unit_of_work(Identity.system()) as db:
        def session(status: str, expires: datetime, updated: datetime) -> uuid.UUID:
            row = m.AgentSession(teacher_id=teacher_id, agent_type="klausur", status=status, expires_at=expires)
            db.add(row)
            db.flush()
            db.execute(sa.update(m.AgentSession).where(m.AgentSession.id == row.id).values(updated_at=updated))
            return row.id

        waiting = session("waiting", now + timedelta(minutes=30), now)
        overdue = session("waiting", now - timedelta(minutes=5), now - timedelta(hours=2))
        old_done = session("completed", now - timedelta(days=40), now - timedelta(days=40))
        db.add(m.LlmCall(teacher_id=teacher_id, role="main", model="offline-rules",
                         created_at=now - timedelta(days=200)))
    report = retention(session_days=30, trace_days=90, now=now)
    assert report.sessions_expired >= 1 and report.sessions_deleted >= 1 and report.llm_calls_deleted >= 1
    with unit_of_work(Identity.system()) as db:
        status = {r.id: r.status for r in db.scalars(sa.select(m.AgentSession).where(
            m.AgentSession.teacher_id == teacher_id))}
    assert status[waiting] == "waiting"
    assert status[overdue] == "expired"
    assert old_done not in status
