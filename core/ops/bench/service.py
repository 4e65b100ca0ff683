"""What the CLI's `bench` command calls: the knowledge benchmarks at growing row counts, the offline chat, the page
render times and the load test — each prints its numbers and, when asked, writes docs/benchmarks.md."""

from __future__ import annotations

from core.ops.bench.chat import run_chat_bench
from core.ops.bench.load import run_load_bench
from core.ops.bench.pages import run_pages_bench
from core.ops.bench.rows import run_bench
from core.ops.bench.scaleout import run_scaleout_bench

__all__ = ["run_bench", "run_chat_bench", "run_load_bench", "run_pages_bench", "run_scaleout_bench"]
