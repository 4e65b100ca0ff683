"""When the database is gone: recognise it (whatever layer raised), and start the embedded server again.

The page frame shows a German page instead of a traceback and calls `recover_database`; the next rerun works again.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa

from core.app.config import get_settings
from db.server import EmbeddedServerError, embedded_uri
from db.session import ping, reset_engines

log = logging.getLogger(__name__)


def database_down(exc: BaseException) -> bool:
    """The exception means "the database is not reachable" (connection refused, server gone, socket closed)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, sa.exc.OperationalError | sa.exc.InterfaceError | EmbeddedServerError):
            return True
        if isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated:
            return True
        if type(exc).__module__.startswith("psycopg") and type(exc).__name__ in ("OperationalError",
                                                                                 "InterfaceError"):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def recover_database() -> bool:
    """Drop the broken connections and, for the embedded server, start it again. True when it answers again."""
    reset_engines()
    try:
        if not get_settings().database_url:
            embedded_uri(get_settings().werkbank_data_dir)  # starts the server if it is not running
        ping()
        log.warning("database reachable again")
        return True
    except Exception:  # still down: the page says so and the next rerun tries again
        log.warning("database still unreachable", exc_info=True)
        return False
