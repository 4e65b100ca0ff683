"""The request-understanding suite (seeds/eval/requests.yaml): teacher phrasings played against the offline main
model, scored per field of the generate_material call (or per question asked) with pydantic-evals.

No database and no tools run: each turn is one model request with the conversation so far, exactly what the main
agent sends; the replies in between are the model's own. `python -m core eval --suite requests` prints the table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_ai.direct import model_request_sync
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, UserPromptPart
from pydantic_ai.models import Model
from pydantic_evals import Case, Dataset
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from agents.models.registry import offline_model
from core.app.config import ROOT
from core.app.errors import UserError

SUITE_FILE = ROOT / "seeds" / "eval" / "requests.yaml"
SECTIONS = ("dev", "heldout", "heldout_2", "targeted_s21", "targeted_s23", "targeted_s24", "targeted_s25",
            "targeted_s25b", "targeted_s26", "targeted_s26b")
FIELDS = ("fach", "klassenstufe", "thema", "unterthemen", "dauer", "material_type", "afb", "anzahl", "niveau")
QUESTION = "frage"
Asked = Literal["fach", "klassenstufe", "thema", "dauer", "material_type"]

# How the offline model words its questions (agents/offline/dialog.py); a question names what it asks for.
_QUESTION_PATTERNS: dict[str, re.Pattern[str]] = {
    "fach": re.compile(r"welches Fach", re.I),
    "klassenstufe": re.compile(r"welche (Klasse|Klassenstufe|Jahrgangsstufe)|Klassenstufe von \d", re.I),
    "thema": re.compile(r"Schwerpunkt|welches Thema|welchem Thema", re.I),
    "dauer": re.compile(r"wie lange|welche Dauer", re.I),
    "material_type": re.compile(r"was soll entstehen", re.I),
}


class Expected(BaseModel):
    """The generate_material call a careful colleague would make after the last turn."""

    model_config = ConfigDict(extra="forbid")

    fach: str
    klassenstufe: int | None
    thema: list[str] = Field(min_length=1)
    material_type: Literal["klausur", "differenzierung", "h5p"]
    unterthemen: list[str | list[str]] = Field(default_factory=list)
    dauer: int | None = None
    afb: dict[Literal["I", "II", "III"], int] | None = None
    anzahl: int | None = None
    niveau: Literal["grundlegend", "erhoeht"] | None = None


class RequestCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    turns: list[str] = Field(min_length=1)
    expect: Expected | None = None
    asks: list[Asked] | None = None

    @model_validator(mode="after")
    def _one_outcome(self) -> RequestCase:
        if (self.expect is None) == (self.asks is None):
            raise ValueError("ein Fall braucht genau eines von expect und asks")
        return self


class RequestSuite(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = 1
    dev: list[RequestCase] = Field(default_factory=list)
    heldout: list[RequestCase] = Field(default_factory=list)
    heldout_2: list[RequestCase] = Field(default_factory=list)
    targeted_s21: list[RequestCase] = Field(default_factory=list)
    targeted_s23: list[RequestCase] = Field(default_factory=list)
    targeted_s24: list[RequestCase] = Field(default_factory=list)
    targeted_s25: list[RequestCase] = Field(default_factory=list)
    targeted_s25b: list[RequestCase] = Field(default_factory=list)
    targeted_s26: list[RequestCase] = Field(default_factory=list)
    targeted_s26b: list[RequestCase] = Field(default_factory=list)


class Outcome(BaseModel):
    """What the model did after the last turn: a generate_material call or a question."""

    call: dict[str, Any] | None = None
    tool: str | None = None
    asked: list[str] = Field(default_factory=list)
    reply: str = ""
    repeated: bool = False  # two replies in a row with the same text: the teacher was asked the same thing again


def is_request_suite(ref: str | Path) -> bool:
    return str(ref).strip() in ("requests", str(SUITE_FILE)) or Path(str(ref)).name == SUITE_FILE.name


def load(path: Path = SUITE_FILE) -> RequestSuite:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return RequestSuite.model_validate(data)
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise UserError(f"Die Suite {path.name} ist nicht lesbar: {str(exc).splitlines()[0]}") from exc


def asked_fields(reply: str) -> list[str]:
    return [name for name, rx in _QUESTION_PATTERNS.items() if rx.search(reply)]


def play(turns: Sequence[str], model: Model) -> Outcome:
    """The turns as a conversation with the model; the outcome of the last turn."""
    messages: list[ModelMessage] = []
    replies: list[str] = []
    outcome = Outcome()
    for turn in turns:
        messages.append(ModelRequest(parts=[UserPromptPart(turn)]))
        response = model_request_sync(model, messages)
        messages.append(ModelResponse(parts=response.parts))
        calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
        text = "".join(p.content for p in response.parts if isinstance(p, TextPart))
        if calls:
            outcome = Outcome(call=calls[0].args_as_dict(), tool=calls[0].tool_name, repeated=outcome.repeated)
            replies.append("")
        else:
            repeated = outcome.repeated or (bool(replies) and replies[-1] == text)
            outcome = Outcome(asked=asked_fields(text), reply=text, repeated=repeated)
            replies.append(text)
    return outcome


# --- scoring ----------------------------------------------------------------------------------------------------


def _norm(value: str, *, any_case: bool) -> str:
    value = " ".join(value.split())
    return value.casefold() if any_case else value


def _same_item(got: str, allowed: str | list[str], *, any_case: bool = False) -> bool:
    options = [allowed] if isinstance(allowed, str) else allowed
    return _norm(got, any_case=any_case) in {_norm(o, any_case=any_case) for o in options}


def field_value(call: dict[str, Any], name: str) -> Any:
    key = {"dauer": "dauer_minuten", "afb": "afb_ziel"}.get(name, name)
    value = call.get(key)
    if name == "unterthemen":
        return list(value or [])
    return value


def field_ok(expected: Expected, name: str, got: Any) -> bool:
    # English topics may be written "present perfect" or "Present Perfect"; German capitalisation is checked.
    any_case = expected.fach == "englisch"
    if name == "thema":
        return isinstance(got, str) and _same_item(got, expected.thema, any_case=any_case)
    if name == "unterthemen":
        want = expected.unterthemen
        return len(got) == len(want) and all(_same_item(g, w, any_case=any_case)
                                             for g, w in zip(got, want, strict=True))
    return got == getattr(expected, name)


class RequestFields(Evaluator[list[str], Outcome, RequestCase]):
    """One assertion per field of the expected call, plus `frage`: asked exactly what was missing, never twice."""

    def evaluate(self, ctx: EvaluatorContext[list[str], Outcome, RequestCase]) -> dict[str, EvaluationReason]:
        spec, out = ctx.metadata, ctx.output
        assert spec is not None
        results: dict[str, EvaluationReason] = {}
        if spec.expect is not None:
            made = out.tool == "generate_material" and out.call is not None
            for name in FIELDS:
                if not made:
                    why = f"kein Aufruf; Antwort: {out.reply[:160]!r}" if out.tool is None else f"Aufruf {out.tool}"
                    results[name] = EvaluationReason(False, why)
                    continue
                got = field_value(out.call or {}, name)
                want = getattr(spec.expect, name)
                results[name] = EvaluationReason(field_ok(spec.expect, name, got),
                                                 f"erwartet {want!r}, bekommen {got!r}")
            results[QUESTION] = EvaluationReason(made and not out.repeated,
                                                 "gleiche Frage zweimal" if out.repeated else f"fragte {out.asked}")
        else:
            want = sorted(spec.asks or [])
            ok = out.tool is None and sorted(out.asked) == want and not out.repeated
            why = (f"Aufruf {out.tool} {out.call}" if out.tool else
                   f"erwartet Frage nach {want}, fragte {sorted(out.asked)}"
                   + (" (wiederholt)" if out.repeated else ""))
            results[QUESTION] = EvaluationReason(ok, why)
        return results


# --- running ----------------------------------------------------------------------------------------------------


@dataclass
class SectionResult:
    name: str
    cases: int
    accuracy: dict[str, float]  # field -> share of passing assertions
    counts: dict[str, tuple[int, int]]  # field -> (passed, total)
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # case id, field, reason


def _offline_main() -> Model:
    return offline_model("main")


def run_section(name: str, cases: list[RequestCase], *, model: Model | None = None) -> SectionResult:
    model = model or _offline_main()
    dataset = Dataset[list[str], Outcome, RequestCase](
        name=f"requests-{name}",
        cases=[Case(name=c.id, inputs=c.turns, metadata=c) for c in cases],
        evaluators=[RequestFields()],
    )
    report = dataset.evaluate_sync(lambda turns: play(turns, model), progress=False, max_concurrency=1)
    counts: dict[str, list[int]] = {f: [0, 0] for f in (*FIELDS, QUESTION)}
    failures: list[tuple[str, str, str]] = []
    for case in report.cases:
        for key, result in case.assertions.items():
            counts[key][1] += 1
            if result.value:
                counts[key][0] += 1
            else:
                failures.append((case.name, key, result.reason or ""))
    for failure in report.failures:
        failures.append((failure.name, "fehler", failure.error_message))
        for key in counts:
            counts[key][1] += 1
    accuracy = {k: (p / t if t else 1.0) for k, (p, t) in counts.items()}
    return SectionResult(name=name, cases=len(cases), accuracy=accuracy,
                         counts={k: (p, t) for k, (p, t) in counts.items()}, failures=failures)


def run(sections: Sequence[str] = SECTIONS, *, path: Path = SUITE_FILE) -> list[SectionResult]:
    suite = load(path)
    return [run_section(s, getattr(suite, s)) for s in sections]


def format_results(results: list[SectionResult], *, min_accuracy: float, details: bool = True) -> str:
    names = [r.name for r in results]
    lines = ["Anfrageverständnis (Offline-Modell) — Anteil richtiger Felder", "",
             f"{'Feld':<14}" + "".join(f"{n + f' ({r.cases})':>18}" for n, r in zip(names, results, strict=True))]
    for key in (*FIELDS, QUESTION):
        cells = []
        for r in results:
            passed, total = r.counts[key]
            mark = "" if r.accuracy[key] >= min_accuracy else " !"
            cells.append(f"{r.accuracy[key]:.3f} ({passed}/{total}){mark}".rjust(18))
        label = "fragt richtig" if key == QUESTION else key
        lines.append(f"{label:<14}" + "".join(cells))
    if details:
        for r in results:
            if r.failures:
                lines += ["", f"Abweichungen {r.name}:"]
                lines += [f"  {case:<44} {key:<13} {reason}" for case, key, reason in r.failures]
    return "\n".join(lines)


def passed(results: list[SectionResult], *, min_accuracy: float) -> bool:
    return all(acc >= min_accuracy for r in results for acc in r.accuracy.values())
