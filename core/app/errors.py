"""Errors a user can cause, carrying a German message that says what to do.

Pages and the CLI show `UserError.message` as is; anything else is logged with an id and shown as an apology.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input: the message is German, names the problem and what to do instead."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ConflictError(UserError):
    """Someone else changed the same thing first (optimistic concurrency)."""


class NotFoundError(UserError):
    """The thing asked for does not exist or is not visible to the acting person."""
