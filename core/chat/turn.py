"""One teacher turn in the main chat: clean -> safety -> lock -> run the main agent -> persist, all or nothing.

The conversation (pydantic-ai messages as JSON) is saved with an optimistic revision check, so a conversation
continues after a restart or in another process, and two writers never overwrite each other silently.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from pydantic_ai import UsageLimitExceeded, capture_run_messages
from pydantic_ai.exceptions import FallbackExceptionGroup, ModelAPIError, RunTimedOut, UnexpectedModelBehavior
from pydantic_ai.messages import (
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    ModelMessage,
    ModelResponse,
    repair_messages,
)
from sqlalchemy.orm import Session

from agents.deps import TurnContext
from agents.main import main_agent
from agents.models.budget import TurnBudget, turn_budget
from agents.models.calls import CallLog, collect_calls, current_call_log
from agents.models.errors import ModelFailure, classify_error, describe_model_error
from agents.models.fallback import fallback_notices, length_notices, note_fallback
from agents.models.limits import DEFAULT_USAGE_LIMITS
from agents.models.names import OFFLINE_MODEL_NAME
from agents.models.registry import is_guarded, model_for
from core.app.config import get_settings
from core.app.errors import ConflictError, NotFoundError, UserError
from core.app.observability import request_id
from core.app.sync import run_sync
from core.chat.history import dump_history, load_history, trim_history, werkbank_reply, with_exchange
from core.chat.message import clean_message
from core.chat.toolsets import select_toolsets
from core.generation.outcomes import MaterialMade, Rueckfrage, SetMade
from core.knowledge.memory import remember_stated_facts
from core.safety.models import Verdict
from core.safety.service import check_request
from db.models import Conversation, Teacher
from db.repos import conversations as conv_repo
from db.repos import materials as material_repo
from db.repos import memory as memory_repo
from db.repos import sessions as session_repo
from db.session import Identity

log = logging.getLogger(__name__)
MIN_OFFLINE_S = 1.0  # below this, the offline rerun of a failed turn would not finish either
# Failures of the model side (provider, behaviour, time): the teacher gets a German message, nothing is stored.
MODEL_FAILURES = (ModelAPIError, UnexpectedModelBehavior, FallbackExceptionGroup, RunTimedOut, TimeoutError)


@dataclass
class ChatResult:
    reply: str
    conversation_id: uuid.UUID
    model: str
    session_id: str | None = None
    question: dict[str, Any] | None = None
    material_id: str | None = None
    files: list[dict[str, str]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    material_ids: list[str] = field(default_factory=list)  # every material of the turn (a combined request: all)

    def as_json(self) -> dict[str, Any]:
        return {"reply": self.reply, "conversation_id": str(self.conversation_id), "session_id": self.session_id,
                "material_id": self.material_id, "material_ids": self.material_ids,
                "files": [f["filename"] for f in self.files],
                "question": self.question, "notices": self.notices, "model": self.model}


def _short(value: Any, limit: int = 90) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _open_conversation(db: Session, teacher: Teacher, text: str, conversation_id: uuid.UUID | None
                       ) -> tuple[Conversation, list[ModelMessage]]:
    """A new conversation, or the teacher's existing one locked for this turn with its history."""
    if conversation_id is None:
        return conv_repo.create_conversation(db=db, teacher_id=teacher.id, title=text[:80]), []
    conv = conv_repo.get_conversation(db=db, conversation_id=conversation_id)
    if conv is None or conv.teacher_id != teacher.id:
        raise NotFoundError("Dieses Gespräch gibt es nicht (oder es gehört einer anderen Lehrkraft).")
    # One turn at a time per conversation: a second window waits briefly, then is told instead of racing.
    conv = conv_repo.lock_conversation(db=db, conversation_id=conv.id)
    if conv is None:
        db.rollback()
        raise ConflictError("Dieses Gespräch wird gerade an anderer Stelle bearbeitet (z. B. in einem anderen "
                            "Fenster). Bitte warten, bis die Antwort dort erscheint, und die Seite neu laden.")
    try:
        return conv, load_history(conv.history)
    except ValidationError:
        log.warning("conversation %s history no longer loads; starting fresh", conv.id)
        return conv, []


