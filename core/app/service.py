"""What the page frame (pages/ui.py, app.py) needs: who may act, errors and apologies, logging, the model shown.

Pages import this module only; it names the frame's pieces so that no page reaches into core.app's modules or db.
"""

from __future__ import annotations

from agents.models.names import model_name_for_role
from core.app.acting import DEMO_TEACHER_EMAIL, ROLE_LABELS, Persona, persona_by_email, personas
from core.app.errors import ConflictError, NotFoundError, UserError
from core.app.observability import apology, configure_logging, report_unexpected
from db.server import EmbeddedServerError

__all__ = [
    "DEMO_TEACHER_EMAIL",
    "ROLE_LABELS",
    "ConflictError",
    "EmbeddedServerError",
    "NotFoundError",
    "Persona",
    "UserError",
    "apology",
    "configure_logging",
    "main_model_name",
    "persona_by_email",
    "personas",
    "report_unexpected",
]


def main_model_name() -> str:
    """The model the main agent answers with ('offline' for the rule model), as the sidebar names it."""
    return model_name_for_role("main")
