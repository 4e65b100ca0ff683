"""The supervisor for combined requests: one message asking for exam + worksheet + quiz becomes checked sub-requests,
run through the material router (independent ones concurrently), and ONE German answer with conflicts and a ZIP.

Entry points for the main agent: `run_combined` (a new combined request) and `continue_combined` (the teacher's
one answer to the collected Rückfragen). How an answer is split across the waiting sessions: see `split_answer`.

Routing collected Rückfragen
----------------------------
Each sub-request that needs a Rückfrage pauses as its own router session (`agent_sessions`); the outcome lists them
all in one message and keeps their ids (`CombinedOutcome.questions[*].session_id`, and `[session:<id>]` markers in
`.text`). The teacher answers once, e.g. "30/40/30, und beim Quiz 10 Fragen". `continue_combined(turn=,
session_ids=[…], answer=…)` splits that answer (`split_answer`):

1. The answer is cut into clauses at ";", ",", " und ", " sowie ", line breaks — but never inside an AFB triple.
2. A clause that names a material ("beim Quiz …", "Klausur: …", "fürs Arbeitsblatt …") belongs to that material's
   session, and so do the following clauses until another material is named.
3. An unnamed clause goes by what it says: an AFB distribution (`parse_afb_answer`) to the session that asks about
   the AFB (else the Klausur's); a number of questions/tasks ("10 Fragen") to the session that asks for a number
   (else the H5P one).
4. What is left goes to the only session still without an answer; if several are, every one of them gets it
   ("wie vorgeschlagen" is then resolved against each session's own suggestions by the router).

Each session is then continued with `core.router.continue_generation`. Questions the supervisor asks itself before
anything starts (a missing Klassenstufe, Dauer …) have no session: answer them by calling `run_combined` again with
the same text and `base=base_from_answer(answer, base)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import uuid
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic_ai import UsageLimitExceeded
from pydantic_ai.exceptions import FallbackExceptionGroup, ModelAPIError, RunTimedOut, UnexpectedModelBehavior

from agents import offline_nlu as nlu
from agents.deps import TurnContext
from agents.supervisor import (
    DEFAULT_INSTRUCTIONS,
    MAX_PARTS,
    TYPE_LABELS,
    Plan,
    PlannerDeps,
    PlanPart,
    normalized,
    plan_faults,
    planner_agent,
    planner_prompt,
    planner_rules,
    rule_plan,
    select_specialist,
    topological_levels,
)
from core.app.errors import UserError
from core.app.observability import report_unexpected
from core.exports.files import safe_name
from core.faecher import fach_name
from core.materials import MaterialRequest
from core.router import RouterOutcome, continue_generation, start_generation
from db.models import GeneratedMaterial
from db.repos import materials as material_repo
from db.repos import sessions as session_repo

log = logging.getLogger(__name__)

__all__ = [
    "MAX_PARTS", "CollectedQuestion", "CombinedOutcome", "PartResult", "Plan", "PlanPart", "PlanRefused",
    "base_from_answer", "combined_zip", "continue_combined", "decomposition_accuracy", "plan", "plan_conflicts",
    "run_combined", "select_specialist", "split_answer",
]

HEADER_DONE = "MATERIALSET_FERTIG"
HEADER_QUESTIONS = "MATERIALSET_RÜCKFRAGEN"
# Failures of the model side inside one sub-request: that part is reported, the others still finish.
PART_FAILURES = (ModelAPIError, UnexpectedModelBehavior, FallbackExceptionGroup, RunTimedOut, TimeoutError,
                 UsageLimitExceeded)
SHORT = {"klausur": "Klausur", "differenzierung": "Arbeitsblatt", "h5p": "H5P-Übung"}


class PlanRefused(UserError):
    """The request cannot be planned (impossible values, too many parts, an invalid model plan)."""


@dataclass
class CollectedQuestion:
    """One open question of a combined request: a paused sub-request (with session) or a missing fact (without)."""

    part_key: str
    material_type: str
    frage: str
    kontext: str = ""
    vorschlaege: list[str] = field(default_factory=list)
    session_id: uuid.UUID | None = None

    @property
    def label(self) -> str:
        return TYPE_LABELS.get(self.material_type, self.material_type)


@dataclass
class PartResult:
    """What became of one sub-request."""

    part: PlanPart
    request: MaterialRequest | None = None
    outcome: RouterOutcome | None = None
    material: GeneratedMaterial | None = None
    error: str | None = None


@dataclass
class CombinedOutcome:
    """The supervisor's result. `.text` is the tool return for the main agent; `.answer` the German answer alone."""

    kind: Literal["materials", "rueckfrage", "error"]
    text: str
    answer: str
    plan: Plan | None = None
    parts: list[PartResult] = field(default_factory=list)
    material_ids: list[uuid.UUID] = field(default_factory=list)
    zip_bytes: bytes | None = None
    zip_name: str | None = None
    conflicts: list[str] = field(default_factory=list)
    questions: list[CollectedQuestion] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def session_ids(self) -> list[uuid.UUID]:
        return [q.session_id for q in self.questions if q.session_id is not None]


