"""What the chat pages (Chat, Sitzungen & Traces) call, each call one unit of work acting as the persona (pages
never open sessions): conversations, a turn, downloads, ratings, the set ZIP, demo scenarios and traces."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.app import acting as personas
from core.app.acting import Persona, acting
from core.app.errors import NotFoundError, UserError
from core.chat.demo import Played, Scenario, play, play_in_sandbox, scenarios
from core.chat.traces import (
    SESSION_STATUS,
    ConversationHead,
    ConversationTrace,
    SessionOverview,
    TraceStep,
    conversation_trace,
    my_conversations,
    my_sessions,
    shared_conversations,
)
from core.chat.turn import ChatResult, chat_turn, open_question
from core.knowledge.learning import rate_material
from core.material_sets.archive import combined_zip
from core.materials.dates import local_time
from core.materials.service import RatingOutcome, material_view
from core.uploads.service import attachment_notices, store_upload
from db.repos import conversations as conv_repo
from db.repos import materials as material_repo

__all__ = [
    "SESSION_STATUS", "Attachment", "ChatResult", "ConversationHead", "ConversationTrace", "Scenario",
    "Played", "SessionOverview", "TraceStep", "conversation_log", "conversation_trace", "demo_persona", "file_bytes",
    "list_conversations", "material_brief", "my_conversations", "my_sessions", "play", "play_in_sandbox", "played_log",
    "rate", "scenarios", "send", "set_zip", "shared_conversations",
]


@dataclass(frozen=True)
class Attachment:
    filename: str
    mime: str
    data: bytes


def list_conversations(*, teacher_id: uuid.UUID, limit: int = 30) -> list[dict[str, Any]]:
    with acting(teacher_id) as (db, teacher, _):
        return [{"id": c.id, "title": c.title, "updated_at": c.updated_at,
                 "when": local_time(c.updated_at, "%d.%m. %H:%M")}
                for c in conv_repo.list_conversations(db=db, teacher_id=teacher.id, limit=limit)]


def conversation_log(*, teacher_id: uuid.UUID, conversation_id: uuid.UUID) -> dict[str, Any]:
    """The readable log (user/assistant messages with their files) and the Rückfrage still open, if any."""
    with acting(teacher_id) as (db, teacher, _):
        conv = conv_repo.get_conversation(db=db, conversation_id=conversation_id)
        if conv is None:
            raise NotFoundError("Dieses Gespräch gibt es nicht (mehr). Bitte ein anderes wählen oder neu beginnen.")
        messages = []
        for m in conv_repo.list_messages(db=db, conversation_id=conv.id):
            meta = m.meta or {}
            ids = list(meta.get("material_ids") or []) or ([meta["material_id"]] if meta.get("material_id") else [])
            materials = [{"id": mid, "files": [{"id": f.id, "filename": f.filename, "kind": f.kind, "mime": f.mime}
                                               for f in material_repo.files_of(db=db, material_id=uuid.UUID(mid))]}
                         for mid in ids]
            messages.append({"id": m.id, "role": m.role, "content": m.content, "meta": meta,
                             "materials": materials, "files": materials[-1]["files"] if materials else []})
        question = open_question(db=db, conversation_id=conv.id)
        last = messages[-1] if messages and messages[-1]["role"] == "assistant" and question is None else None
        return {"title": conv.title, "messages": messages, "open_question": question,
                "choices": offered_choices(last["content"]) if last else []}


_CHOICE = re.compile(r"^- \((\d{1,2})\) (.+)$", re.M)


def offered_choices(reply: str) -> list[tuple[str, str]]:
    """The numbered options a reply lists under „Möglichkeiten:“ (a shortened material, a refusal): (number, text),
    for buttons that answer with the number."""
    block = reply.rsplit("Möglichkeiten:\n", 1)[1] if "Möglichkeiten:\n" in reply else ""
    return _CHOICE.findall(block.split("\n\n", 1)[0])


def played_log(*, teacher_id: uuid.UUID, conversation_id: uuid.UUID) -> dict[str, Any] | None:
    """The log of a played demo, or None when a newer demo (in another tab, or one a click interrupted) has replaced
    that sandbox since: the demo panel then shows nothing instead of an error about a missing person."""
    try:
        return conversation_log(teacher_id=teacher_id, conversation_id=conversation_id)
    except NotFoundError:
        return None


def send(*, teacher_id: uuid.UUID, message: str, conversation_id: uuid.UUID | None,
         attachments: list[Attachment] = (), on_step: Callable[[str], None] | None = None) -> ChatResult:
    """One chat turn; attachments are checked and stored first and named in the message for the specialists."""
    with acting(teacher_id) as (db, teacher, identity):
        notes, notices = [], []
        for a in attachments:
            up = store_upload(db=db, teacher_id=teacher.id, conversation_id=conversation_id, filename=a.filename,
                              mime=a.mime, data=a.data)
            removed = "; personenbezogene Angaben entfernt" if up.notice else ""
            notes.append(f"[Anhang {up.filename}, upload_id {up.id}, {up.chars} Zeichen Text{removed}]")
            notices += attachment_notices(up)
        text = "\n".join([message.strip(), *notes]).strip() if notes else message
        if not text.strip() and not notes:
            raise UserError("Bitte eine Nachricht eingeben oder eine Datei anhängen.")
        return chat_turn(db=db, identity=identity, teacher=teacher, message=text, conversation_id=conversation_id,
                         on_step=on_step, notices=notices)


def file_bytes(*, teacher_id: uuid.UUID, file_id: uuid.UUID) -> bytes:
    with acting(teacher_id) as (db, _, _):
        row = material_repo.get_file(db=db, file_id=file_id)
        if row is None:
            raise NotFoundError("Diese Datei gibt es nicht (mehr).")
        return row.data


def rate(*, teacher_id: uuid.UUID, material_id: uuid.UUID, stars: int, task_ref: str | None = None) -> dict[str, Any]:
    with acting(teacher_id) as (db, teacher, identity):
        return rate_material(db=db, identity=identity, teacher=teacher, material_id=material_id, stars=stars,
                             task_ref=task_ref)


def rated_text(stars: int, learned: dict[str, Any]) -> str:
    """The toast after a rating in the chat: „Danke! 1 Stern gespeichert; 2 Aufgaben in Ihre bewährten … übernommen.“"""
    return RatingOutcome(stars=stars, good_practices=int(learned.get("good_practices") or 0), preferences={}).message


def material_brief(*, teacher_id: uuid.UUID, material_id: uuid.UUID) -> dict[str, Any]:
    with acting(teacher_id) as (db, teacher, _):
        return material_view(db=db, teacher=teacher, material_id=material_id)


def set_zip(*, teacher_id: uuid.UUID, material_ids: list[str]) -> bytes:
    """All files of a material set as one ZIP (built on demand from the stored files)."""
    with acting(teacher_id) as (db, teacher, _):
        ids = [uuid.UUID(i) for i in material_ids]
        for mid in ids:
            row = material_repo.get_material(db=db, material_id=mid)
            if row is None or row.teacher_id != teacher.id:
                raise NotFoundError("Dieses Material gibt es nicht (mehr).")
        return combined_zip(db=db, material_ids=ids)


def demo_persona() -> Persona | None:
    """The demo teacher the showcase scenarios play as (read when asked, so tests can point it elsewhere)."""
    return personas.persona_by_email(personas.DEMO_TEACHER_EMAIL)
