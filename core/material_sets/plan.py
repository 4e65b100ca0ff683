"""Planning a material set: decompose the request into a checked DAG of at most five sub-requests, and ask for
the facts nobody named (Fach, Klasse, Thema, Dauer) before anything starts.

Offline the rules plan; a real model plans through the planner agent, whose output validator sends every fault
back as a retry. Questions the plan asks itself have no session: answer them by planning again with
`base_from_answer(answer, base)`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from pydantic_ai.exceptions import UnexpectedModelBehavior

from agents.deps import TurnContext
from agents.models.limits import DEFAULT_USAGE_LIMITS
from agents.models.registry import plan_by_rules, planner_model
from agents.planner import (
    DEFAULT_INSTRUCTIONS,
    Plan,
    PlannerDeps,
    normalized,
    plan_faults,
    planner_agent,
    planner_prompt,
)
from agents.prompts import instructions_for
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.material_sets.records import CollectedQuestion, PlanRefused

log = logging.getLogger(__name__)


def _instructions(turn: TurnContext | None) -> str:
    try:
        return instructions_for("supervisor", turn.db if turn is not None else None)
    except KeyError:  # no default registered in agents.prompts yet: the planner's own default
        return DEFAULT_INSTRUCTIONS


async def plan(text: str, context: Mapping[str, Any] | None = None, *, turn: TurnContext | None = None) -> Plan:
    """Decompose a combined request into a checked plan (a DAG of at most five sub-requests).

    Offline the rules plan; a real model plans through `planner_agent`, whose output validator sends every fault
    back as a retry. Raises `PlanRefused` (German) when the plan stays invalid or the request is impossible.
    """
    model = planner_model()
    if model is None:
        draft = plan_by_rules(text, context)
        faults = plan_faults(draft) if draft.parts else []
    else:
        deps = PlannerDeps(instructions=_instructions(turn))
        try:
            result = await planner_agent.run(planner_prompt(text, context), deps=deps, model=model,
                                             usage=turn.usage if turn is not None else None,
                                             usage_limits=DEFAULT_USAGE_LIMITS)
            draft, faults = result.output, []
        except UnexpectedModelBehavior as exc:
            log.warning("planner gave up: %s (last faults: %s)", exc, deps.faults)
            draft, faults = Plan(parts=[]), deps.faults or ["Der Planer hat keinen verwertbaren Plan geliefert."]
    if draft.problems:
        raise PlanRefused(" ".join(draft.problems))
    if faults:
        raise PlanRefused("Ich konnte Ihre Anfrage nicht sicher in einzelne Materialien aufteilen:\n- "
                          + "\n- ".join(faults) + "\nBitte nennen Sie die Materialien einzeln (Art, Fach, Klasse, "
                          "Thema), z. B. „Klausur Physik 10a zu Stromkreisen, 45 Minuten, dazu ein H5P-Quiz“.")
    if not draft.parts:
        raise PlanRefused("In Ihrer Nachricht erkenne ich keine Materialart. Möglich sind Klausuren, differenzierte "
                          "Arbeitsblätter und H5P-Übungen — z. B. „Klausur zu Stromkreisen und ein Quiz dazu“.")
    return normalized(draft)


_GAP_QUESTIONS = {
    "fach": "Für welches Fach sind die Materialien?",
    "klassenstufe": "Für welche Klasse bzw. Klassenstufe?",
    "thema": "Zu welchem Thema?",
    "dauer_minuten": "Wie lange soll die Klausur dauern – 45 Minuten oder eine Doppelstunde (90 Minuten)?",
}
_GAP_SUGGESTIONS = {"dauer_minuten": ["45 Minuten", "90 Minuten"]}


def plan_gaps(p: Plan) -> list[CollectedQuestion]:
    """Facts the router needs that nobody named, as questions asked before anything starts (one per fact)."""
    questions: dict[str, CollectedQuestion] = {}
    for part in p.parts:
        missing = [f for f in ("fach", "klassenstufe", "thema") if not getattr(part, f)]
        if part.material_type == "klausur" and not part.dauer_minuten:
            missing.append("dauer_minuten")
        for f in missing:
            q = questions.get(f)
            if q is None:
                questions[f] = CollectedQuestion(part_key=part.key, material_type=part.material_type,
                                                 frage=_GAP_QUESTIONS[f], vorschlaege=list(_GAP_SUGGESTIONS.get(f, [])))
    return list(questions.values())


def base_from_answer(answer: str, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The context for the next `run_combined` after the teacher answered the supervisor's own questions."""
    e = extract(answer, topic_terms=seeded_lexicon().terms)
    out = dict(base or {})
    for name in ("fach", "klassenstufe", "klasse", "thema", "dauer_minuten"):
        if getattr(e, name) is not None:
            out[name] = getattr(e, name)
    if e.afb_verteilung:
        out["afb_ziel"] = dict(zip(("I", "II", "III"), e.afb_verteilung, strict=True))
    return out
