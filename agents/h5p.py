"""The H5P specialist: interactive exercises (MultiChoice, TrueFalse, Blanks, DragText) that validate."""

from __future__ import annotations

from pydantic_ai import Agent, ModelRetry, RunContext

from agents.deps import SpecialistDeps
from agents.specialist import specialist_agent
from agents.specialist_checks import check_sources, gate_faults
from core.checks.structure import validate_h5p
from core.materials.h5p import H5PSet
from core.materials.replies import Absage, ClarificationRequest

h5p_agent: Agent[SpecialistDeps, H5PSet | ClarificationRequest | Absage] = specialist_agent("h5p", H5PSet)


@h5p_agent.output_validator
async def _verify(ctx: RunContext[SpecialistDeps], output: H5PSet | ClarificationRequest | Absage
                  ) -> H5PSet | ClarificationRequest | Absage:
    if isinstance(output, Absage):
        return output
    if isinstance(output, ClarificationRequest):
        if ctx.deps.final:
            raise ModelRetry("Keine Rückfragen mehr möglich: Erstelle die Übung jetzt.")
        return output
    faults = validate_h5p(output) + check_sources(ctx.deps, output.quellen) + gate_faults(ctx.deps, output)
    if faults:
        ctx.deps.turn.step(f"h5p: Prüfung fand {len(faults)} Fehler → Überarbeitung")
        raise ModelRetry("Die Prüfung hat Fehler gefunden. Behebe genau diese:\n- " + "\n- ".join(faults))
    return output
