"""Sitzungen & Traces: Rückfrage sessions by status, a conversation's stored agent history as readable steps, and
its model calls with totals. Everything is read acting as the person, so RLS decides what they see.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from core.app.acting import ROLE_LABELS, acting
from core.app.errors import NotFoundError, UserError
from core.generation.texts import NAMES
from core.materials.dates import SCHOOL_TZ, local_time
from db.repos import browse
from db.repos import conversations as conv_repo
from db.repos import memory as memory_repo
from db.repos import privacy as privacy_repo

BODY_LIMIT = 6000
_SAFE_NAME = re.compile(r"[^\w.\-]")
SESSION_STATUS: dict[str, str] = {"waiting": "Wartend", "completed": "Abgeschlossen", "expired": "Abgelaufen",
                                  "running": "Läuft", "failed": "Fehlgeschlagen"}
AGENT_NAMES = NAMES  # the specialists as the teacher knows them
MEDIA_KINDS = {"binary", "image-url", "audio-url", "video-url", "document-url", "uploaded-file"}
OUTCOME_LABELS = {"retried": "↺ Wiederholung angefordert", "failed": "✗ Werkzeug fehlgeschlagen",
                  "denied": "⛔ Werkzeugaufruf abgelehnt", "interrupted": "⏸ Werkzeugaufruf unterbrochen"}


# --- trace of a stored pydantic-ai history -------------------------------------------------------------------------


@dataclass(frozen=True)
class TraceStep:
    """One readable step: who said or did what, in history order."""

    nummer: int
    kind: str  # system | instructions | user | tool_call | tool_return | retry | text | thinking | other
    label: str
    body: str
    is_json: bool = False
    tool_name: str | None = None
    outcome: str | None = None
    model: str | None = None


def _clip(text: str) -> str:
    return text if len(text) <= BODY_LIMIT else f"{text[:BODY_LIMIT]}\n… (gekürzt, {len(text):,} Zeichen)".replace(
        ",", ".")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def _args(args: Any) -> tuple[str, bool]:
    """Tool arguments arrive as a dict or as the model's raw JSON string (possibly invalid)."""
    if isinstance(args, str):
        try:
            return _json(json.loads(args)), True
        except ValueError:
            return args, False
    return (_json(args), True) if args not in (None, {}) else ("(keine Argumente)", False)


