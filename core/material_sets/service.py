"""Material sets for the main agent's tools: `run_combined` (a new combined request — exam + worksheet + quiz in
one message) and `continue_combined` (the teacher's one answer to the collected Rückfragen).

Each sub-request that needs a Rückfrage pauses as its own generation session (`agent_sessions`); the outcome lists
them all in one message and keeps their ids (`CombinedOutcome.questions[*].session_id`, `[session:<id>]` markers
in `.text`). The answer is split across the sessions (see `core.material_sets.answers`) and each one continued.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from agents.deps import TurnContext
from agents.planner import PlanPart
from core.app.observability import report_unexpected
from core.generation.outcomes import GenerationOutcome
from core.generation.service import continue_generation
from core.material_sets.answers import split_answer
from core.material_sets.archive import combined_zip
from core.material_sets.conflicts import plan_conflicts
from core.material_sets.execution import callbacks_on_loop_thread, collected_questions, execute_plan
from core.material_sets.plan import base_from_answer, plan, plan_gaps
from core.material_sets.records import (
    PART_FAILURES,
    SHORT,
    CollectedQuestion,
    CombinedOutcome,
    PartResult,
    PlanRefused,
    part_name,
)
from core.material_sets.synthesis import finish, refuse
from core.materials.faecher import normalize_fach
from core.materials.wording import anzahl
from db.repos import materials as material_repo
from db.repos import sessions as session_repo

__all__ = ["CollectedQuestion", "CombinedOutcome", "base_from_answer", "combined_zip", "continue_combined",
           "run_combined"]


async def run_combined(*, turn: TurnContext, text: str, base: dict | None = None) -> CombinedOutcome:
    """A combined request end to end: plan, ask what is missing, run (independent parts concurrently, dependent
    ones after their source), collect Rückfragen, name conflicts, offer all files and one ZIP."""
    turn.step("Supervisor: zerlege die Anfrage in Einzelmaterialien")
    try:
        p = await plan(text, base, turn=turn)
    except PlanRefused as exc:
        return refuse(turn, exc.message)
    if len(turn.teacher.faecher or []) == 1 and any(not x.fach for x in p.parts):
        only = normalize_fach(turn.teacher.faecher[0], required=False)
        p = p.model_copy(update={"parts": [x if x.fach else x.model_copy(update={"fach": only}) for x in p.parts]})
    turn.step("Supervisor: Plan — " + "; ".join(
        f"{x.key}: {SHORT[x.material_type]} ({x.confidence:.0%})" + (f" nach {', '.join(x.depends_on)}"
                                                                      if x.depends_on else "") for x in p.parts))
    gaps = plan_gaps(p)
    if gaps:
        return finish(turn, p, [], plan_conflicts(p), gaps, list(p.notes),
                       intro=f"Gern — das sind {len(p.parts)} Materialien: "
                             + ", ".join(part_name(x) for x in p.parts) + ".")
    done = await execute_plan(turn, p)
    results = [done[x.key] for x in p.parts]
    conflicts = plan_conflicts(p, done)
    return finish(turn, p, results, conflicts, collected_questions(results), list(p.notes))


async def continue_combined(*, turn: TurnContext, session_ids: Sequence[str | uuid.UUID], answer: str,
                            earlier_material_ids: Sequence[uuid.UUID] = ()) -> CombinedOutcome:
    """The teacher's one answer to the collected Rückfragen: split it, continue each paused sub-request, and answer
    once more with everything (including `earlier_material_ids`, the set's finished materials, in the ZIP)."""
    questions: list[CollectedQuestion] = []
    for raw in session_ids:
        try:
            sid = uuid.UUID(str(raw).strip())
        except ValueError:
            continue
        s = session_repo.get_session(db=turn.db, session_id=sid)
        if s is None or s.teacher_id != turn.teacher.id or s.status != "waiting":
            continue
        q = s.question or {}
        questions.append(CollectedQuestion(part_key=str(sid), material_type=s.agent_type, frage=q.get("frage", ""),
                                           kontext=q.get("kontext", ""), vorschlaege=list(q.get("vorschlaege") or []),
                                           session_id=sid))
    if not questions:
        return refuse(turn, "Zu diesen Rückfragen wartet nichts mehr (schon beantwortet, abgelaufen oder nicht "
                              "Ihre). Die fertigen Materialien liegen unter „Meine Materialien“.")
    routed, unrouted = split_answer(answer, questions)
    results: list[PartResult] = []
    with callbacks_on_loop_thread(turn, [q.material_type for q in questions]):
        for q in questions:
            part_answer = routed.get(q.session_id)  # type: ignore[arg-type]
            part = PlanPart(key=q.part_key, material_type=q.material_type, thema=None)
            if not part_answer:
                results.append(PartResult(part=part, outcome=GenerationOutcome(
                    kind="rueckfrage", text="", session_id=q.session_id, question=None)))
                continue
            result = PartResult(part=part)
            try:
                result.outcome = await continue_generation(turn=turn, session_id=str(q.session_id),
                                                           answer=part_answer)
            except PART_FAILURES as exc:
                result.error = f"konnte nicht fortgesetzt werden (Fehler-ID {report_unexpected(exc)})"
            if result.outcome is not None and result.outcome.kind == "material" and result.outcome.material_id:
                result.material = material_repo.get_material(db=turn.db, material_id=result.outcome.material_id)
                result.part = part.model_copy(update={"thema": result.material.thema if result.material else None})
            elif result.outcome is not None and result.outcome.kind == "error":
                result.error = result.outcome.text.removeprefix("FEHLER: ")
            results.append(result)
    still = [q for q in questions if q.session_id not in routed]
    still += collected_questions(results)
    notes = [f"Diesen Teil Ihrer Antwort konnte ich keiner Rückfrage zuordnen: „{c}“." for c in unrouted]
    intro = f"Danke — ich habe Ihre Antwort auf {anzahl(len(routed), 'Rückfrage')} verteilt:"
    return finish(turn, None, results, [], still, notes, extra_ids=earlier_material_ids, intro=intro)
