"""Context variables set for a block: the turn's budget, its call log, overridden models and prompts."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")


@contextlib.contextmanager
def bound(var: ContextVar[T], value: T) -> Iterator[T]:
    """`var` is `value` inside the block (and in everything it calls, also agent runs); restored afterwards."""
    token = var.set(value)
    try:
        yield value
    finally:
        var.reset(token)
