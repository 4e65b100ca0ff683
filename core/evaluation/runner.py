"""Running a suite for (agent, prompt version, model): cases one after another, each finished case stored
at once; an interruption marks the run and keeps what is finished."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic_evals import Case, Dataset
from pydantic_evals.evaluators import Evaluator
from pydantic_evals.lifecycle import CaseLifecycle
from pydantic_evals.reporting import ReportCase

from agents.models.calls import CallLog, CallRecord, collect_calls
from agents.models.errors import ModelFailure
from agents.models.names import OFFLINE
from agents.models.registry import override_models
from agents.prompts import override_prompts
from core.app.errors import UserError
from core.app.observability import report_unexpected
from core.evaluation.content import content_evaluators
from core.evaluation.evaluators import (
    AfbShares,
    AppChecks,
    AskedBack,
    Grounded,
    H5PPackage,
    KeyFacts,
    OperatorsFit,
    PointsAddUp,
    SchemaValid,
    ThreeLevels,
    TimeBudget,
    TopicsPresent,
)
from core.evaluation.model_choice import build_judge, default_model, judge_model_name, model_overrides
from core.evaluation.player import CaseInputs, CaseOutput, ensure_eval_teacher, play_case
from core.evaluation.prompts import agent_label, agent_names, resolve_version
from core.evaluation.results import CaseResult, case_result, summarize
from core.evaluation.runs import require_product
from core.evaluation.suites import CaseSpec, Expectation, Suite, load_suite
from db.repos import evals as eval_repo
from db.repos import memory as memory_repo
from db.session import Identity, unit_of_work


def evaluators(run_model: str = "offline") -> list[Evaluator[Any, Any, Any]]:
    found: list[Evaluator[Any, Any, Any]] = [SchemaValid(), KeyFacts(), AskedBack(), PointsAddUp(), AfbShares(),
                                             OperatorsFit(), TimeBudget(), TopicsPresent(), Grounded(), ThreeLevels(),
                                             H5PPackage(), AppChecks(), *content_evaluators()]
    judge = build_judge(run_model)
    return [*found, judge] if judge else found


def build_dataset(suite: Suite, cases: list[CaseSpec], *, run_model: str = "offline"
                  ) -> Dataset[CaseInputs, CaseOutput, Expectation]:
    return Dataset[CaseInputs, CaseOutput, Expectation](
        name=suite.name,
        cases=[Case(name=c.name, metadata=c.erwartet,
                    inputs=CaseInputs(anfrage=c.anfrage, nachrichten=c.nachrichten,
                                      rueckfrage_antwort=c.rueckfrage_antwort or c.erwartet.afb))
               for c in cases],
        evaluators=evaluators(run_model),
    )


class EvalInterrupted(UserError):
    """A run stopped midway; its finished cases are stored and the run is marked interrupted (or failed), or
    „aborted“ when the model under test could not be reached — then there is no quality score at all."""

    def __init__(self, message: str, *, run_id: uuid.UUID, status: str, done: int, keyboard: bool):
        super().__init__(message)
        self.run_id, self.status, self.done, self.keyboard = run_id, status, done, keyboard

    @property
    def aborted(self) -> bool:
        return self.status == "aborted"


@dataclass
class RunReport:
    run_id: uuid.UUID
    suite: str
    agent: str
    prompt_version: int
    model: str
    status: str
    cases: list[CaseResult]
    summary: dict[str, Any]

    @property
    def pass_rate(self) -> float:
        return float(self.summary.get("quote", 0.0))


@dataclass
class _RunState:
    run_id: uuid.UUID
    teacher_id: uuid.UUID
    specs: dict[str, CaseSpec]
    total: int
    extra: dict[str, Any]
    judge_log: CallLog | None = None
    on_progress: Callable[[int, int], None] | None = None
    cases: list[CaseResult] = field(default_factory=list)


def _store_case(state: _RunState, result: CaseResult, calls: list[CallRecord]) -> None:
    """Persist the finished case at once (a later interruption keeps it) with its model calls under the run id."""
    state.cases.append(result)
    with unit_of_work(Identity.system()) as db:
        eval_repo.update_run(db=db, run_id=state.run_id, cases=[c.model_dump(mode="json") for c in state.cases],
                             summary=summarize(state.cases, total=state.total, extra=state.extra))
        memory_repo.add_llm_calls(db=db, rows=[
            {"teacher_id": state.teacher_id, "eval_run_id": state.run_id, "request_id": result.name[:64],
             "role": c.role, "model": c.model, "input_tokens": c.input_tokens, "output_tokens": c.output_tokens,
             "tokens_estimated": c.tokens_estimated, "cost_usd": c.cost_usd or 0.0, "latency_ms": c.latency_ms,
             "outcome": c.outcome, "detail": {"case": result.name, "cost_known": c.cost_usd is not None}}
            for c in calls])


def _recorder(state: _RunState) -> Callable[[Case[Any, Any, Any]], CaseLifecycle[Any, Any, Any]]:
    """Per-case hooks: note where the judge's calls of this case begin; store the case when it is evaluated."""

    class Recorder(CaseLifecycle[CaseInputs, CaseOutput, Expectation]):
        judge_start = 0

        async def setup(self) -> None:
            self.judge_start = len(state.judge_log.records) if state.judge_log is not None else 0

        async def teardown(self, result: Any) -> None:
            if result is None:  # the run was cancelled while this case ran: nothing of it is finished
                return
            stored = case_result(state.specs[result.name], result)
            calls = list(result.output.calls) if isinstance(result, ReportCase) else []
            for r in state.judge_log.records[self.judge_start:] if state.judge_log is not None else []:
                calls.append(r)
                stored.input_tokens += r.input_tokens
                stored.output_tokens += r.output_tokens
                stored.aufrufe += 1
                stored.kosten_usd = round(stored.kosten_usd + (r.cost_usd or 0.0), 6)
                stored.kosten_unbekannt = stored.kosten_unbekannt or r.cost_usd is None
            _store_case(state, stored, calls)
            if state.on_progress is not None:
                state.on_progress(len(state.cases), state.total)

    return Recorder


