"""The Differenzierung specialist: one Lernziel on exactly three Niveaus, with Hilfekarten and solutions."""

from __future__ import annotations

from pydantic_ai import Agent, ModelRetry, RunContext

from agents.deps import SpecialistDeps
from agents.specialist import specialist_agent
from agents.specialist_checks import check_sources, gate_faults
from core.checks.structure import validate_differenzierung
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.replies import Absage, ClarificationRequest

DiffOutput = DifferenziertesMaterial | ClarificationRequest | Absage
differenzierung_agent: Agent[SpecialistDeps, DiffOutput] = specialist_agent("differenzierung", DifferenziertesMaterial)


@differenzierung_agent.output_validator
async def _verify(ctx: RunContext[SpecialistDeps], output: DifferenziertesMaterial | ClarificationRequest | Absage
            ) -> DifferenziertesMaterial | ClarificationRequest | Absage:
    if isinstance(output, Absage):
        return output
    if isinstance(output, ClarificationRequest):
        if ctx.deps.final:
            raise ModelRetry("Keine Rückfragen mehr möglich: Erstelle das Arbeitsblatt jetzt.")
        return output
    faults = validate_differenzierung(output) + check_sources(ctx.deps, output.quellen) + gate_faults(ctx.deps, output)
    if faults:
        ctx.deps.turn.step(f"differenzierung: Prüfung fand {len(faults)} Fehler → Überarbeitung")
        raise ModelRetry("Die Prüfung hat Fehler gefunden. Behebe genau diese:\n- " + "\n- ".join(faults))
    return output
