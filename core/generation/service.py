"""The two phases behind the main agent's tools: start a generation, continue it after the teacher's answer.

Each returns a finished, checked, stored material, or a Rückfrage whose specialist run waits in `agent_sessions`.
"""

from __future__ import annotations

import logging
import uuid

from pydantic import ValidationError

from agents.deps import TurnContext
from core.app.errors import UserError
from core.generation.answers import answer_hash, resolve_answer
from core.generation.failures import fail
from core.generation.outcomes import GenerationOutcome
from core.generation.prepare import prepare_deps
from core.generation.run import auftrag_prompt, run_specialist
from core.generation.sessions import BUSY, not_waiting, now, restore_run
from core.knowledge.preferences import remember_afb_answer
from core.language.afb import parse_afb_answer
from core.materials.request import MaterialRequest
from db.repos import sessions as session_repo

log = logging.getLogger(__name__)


async def start_generation(*, turn: TurnContext, request: MaterialRequest) -> GenerationOutcome:
    """Phase 1: run the specialist; a finished material, or a Rückfrage persisted as a waiting session."""
    try:
        if request.material_type == "klausur" and not request.dauer_minuten:
            raise UserError("Für eine Klausur fehlt die Dauer (z. B. 45 Minuten oder eine Doppelstunde).")
        if request.klassenstufe is None:
            raise UserError("Es fehlt die Klassenstufe (5 bis 13).")
        deps = prepare_deps(turn, request)
    except UserError as exc:
        return fail(turn, exc.message)
    return await run_specialist(turn, deps, prompt=auftrag_prompt(deps.request), history=None, session_id=None)


async def continue_generation(*, turn: TurnContext, session_id: str, answer: str) -> GenerationOutcome:
    """Phase 2: the teacher answered a Rückfrage; resume the specialist's stored run exactly where it stopped."""
    try:
        sid = uuid.UUID(str(session_id).strip())
    except ValueError:
        return fail(turn, "Diese Rückfrage kenne ich nicht (ungültige Sitzungs-ID). Bitte die Anfrage neu stellen.")
    answer = (answer or "").strip()
    if not answer:
        return fail(turn, "Die Antwort auf die Rückfrage ist leer. Bitte kurz antworten, z. B. mit einem Vorschlag.")
    session = session_repo.get_session(db=turn.db, session_id=sid)
    if session is None or session.teacher_id != turn.teacher.id:
        return fail(turn, "Diese Rückfrage gehört nicht zu Ihrem Konto oder existiert nicht (mehr).")
    digest = answer_hash(answer)
    if (refused := not_waiting(turn, session, digest)) is not None:
        return refused
    # The claim's row lock holds until this turn commits: a concurrent continue (another conversation, another
    # process) waits briefly and then finds the session no longer waiting. The turn is all or nothing, so a failed
    # run leaves the session waiting, ready for the next answer.
    claimed = session_repo.claim_session(db=turn.db, session_id=sid, teacher_id=turn.teacher.id, now=now())
    if claimed is None:
        return fail(turn, BUSY)
    try:
        deps, history = restore_run(turn, claimed)
    except (ValidationError, ValueError, TypeError, KeyError, UserError) as exc:
        log.warning("session %s could not be restored: %s", sid, exc)
        session_repo.update_session(db=turn.db, session_id=sid, status="expired")
        return fail(turn, "Die gespeicherte Rückfrage ließ sich nicht mehr laden (das Format hat sich geändert). "
                          "Bitte stellen Sie die Anfrage neu — es geht nichts verloren, was schon fertig war.")
    vorschlaege = list((claimed.question or {}).get("vorschlaege") or [])
    resolved = resolve_answer(answer, vorschlaege)
    afb = parse_afb_answer(resolved)
    if afb is not None:
        deps.afb_ziel, deps.afb_quelle = {"I": afb[0], "II": afb[1], "III": afb[2]}, "answer"
        deps.request = deps.request.model_copy(update={"afb_ziel": deps.afb_ziel})
    prompt = answer if resolved == answer else f"{answer}\n(gewählter Vorschlag: {resolved})"
    outcome = await run_specialist(turn, deps, prompt=prompt, history=history, session_id=sid, answer_hash=digest)
    if afb is not None:  # the chosen split is the teacher's preference for the Fach (also when the topic is refused)
        note = remember_afb_answer(db=turn.db, teacher=turn.teacher, agent_type=deps.agent_type, fach=deps.fach,
                                   afb=deps.afb_ziel)
        if note and outcome.kind in ("material", "error"):
            outcome.text += f"\n{note}" if outcome.kind == "material" else f" {note}"
    return outcome
