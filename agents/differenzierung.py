"""The Differenzierung specialist: one Lernziel on exactly three Niveaus, with Hilfekarten and solutions."""

from __future__ import annotations

from pydantic_ai import Agent, ModelRetry, RunContext

from agents.deps import SpecialistDeps
from agents.specialist_tools import check_sources, specialist_agent
from core.materials import ClarificationRequest, DifferenziertesMaterial
from core.validation import validate_differenzierung

differenzierung_agent: Agent[SpecialistDeps, DifferenziertesMaterial | ClarificationRequest] = specialist_agent(
    "differenzierung", DifferenziertesMaterial
)


@differenzierung_agent.output_validator
async def _verify(ctx: RunContext[SpecialistDeps], output: DifferenziertesMaterial | ClarificationRequest
            ) -> DifferenziertesMaterial | ClarificationRequest:
    if isinstance(output, ClarificationRequest):
        if ctx.deps.final:
            raise ModelRetry("Keine Rückfragen mehr möglich: Erstelle das Arbeitsblatt jetzt.")
        return output
    faults = validate_differenzierung(output) + check_sources(ctx.deps, output.quellen)
    if faults:
        ctx.deps.turn.step(f"differenzierung: Prüfung fand {len(faults)} Fehler → Überarbeitung")
        raise ModelRetry("Die Prüfung hat Fehler gefunden. Behebe genau diese:\n- " + "\n- ".join(faults))
    return output
