"""Running a specialist (klausur | differenzierung | h5p) with prepared deps, and what its output leads to:
a stored material, a Rückfrage session waiting for the teacher, or an honest Absage.

After three Rückfragen the specialist is told to generate with what it has; a reworked material passes
`version_of` so the result is stored as the next version of the earlier one.
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.exceptions import UnexpectedModelBehavior

from agents.deps import SpecialistDeps, TurnContext
from agents.differenzierung import differenzierung_agent
from agents.h5p import h5p_agent
from agents.klausur import klausur_agent
from agents.models.calls import current_call_log
from agents.models.fallback import note_fallback
from agents.models.limits import DEFAULT_USAGE_LIMITS
from agents.models.names import OFFLINE_MODEL_NAME
from agents.models.registry import is_guarded, model_for
from core.generation.failures import fail
from core.generation.opening import opening
from core.generation.outcomes import GenerationOutcome
from core.generation.sessions import finish_session, history_json, pause_run
from core.generation.store import NewVersion, store_generated
from core.generation.texts import NAMES, absage_text
from core.materials.replies import Absage, ClarificationRequest
from core.materials.request import MaterialRequest

MAX_RUECKFRAGEN = 3
FINAL_PROMPT = ("KEINE_WEITEREN_RUECKFRAGEN: Es sind bereits drei Rückfragen gestellt worden. Erstelle das Material "
                "jetzt mit den bekannten Angaben und sinnvollen Standardwerten.")
SPECIALISTS: dict[str, Agent[SpecialistDeps, Any]] = {
    "klausur": klausur_agent, "differenzierung": differenzierung_agent, "h5p": h5p_agent,
}


def auftrag_prompt(request: MaterialRequest) -> str:
    """The specialist's first user prompt: the request as JSON (models and the offline rules both read it)."""
    return "Auftrag:\n```json\n" + request.model_dump_json(exclude_none=True) + "\n```"


async def _run_guarded(agent: Agent[SpecialistDeps, Any], deps: SpecialistDeps, prompt: str | None,
                       history: list[Any] | None) -> Any:
    """The specialist's run; when a real model's answers never pass validation (output retries used up), the run is
    made again with that model skipped, so the offline model builds the material and the teacher is told."""
    turn, role = deps.turn, deps.agent_type
    calls = current_call_log()
    seen = len(calls.records) if calls is not None else 0
    try:
        return await agent.run(prompt, deps=deps, message_history=history, model=model_for(role), usage=turn.usage,
                               usage_limits=DEFAULT_USAGE_LIMITS)
    except UnexpectedModelBehavior:
        real = [r.model for r in (calls.records[seen:] if calls is not None else []) if r.model != OFFLINE_MODEL_NAME]
        if not real or not is_guarded(role):
            raise  # the offline model itself failed (a bug), or an evaluation measures this model: no fallback
        note_fallback(role, real[-1], "invalid_output")
        return await agent.run(prompt, deps=deps, message_history=history, model=model_for(role), usage=turn.usage,
                               usage_limits=DEFAULT_USAGE_LIMITS)


async def run_specialist(turn: TurnContext, deps: SpecialistDeps, *, prompt: str, history: list[Any] | None,
                         session_id: uuid.UUID | None, answer_hash: str | None = None,
                         version_of: NewVersion | None = None) -> GenerationOutcome:
    """Run the specialist for `deps` (resuming `history` when given) and act on its output."""
    agent = SPECIALISTS[deps.agent_type]
    turn.step(f"{NAMES[deps.agent_type]} arbeitet ({len(deps.wissenskarte)} Zeichen Wissenskarte)")
    first: str | None = prompt
    if history is None and (opened := await opening(deps, prompt)) is not None:
        first, history = None, opened  # the prompt is the opening's first message
    result = await _run_guarded(agent, deps, first, history)
    model = model_for(deps.agent_type)  # the real model is skipped from here on if it failed above
    output = result.output
    if isinstance(output, ClarificationRequest) and deps.rueckfragen >= MAX_RUECKFRAGEN:
        turn.step(f"{NAMES[deps.agent_type]}: schon {MAX_RUECKFRAGEN} Rückfragen — erstellt jetzt ohne weitere")
        deps.final = True
        result = await agent.run(FINAL_PROMPT, deps=deps, message_history=result.all_messages(), model=model,
                                 usage=turn.usage, usage_limits=DEFAULT_USAGE_LIMITS)
        output = result.output
    if not isinstance(output, ClarificationRequest):  # a Rückfrage keeps its run in the session; finished runs here
        turn.specialist_traces.append({"agent": deps.agent_type, "history": history_json(result.all_messages_json())})
    if isinstance(output, Absage):
        if session_id is not None:
            finish_session(turn, session_id, answer_hash=answer_hash)
        turn.step(f"{NAMES[deps.agent_type]}: kein gutes Material möglich — sagt es offen")
        return fail(turn, absage_text(deps.agent_type, output))
    if isinstance(output, ClarificationRequest):
        return pause_run(turn, deps, output, history_json(result.all_messages_json()), session_id)
    outcome = store_generated(turn, deps, output, result.all_messages(), version_of=version_of)
    if session_id is not None:
        finish_session(turn, session_id, answer_hash=answer_hash, material_id=outcome.material_id,
                       history=history_json(result.all_messages_json()))
    return outcome