class _Unreachable(BaseException):  # noqa: N818  # BaseException: pydantic-evals records an Exception per case
    """The model under test could not be reached: stops the whole run (there is nothing to score)."""

    def __init__(self, failure: ModelFailure):
        super().__init__(failure.message)
        self.failure = failure


def _play(inputs: CaseInputs, *, teacher_id: uuid.UUID) -> CaseOutput:
    try:
        return play_case(inputs, teacher_id=teacher_id)
    except ModelFailure as exc:
        if exc.unreachable:
            raise _Unreachable(exc) from exc
        raise


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def run_suite(*, suite: str | Path | Suite, agent: str = "main", prompt_version: str | int | None = None,
              model: str | None = None, limit: int | None = None, created_by: uuid.UUID | None = None,
              on_progress: Callable[[int, int], None] | None = None, source: str = "cli") -> RunReport:
    """Run a suite for (agent, prompt version, model) and store it in eval_runs; returns the report.

    Cases run one after another as the evaluation teacher, each in a rolled-back transaction; every finished case
    is stored at once. A KeyboardInterrupt or an infrastructure error stops the run: it is marked „interrupted“
    („failed“ if no case had finished), the finished cases stay, and `EvalInterrupted` says so in German.
    """
    loaded = suite if isinstance(suite, Suite) else load_suite(suite)
    if agent not in agent_names():
        raise UserError(f"Unbekannter Agent „{agent[:40]}“. Bekannt sind: {', '.join(agent_names())}.")
    if limit is not None and limit < 1:
        raise UserError("--limit muss mindestens 1 sein.")
    cases = loaded.cases_for(agent, limit)
    if not cases:
        raise UserError(f"Die Suite „{loaded.name}“ hat keine Fälle für {agent_label(agent)}.")
    version = resolve_version(agent_name=agent, ref=prompt_version, teacher_id=created_by)
    model_name = (model or default_model(agent)).strip() or OFFLINE
    overrides = model_overrides(agent, model_name)
    dataset = build_dataset(loaded, cases, run_model=model_name)
    judge = judge_model_name(model_name)
    teacher_id = ensure_eval_teacher()
    extra = {"prompt_version": version.version, "prompt_aktiv": version.is_active, "richter": judge,
             "quelle": source, "suite_datei": loaded.path.name, "aussagekraeftig": model_name != OFFLINE}
    with unit_of_work(Identity.system()) as db:
        run_id = eval_repo.create_run(db=db, suite=loaded.name, agent_name=agent, prompt_version_id=version.id,
                                      model=model_name, created_by=created_by,
                                      summary=summarize([], total=len(cases), extra=extra)).id
    state = _RunState(run_id=run_id, teacher_id=teacher_id, specs={c.name: c for c in cases}, total=len(cases),
                      extra=extra, on_progress=on_progress)
    started = time.perf_counter()
    status, problem = "completed", None
    try:
        with override_prompts(**{agent: version.text}), override_models(**overrides), collect_calls() as judge_log:
            state.judge_log = judge_log
            dataset.evaluate_sync(lambda inputs: _play(inputs, teacher_id=teacher_id), task_name="play_case",
                                  name=f"{agent}-v{version.version}", max_concurrency=1, progress=False,
                                  lifecycle=_recorder(state))
    except BaseException as exc:  # includes KeyboardInterrupt and a UI's stop/rerun: the run is marked either way
        problem = _leaf(exc)
        status = "interrupted" if state.cases else "failed"
        if isinstance(problem, _Unreachable):
            status = "aborted"  # the model under test was not reachable: no quality score, not even a partial one
    extra["dauer_s_lauf"] = round(time.perf_counter() - started, 2)
    summary = summarize(state.cases, total=len(cases), extra=extra)
    if problem is not None:
        if isinstance(problem, KeyboardInterrupt):
            reason = "abgebrochen (Strg+C)"
        elif isinstance(problem, _Unreachable):
            reason = f"Modell {model_name} nicht erreichbar – {problem.failure.message}"
        elif not isinstance(problem, Exception):
            reason = "abgebrochen (Seite neu geladen oder Programm beendet)"
        elif isinstance(problem, UserError):
            reason = problem.message
        else:
            reason = f"interner Fehler (Fehler-ID {report_unexpected(problem, context=f'eval run {run_id}')})"
        summary["abbruch"] = reason
    with unit_of_work(Identity.system()) as db:
        eval_repo.finish_run(db=db, run_id=run_id, status=status, finished_at=datetime.now(UTC), summary=summary,
                             cases=[c.model_dump(mode="json") for c in state.cases])
    if problem is not None and not isinstance(problem, Exception | KeyboardInterrupt | _Unreachable):
        raise problem  # control flow of the caller (e.g. Streamlit stopping the script): marked, then passed on
    if status == "aborted":
        raise EvalInterrupted(
            f"Der Lauf wurde abgebrochen: {summary['abbruch']} Das ist kein Qualitätsergebnis; bitte Modell und "
            f"Verbindung prüfen und erneut starten (Lauf {run_id}).", run_id=run_id, status=status,
            done=len(state.cases), keyboard=False) from None
    if problem is not None:
        raise EvalInterrupted(
            f"Der Lauf wurde nach {len(state.cases)} von {len(cases)} Fällen unterbrochen: {summary['abbruch']}. "
            + (f"Die {len(state.cases)} fertigen Fälle sind gespeichert; der Lauf ist als „unterbrochen“ markiert "
               if state.cases else "Es ist kein Fall fertig geworden; der Lauf ist als „fehlgeschlagen“ markiert ")
            + f"(Lauf {run_id}).", run_id=run_id, status=status, done=len(state.cases),
            keyboard=isinstance(problem, KeyboardInterrupt)) from None
    return RunReport(run_id=run_id, suite=loaded.name, agent=agent, prompt_version=version.version, model=model_name,
                     status=status, cases=state.cases, summary=summary)


def start_run(*, teacher_id: uuid.UUID, suite: str, agent: str, prompt_version: str | int | None, model: str | None,
              limit: int | None = None, on_progress: Callable[[int, int], None] | None = None) -> RunReport:
    """A run started from the Prompt-Labor by a person of the product team (stored with them as its author)."""
    require_product(teacher_id)
    return run_suite(suite=suite, agent=agent, prompt_version=prompt_version, model=model, limit=limit,
                     created_by=teacher_id, on_progress=on_progress, source="prompt-labor")