# --- planning ---------------------------------------------------------------------------------------------------------


def _planner_model() -> Any | None:
    """The planner's model: a test/eval override or the configured real model (falling back to the rules);
    None when the supervisor role runs offline — then the rules plan directly, without an agent run."""
    from agents import models as model_registry
    from agents.offline import rules_model
    from core.llm import OFFLINE, build_model, model_name_for_role

    # `override_models(supervisor=…)` is the project's way to swap a role's model for one context (tests, evals).
    if "supervisor" in (model_registry._overrides.get() or {}):  # noqa: SLF001
        return model_registry.model_for("supervisor")
    if model_name_for_role("supervisor") == OFFLINE:
        return None
    return build_model("supervisor", offline=lambda _role: rules_model(planner_rules))


def _instructions(turn: TurnContext | None) -> str:
    from agents.prompts import instructions_for

    try:
        return instructions_for("supervisor", turn.db if turn is not None else None)
    except KeyError:  # no default registered in agents.prompts yet: the planner's own default
        return DEFAULT_INSTRUCTIONS


async def plan(text: str, context: Mapping[str, Any] | None = None, *, turn: TurnContext | None = None) -> Plan:
    """Decompose a combined request into a checked plan (a DAG of at most five sub-requests).

    Offline the rules plan; a real model plans through `planner_agent`, whose output validator sends every fault
    back as a retry. Raises `PlanRefused` (German) when the plan stays invalid or the request is impossible.
    """
    model = _planner_model()
    if model is None:
        draft = rule_plan(text, context)
        faults = plan_faults(draft) if draft.parts else []
    else:
        from core.llm import DEFAULT_USAGE_LIMITS

        deps = PlannerDeps(instructions=_instructions(turn))
        try:
            result = await planner_agent.run(planner_prompt(text, context), deps=deps, model=model,
                                             usage=turn.usage if turn is not None else None,
                                             usage_limits=DEFAULT_USAGE_LIMITS)
            draft, faults = result.output, []
        except UnexpectedModelBehavior as exc:
            log.warning("planner gave up: %s (last faults: %s)", exc, deps.faults)
            draft, faults = Plan(parts=[]), deps.faults or ["Der Planer hat keinen verwertbaren Plan geliefert."]
    if draft.problems:
        raise PlanRefused(" ".join(draft.problems))
    if faults:
        raise PlanRefused("Ich konnte Ihre Anfrage nicht sicher in einzelne Materialien aufteilen:\n- "
                          + "\n- ".join(faults) + "\nBitte nennen Sie die Materialien einzeln (Art, Fach, Klasse, "
                          "Thema), z. B. „Klausur Physik 10a zu Stromkreisen, 45 Minuten, dazu ein H5P-Quiz“.")
    if not draft.parts:
        raise PlanRefused("In Ihrer Nachricht erkenne ich keine Materialart. Möglich sind Klausuren, differenzierte "
                          "Arbeitsblätter und H5P-Übungen — z. B. „Klausur zu Stromkreisen und ein Quiz dazu“.")
    return normalized(draft)


_GAP_QUESTIONS = {
    "fach": "Für welches Fach sind die Materialien?",
    "klassenstufe": "Für welche Klasse bzw. Klassenstufe?",
    "thema": "Zu welchem Thema?",
    "dauer_minuten": "Wie lange soll die Klausur dauern – 45 Minuten oder eine Doppelstunde (90 Minuten)?",
}
_GAP_SUGGESTIONS = {"dauer_minuten": ["45 Minuten", "90 Minuten"]}


def plan_gaps(p: Plan) -> list[CollectedQuestion]:
    """Facts the router needs that nobody named, as questions asked before anything starts (one per fact)."""
    questions: dict[str, CollectedQuestion] = {}
    for part in p.parts:
        missing = [f for f in ("fach", "klassenstufe", "thema") if not getattr(part, f)]
        if part.material_type == "klausur" and not part.dauer_minuten:
            missing.append("dauer_minuten")
        for f in missing:
            q = questions.get(f)
            if q is None:
                questions[f] = CollectedQuestion(part_key=part.key, material_type=part.material_type,
                                                 frage=_GAP_QUESTIONS[f], vorschlaege=list(_GAP_SUGGESTIONS.get(f, [])))
    return list(questions.values())


