"""Where the CPU went during a load run: the app processes (each reports its own CPU time), the embedded PostgreSQL
(its postmaster, live backends and the backends it already reaped), the whole machine (so other people's jobs on
the same cores show), and lock waits sampled from pg_stat_activity — what limits throughput when processes are
added."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from core.app.config import get_settings
from db.repos import bench as bench_repo
from db.server import cluster_dir
from db.session import admin_engine


def postgres_cpu_seconds() -> float | None:
    """CPU seconds of the embedded server so far (postmaster, reaped and live backends); None for an external
    server (DATABASE_URL), whose processes this machine may not see."""
    if get_settings().database_url:
        return None
    pid_file = cluster_dir(Path(get_settings().werkbank_data_dir)) / "postmaster.pid"
    try:
        master = psutil.Process(int(pid_file.read_text().split()[0]))
        t = master.cpu_times()
        total = t.user + t.system + t.children_user + t.children_system
        for child in master.children(recursive=True):
            try:
                c = child.cpu_times()
                total += c.user + c.system
            except psutil.NoSuchProcess:  # ended between listing and reading: its time is in children_* next time
                continue
        return total
    except (OSError, ValueError, psutil.Error):
        return None


def machine_busy_seconds() -> float:
    """Busy core-seconds of the whole machine since boot (everything but idle and I/O wait)."""
    t = psutil.cpu_times()
    return sum(t) - t.idle - getattr(t, "iowait", 0.0)


@dataclass
class RunMeter:
    """CPU of PostgreSQL and of the machine between start() and stop(), and lock waits sampled meanwhile."""

    interval: float = 0.25
    pg: float | None = None
    machine: float = 0.0
    samples: int = 0
    lock_waits: int = 0  # sampled backends waiting for a heavyweight lock (row, tuple, transaction id …)
    max_active: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._pg0, self._m0 = postgres_cpu_seconds(), machine_busy_seconds()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        pg1, m1 = postgres_cpu_seconds(), machine_busy_seconds()
        self._stop.set()
        if self._thread:
            self._thread.join()
        self.pg = pg1 - self._pg0 if pg1 is not None and self._pg0 is not None else None
        self.machine = m1 - self._m0

    def _sample(self) -> None:
        with admin_engine().connect() as conn:
            while not self._stop.wait(self.interval):
                active, waiting = bench_repo.backend_waits(conn=conn)
                conn.rollback()
                self.samples += 1
                self.lock_waits += waiting
                self.max_active = max(self.max_active, active)


def backend_cpu_seconds(pid: int) -> float | None:
    """CPU seconds of one server process so far (a backend of the embedded server); None when it is not visible."""
    try:
        t = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return None
    return t.user + t.system


def process_cpu_seconds() -> float:
    """CPU seconds of this process so far (all its threads)."""
    return time.process_time()