def _answer(turn: TurnContext, text: str, history: list[ModelMessage], verdict: Verdict, model_role: str,
            step: Callable[[str], None], budget: TurnBudget) -> tuple[list[ModelMessage], str]:
    """The turn's messages and reply: the main agent's run, the guard's refusal, or a partial answer at a limit.

    A real model that fails in a way its fallback chain cannot catch (a stream that breaks or runs past its
    deadline after it started, answers that never pass validation) takes the turn down once: its work is rolled
    back and the turn runs again, with every real model that answered so far skipped — the offline model answers
    in the time the budget kept in reserve, and the notices say so.
    """

    async def events(ctx: Any, stream: Any) -> None:
        async for ev in stream:
            if isinstance(ev, FunctionToolCallEvent):
                step(f"Assistent ruft {ev.part.tool_name} auf ({_short(ev.part.args, 120)})")
            elif isinstance(ev, FunctionToolResultEvent):
                step(f"→ {_short(getattr(ev.part, 'content', ''))}")

    async def run() -> Any:
        return await asyncio.wait_for(
            main_agent.run(text, deps=turn, message_history=history, model=model_for(model_role),
                           usage_limits=DEFAULT_USAGE_LIMITS, event_stream_handler=events),
            timeout=max(1.0, budget.remaining),
        )

    with capture_run_messages() as captured:
        try:
            if not verdict.allowed:
                reply = verdict.message or "Dabei kann die Werkbank nicht helfen."
                step(f"Schutzprüfung: {verdict.category} — Anfrage nicht bearbeitet")
                return with_exchange(history, text, reply), reply
            savepoint = turn.db.begin_nested()
            try:
                result = run_sync(run())
            except MODEL_FAILURES as exc:
                if not _offline_again(turn, exc, budget):
                    raise
                savepoint.rollback()
                turn.outcomes.clear()
                result = run_sync(run())
            else:
                savepoint.commit()
            return result.all_messages(), result.output
        except UserError:
            turn.db.rollback()
            raise
        except UsageLimitExceeded as exc:
            # A partial answer: what the turn finished stays (materials are complete units), the rest is named.
            reply = describe_model_error(exc) or "Die Anfrage war zu umfangreich für einen Durchgang."
            done = [o.titel for o in turn.outcomes if isinstance(o, MaterialMade)]
            if done:
                reply += " Fertig geworden ist bereits: " + ", ".join(done) + "."
            log.warning("turn %s stopped by usage limit: %s", turn.request_id, exc)
            return [*repair_messages(captured), werkbank_reply(reply)], reply
        except MODEL_FAILURES as exc:
            turn.db.rollback()
            log.warning("turn failed (%s): %s", type(exc).__name__, exc)
            raise ModelFailure(describe_model_error(exc), kind=classify_error(exc)) from exc
        except BaseException:
            turn.db.rollback()  # a bug, not a model failure: the caller logs it with an id; nothing is stored
            raise


def _offline_again(turn: TurnContext, exc: BaseException, budget: TurnBudget) -> bool:
    """Take the real models of this turn out of it (they are skipped from now on) if one was used and time is left;
    False when there is nothing to fall back from (the offline model itself failed) or no time."""
    calls = current_call_log()
    used = list(dict.fromkeys(r.model for r in (calls.records if calls else []) if r.model != OFFLINE_MODEL_NAME))
    if not used or not is_guarded("main") or budget.remaining < 2 * MIN_OFFLINE_S:
        return False
    kind = classify_error(exc)
    for model in used:
        note_fallback("main", model, "invalid_output" if kind in ("unexpected", "error") else kind)
    log.warning("turn %s: real model failed (%s: %s); answering offline", turn.request_id, type(exc).__name__, exc)
    return True


def _last(turn: TurnContext, kind: type[Any]) -> Any:
    return next((o for o in reversed(turn.outcomes) if isinstance(o, kind)), None)


def _meta(turn: TurnContext, model_name: str, notices: list[str], steps: list[str]) -> dict[str, Any]:
    """What the assistant message keeps besides its text: model, steps, and the turn's material or Rückfrage."""
    material: MaterialMade | None = _last(turn, MaterialMade)
    material_set: SetMade | None = _last(turn, SetMade)
    question: Rueckfrage | None = _last(turn, Rueckfrage)
    return {"model": model_name, "notices": notices, "steps": steps[-40:], "request_id": turn.request_id,
            "material_ids": [str(i) for i in material_set.material_ids] if material_set else [],
            "session_ids": [str(i) for i in material_set.session_ids] if material_set else [],
            "material_id": str(material.material_id) if material else None,
            "session_id": str(question.session_id) if question else None,
            "question": question.question() if question else None,
            "specialist_traces": turn.specialist_traces}


def _persist(turn: TurnContext, conv: Conversation, revision: int, text: str, reply: str,
             messages: list[ModelMessage], meta: dict[str, Any], calls: CallLog) -> None:
    """Save history (revision-checked), both messages, stated facts and the model calls; commit the turn."""
    new_revision = conv_repo.save_conversation(
        db=turn.db, conversation_id=conv.id, expected_revision=revision,
        history=dump_history(messages), state={"last_request_id": turn.request_id},
    )
    if new_revision is None:
        turn.db.rollback()
        raise ConflictError("Dieses Gespräch wurde inzwischen an anderer Stelle fortgesetzt. Bitte die Seite neu "
                            "laden; Ihre Nachricht wurde nicht gespeichert.")
    conv_repo.add_message(db=turn.db, conversation_id=conv.id, teacher_id=turn.teacher.id, role="user", content=text)
    conv_repo.add_message(db=turn.db, conversation_id=conv.id, teacher_id=turn.teacher.id, role="assistant",
                          content=reply, meta=meta)
    remember_stated_facts(db=turn.db, teacher=turn.teacher, text=text)
    memory_repo.add_llm_calls(db=turn.db, rows=_call_rows(turn, calls, conv.id))
    turn.db.commit()
    log.info("turn done model=%s material=%s rueckfrage=%s calls=%d", meta["model"], meta["material_id"],
             meta["session_id"], len(calls.records))


