"""A specialist agent (klausur | differenzierung | h5p): its material type, a ClarificationRequest or an Absage as
output, the shared guarded toolsets, and the instructions built from the prompt, the Wissenskarte and the targets."""

from __future__ import annotations

from pydantic_ai import Agent, RunContext

from agents.compose_tool import COMPOSE_TOOLS
from agents.deps import SpecialistDeps
from agents.guard import GuardedToolset
from agents.models.limits import TOOL_TIMEOUT_S
from agents.prompts import instructions_for
from agents.specialist_tools import SPECIALIST_TOOLS
from core.materials.replies import Absage, ClarificationRequest
from core.safety.service import DATA_NOTE, OPEN


def specialist_instructions(name: str, deps: SpecialistDeps) -> str:
    """Base prompt + the Wissenskarte + the concrete targets, in the words the specialist reads."""
    parts = [instructions_for(name, deps.turn.db), "", deps.wissenskarte]
    if OPEN in deps.wissenskarte:  # quoted notes of colleagues: say what the markers mean, right under them
        parts.append(DATA_NOTE)
    ziel = "/".join(str(deps.afb_ziel.get(k, 0)) for k in ("I", "II", "III"))
    herkunft = {"request": "vom Auftrag", "preference": "aus den Präferenzen", "answer": "von der Lehrkraft",
                "profile": "nur Fachprofil-Standard, nicht von der Lehrkraft bestätigt"}.get(deps.afb_quelle, "")
    if name == "klausur":
        parts.append(f"AFB-Zielverteilung I/II/III: {ziel} % ({herkunft}).")
    if deps.final:
        parts.append("Es sind keine weiteren Rückfragen möglich: Erstelle das Material jetzt mit den bekannten "
                     "Angaben und sinnvollen Standardwerten.")
    return "\n".join(parts)


def specialist_agent(name: str, output: type) -> Agent:
    """A specialist: its material type or a ClarificationRequest as output, the shared guarded toolset, the
    instructions built from the Wissenskarte. Each specialist module adds its own output validator."""
    agent: Agent = Agent(
        output_type=[output, ClarificationRequest, Absage],
        deps_type=SpecialistDeps,
        toolsets=[GuardedToolset(SPECIALIST_TOOLS), GuardedToolset(COMPOSE_TOOLS)],
        tool_timeout=TOOL_TIMEOUT_S,
        name=name,
        retries={"tools": 2, "output": 3},
        defer_model_check=True,
    )

    @agent.instructions
    def _instructions(ctx: RunContext[SpecialistDeps]) -> str:
        return specialist_instructions(name, ctx.deps)

    return agent