def base_from_answer(answer: str, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The context for the next `run_combined` after the teacher answered the supervisor's own questions."""
    from agents.offline import topic_terms

    e = nlu.extract(answer, topic_terms=topic_terms())
    out = dict(base or {})
    for name in ("fach", "klassenstufe", "klasse", "thema", "dauer_minuten"):
        if getattr(e, name) is not None:
            out[name] = getattr(e, name)
    if e.afb_verteilung:
        out["afb_ziel"] = dict(zip(("I", "II", "III"), e.afb_verteilung, strict=True))
    return out


# --- conflicts --------------------------------------------------------------------------------------------------------


def _fold(text: str) -> str:
    text = text.lower()
    for a, b in (("ä", "a"), ("ö", "o"), ("ü", "u"), ("ß", "ss")):
        text = text.replace(a, b)
    return text


_FILLER = frozenset(nlu._STOP) | {"thema", "themen", "aufgabe", "aufgaben"}  # noqa: SLF001 — the NLU's stop words


def _stems(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[^\W\d_]+", _fold(text or "")):
        if len(w) < 4 or w in _FILLER:
            continue
        for suffix in ("ern", "en", "em", "er", "es", "e", "n", "s"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 4:
                w = w[: -len(suffix)]
                break
        out.add(w)
    return out


def _covered(topic: str, coverage: str) -> bool:
    """Does the exam's text touch the topic? Stems meet, also inside compounds ("Märchenmerkmale" ~ "Märchen")."""
    mine, theirs = _stems(topic), _stems(coverage)
    if not mine:
        return True
    return any(a == b or (min(len(a), len(b)) >= 5 and (a in b or b in a)) for a in mine for b in theirs)


def _exam_coverage(result: PartResult) -> tuple[str, list[str]]:
    """The exam's topic text (thema, titles, task texts) and its Aufgaben titles."""
    if result.material is not None:
        content = result.material.content or {}
        titles = [a.get("titel", "") for a in content.get("aufgaben", [])]
        texts = [t.get("text", "") for a in content.get("aufgaben", []) for t in a.get("teilaufgaben", [])]
        return " ".join([result.material.thema or "", result.material.titel or "", *titles, *texts]), titles
    return result.part.thema or "", []


def _name(part: PlanPart) -> str:
    return f"{TYPE_LABELS.get(part.material_type, part.material_type)} („{part.thema}“)" if part.thema else \
        TYPE_LABELS.get(part.material_type, part.material_type)


def plan_conflicts(p: Plan, results: Mapping[str, PartResult] | None = None) -> list[str]:
    """What does not fit together, in German: topics the exam does not cover, durations that do not fit into the
    shared lesson, Klassenstufen or Fächer that differ."""
    results = results or {}
    parts = {x.key: x for x in p.parts}
    conflicts: list[str] = []
    stufen = {x.klassenstufe for x in p.parts if x.klassenstufe}
    if len(stufen) > 1:
        each = ", ".join(f"{SHORT[x.material_type]} Klasse {x.klasse or x.klassenstufe}" for x in p.parts)
        conflicts.append(f"Die Materialien sind für unterschiedliche Klassenstufen gedacht ({each}). Wenn sie "
                         "zusammengehören sollen, nennen Sie bitte eine gemeinsame Klasse.")
    for x in p.parts:
        for d in x.depends_on:
            src = parts.get(d)
            if src is None:
                continue
            if src.fach and x.fach and src.fach != x.fach:
                conflicts.append(f"{_name(x)} ist für {fach_name(x.fach)}, soll aber zur {SHORT[src.material_type]} "
                                 f"in {fach_name(src.fach)} passen — die Fächer unterscheiden sich.")
            if src.material_type == "klausur" and x.topic_from != d and x.thema:
                coverage, titles = _exam_coverage(results.get(d) or PartResult(part=src))
                if not _covered(x.thema, coverage):
                    listed = f" (Aufgaben: {'; '.join(titles)})" if titles else f" (Thema „{src.thema}“)"
                    conflicts.append(f"{TYPE_LABELS[x.material_type]} zur Vorbereitung behandelt „{x.thema}“ — die "
                                     f"Klausur prüft das nicht ab{listed}. Soll es trotzdem dieses Thema sein?")
    if p.lesson_minutes:
        timed = [x for x in p.parts if x.dauer_minuten]
        total = sum(x.dauer_minuten or 0 for x in timed)
        if len(timed) > 1 and total > p.lesson_minutes:
            each = " + ".join(f"{SHORT[x.material_type]} {x.dauer_minuten} Min." for x in timed)
            conflicts.append(f"Die Zeit passt nicht: {each} = {total} Minuten sollen in dieselbe Stunde "
                             f"({p.lesson_minutes} Minuten).")
    return conflicts


# --- running ----------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _loop_thread_only(turn: TurnContext, types: Sequence[str]) -> Iterator[None]:
    """All sub-runs share one (sync) SQLAlchemy session: keep every callback on the event-loop thread.

    pydantic-ai runs plain `def` callbacks (instructions, FunctionModel rules) in worker threads; the specialists'
    instructions read the active prompt from the database. The prompts are read here, once, and pinned through
    `override_prompts`; `disable_threads` (pydantic-ai 2.62, used for Temporal) runs sync callbacks inline.
    """
    from agents.prompts import instructions_for, override_prompts

    texts = {t: instructions_for(t, turn.db) for t in dict.fromkeys(types)}
    with contextlib.ExitStack() as stack:
        stack.enter_context(override_prompts(**texts))
        try:
            from pydantic_ai._utils import disable_threads
        except ImportError:  # a later pydantic-ai: the pinned prompts still keep the database off other threads
            log.debug("pydantic_ai._utils.disable_threads not available")
        else:
            stack.enter_context(disable_threads())
        yield


def _request_for(part: PlanPart, done: Mapping[str, PartResult]) -> MaterialRequest:
    """The router request; a part that follows another takes its finished topic and Aufgaben titles."""
    request = part.to_request()
    extra: list[str] = []
    for d in part.depends_on:
        src = done.get(d)
        if src is None or src.material is None:
            continue
        titles = [a.get("titel", "") for a in (src.material.content or {}).get("aufgaben", [])]
        aufgaben = f" (Aufgaben: {'; '.join(titles)})" if titles else ""
        verb = "Passend zu" if d == part.topic_from else "Zur Vorbereitung auf"
        extra.append(f"{verb} „{src.material.titel}“{aufgaben}.")
        if d == part.topic_from:
            request = request.model_copy(update={"thema": src.material.thema})
    if extra:
        request = request.model_copy(update={"zusatz": f"{request.zusatz} {' '.join(extra)}".strip()[:500]})
    return request


async def _run_part(turn: TurnContext, part: PlanPart, request: MaterialRequest) -> PartResult:
    result = PartResult(part=part, request=request)
    try:
        result.outcome = await start_generation(turn=turn, request=request)
    except PART_FAILURES as exc:
        error_id = report_unexpected(exc, context=f"supervisor part {part.key}")
        result.error = f"konnte nicht erstellt werden (Modellfehler, Fehler-ID {error_id})"
        return result
    if result.outcome.kind == "material" and result.outcome.material_id:
        result.material = material_repo.get_material(db=turn.db, material_id=result.outcome.material_id)
    elif result.outcome.kind == "error":
        result.error = result.outcome.text.removeprefix("FEHLER: ")
    return result


async def _execute(turn: TurnContext, p: Plan) -> dict[str, PartResult]:
    levels = topological_levels(p.parts) or [[x.key for x in p.parts]]
    done: dict[str, PartResult] = {}
    with _loop_thread_only(turn, [x.material_type for x in p.parts]):
        for level in levels:
            parts = [p.part(k) for k in level]
            turn.step("Supervisor: " + " und ".join(SHORT[x.material_type] for x in parts)
                      + (" parallel" if len(parts) > 1 else ""))
            outs = await asyncio.gather(*(_run_part(turn, x, _request_for(x, done)) for x in parts),
                                        return_exceptions=True)
            for x, out in zip(parts, outs, strict=True):
                if isinstance(out, BaseException):
                    raise out  # a bug, not a model failure: the turn rolls back as a whole
                done[x.key] = out
    return done


def _questions(results: Sequence[PartResult]) -> list[CollectedQuestion]:
    out = []
    for r in results:
        o = r.outcome
        if o is not None and o.kind == "rueckfrage" and o.question is not None:
            out.append(CollectedQuestion(part_key=r.part.key, material_type=r.part.material_type,
                                         frage=o.question.frage, kontext=o.question.kontext,
                                         vorschlaege=list(o.question.vorschlaege), session_id=o.session_id))
    return out


# --- files ------------------------------------------------------------------------------------------------------------


def combined_zip(*, db: Any, material_ids: Sequence[uuid.UUID], overview: str | None = None) -> bytes:
    """One ZIP of the stored files of several materials; names are prefixed per material ("1_Klausur_…")."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        if overview:
            zf.writestr("0_Uebersicht.txt", overview)
        for n, mid in enumerate(material_ids, 1):
            row = material_repo.get_material(db=db, material_id=mid)
            label = safe_name(SHORT.get(row.material_type, "Material") if row else "Material", 20)
            for f in material_repo.files_of(db=db, material_id=mid):
                zf.writestr(f"{n}_{label}_{f.filename}", f.data)
    return buf.getvalue()


# --- the answer -------------------------------------------------------------------------------------------------------


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _material_line(r: PartResult, p: Plan | None) -> str:
    m = r.material
    assert m is not None
    c = m.content or {}
    if m.material_type == "klausur":
        shares = c.get("afb_anteile") or {}
        detail = (f"{c.get('dauer_minuten')} Min., {c.get('gesamtpunkte')} Punkte, AFB "
                  + "/".join(f"{float(shares.get(k, 0)):.0f}" for k in ("I", "II", "III")) + " %")
        ziel = (m.request or {}).get("afb_ziel_verwendet")
        if isinstance(ziel, dict):
            detail += " (Ziel " + "/".join(str(ziel.get(k, 0)) for k in ("I", "II", "III")) + ")"
        titles = [a.get("titel", "") for a in c.get("aufgaben", [])]
        if titles:
            detail += "; Aufgaben: " + "; ".join(titles)
    elif m.material_type == "differenzierung":
        detail = f"drei Niveaus, Lernziel: {c.get('lernziel', '')}".rstrip(": .")
    else:
        detail = _n(len(c.get("fragen", [])), "Frage", "Fragen")
    follows = ""
    if p is not None and r.part.depends_on and not p.flat:
        src = p.part(r.part.depends_on[0])
        follows = f" — folgt der {SHORT[src.material_type]}" if r.part.topic_from else \
            f" — zur Vorbereitung auf die {SHORT[src.material_type]}"
    return f"**{TYPE_LABELS[m.material_type]}** „{m.titel}“: {detail}{follows}."


def _synthesise(p: Plan | None, results: Sequence[PartResult], conflicts: Sequence[str],
                questions: Sequence[CollectedQuestion], notes: Sequence[str], *, material_count: int,
                file_count: int, zip_name: str | None, intro: str | None = None) -> str:
    lines: list[str] = []
    if intro:
        lines.append(intro)
    elif p is not None:
        shared = {(x.fach, x.klasse or x.klassenstufe) for x in p.parts}
        ctx = ""
        if len(shared) == 1:
            fach, klasse = next(iter(shared))
            ctx = f" ({fach_name(fach or '')}, Klasse {klasse})" if fach and klasse else ""
        ordered = any(x.depends_on for x in p.parts) and not p.flat
        lines.append(f"Ich habe Ihre Anfrage in {len(p.parts)} Materialien aufgeteilt{ctx}"
                     + (" und sie nacheinander passend zueinander erstellt:" if ordered else ":"))
    for n, r in enumerate(results, 1):
        if r.material is not None:
            lines.append(f"{n}. {_material_line(r, p)}")
        elif r.outcome is not None and r.outcome.kind == "rueckfrage":
            lines.append(f"{n}. **{_name(r.part)}**: wartet auf Ihre Antwort (siehe Rückfragen).")
        elif r.error:
            lines.append(f"{n}. **{_name(r.part)}**: {r.error}")
    waiting_sources = {q.part_key for q in questions if q.session_id}
    followers = [r for r in results if r.material is not None and set(r.part.depends_on) & waiting_sources]
    if followers:
        lines.append("Hinweis: " + " und ".join(SHORT[r.part.material_type] for r in followers)
                     + " folgt dem geplanten Thema; die Aufgaben der Klausur stehen erst nach Ihrer Antwort fest.")
    if notes:
        lines.append("")
        lines += [f"Hinweis: {n}" for n in notes]
    if conflicts:
        lines.append("")
        lines.append("**Bitte prüfen — das passt nicht ganz zusammen:**")
        lines += [f"- {c}" for c in conflicts]
    if questions:
        lines.append("")
        if any(q.session_id for q in questions):
            lines.append("**Rückfragen** (bitte alle in einer Nachricht beantworten, z. B. „30/40/30, und beim Quiz "
                         "10 Fragen“):")
        else:
            lines.append("**Bevor ich loslege, fehlen noch Angaben:**")
        for n, q in enumerate(questions, 1):
            vorschlaege = f" Vorschläge: {' | '.join(q.vorschlaege)}." if q.vorschlaege else ""
            who = f"{q.label}: " if q.session_id else ""
            lines.append(f"{n}. {who}{q.frage}{vorschlaege}")
    if material_count:
        lines.append("")
        zip_text = f" — einzeln unten oder alle zusammen als ZIP „{zip_name}“" if zip_name else ""
        lines.append(f"**Dateien:** {_n(file_count, 'Datei', 'Dateien')} zu "
                     f"{_n(material_count, 'Material', 'Materialien')}{zip_text}.")
    return "\n".join(lines).strip()


def _finish(turn: TurnContext, p: Plan | None, results: list[PartResult], conflicts: list[str],
            questions: list[CollectedQuestion], notes: list[str], *, extra_ids: Sequence[uuid.UUID] = (),
            intro: str | None = None) -> CombinedOutcome:
    ids = list(dict.fromkeys([*extra_ids, *(r.material.id for r in results if r.material is not None)]))
    rows = [m for m in (material_repo.get_material(db=turn.db, material_id=i) for i in ids) if m is not None]
    file_count = sum(len(material_repo.files_of(db=turn.db, material_id=m.id)) for m in rows)
    zip_name = f"Materialpaket_{safe_name(f'{fach_name(rows[0].fach)}_{rows[0].thema}', 50)}.zip" if rows else None
    answer = _synthesise(p, results, conflicts, questions, notes, material_count=len(rows), file_count=file_count,
                         zip_name=zip_name, intro=intro)
    zip_bytes = combined_zip(db=turn.db, material_ids=ids, overview=answer) if ids else None
    asked = [q for q in questions if q.session_id]
    kind: Literal["materials", "rueckfrage", "error"] = "rueckfrage" if questions else "materials" if ids else "error"
    turn.outcomes.append({"kind": "material_set", "material_ids": [str(i) for i in ids],
                          "session_ids": [str(q.session_id) for q in asked], "conflicts": list(conflicts),
                          "zip_name": zip_name})
    if kind == "error":
        text = f"FEHLER: {answer}"
    else:
        counts = [_n(len(ids), "Material", "Materialien")]
        if asked:
            counts.append(_n(len(asked), "Rückfrage", "Rückfragen"))
        if len(asked) < len(questions):
            counts.append(_n(len(questions) - len(asked), "fehlende Angabe", "fehlende Angaben"))
        if conflicts:
            counts.append(_n(len(conflicts), "Konflikt", "Konflikte"))
        markers = " ".join([*(f"[material:{i}]" for i in ids), *(f"[session:{q.session_id}]" for q in asked)])
        header = HEADER_QUESTIONS if questions else HEADER_DONE
        text = f"{header} ({', '.join(counts)})\n{answer}" + (f"\n{markers}" if markers else "")
    return CombinedOutcome(kind=kind, text=text, answer=answer, plan=p, parts=results, material_ids=ids,
                           zip_bytes=zip_bytes, zip_name=zip_name, conflicts=list(conflicts),
                           questions=list(questions), notes=list(notes))


def _refusal(turn: TurnContext, message: str, p: Plan | None = None) -> CombinedOutcome:
    turn.outcomes.append({"kind": "error", "text": message})
    return CombinedOutcome(kind="error", text=f"FEHLER: {message}", answer=message, plan=p)


async def run_combined(*, turn: TurnContext, text: str, base: dict | None = None) -> CombinedOutcome:
    """A combined request end to end: plan, ask what is missing, run (independent parts concurrently, dependent
    ones after their source), collect Rückfragen, name conflicts, offer all files and one ZIP."""
    turn.step("Supervisor: zerlege die Anfrage in Einzelmaterialien")
    try:
        p = await plan(text, base, turn=turn)
    except PlanRefused as exc:
        return _refusal(turn, exc.message)
    if len(turn.teacher.faecher or []) == 1 and any(not x.fach for x in p.parts):
        from core.faecher import normalize_fach

        only = normalize_fach(turn.teacher.faecher[0], required=False)
        p = p.model_copy(update={"parts": [x if x.fach else x.model_copy(update={"fach": only}) for x in p.parts]})
    turn.step("Supervisor: Plan — " + "; ".join(
        f"{x.key}: {SHORT[x.material_type]} ({x.confidence:.0%})" + (f" nach {', '.join(x.depends_on)}"
                                                                      if x.depends_on else "") for x in p.parts))
    gaps = plan_gaps(p)
    if gaps:
        return _finish(turn, p, [], plan_conflicts(p), gaps, list(p.notes),
                       intro=f"Gern — das sind {len(p.parts)} Materialien: "
                             + ", ".join(_name(x) for x in p.parts) + ".")
    done = await _execute(turn, p)
    results = [done[x.key] for x in p.parts]
    conflicts = plan_conflicts(p, done)
    return _finish(turn, p, results, conflicts, _questions(results), list(p.notes))


# --- answering collected Rückfragen -----------------------------------------------------------------------------------

_MATERIAL_NAMES = (
    ("klausur", re.compile(r"klausur|klassenarbeit|\btests?\b|lernkontrolle|pr[uü]fung", re.I)),
    ("differenzierung", re.compile(r"arbeitsbl[aä]tt|[uü]bungsbl[aä]tt|\bblatt\b|f[oö]rderbl", re.I)),
    ("h5p", re.compile(r"quiz|h5p|l[uü]ckentext|zuordnungs|interaktiv", re.I)),
)
_COUNT = re.compile(r"\b(\d{1,2})\s*(?:fragen|aufgaben|items|quizfragen)\b", re.I)
_CLAUSE_SPLIT = re.compile(r"\s*(?:;|\n|,|\bund\b|\bsowie\b|\bau(?:ß|ss)erdem\b)\s*", re.I)
_AFB_TRIPLE = re.compile(r"\d{1,3}\s*%?\s*([/:|-]|,\s*)\s*\d{1,3}\s*%?\s*\1\s*\d{1,3}")


def _named_type(clause: str) -> str | None:
    return next((t for t, rx in _MATERIAL_NAMES if rx.search(clause)), None)


def _asks_afb(q: CollectedQuestion) -> bool:
    return bool(re.search(r"anforderungsbereich|afb|verteilung", f"{q.frage} {q.kontext}", re.I))


def _asks_count(q: CollectedQuestion) -> bool:
    return bool(re.search(r"wie viele|anzahl|fragen soll", f"{q.frage} {q.kontext}", re.I))


def split_answer(answer: str, questions: Sequence[CollectedQuestion]) -> tuple[dict[uuid.UUID, str], list[str]]:
    """Split one answer to several Rückfragen into the part for each session (see the module docstring).

    Returns ({session_id: answer part}, clauses nobody asked about).
    """
    waiting = [q for q in questions if q.session_id is not None]
    if not waiting:
        return {}, [answer] if answer.strip() else []
    if len(waiting) == 1:
        return {waiting[0].session_id: answer.strip()}, []  # type: ignore[dict-item]
    protected = {}

    def protect(m: re.Match[str]) -> str:
        key = f"§{len(protected)}§"
        protected[key] = m.group()
        return key

    masked = _AFB_TRIPLE.sub(protect, answer)
    clauses = [c for c in _CLAUSE_SPLIT.split(masked) if c and c.strip()]
    for i, c in enumerate(clauses):
        for key, value in protected.items():
            c = c.replace(key, value)
        clauses[i] = c.strip()
    by_type = {q.material_type: q for q in waiting}
    parts: dict[uuid.UUID, list[str]] = {}
    leftover: list[str] = []
    current: CollectedQuestion | None = None
    for clause in clauses:
        named = _named_type(clause)
        if named is not None:
            current = by_type.get(named)
            if current is None:
                leftover.append(clause)
                continue
        target = current
        if target is None:
            if nlu.parse_afb_answer(clause):
                target = next((q for q in waiting if _asks_afb(q)), by_type.get("klausur"))
            elif _COUNT.search(clause):
                target = next((q for q in waiting if _asks_count(q)), by_type.get("h5p"))
        if target is None:
            leftover.append(clause)
            continue
        parts.setdefault(target.session_id, []).append(clause)  # type: ignore[arg-type]
    rest = [q for q in waiting if q.session_id not in parts]
    unrouted: list[str] = []
    if leftover and rest:
        for q in rest:
            parts[q.session_id] = list(leftover)  # type: ignore[index]
    else:
        unrouted = leftover
    return {sid: ", ".join(cs) for sid, cs in parts.items()}, unrouted


async def continue_combined(*, turn: TurnContext, session_ids: Sequence[str | uuid.UUID], answer: str,
                            earlier_material_ids: Sequence[uuid.UUID] = ()) -> CombinedOutcome:
    """The teacher's one answer to the collected Rückfragen: split it, continue each paused sub-request, and answer
    once more with everything (including `earlier_material_ids`, the set's finished materials, in the ZIP)."""
    questions: list[CollectedQuestion] = []
    for raw in session_ids:
        try:
            sid = uuid.UUID(str(raw).strip())
        except ValueError:
            continue
        s = session_repo.get_session(db=turn.db, session_id=sid)
        if s is None or s.teacher_id != turn.teacher.id or s.status != "waiting":
            continue
        q = s.question or {}
        questions.append(CollectedQuestion(part_key=str(sid), material_type=s.agent_type, frage=q.get("frage", ""),
                                           kontext=q.get("kontext", ""), vorschlaege=list(q.get("vorschlaege") or []),
                                           session_id=sid))
    if not questions:
        return _refusal(turn, "Zu diesen Rückfragen wartet nichts mehr (schon beantwortet, abgelaufen oder nicht "
                              "Ihre). Die fertigen Materialien liegen unter „Meine Materialien“.")
    routed, unrouted = split_answer(answer, questions)
    results: list[PartResult] = []
    with _loop_thread_only(turn, [q.material_type for q in questions]):
        for q in questions:
            part_answer = routed.get(q.session_id)  # type: ignore[arg-type]
            part = PlanPart(key=q.part_key, material_type=q.material_type, thema=None)
            if not part_answer:
                results.append(PartResult(part=part, outcome=RouterOutcome(
                    kind="rueckfrage", text="", session_id=q.session_id, question=None)))
                continue
            result = PartResult(part=part)
            try:
                result.outcome = await continue_generation(turn=turn, session_id=str(q.session_id),
                                                           answer=part_answer)
            except PART_FAILURES as exc:
                result.error = f"konnte nicht fortgesetzt werden (Fehler-ID {report_unexpected(exc)})"
            if result.outcome is not None and result.outcome.kind == "material" and result.outcome.material_id:
                result.material = material_repo.get_material(db=turn.db, material_id=result.outcome.material_id)
                result.part = part.model_copy(update={"thema": result.material.thema if result.material else None})
            elif result.outcome is not None and result.outcome.kind == "error":
                result.error = result.outcome.text.removeprefix("FEHLER: ")
            results.append(result)
    still = [q for q in questions if q.session_id not in routed]
    still += _questions(results)
    notes = [f"Diesen Teil Ihrer Antwort konnte ich keiner Rückfrage zuordnen: „{c}“." for c in unrouted]
    intro = f"Danke — ich habe Ihre Antwort auf {len(routed)} Rückfrage{'n' if len(routed) != 1 else ''} verteilt:"
    return _finish(turn, None, results, [], still, notes, extra_ids=earlier_material_ids, intro=intro)


# --- evaluation -------------------------------------------------------------------------------------------------------


def _keywords_match(keywords: Sequence[str], thema: str | None) -> bool:
    t = _fold(thema or "")
    return all(_fold(k) in t for k in keywords)


def case_correct(case: Mapping[str, Any], p: Plan) -> tuple[bool, str]:
    """One labelled case (seeds/eval/combined.yaml): the same (material_type, fach, klassenstufe) parts, topic
    keywords that match, and the same dependency edges — under some matching of expected to planned parts."""
    import itertools

    expected = list(case["parts"])
    got = p.parts
    if len(expected) != len(got):
        return False, f"{len(got)} statt {len(expected)} Teile"
    got_edges = {(g.key, d) for g in got for d in g.depends_on}
    reason = "Teile passen nicht"
    for perm in itertools.permutations(range(len(got))):
        pairs = list(zip(expected, (got[i] for i in perm), strict=True))
        if all((e["material_type"], e["fach"], e["klassenstufe"]) == (g.material_type, g.fach, g.klassenstufe)
               and _keywords_match(e.get("thema") or [], g.thema) for e, g in pairs):
            keymap = {e["key"]: g.key for e, g in pairs}
            want = {(keymap[e["key"]], keymap[d]) for e in expected for d in e.get("depends_on") or []}
            if want == got_edges:
                return True, ""
            reason = f"Abhängigkeiten {sorted(got_edges)} statt {sorted(want)}"
    return False, reason


def decomposition_accuracy(cases: Sequence[Mapping[str, Any]]) -> tuple[float, list[tuple[str, str]]]:
    """Share of cases the offline rules decompose correctly, and the failures (case id, why)."""
    failures = []
    for case in cases:
        draft = rule_plan(case["text"], case.get("context"))
        p = normalized(draft) if draft.parts and not plan_faults(draft) else draft
        ok, why = case_correct(case, p)
        if not ok:
            failures.append((str(case.get("id", case["text"][:40])), why))
    return (1 - len(failures) / len(cases)) if cases else 0.0, failures