def _media(item: Any) -> str | None:
    """Text of a multimodal prompt item: strings as they are, files as a short marker (never their bytes)."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and item.get("kind") in ("text-content", "structured-content"):
        return str(item.get("content", ""))
    if isinstance(item, dict) and item.get("kind") in MEDIA_KINDS:
        return f"[{item['kind']}{': ' + str(item['media_type']) if item.get('media_type') else ''}]"
    return None


def _content(content: Any) -> tuple[str, bool]:
    if isinstance(content, str):
        return content, False
    if isinstance(content, list) and content and all(isinstance(c, dict) and "msg" in c for c in content):
        # validation error details of a retry: "loc: msg" lines read better than the raw dicts
        return "\n".join(f"{'.'.join(map(str, c.get('loc') or ())) or '–'}: {c['msg']}" for c in content), False
    if isinstance(content, list) and content:
        items = [_media(c) for c in content]
        if all(i is not None for i in items):
            return "\n".join(i for i in items if i is not None), False
    return _json(content), True


def _retry_note(part: dict[str, Any]) -> str:
    retry = part.get("retry") or {}
    if retry.get("attempt") and retry.get("max_retries"):
        return f" (Versuch {retry['attempt']} von {retry['max_retries']})"
    return ""


def _part_step(part: dict[str, Any], *, model: str | None) -> tuple[str, str, str, bool, str | None, str | None]:
    """(kind, label, body, is_json, tool_name, outcome) of one message part."""
    pk = part.get("part_kind")
    # the model names tools (possibly wrongly): keep the name printable inside a markdown label
    tool = _SAFE_NAME.sub("?", str(part["tool_name"]))[:80] if part.get("tool_name") else None
    if pk == "system-prompt":
        return "system", "⚙️ Systemanweisung", str(part.get("content", "")), False, None, None
    if pk == "user-prompt":
        body, _ = _content(part.get("content"))
        return "user", "👩‍🏫 Lehrkraft", body, False, None, None
    if pk in ("tool-call", "builtin-tool-call"):
        body, is_json = _args(part.get("args"))
        kind = "Eingebautes Werkzeug" if pk == "builtin-tool-call" else "Werkzeugaufruf"
        return "tool_call", f"🔧 {kind}: `{tool}`", body, is_json, tool, None
    if pk in ("tool-return", "builtin-tool-return"):
        outcome = part.get("outcome") or "success"
        body, is_json = _content(part.get("content"))
        if outcome == "retried":
            return "retry", f"{OUTCOME_LABELS['retried']}: `{tool}`{_retry_note(part)}", body, is_json, tool, outcome
        label = OUTCOME_LABELS.get(outcome, "↩ Werkzeug-Ergebnis")
        return "tool_return", f"{label}: `{tool}`", body, is_json, tool, outcome
    if pk in ("retry-prompt", "retry-feedback"):  # retry-prompt: histories stored before pydantic-ai split it
        body, _ = _content(part.get("content"))
        target = f": `{tool}`" if tool else " (Ausgabe)"
        return "retry", f"{OUTCOME_LABELS['retried']}{target}{_retry_note(part)}", body, False, tool, "retried"
    if pk == "text":
        return "text", f"💬 Antwort{f' · {model}' if model else ''}", str(part.get("content", "")), False, None, None
    if pk == "thinking":
        return "thinking", "💭 Überlegung des Modells", str(part.get("content", "")), False, None, None
    rest = {k: v for k, v in part.items() if k != "part_kind" and v not in (None, "", [], {})}
    return "other", f"• {pk or 'unbekannter Teil'}", _json(rest), True, tool, None


def trace_steps(history: list[Any]) -> list[TraceStep]:
    """A stored pydantic-ai message history (JSON list) as readable steps in order.

    Works on the raw JSON, so histories of older pydantic-ai versions (e.g. 'retry-prompt' parts) and parts this
    version does not know still show up instead of failing the whole trace.
    """
    steps: list[TraceStep] = []
    last_instructions: str | None = None
    for message in history or []:
        if not isinstance(message, dict):
            steps.append(TraceStep(len(steps) + 1, "other", "• unlesbarer Eintrag", _clip(_json(message)), True))
            continue
        model = message.get("model_name") if message.get("kind") == "response" else None
        instructions = message.get("instructions")
        if instructions and instructions != last_instructions:  # sent with every request; show when it changes
            label = "⚙️ Anweisungen an das Modell" + (" (geändert)" if last_instructions else "")
            steps.append(TraceStep(len(steps) + 1, "instructions", label, _clip(str(instructions))))
            last_instructions = instructions
        for part in message.get("parts") or []:
            if not isinstance(part, dict):
                continue
            kind, label, body, is_json, tool, outcome = _part_step(part, model=model)
            steps.append(TraceStep(len(steps) + 1, kind, label, _clip(body), is_json, tool, outcome, model))
    return steps


# --- model calls -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallTotals:
    calls: int
    input_tokens: int
    output_tokens: int
    estimated: bool  # at least one count is an estimate
    cost_usd: float
    cost_unknown: bool  # at least one call had no known price
    latency_ms: int


def call_rows(calls: list[Any]) -> tuple[list[dict[str, Any]], CallTotals]:
    """llm_calls rows as table rows (German column names) plus their totals."""
    rows = []
    for c in calls:
        cost_known = bool((c.detail or {}).get("cost_known", True))
        rows.append({
            "Zeit": c.created_at.astimezone(SCHOOL_TZ).strftime("%H:%M:%S"), "Rolle": c.role, "Modell": c.model,
            "Tokens ein": int(c.input_tokens or 0), "Tokens aus": int(c.output_tokens or 0),
            "Zählung": "geschätzt" if c.tokens_estimated else "gemeldet",
            "Kosten (USD)": round(float(c.cost_usd or 0), 4) if cost_known else None,
            "Dauer (ms)": int(c.latency_ms or 0), "Ergebnis": c.outcome,
        })
    totals = CallTotals(
        calls=len(rows), input_tokens=sum(r["Tokens ein"] for r in rows),
        output_tokens=sum(r["Tokens aus"] for r in rows), estimated=any(c.tokens_estimated for c in calls),
        cost_usd=round(sum(r["Kosten (USD)"] or 0 for r in rows), 4),
        cost_unknown=any(r["Kosten (USD)"] is None for r in rows), latency_ms=sum(r["Dauer (ms)"] for r in rows),
    )
    return rows, totals


# --- what the pages call ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConversationHead:
    id: uuid.UUID
    label: str


def my_conversations(*, teacher_id: uuid.UUID, limit: int = 200) -> list[ConversationHead]:
    """The person's conversations, newest first, labelled for a select box."""
    with acting(teacher_id) as (db, teacher, _):
        rows = browse.conversation_heads(db=db, teacher_id=teacher.id, limit=limit)
    return [ConversationHead(r.id, f"{local_time(r.updated_at)} · {r.title} ({r.messages} Nachrichten)")
            for r in rows]


@dataclass(frozen=True)
class TurnLog:
    """One turn as it ran: the teacher's request, which model answered, the notices shown and the steps taken
    (router, specialist, validator retries, fallbacks), as stored with the assistant's message."""

    zeit: str
    anfrage: str
    model: str
    notices: list[str]
    steps: list[str]
    specialists: list[tuple[str, list[TraceStep]]] = field(default_factory=list)  # finished specialist runs


