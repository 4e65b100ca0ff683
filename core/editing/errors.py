"""How an edit is refused: a patch that cannot be applied (a German `UserError`; nothing is written).

A wish that misses a detail is `core.language.edits.EditUnclear`, raised where the request is read.
"""

from __future__ import annotations

from core.app.errors import UserError


class PatchError(UserError):
    """A patch that cannot be applied; nothing was written."""
