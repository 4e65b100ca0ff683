"""What every benchmark shares: the machine it ran on, percentiles and timings, and writing its section of
docs/benchmarks.md between its own markers."""

from __future__ import annotations

import os
import platform
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.app.config import ROOT

DOC = ROOT / "docs" / "benchmarks.md"
FAECHER = ["physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie"]
AGENTS = ["klausur", "differenzierung", "h5p"]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    # the load average at the start says whether other jobs shared the cores (timings then include their share)
    return (f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python {platform.python_version()}, load average "
            f"{os.getloadavg()[0]:.1f}")


def measure(fn: Callable[[], Any], n: int) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def write_section(key: str, section: str) -> None:
    DOC.parent.mkdir(exist_ok=True)
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n\n"
    start, end = f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"
    block = f"{start}\n{section}{end}"
    if start in text:
        text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    DOC.write_text(text, encoding="utf-8")


def written() -> None:
    print(f"→ {DOC.relative_to(ROOT)} aktualisiert")
