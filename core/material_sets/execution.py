"""Running a material set: independent parts concurrently, dependent ones after their source (taking its topic
and Aufgaben titles), each through the material generation; a part's model failure is reported, not fatal."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Mapping, Sequence

from agents.deps import TurnContext
from agents.planner import Plan, PlanPart, topological_levels
from agents.prompts import instructions_for, override_prompts
from core.app.observability import report_unexpected
from core.generation.service import start_generation
from core.material_sets.records import PART_FAILURES, SHORT, CollectedQuestion, PartResult
from core.materials.request import MaterialRequest
from db.repos import materials as material_repo

log = logging.getLogger(__name__)


@contextlib.contextmanager
def callbacks_on_loop_thread(turn: TurnContext, types: Sequence[str]) -> Iterator[None]:
    """All sub-runs share one (sync) SQLAlchemy session: keep every callback on the event-loop thread.

    pydantic-ai runs plain `def` callbacks (instructions, FunctionModel rules) in worker threads; the specialists'
    instructions read the active prompt from the database. The prompts are read here, once, and pinned through
    `override_prompts`; `disable_threads` (pydantic-ai 2.62, used for Temporal) runs sync callbacks inline.
    """
    texts = {t: instructions_for(t, turn.db) for t in dict.fromkeys(types)}
    with contextlib.ExitStack() as stack:
        stack.enter_context(override_prompts(**texts))
        try:
            from pydantic_ai._utils import disable_threads
        except ImportError:  # a later pydantic-ai: the pinned prompts still keep the database off other threads
            log.debug("pydantic_ai._utils.disable_threads not available")
        else:
            stack.enter_context(disable_threads())
        yield


def _request_for(part: PlanPart, done: Mapping[str, PartResult]) -> MaterialRequest:
    """The router request; a part that follows another takes its finished topic and Aufgaben titles."""
    request = part.to_request()
    extra: list[str] = []
    for d in part.depends_on:
        src = done.get(d)
        if src is None or src.material is None:
            continue
        titles = [a.get("titel", "") for a in (src.material.content or {}).get("aufgaben", [])]
        aufgaben = f" (Aufgaben: {'; '.join(titles)})" if titles else ""
        verb = "Passend zu" if d == part.topic_from else "Zur Vorbereitung auf"
        extra.append(f"{verb} „{src.material.titel}“{aufgaben}.")
        if d == part.topic_from:
            request = request.model_copy(update={"thema": src.material.thema})
    if extra:
        request = request.model_copy(update={"zusatz": f"{request.zusatz} {' '.join(extra)}".strip()[:500]})
    return request


async def _run_part(turn: TurnContext, part: PlanPart, request: MaterialRequest) -> PartResult:
    result = PartResult(part=part, request=request)
    try:
        result.outcome = await start_generation(turn=turn, request=request)
    except PART_FAILURES as exc:
        error_id = report_unexpected(exc, context=f"supervisor part {part.key}")
        result.error = f"konnte nicht erstellt werden (Modellfehler, Fehler-ID {error_id})"
        return result
    if result.outcome.kind == "material" and result.outcome.material_id:
        result.material = material_repo.get_material(db=turn.db, material_id=result.outcome.material_id)
    elif result.outcome.kind == "error":
        result.error = result.outcome.text.removeprefix("FEHLER: ")
    return result


async def execute_plan(turn: TurnContext, p: Plan) -> dict[str, PartResult]:
    levels = topological_levels(p.parts) or [[x.key for x in p.parts]]
    done: dict[str, PartResult] = {}
    with callbacks_on_loop_thread(turn, [x.material_type for x in p.parts]):
        for level in levels:
            parts = [p.part(k) for k in level]
            turn.step("Supervisor: " + " und ".join(SHORT[x.material_type] for x in parts)
                      + (" parallel" if len(parts) > 1 else ""))
            outs = await asyncio.gather(*(_run_part(turn, x, _request_for(x, done)) for x in parts),
                                        return_exceptions=True)
            for x, out in zip(parts, outs, strict=True):
                if isinstance(out, BaseException):
                    raise out  # a bug, not a model failure: the turn rolls back as a whole
                done[x.key] = out
    return done


def collected_questions(results: Sequence[PartResult]) -> list[CollectedQuestion]:
    out = []
    for r in results:
        o = r.outcome
        if o is not None and o.kind == "rueckfrage" and o.question is not None:
            out.append(CollectedQuestion(part_key=r.part.key, material_type=r.part.material_type,
                                         frage=o.question.frage, kontext=o.question.kontext,
                                         vorschlaege=list(o.question.vorschlaege), session_id=o.session_id))
    return out
