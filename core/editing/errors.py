"""The two ways an edit is refused: a patch that cannot be applied, and a wish that misses a detail.

Both are German `UserError`s the teacher reads; nothing is written when one is raised.
"""

from __future__ import annotations

from core.errors import UserError


class PatchError(UserError):
    """A patch that cannot be applied; nothing was written."""


class EditUnclear(UserError):
    """An edit request whose intent is clear but a detail is missing (e.g. the new wording)."""
