"""The retention job: overdue Rückfragen marked expired; finished sessions, model-call logs, raw uploaded files
(WERKBANK_UPLOAD_KEEP_DAYS; their redacted text stays), old sign-in attempts and (optionally) old conversations
deleted after the configured number of days. A Rückfrage that still waits is never touched."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from core.app.config import get_settings
from core.app.errors import UserError
from db.repos import accounts as accounts_repo
from db.repos import ops as ops_repo
from db.session import Identity, unit_of_work

MAX_DAYS = 36_500  # a hundred years; more overflows the date arithmetic


@dataclass(frozen=True)
class RetentionReport:
    sessions_expired: int
    sessions_deleted: int
    llm_calls_deleted: int
    conversations_deleted: int
    upload_files_deleted: int = 0
    login_attempts_deleted: int = 0

    def lines(self) -> list[str]:
        return [f"Rückfragen als abgelaufen markiert: {self.sessions_expired}",
                f"Alte Rückfragen gelöscht: {self.sessions_deleted}",
                f"Alte Modellaufruf-Protokolle gelöscht: {self.llm_calls_deleted}",
                f"Alte Gespräche gelöscht: {self.conversations_deleted}",
                f"Hochgeladene Originaldateien gelöscht: {self.upload_files_deleted}",
                f"Alte Anmeldeversuche gelöscht: {self.login_attempts_deleted}"]


def _days(name: str, default: int) -> int:
    """A number of days from the environment, checked before anything is deleted (-1 would have meant "everything
    older than tomorrow")."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) > MAX_DAYS:
        raise UserError(f"Die Einstellung {name} hat einen ungültigen Wert („{value[:40]}“). Erwartet wird eine ganze "
                        f"Zahl von 0 bis {MAX_DAYS} (Tage). Nichts wurde gelöscht.")
    return int(value)


def retention(*, session_days: int | None = None, trace_days: int | None = None,
              conversation_days: int | None = None, now: datetime | None = None) -> RetentionReport:
    """Mark overdue waiting sessions expired; delete finished sessions, call logs and (optionally) conversations
    older than the configured number of days. Never touches a session that is still waiting and unexpired."""
    session_days = session_days if session_days is not None else _days("WERKBANK_RETAIN_SESSION_DAYS", 30)
    trace_days = trace_days if trace_days is not None else _days("WERKBANK_RETAIN_TRACE_DAYS", 90)
    conversation_days = conversation_days if conversation_days is not None else _days(
        "WERKBANK_RETAIN_CONVERSATION_DAYS", 0)  # 0 = keep conversations
    now = now or datetime.now(UTC)
    with unit_of_work(Identity.system()) as db:
        expired = ops_repo.expire_overdue_sessions(db=db, now=now)
        deleted = ops_repo.delete_finished_sessions(db=db, before=now - timedelta(days=session_days))
        calls = ops_repo.delete_calls(db=db, before=now - timedelta(days=trace_days))
        convs = 0
        if conversation_days > 0:
            convs = ops_repo.delete_conversations(db=db, before=now - timedelta(days=conversation_days), now=now)
        files = ops_repo.drop_upload_files(
            db=db, before=now - timedelta(days=get_settings().werkbank_upload_keep_days), now=now)
        attempts = accounts_repo.forget_attempts(db=db, before=now - timedelta(days=30))
    return RetentionReport(expired, deleted, calls, convs, files, attempts)
