"""The health report for operators: database reachable, migrations current, pgvector, embedder, models and their
fallback, open Rückfragen, failed model calls of the last hour."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from agents.models.names import model_name_for_role
from core.knowledge.embeddings import embedding_model_name
from db.repos import ops as ops_repo
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
    h = Health(ok=True)
    try:
        with unit_of_work(Identity.system()) as db:
            server, pgvector = ops_repo.server_versions(db=db)
            h.add("Datenbank erreichbar", True, f"PostgreSQL {server}")
            version = tuple(int(p) for p in (pgvector or "0").split(".")[:2])
            h.add("pgvector", version >= (0, 7), f"Version {pgvector}")
            cur, head = current_revision(db.connection()), head_revision()
            h.add("Migrationen aktuell", cur == head, f"Stand {cur}, Ziel {head}")
            now = datetime.now(UTC)
            waiting, overdue = ops_repo.waiting_sessions(db=db, now=now)
            h.add("Offene Rückfragen", True, f"{waiting} wartend, {overdue} überfällig (Aufräumjob markiert sie)")
            recent = ops_repo.call_outcomes_since(db=db, since=now - timedelta(hours=1))
            failures = sum(n for outcome, n in recent if outcome not in ("ok", "retry"))
            h.add("Modellaufrufe der Lehrkräfte (1 h)", failures == 0,
                  ", ".join(f"{o}: {n}" for o, n in recent) or "keine")
            # Evaluation runs probe models on purpose (also unreachable ones): counted apart, never a problem here.
            evals = ops_repo.call_outcomes_since(db=db, since=now - timedelta(hours=1), evaluation=True)
            h.add("Modellaufrufe von Evaluationen (1 h)", True, ", ".join(f"{o}: {n}" for o, n in evals) or "keine")
    except Exception as exc:  # the health page reports, it does not crash
        h.add("Datenbank erreichbar", False, f"{type(exc).__name__}: {str(exc)[:200]}")
        return h
    h.add("Embedder", True, embedding_model_name())
    models = {role: model_name_for_role(role) for role in ("main", "klausur", "differenzierung", "h5p")}
    offline = all(m == "offline" for m in models.values())
    h.add("Modelle", True, "Offline-Modus (regelbasiert)" if offline else
          "; ".join(f"{r}: {m}" for r, m in models.items()) + " — Fallback: Offline-Modell")
    return h
