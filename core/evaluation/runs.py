"""Stored runs as the Prompt-Labor reads them: the list, one run with its cases, cost per case from
llm_calls — readable by the product team only."""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.evaluation.formats import fmt_pct
from core.evaluation.results import CaseResult
from core.evaluation.suites import TYP_NAMEN
from core.materials.dates import local_time
from core.materials.faecher import fach_name
from db.repos import evals as eval_repo
from db.session import Identity, unit_of_work

STATUS_NAMEN = {"running": "läuft", "completed": "abgeschlossen", "interrupted": "unterbrochen",
                "failed": "fehlgeschlagen", "aborted": "abgebrochen"}
OFFLINE_NOTE = ("Offline-Lauf: prüft Code und Wissensbasis, nicht den Prompt – für die Prompt-Version nicht "
                "aussagekräftig. Für eine Aussage über den Prompt mit einem echten Modell evaluieren.")


STALE_AFTER_S = 15 * 60


def require_product(teacher_id: uuid.UUID) -> None:
    with acting(teacher_id) as (_, teacher, _):
        if teacher.role != "product":
            raise UserError("Evaluationsläufe sind dem Produktteam vorbehalten. Bitte links eine Person aus dem "
                            "Produktteam wählen.")


@dataclass(frozen=True)
class RunInfo:
    id: uuid.UUID
    suite: str
    agent: str
    prompt_version: int | None
    model: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    summary: dict[str, Any]
    cases: list[CaseResult] = field(default_factory=list)

    @property
    def status_label(self) -> str:
        if self.status == "running":
            updated = self.summary.get("aktualisiert")
            with contextlib.suppress(TypeError, ValueError):
                if (datetime.now(UTC) - datetime.fromisoformat(updated)).total_seconds() > STALE_AFTER_S:
                    return "läuft nicht mehr (keine Rückmeldung)"
        return STATUS_NAMEN.get(self.status, self.status)

    @property
    def version_label(self) -> str:
        return f"v{self.prompt_version}" if self.prompt_version is not None else "v?"

    @property
    def short(self) -> str:
        return f"{self.agent} {self.version_label} · {self.model}"

    @property
    def label(self) -> str:
        done = f"{self.summary.get('faelle_fertig', 0)}/{self.summary.get('faelle_gesamt', 0)} Fälle"
        return (f"{local_time(self.started_at)} · {self.suite} · {self.short} · "
                f"{fmt_pct(float(self.summary.get('quote', 0.0)))} · {done} · {self.status_label}")


def run_info(row: Any, version: int | None, cases: list[Any] | None = None) -> RunInfo:
    return RunInfo(id=row.id, suite=row.suite, agent=row.agent_name, prompt_version=version, model=row.model,
                   status=row.status, started_at=row.started_at, finished_at=row.finished_at,
                   summary=dict(row.summary or {}), cases=[CaseResult.model_validate(c) for c in cases or []])


def list_runs(*, teacher_id: uuid.UUID, limit: int = 50, suite: str | None = None) -> list[RunInfo]:
    """The latest runs (newest first), as the product person sees them (RLS: product team only)."""
    require_product(teacher_id)
    with acting(teacher_id) as (db, _, _):
        return [run_info(r, r.version) for r in eval_repo.list_runs(db=db, limit=limit, suite=suite)]


def load_run(db: Session, run_id: uuid.UUID | str) -> RunInfo:
    try:
        key = run_id if isinstance(run_id, uuid.UUID) else uuid.UUID(str(run_id).strip())
    except ValueError:
        raise NotFoundError(f"„{str(run_id)[:40]}“ ist keine gültige Lauf-ID.") from None
    row = eval_repo.get_run(db=db, run_id=key)
    if row is None:
        raise NotFoundError("Diesen Evaluationslauf gibt es nicht (mehr).")
    return run_info(row, eval_repo.version_number(db=db, prompt_version_id=row.prompt_version_id), row.cases)


