"""What the chat and the notes call: check a request before the main agent acts, find or redact personal data.

Callers store `Verdict.redacted_text` (never the raw text) and show `Verdict.message` to the teacher."""

from __future__ import annotations

from core.safety.documents import (
    personal_data_in_fields,
    personal_data_refusal,
    redact_pieces,
    removed_notice,
)
from core.safety.instructions import Flag, instruction_flag
from core.safety.models import Category, Checker, Finding, FindingKind, Verdict
from core.safety.personal import find_personal_data, redact
from core.safety.untrusted import CLOSE, DATA_NOTE, OPEN, looks_like_injection, quoted, quoted_data, unquoted_data
from core.safety.verdict import check_request, merge

__all__ = ["CLOSE", "DATA_NOTE", "OPEN", "Category", "Checker", "Finding", "FindingKind", "Flag", "Verdict",
           "check_request", "find_personal_data", "instruction_flag", "looks_like_injection", "merge",
           "personal_data_in_fields", "personal_data_refusal", "quoted", "quoted_data", "redact", "redact_pieces",
           "removed_notice", "unquoted_data"]
