"""The safety check's results: a verdict on a request, a piece of personal data found in a text, and the
protocol of a second opinion (a model-based checker)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

Category = Literal["ok", "out_of_scope", "homework_for_pupil", "personal_data", "harmful", "cheating", "injection"]
FindingKind = Literal["name", "email", "phone", "address", "birthdate", "iban", "health", "grade_of_pupil"]


@dataclass(frozen=True)
class Verdict:
    """The outcome of the check. `redacted_text` is what may be stored, whatever the verdict."""

    allowed: bool
    category: Category
    message: str | None
    redacted_text: str


@dataclass(frozen=True)
class Finding:
    """One piece of personal data: `text == original[start:end]`."""

    kind: FindingKind
    start: int
    end: int
    text: str


class Checker(Protocol):
    """A second opinion on a request (e.g. a small LLM classifier when a real model is configured).

    It sees the text and the rules' verdict and returns its own verdict, or None to agree. See `check_request`
    for how the two are merged.
    """

    def __call__(self, text: str, rules: Verdict) -> Verdict | None: ...
