"""Which models an evaluation runs: the model under test for the agent's role (a real model without the
offline fallback), the LLM judge (only with a real model), the default model of an agent."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic_evals.evaluators import EvaluatorContext, LLMJudge, OutputConfig

from agents.models.calls import LoggedModel
from agents.models.limits import RetryingModel
from agents.models.names import OFFLINE, check_model_name, model_name_for_role
from agents.models.providers import construct_real_model
from agents.models.registry import offline_model
from core.evaluation.player import CaseInputs, CaseOutput
from core.evaluation.suites import TYP_NAMEN

JUDGE_RUBRIC = ("Das Material ist fachlich korrekt, altersgerecht für die angegebene Klassenstufe und eindeutig "
                "formuliert (jede Aufgabe ist ohne Rückfrage verständlich).")


@dataclass
class SubjectJudge(LLMJudge):
    """The LLM judge sees the teacher's request and the material only (not the run's bookkeeping)."""

    async def evaluate(self, ctx: EvaluatorContext[object, object, object]) -> Any:
        out = ctx.output
        if not isinstance(out, CaseOutput) or out.material is None:
            return {}
        inputs = ctx.inputs.anfrage if isinstance(ctx.inputs, CaseInputs) else ctx.inputs
        return await super().evaluate(replace(ctx, inputs=inputs, output=out.material))


def judge_model_name(run_model: str) -> str | None:
    """The judge's model: WERKBANK_MODEL_JUDGE/WERKBANK_MODEL when real, else the run's model when real, else None."""
    for name in (model_name_for_role("judge"), run_model):
        if name and name != OFFLINE:
            return name
    return None


def build_judge(run_model: str) -> SubjectJudge | None:
    """The LLM judge (rubric: fachlich korrekt, altersgerecht, eindeutig) — only with a real model, never offline."""
    name = judge_model_name(run_model)
    if name is None:
        return None
    model = LoggedModel(RetryingModel(construct_real_model(name)), role="judge")
    return SubjectJudge(rubric=JUDGE_RUBRIC, model=model, include_input=True,
                        assertion=OutputConfig(evaluation_name="urteil", include_reason=True),
                        score=OutputConfig(evaluation_name="urteil_wert", include_reason=False))


def model_overrides(agent: str, model: str) -> dict[str, Any]:
    """The model under test for the agent's role when it differs from the configured one. A real model runs
    without the offline fallback here: an evaluation must measure that model, not the fallback."""
    check_model_name(model)
    if model == model_name_for_role(agent):
        return {}
    if model == OFFLINE:
        return {agent: offline_model(agent)}
    return {agent: RetryingModel(construct_real_model(model))}


def default_model(agent: str) -> str:
    """The model an agent runs with today (what a run evaluates unless another model is named)."""
    return model_name_for_role(agent) if agent in ("main", *TYP_NAMEN) else model_name_for_role("main")
