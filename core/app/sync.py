"""Running a coroutine to completion from synchronous code, also when an event loop is already running.

Inside a loop (an async caller or tool) the coroutine runs in a helper thread, carrying the caller's context
variables along (the per-turn call log lives in one), so the caller's loop stays free.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """The coroutine's result: `asyncio.run` when no loop runs in this thread, else in a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(context.run, asyncio.run, coro).result()