def _keep_calls(turn: TurnContext, calls: CallLog, *, conv_id: uuid.UUID | None) -> None:
    """A failed turn stores nothing of its own — except its model calls: their cost and latency are real. A
    conversation started by the failed turn no longer exists, so those rows hang on no conversation."""
    try:
        turn.db.rollback()
        memory_repo.add_llm_calls(db=turn.db, rows=_call_rows(turn, calls, conv_id))
        turn.db.commit()
    except Exception:  # the teacher's error message matters more than the bookkeeping
        turn.db.rollback()
        log.exception("turn %s: could not keep the model calls of a failed turn", turn.request_id)


def _call_rows(turn: TurnContext, calls: CallLog, conv_id: uuid.UUID | None) -> list[dict[str, Any]]:
    return [{**c.__dict__, "cost_usd": c.cost_usd or 0.0, "teacher_id": turn.teacher.id, "conversation_id": conv_id,
             "request_id": turn.request_id, "detail": {**c.detail, "cost_known": c.cost_usd is not None}}
            for c in calls.records]


def chat_turn(*, db: Session, identity: Identity, teacher: Teacher, message: str,
              conversation_id: uuid.UUID | None = None, on_step: Callable[[str], None] | None = None,
              model_role: str = "main", notices: Sequence[str] = ()) -> ChatResult:
    """Run one turn and commit it as a whole; on any failure nothing of the turn is stored. `notices`: what the
    attachments' checks told the teacher (stored with the turn like the turn's own notices)."""
    text = clean_message(message)
    # Safety and scope first: refused requests never reach the agent; pupils' personal data is never stored.
    verdict = check_request(text)
    guard_notice = verdict.message if verdict.allowed and verdict.message else None
    text = verdict.redacted_text or text
    conv, history = _open_conversation(db, teacher, text, conversation_id)
    history = trim_history(history, get_settings().werkbank_history_token_budget)
    revision = conv.revision
    steps: list[str] = []

    def step(line: str) -> None:
        steps.append(line)
        if on_step is not None:
            on_step(line)

    turn = TurnContext(db=db, identity=identity, teacher=teacher, conversation_id=conv.id,
                       request_id=secrets.token_hex(6), on_step=step)
    request_id.set(turn.request_id)
    turn.toolsets = select_toolsets(
        text=text, has_materials=bool(conv_repo.materials_in(db=db, conversation_id=conv.id)),
        open_rueckfrage=open_question(db=db, conversation_id=conv.id) is not None, has_uploads="[Anhang " in text)
    step(turn.toolsets.describe())
    log.info("turn start conversation=%s teacher=%s chars=%d", conv.id, teacher.id, len(text))
    with turn_budget() as budget, collect_calls(notify=step) as calls:
        try:
            messages, reply = _answer(turn, text, history, verdict, model_role, step, budget)
        except UserError:
            _keep_calls(turn, calls, conv_id=conversation_id)
            raise
    notices = [n for n in [*notices, guard_notice, *fallback_notices(calls), *length_notices(calls)] if n]
    model_name = next((m.model_name for m in reversed(messages) if isinstance(m, ModelResponse) and m.model_name
                       and m.model_name != "werkbank"), "offline-rules")
    if not verdict.allowed:
        model_name = "Schutzprüfung (regelbasiert)"
    meta = _meta(turn, model_name, notices, steps)
    _persist(turn, conv, revision, text, reply, messages, meta, calls)
    files = []
    if meta["material_id"]:
        for f in material_repo.files_of(db=db, material_id=uuid.UUID(meta["material_id"])):
            files.append({"id": str(f.id), "filename": f.filename, "kind": f.kind, "mime": f.mime})
    return ChatResult(reply=reply, conversation_id=conv.id, model=model_name, session_id=meta["session_id"],
                      question=meta["question"], material_id=meta["material_id"], files=files, notices=notices,
                      steps=steps, material_ids=meta["material_ids"] or ([meta["material_id"]] if meta["material_id"]
                                                                          else []))


def open_question(*, db: Session, conversation_id: uuid.UUID) -> dict[str, Any] | None:
    """The Rückfrage still waiting in this conversation (shown again after a reload), if any."""
    s = session_repo.waiting_session_for(db=db, conversation_id=conversation_id)
    if s is None or not s.question:
        return None
    q = s.question
    if not isinstance(q, dict) or not isinstance(q.get("frage"), str) or \
            not isinstance(q.get("vorschlaege") or [], list):
        # A malformed row must not block its conversation until it expires: it expires now (the teacher asks anew).
        log.warning("agent session %s is malformed; expired", s.id)
        session_repo.update_session(db=db, session_id=s.id, status="expired")
        return None
    return {"session_id": str(s.id), **{k: q.get(k) for k in ("frage", "kontext", "vorschlaege")}}