@dataclass(frozen=True)
class ConversationTrace:
    id: uuid.UUID
    title: str
    steps: list[TraceStep]
    calls: list[dict[str, Any]]
    totals: CallTotals
    specialists: list[tuple[str, list[TraceStep]]]  # (heading, steps) of each Rückfrage session's specialist run
    turns: list[TurnLog] = field(default_factory=list)


def _turn_logs(messages: list[Any]) -> list[TurnLog]:
    logs, asked = [], ""
    for m in messages:
        if m.role == "user":
            asked = m.content
        elif m.role == "assistant":
            meta = m.meta or {}
            specialists = [(f"{AGENT_NAMES.get(t.get('agent'), t.get('agent'))} · Lauf ohne Rückfrage",
                            trace_steps(list(t.get("history") or []))) for t in meta.get("specialist_traces") or []]
            logs.append(TurnLog(zeit=local_time(m.created_at), anfrage=asked[:200], model=str(meta.get("model", "")),
                                notices=list(meta.get("notices") or []), steps=list(meta.get("steps") or []),
                                specialists=specialists))
    return logs


STAFF_ROLES = ("curator", "product")


def shared_conversations(*, teacher_id: uuid.UUID) -> list[ConversationHead]:
    """For curators and the product team: the conversations teachers have released to them (their consent), newest
    consent first. Anybody else gets none."""
    with acting(teacher_id) as (db, viewer, _):
        if viewer.role not in STAFF_ROLES:
            return []
        rows = privacy_repo.consented_conversations(db=db)
    return [ConversationHead(r.object_id, f"Freigegeben am {local_time(r.created_at)} · {r.label}") for r in rows]


def conversation_trace(*, teacher_id: uuid.UUID, conversation_id: uuid.UUID) -> ConversationTrace:
    """The full message trace of one conversation and the model calls it caused: one's own, or — for curators and
    the product team — one its teacher released to them; each such read goes into that teacher's access log."""
    with acting(teacher_id) as (db, teacher, _):
        conv = conv_repo.get_conversation(db=db, conversation_id=conversation_id)  # RLS: own or consented
        if conv is None or (conv.teacher_id != teacher.id and teacher.role not in STAFF_ROLES):
            raise NotFoundError("Dieses Gespräch gibt es nicht (oder es gehört einer anderen Person).")
        if conv.teacher_id != teacher.id:
            privacy_repo.log_access(db=db, teacher_id=conv.teacher_id, viewer_id=teacher.id,
                                    viewer_label=f"{teacher.name} ({ROLE_LABELS.get(teacher.role, teacher.role)})",
                                    object_type="conversation", object_id=conv.id,
                                    what=f"Sitzungen & Traces: {conv.title}")
        history = list(conv.history or [])
        calls = memory_repo.calls_of_conversation(db=db, conversation_id=conv.id)
        rows, totals = call_rows(calls)
        title = conv.title
        sessions = browse.session_histories(db=db, conversation_id=conv.id)
        turns = _turn_logs(conv_repo.list_messages(db=db, conversation_id=conv.id))
    specialists = [(f"{AGENT_NAMES.get(s.agent_type, s.agent_type)} · Rückfrage-Sitzung vom {local_time(s.created_at)} "
                    f"({SESSION_STATUS.get(s.status, s.status)})", trace_steps(list(s.message_history or [])))
                   for s in sessions]
    return ConversationTrace(id=conversation_id, title=title, steps=trace_steps(history), calls=rows, totals=totals,
                             specialists=specialists, turns=turns)


@dataclass(frozen=True)
class SessionOverview:
    status: str
    counts: dict[str, int]
    rows: list[dict[str, Any]]


def my_sessions(*, teacher_id: uuid.UUID, status: str = "waiting", limit: int = 100) -> SessionOverview:
    """Rückfrage sessions with this status (a waiting one past its expiry counts as expired), newest first."""
    if status not in SESSION_STATUS:
        raise UserError(f"Unbekannter Status „{status}“. Möglich: {', '.join(SESSION_STATUS.values())}.")
    now = datetime.now(UTC)
    with acting(teacher_id) as (db, teacher, _):
        counts = browse.session_status_counts(db=db, teacher_id=teacher.id, now=now)
        found = browse.session_rows(db=db, teacher_id=teacher.id, status=status, now=now, limit=limit)
    rows = []
    for r in found:
        q = r.question or {}
        rows.append({
            "Erstellt": local_time(r.created_at), "Agent": AGENT_NAMES.get(r.agent_type, r.agent_type),
            "Frage": q.get("frage") or "–", "Vorschläge": " | ".join(q.get("vorschlaege") or []) or "–",
            "Rückfragen": int(r.clarification_count or 0), "Läuft ab": local_time(r.expires_at),
            "Material": r.material_titel or "–",
        })
    return SessionOverview(status=status, counts={s: counts.get(s, 0) for s in SESSION_STATUS}, rows=rows)