def run_detail(*, teacher_id: uuid.UUID, run_id: uuid.UUID | str) -> RunInfo:
    require_product(teacher_id)
    with acting(teacher_id) as (db, _, _):
        return load_run(db, run_id)


def case_table(run: RunInfo) -> list[dict[str, Any]]:
    """One row per case: what passed, what failed (with the first reason), duration, tokens, cost."""
    rows = []
    for c in run.cases:
        failed = c.failed
        rows.append({"Fall": c.name, "Typ": TYP_NAMEN.get(c.typ, c.typ), "Fach": fach_name(c.fach),
                     "Bestanden": f"{c.passed}/{c.total}", "Quote": c.passed / c.total if c.total else 0.0,
                     "Nicht bestanden": "; ".join(f"{k}: {v.grund}" for k, v in failed.items())[:300] or "–",
                     "Dauer (s)": round(c.dauer_s, 2), "Tokens": c.input_tokens + c.output_tokens,
                     "Kosten (USD)": None if c.kosten_unbekannt else round(c.kosten_usd, 6)})
    return rows


@dataclass(frozen=True)
class RunCosts:
    rows: list[dict[str, Any]]  # per case, from llm_calls
    calls: int
    input_tokens: int
    output_tokens: int
    estimated: bool
    cost_usd: float
    cost_unknown: bool


def run_costs(*, teacher_id: uuid.UUID, run_id: uuid.UUID) -> RunCosts:
    """Tokens and cost per case and per run, read from llm_calls (eval_run_id). The rows belong to the evaluation
    teacher, so they are read as the system once the person is known to be on the product team."""
    require_product(teacher_id)
    with unit_of_work(Identity.system()) as db:
        calls = eval_repo.calls_of_run(db=db, run_id=run_id)
        per_case: dict[str, dict[str, Any]] = {}
        for c in calls:
            row = per_case.setdefault(c.request_id or "?", {"Fall": c.request_id, "Aufrufe": 0, "Tokens ein": 0,
                                                             "Tokens aus": 0, "Zählung": "gemeldet",
                                                             "Kosten (USD)": 0.0, "Modelle": set()})
            row["Aufrufe"] += 1
            row["Tokens ein"] += c.input_tokens
            row["Tokens aus"] += c.output_tokens
            row["Modelle"].add(f"{c.role}: {c.model}")
            if c.tokens_estimated:
                row["Zählung"] = "geschätzt"
            if not (c.detail or {}).get("cost_known", True):
                row["Kosten (USD)"] = None
            elif row["Kosten (USD)"] is not None:
                row["Kosten (USD)"] = round(row["Kosten (USD)"] + float(c.cost_usd or 0), 6)
        rows = [{**r, "Modelle": ", ".join(sorted(r["Modelle"]))} for r in per_case.values()]
        return RunCosts(rows=rows, calls=len(calls), input_tokens=sum(c.input_tokens for c in calls),
                        output_tokens=sum(c.output_tokens for c in calls),
                        estimated=any(c.tokens_estimated for c in calls),
                        cost_usd=round(sum(float(c.cost_usd or 0) for c in calls), 6),
                        cost_unknown=any(not (c.detail or {}).get("cost_known", True) for c in calls))


def case_detail(*, teacher_id: uuid.UUID, run_id: uuid.UUID | str, case_name: str) -> tuple[RunInfo, CaseResult]:
    run = run_detail(teacher_id=teacher_id, run_id=run_id)
    case = next((c for c in run.cases if c.name == case_name), None)
    if case is None:
        raise NotFoundError(f"Den Fall „{case_name[:80]}“ gibt es in diesem Lauf nicht.")
    return run, case


def check_rows(case: CaseResult) -> list[dict[str, str]]:
    return [{"Prüfung": k, "Ergebnis": "✓" if v.ok else "✗", "Begründung": v.grund} for k, v in case.checks.items()]


def stored_run(run_id: uuid.UUID) -> RunInfo:
    """A run as stored, read as the system (the CLI has no acting person)."""
    with unit_of_work(Identity.system()) as db:
        return load_run(db, run_id)
