"""Operations: the health report for operators and the retention job for old sessions and traces."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from core.app.config import get_settings
from db.models import AgentSession, Conversation, ConversationMessage, LlmCall
from db.session import Identity, current_revision, head_revision, unit_of_work


@dataclass
class Health:
    ok: bool
    checks: list[dict[str, Any]] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append({"Prüfung": name, "Status": "ok" if ok else "Problem", "Details": detail})
        self.ok = self.ok and ok


def health() -> Health:
    """Database reachable, migrations current, pgvector, embedder, models and fallback, waiting sessions."""
    from core.embeddings import embedding_model_name
    from core.llm import ROLES, model_name_for_role

    h = Health(ok=True)
    try:
        with unit_of_work(Identity.system()) as db:
            facts = db.execute(sa.text("SELECT current_setting('server_version') AS v, (SELECT extversion FROM "
                                       "pg_extension WHERE extname = 'vector') AS pgv")).one()
            h.add("Datenbank erreichbar", True, f"PostgreSQL {facts.v}")
            version = tuple(int(p) for p in (facts.pgv or "0").split(".")[:2])
            h.add("pgvector", version >= (0, 7), f"Version {facts.pgv}")
            cur, head = current_revision(db.connection()), head_revision()
            h.add("Migrationen aktuell", cur == head, f"Stand {cur}, Ziel {head}")
            now = datetime.now(UTC)
            waiting = db.scalar(sa.select(sa.func.count()).select_from(AgentSession)
                                .where(AgentSession.status == "waiting", AgentSession.expires_at > now))
            overdue = db.scalar(sa.select(sa.func.count()).select_from(AgentSession)
                                .where(AgentSession.status == "waiting", AgentSession.expires_at <= now))
            h.add("Offene Rückfragen", True, f"{waiting} wartend, {overdue} überfällig (Aufräumjob markiert sie)")
            recent = db.execute(sa.select(LlmCall.outcome, sa.func.count()).where(
                LlmCall.created_at > now - timedelta(hours=1)).group_by(LlmCall.outcome)).all()
            failures = sum(n for outcome, n in recent if outcome not in ("ok", "retry"))
            h.add("Modellaufrufe (1 h)", failures == 0, ", ".join(f"{o}: {n}" for o, n in recent) or "keine")
    except Exception as exc:  # the health page reports, it does not crash
        h.add("Datenbank erreichbar", False, f"{type(exc).__name__}: {str(exc)[:200]}")
        return h
    h.add("Embedder", True, embedding_model_name())
    models = {role: model_name_for_role(role) for role in ("main", "klausur", "differenzierung", "h5p")}
    offline = all(m == "offline" for m in models.values())
    h.add("Modelle", True, "Offline-Modus (regelbasiert)" if offline else
          "; ".join(f"{r}: {m}" for r, m in models.items()) + " — Fallback: Offline-Modell")
    assert ROLES
    return h


@dataclass(frozen=True)
class RetentionReport:
    sessions_expired: int
    sessions_deleted: int
    llm_calls_deleted: int
    conversations_deleted: int

    def lines(self) -> list[str]:
        return [f"Rückfragen als abgelaufen markiert: {self.sessions_expired}",
                f"Alte Rückfragen gelöscht: {self.sessions_deleted}",
                f"Alte Modellaufruf-Protokolle gelöscht: {self.llm_calls_deleted}",
                f"Alte Gespräche gelöscht: {self.conversations_deleted}"]


def retention(*, session_days: int | None = None, trace_days: int | None = None,
              conversation_days: int | None = None, now: datetime | None = None) -> RetentionReport:
    """Mark overdue waiting sessions expired; delete finished sessions, call logs and (optionally) conversations
    older than the configured number of days. Never touches a session that is still waiting and unexpired."""
    env = os.environ
    session_days = session_days if session_days is not None else int(env.get("WERKBANK_RETAIN_SESSION_DAYS", 30))
    trace_days = trace_days if trace_days is not None else int(env.get("WERKBANK_RETAIN_TRACE_DAYS", 90))
    conversation_days = conversation_days if conversation_days is not None else int(
        env.get("WERKBANK_RETAIN_CONVERSATION_DAYS", 0))  # 0 = keep conversations
    now = now or datetime.now(UTC)
    with unit_of_work(Identity.system()) as db:
        expired = db.execute(sa.update(AgentSession).where(AgentSession.status == "waiting",
                                                           AgentSession.expires_at <= now)
                             .values(status="expired")).rowcount
        deleted = db.execute(sa.delete(AgentSession).where(
            AgentSession.status.in_(("expired", "completed", "failed")),
            AgentSession.updated_at < now - timedelta(days=session_days))).rowcount
        calls = db.execute(sa.delete(LlmCall).where(LlmCall.created_at < now - timedelta(days=trace_days))).rowcount
        convs = 0
        if conversation_days > 0:
            # A conversation's sessions go with it (ON DELETE CASCADE): keep any conversation whose Rückfrage still
            # waits, even when the session TTL is longer than the conversation retention.
            waits = sa.exists().where(AgentSession.conversation_id == Conversation.id,
                                      AgentSession.status == "waiting", AgentSession.expires_at > now)
            old = sa.select(Conversation.id).where(Conversation.updated_at < now - timedelta(days=conversation_days),
                                                   ~waits)
            db.execute(sa.delete(ConversationMessage).where(ConversationMessage.conversation_id.in_(old)))
            convs = db.execute(sa.delete(Conversation).where(Conversation.id.in_(old))).rowcount
    assert get_settings()
    return RetentionReport(expired, deleted, calls, convs)
