"""Which models an evaluation runs: the model under test for the agent's role (a real model without the
offline fallback), the LLM judge (only with a real model), the default model of an agent."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic_evals.evaluators import EvaluatorContext, LLMJudge, OutputConfig

from agents.models.calls import LoggedModel
from agents.models.limits import RetryingModel
from agents.models.names import OFFLINE, check_model_name, model_env, model_name_for_role
from agents.models.providers import LOCAL_PROVIDERS, construct_real_model
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
    """The judge's model: WERKBANK_MODEL_JUDGE when set ('offline' = no judge); else WERKBANK_MODEL or the run's
    model when it is a real hosted model — never silently a local test model (docs/local-model.md §2), never offline."""
    if explicit := model_env().get("WERKBANK_MODEL_JUDGE"):
        return None if explicit == OFFLINE else explicit
    for name in (model_name_for_role("judge"), run_model):
        if name and name != OFFLINE and check_model_name(name).provider not in LOCAL_PROVIDERS:
            return name
    return None


def build_judge(run_model: str) -> SubjectJudge | None:
    """The LLM judge (rubric: fachlich korrekt, altersgerecht, eindeutig) — only with a real model, never offline."""
    name = judge_model_name(run_model)
    if name is None:
        return None
    model = LoggedModel(RetryingModel(construct_real_model(name, "judge")), role="judge")
    return SubjectJudge(rubric=JUDGE_RUBRIC, model=model, include_input=True,
                        assertion=OutputConfig(evaluation_name="urteil", include_reason=True),
                        score=OutputConfig(evaluation_name="urteil_wert", include_reason=False))


EVAL_ROLES = ("main", "klausur", "differenzierung", "h5p", "supervisor")
"""The roles a case runs through: all of them get the model under test, so a run measures one model."""


def model_overrides(agent: str, model: str) -> dict[str, Any]:
    """The model under test for every role of a case, without the offline fallback: an evaluation must measure
    that model, not the fallback — also when it is the configured one (a configured model is guarded in chat)."""
    check_model_name(model)
    if model == OFFLINE:  # only where a real model is configured (a test's own override stays in place otherwise)
        return {role: offline_model(role) for role in EVAL_ROLES
                if role != "supervisor" and model_name_for_role(role) != OFFLINE}
    return {role: RetryingModel(construct_real_model(model, role)) for role in EVAL_ROLES}


def default_model(agent: str) -> str:
    """The model an agent runs with today (what a run evaluates unless another model is named)."""
    return model_name_for_role(agent) if agent in ("main", *TYP_NAMEN) else model_name_for_role("main")
