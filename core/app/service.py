"""What the page frame (views/ui.py, app.py) needs: who may act and how they sign in, errors and apologies,
logging, the model shown.

Pages import this module only; it names the frame's pieces so that no page reaches into core.app's modules or db.
"""

from __future__ import annotations

from agents.models.names import model_name_for_role
from core.app.accounts import account_active, sign_in
from core.app.acting import (
    DEMO_TEACHER_EMAIL,
    ROLE_LABELS,
    Persona,
    persona_by_email,
    persona_by_id,
    persona_for_sign_in,
    personas,
)
from core.app.auth import (
    DEMO_BANNER,
    DEMO_REFUSED,
    Mode,
    Request,
    auth_mode,
    demo_allowed,
    email_from_claims,
    role_from_claims,
)
from core.app.errors import ConflictError, NotFoundError, UserError
from core.app.observability import apology, configure_logging, report_unexpected
from core.app.privacy import delete_my_data, grant_consent, my_access_log, my_consents, revoke_consent
from db.server import EmbeddedServerError

__all__ = [
    "DEMO_BANNER",
    "DEMO_REFUSED",
    "DEMO_TEACHER_EMAIL",
    "ROLE_LABELS",
    "ConflictError",
    "EmbeddedServerError",
    "Mode",
    "NotFoundError",
    "Persona",
    "Request",
    "UserError",
    "account_active",
    "apology",
    "delete_my_data",
    "grant_consent",
    "my_access_log",
    "my_consents",
    "revoke_consent",
    "auth_mode",
    "configure_logging",
    "demo_allowed",
    "email_from_claims",
    "main_model_name",
    "persona_by_email",
    "persona_by_id",
    "persona_for_sign_in",
    "personas",
    "report_unexpected",
    "role_from_claims",
    "sign_in",
]


def main_model_name() -> str:
    """The model the main agent answers with ('offline' for the rule model), as the sidebar names it."""
    return model_name_for_role("main")
