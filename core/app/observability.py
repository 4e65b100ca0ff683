"""Logging set-up and the handling of unexpected errors: logged with an id, shown as a short apology."""

from __future__ import annotations

import logging
import secrets
from contextvars import ContextVar
from logging.handlers import RotatingFileHandler

from core.app.config import get_settings

log = logging.getLogger("werkbank")
_configured = False
# The request id of the current chat turn (or CLI call); every log line carries it, so one turn's lines can be
# found together across the main agent, the router, the specialists and the database layer.
request_id: ContextVar[str] = ContextVar("werkbank_request_id", default="-")


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


def configure_logging(level: int = logging.INFO) -> None:
    """Log to `<data dir>/logs/werkbank.log` (rotating); the console stays free of tracebacks."""
    global _configured
    if _configured:
        return
    logdir = get_settings().werkbank_data_dir / "logs"
    try:
        logdir.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(logdir / "werkbank.log", maxBytes=5_000_000, backupCount=3,
                                                       encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s [pid=%(process)d req=%(request_id)s] %(message)s"))
    handler.addFilter(_RequestIdFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("httpx", "httpx2", "alembic", "pgserver", "filelock"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    _configured = True


def report_unexpected(exc: BaseException, *, context: str = "") -> str:
    """Log the full error with a short id the user can quote; return the id."""
    error_id = secrets.token_hex(4)
    log.error("unexpected error %s %s", error_id, context, exc_info=exc)
    return error_id


def apology(error_id: str) -> str:
    return (
        f"Das hat leider nicht geklappt — ein interner Fehler (Fehler-ID {error_id}). "
        "Bitte versuchen Sie es noch einmal; bleibt der Fehler, nennen Sie dem Support die Fehler-ID."
    )
