"""The check before the main agent acts: the rules' verdict in their order (harm, cheating, homework, a
person's record, scope, injection), merged with an optional second opinion."""

from __future__ import annotations

import logging
from dataclasses import replace

from core.safety.cheating import cheating, homework
from core.safety.harm import harmful
from core.safety.injection import injection_spans, is_request_left
from core.safety.messages import (
    MSG_CHEATING,
    MSG_CHECKER_REFUSED,
    MSG_HOMEWORK,
    MSG_INJECTION_NOTE,
    MSG_INJECTION_REFUSED,
    MSG_PERSONAL_REFUSED,
    oos_message,
    personal_hint,
)
from core.safety.models import Category, Checker, Verdict
from core.safety.personal import find_personal_data, replace_findings
from core.safety.records import personal_refusal
from core.safety.scope import out_of_scope
from core.safety.text import prepare

log = logging.getLogger(__name__)


def _rule_verdict(text: str) -> Verdict:
    """The offline verdict. Order matters: harm first, then cheating and homework, a named person's record,
    out of scope, injection; a teaching request with personal data is allowed with a hint."""
    text = text or ""
    findings = find_personal_data(text)
    redacted = replace_findings(text, findings)
    folded = prepare(text)

    def refuse(category: Category, message: str) -> Verdict:
        return Verdict(allowed=False, category=category, message=message, redacted_text=redacted)

    if not folded:
        return Verdict(allowed=True, category="ok", message=None, redacted_text=redacted)
    message = harmful(folded)
    if message:
        return refuse("harmful", message)
    if cheating(folded):
        return refuse("cheating", MSG_CHEATING)
    if homework(folded):
        return refuse("homework_for_pupil", MSG_HOMEWORK)
    if findings and personal_refusal(text, folded, findings):
        return refuse("personal_data", MSG_PERSONAL_REFUSED)
    topic = out_of_scope(folded)
    if topic:
        return refuse("out_of_scope", oos_message(topic))
    injected, rest = injection_spans(text, folded)
    if injected:
        if not is_request_left(rest):
            return refuse("injection", MSG_INJECTION_REFUSED)
        note = MSG_INJECTION_NOTE + (" " + personal_hint(findings) if findings else "")
        return Verdict(allowed=True, category="injection", message=note, redacted_text=redacted)
    if findings:
        return Verdict(allowed=True, category="personal_data", message=personal_hint(findings),
                       redacted_text=redacted)
    return Verdict(allowed=True, category="ok", message=None, redacted_text=redacted)


def merge(rules: Verdict, other: Verdict | None) -> Verdict:
    """Combine the rules' verdict with a checker's: the checker decides, except that a refusal of harmful content
    by the rules stands, and the stored text is always the rules' redaction (a checker can never un-redact)."""
    if other is None or (not rules.allowed and rules.category == "harmful"):
        return rules
    message = other.message
    if not other.allowed and not message:
        message = rules.message if not rules.allowed else MSG_CHECKER_REFUSED
    if other.allowed and rules.allowed and rules.message and not message:
        message = rules.message
    return replace(other, message=message, redacted_text=rules.redacted_text)


def check_request(text: str, *, checker: Checker | None = None) -> Verdict:
    """Check a teacher's message (or an upload) before the main agent acts on it.

    Offline the rules decide alone. With a `checker` (e.g. a small model) its verdict is merged in (`merge`); a
    checker that fails is logged and ignored, so the check never breaks a turn.
    """
    rules = _rule_verdict(text)
    if checker is None:
        return rules
    try:
        other = checker(text, rules)
    except Exception:  # a broken second opinion must not break the turn; the rules still hold
        log.warning("safety checker failed; using the rules' verdict", exc_info=True)
        return rules
    return merge(rules, other)
