"""The offline main agent: reads the teacher's message like a model would, continues open Rückfragen, routes edits,
feedback, notes and combined requests to their tools, asks what is missing, then calls generate_material."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo

from agents.offline import course_year, dialog, edit_plan, praise, refusal, shortfall
from agents.offline.followup_calls import follow_up, swap_addition
from agents.offline.messages import (
    Rules,
    Turn,
    call,
    say,
    teacher_turns,
    text_of,
    tool_returns,
    turn_returns,
    user_prompts,
)
from agents.offline.planner import rule_plan
from agents.offline.present import present
from core.app.errors import UserError
from core.language.afb import parse_afb_answer
from core.language.edits import EditUnclear, parse_edit_request
from core.language.followups import wants_whole_topic
from core.language.klasse import Oberstufe, oberstufe_of
from core.language.lexicon import Lexicon
from core.language.rating import explicit_stars
from core.language.request.extract import extract
from core.language.request.extraction import Extraction
from core.language.text import fold
from core.materials.faecher import normalize_fach
from core.materials.patch_ops import RegenerateInstruction

_SESSION = re.compile(r"\[session:([0-9a-fA-F-]{36})\]")
_MATERIAL = re.compile(r"\[material:([0-9a-fA-F-]{36})\]")
_CANCEL = re.compile(r"\b(abbrechen|vergiss (das|es)|neue anfrage|doch nicht|stopp)\b", re.I)
_REMEMBER = re.compile(r"^\s*(bitte\s+)?(merk(e)?\s+dir|notier(e)?\s+dir|zur info)\b[:,]?\s*(.*)", re.I | re.S)
_WEB = re.compile(r"\b(im internet|websuche|google|online suchen|such(e)? im netz)\b", re.I)
_FAECHER = re.compile(r"^Lehrkraft: .*; Fächer: ([^;\n]*);", re.M)
_TEACHER = re.compile(r"^Lehrkraft: .*, ([^,;]+); Fächer:", re.M)  # agents.main instructions: name, Bundesland
_GREETING = re.compile(r"^\s*(hallo|hi|guten (morgen|tag|abend)|moin|servus|danke|vielen dank)\b[\s!.,]*$", re.I)
_MADE = ("generate_material", "generate_exercise", "continue_material_generation", "patch_material_task",
         "add_bank_task", "remove_topic_tasks", "regenerate_from_previous", "restore_material_version")
_HELLO = ("Hallo! Ich erstelle mit Ihnen Klausuren mit Erwartungshorizont, differenzierte Arbeitsblätter in drei "
          "Niveaus und interaktive H5P-Übungen. Sagen Sie einfach, was Sie brauchen – z. B. „Klausur Physik "
          "Klasse 10 zu Stromkreisen, 45 Minuten“.")
_ALREADY_ANSWERED = ("Diese Rückfrage ist bereits beantwortet – das Material dazu liegt schon vor (siehe oben bzw. "
                     "unter „Meine Materialien“). Soll ich etwas daran ändern, oder möchten Sie ein neues Material?")


def _open_set(messages: list[ModelMessage]) -> list[str]:
    """Session ids of a material set's collected Rückfragen still waiting for the teacher's one answer."""
    open_ids: list[str] = []
    for p in tool_returns(messages):
        if p.tool_name in ("generate_material_set", "continue_material_set"):
            text = text_of(p.content)
            open_ids = _SESSION.findall(text) if text.startswith("MATERIALSET_RÜCKFRAGEN") else []
        elif p.tool_name in ("generate_material", "continue_material_generation"):
            open_ids = []
    return open_ids


_STARTS = ("generate_material", "generate_exercise")
_ABSAGE = "FEHLER: Das kann ich nicht gut erstellen"  # core.generation.texts.absage_text: the specialist's refusal


@dataclass(frozen=True)
class _Conversation:
    """Where the conversation stands: an open Rückfrage, the last material, where the current request began, and the
    request the specialist could not serve (a refusal does not end the request: the teacher adjusts it)."""

    open_sid: str | None = None
    last_material: str | None = None
    boundary: int = 0  # index of the teacher turn with which the current request began
    refused: dict[str, Any] | None = None  # the generate_material arguments of a refused request
    refused_at: int | None = None  # teacher turns before the answer to the refusal
    offered: tuple[str, ...] = ()  # the numbered options the refusal offered
    short: dict[str, Any] | None = None  # the request of the last material when it came out shortened …
    short_at: int | None = None  # … the teacher turns before the answer to its options …
    short_offered: tuple[str, ...] = ()  # … and the options its reply offered


def _state(messages: list[ModelMessage]) -> _Conversation:
    state = _Conversation()
    n_user = 0
    calls: dict[str, dict[str, Any]] = {}
    for m in messages:
        if isinstance(m, ModelResponse):
            calls.update({p.tool_call_id: p.args_as_dict() for p in m.parts
                          if isinstance(p, ToolCallPart) and p.tool_name == "generate_material"})
            continue
        for p in m.parts:
            if isinstance(p, UserPromptPart):
                n_user += 1
            elif isinstance(p, ToolReturnPart):
                state = _after_tool(state, p, n_user, calls)
    return state


def _after_tool(state: _Conversation, p: ToolReturnPart, n_user: int, calls: dict[str, dict[str, Any]]
                ) -> _Conversation:
    text = text_of(p.content)
    if p.tool_name in (*_MADE, "generate_material_set"):
        if (s := _SESSION.search(text)) and text.startswith("RÜCKFRAGE"):
            return replace(state, open_sid=s.group(1))
        if (p.tool_name in _STARTS and text.startswith("FEHLER")) or (
                p.tool_name == "continue_material_generation" and text.startswith(_ABSAGE)):
            # refused (or not possible as asked): the request stays, with what the teacher said so far. An expired
            # or unloadable Rückfrage is no refusal: the teacher is asked to state the request anew.
            args = calls.get(p.tool_call_id) or state.refused or (list(calls.values())[-1] if calls else None)
            return replace(state, open_sid=None, refused=args, refused_at=n_user, offered=refusal.offered(text))
        mm = _MATERIAL.search(text)
        options = shortfall.offered_after(text) if p.tool_name in (*_STARTS, "continue_material_generation") else ()
        request = (calls.get(p.tool_call_id) or (list(calls.values())[-1] if calls else None)) if options else None
        return replace(state, open_sid=None, boundary=n_user, refused=None, refused_at=None, offered=(),
                       last_material=mm.group(1) if mm else state.last_material, short=request, short_at=n_user,
                       short_offered=options if request else ())
    if p.tool_name == "record_feedback":
        return replace(state, boundary=n_user, refused=None, refused_at=None, offered=(), short=None)
    return state


def _is_combined(text: str, lexicon: Lexicon) -> bool:
    """Two or more materials in one message ("Klausur …, dazu ein Übungsblatt und ein Quiz")."""
    kinds = sum(bool(re.search(p, text, re.I)) for p in (
        r"\b(klausur|klassenarbeit|leistungskontrolle|test)\b", r"(arbeitsblatt|übungsblatt|differenziert)",
        r"(h5p|quiz|lückentext-übung|interaktiv)"))
    if kinds < 2:
        return False
    try:
        return len(rule_plan(text, lexicon=lexicon).parts) >= 2
    except Exception:  # a plan the rules cannot make: treat as a single request
        return False


def _routed(text: str, messages: list[ModelMessage], open_sid: str | None, lexicon: Lexicon) -> ModelResponse | None:
    """Answers to collected or open Rückfragen, combined requests, notes, web searches — before anything else."""
    open_set = _open_set(messages[:-1])
    if open_set and not _CANCEL.search(text):
        return call("continue_material_set", {"session_ids": open_set, "answer": text})
    if _is_combined(text, lexicon):
        return call("generate_material_set", {"text": text})
    if open_sid and not _CANCEL.search(text):
        return call("continue_material_generation", {"session_id": open_sid, "answer": text})
    if (m := _REMEMBER.match(text)) and explicit_stars(text) is None:  # „Merk dir die Klausur als bewährt“ rates
        return call("remember", {"fact": (m.group(5) or text).strip()[:500]})
    if _WEB.search(text):
        return call("search_web", {"query": text[:300]})
    return None


def _edit(text: str, messages: list[ModelMessage], last_material: str, lexicon: Lexicon) -> ModelResponse | None:
    """An edit request about the last material (or praise/criticism of its newest version), else None.

    Checked before the feedback rule on purpose: "Mach Aufgabe 3 leichter" also reads as a difficulty complaint, but
    the teacher asks for a change, not only reports one. A complaint without a change wish ("Aufgabe 3 ist zu
    schwer") is no edit and still goes to record_feedback.
    """
    target = _newest(messages, last_material)
    kind = str(_current_request(messages).get("material_type") or "")
    text, said = edit_plan.chosen_instead(text, messages)
    if said:
        return say(said)
    if plan := edit_plan.steps(text, kind):  # strike, replace, add, easier, harder, shorter: before a new request
        return edit_plan.first_call(plan, target)
    new_request = _new_request(extract(text, topic_terms=lexicon.terms), messages)
    if not new_request and (reply := follow_up(text, target, kind)) is not None:
        return reply
    try:
        edit = None if new_request else parse_edit_request(text)
    except EditUnclear as exc:
        return say(exc.message)
    if not edit and target != last_material and not new_request and (
            reply := praise.about_material(text, target, messages)) is not None:
        return reply  # after an edit, praise or criticism is about the edited version, not the first one
    if not edit and not new_request and wants_whole_topic(text)[0]:  # „Bitte das ganze Thema … nehmen“
        return call("regenerate_from_previous", {"material_id": target, "instruction": text})
    if not edit:
        return None
    if isinstance(edit, RegenerateInstruction):
        return call("regenerate_from_previous", {"material_id": target, "instruction": text})
    # The teacher asked for exactly this change: it is applied even if the check then reports deviations (they are
    # named in the reply; the previous version stays).
    return call("patch_material_task", {
        "material_id": target, "operations": [op.model_dump(exclude_none=True) for op in edit], "force": True})


def _newest(messages: list[ModelMessage], last_material: str) -> str:
    """The newest version of the last material: edits return [material:ID] of the version they made."""
    target = last_material
    for p in tool_returns(messages):
        if p.tool_name in _MADE and (mm := _MATERIAL.search(text_of(p.content))):
            target = mm.group(1)
    return target


def _current_request(messages: list[ModelMessage]) -> dict[str, Any]:
    """The arguments of the last generate_material call: the request the conversation's material was made from."""
    for m in reversed(messages):
        if isinstance(m, ModelResponse):
            for p in m.parts:
                if isinstance(p, ToolCallPart) and p.tool_name in _STARTS:
                    return p.args_as_dict()
    return {}


def _new_request(wanted: Extraction, messages: list[ModelMessage]) -> bool:
    """A message naming a material and a Fach starts a new request — unless it is about the current material: the
    same Fach and material type, and no Klasse named („Die Klausur muss 135 Minuten dauern. Bitte das ganze Thema
    Expressionismus nehmen“ after a Deutsch-Klausur is a change, not a new exam)."""
    if not (wanted.material_type and wanted.fach):
        return False
    current = _current_request(messages)
    same = (fold(str(current.get("fach") or "")) == fold(wanted.fach)
            and fold(str(current.get("material_type") or "")) == fold(wanted.material_type))
    return not same or wanted.klassenstufe is not None


def _about_last_material(text: str, last_material: str, messages: list[ModelMessage], lexicon: Lexicon
                         ) -> ModelResponse | None:
    """A rating, praise or criticism of the last material, or an AFB answer to a Rückfrage already answered."""
    new_request = extract(text, topic_terms=lexicon.terms)
    if not (new_request.material_type and new_request.fach) and (
            reply := praise.about_material(text, last_material, messages)) is not None:
        return reply
    if parse_afb_answer(text) and not extract(text).material_type:
        return say(_ALREADY_ANSWERED)
    return None


def _respond(messages: list[ModelMessage], lexicon: Lexicon) -> ModelResponse:
    last = messages[-1]
    returns = [p for p in last.parts if isinstance(p, ToolReturnPart)] if isinstance(last, ModelRequest) else []
    prompts = user_prompts(messages)
    text = prompts[-1] if prompts else ""
    if returns and (then := _planned(messages, text)) is not None:
        return then
    if returns and (then := swap_addition(returns, text)) is not None:
        return then
    if returns:
        said = "\n\n".join(present(p) for p in turn_returns(messages))
        made = [p for p in returns if p.tool_name in _STARTS]  # the topic as understood, once the call is answered
        if not made:
            return say(said)
        args, oberstufe = _called_args(messages, made[0].tool_call_id), _oberstufe(messages)
        year = course_year.note(args, teacher_turns(messages), lexicon.terms, oberstufe)
        return say(_noted(dialog.typo_note(text, lexicon.terms, oberstufe, args.get("fach")), _noted(year, said)))
    state = _state(messages[:-1])
    last_material = state.last_material
    if (reply := _routed(text, messages, state.open_sid, lexicon)) is not None:
        return reply
    if not state.open_sid and (redo := _course_year_changed(text, messages, lexicon)) is not None:
        return call("generate_material", redo)  # „Jahrgangsstufe 12“ after the first Q year was assumed (068)
    before = teacher_turns(messages)[-1].reply_before if prompts else ""
    if (reply := _refusal_answer(text, state, len(prompts) - 1, before, lexicon)) is not None:
        return reply
    if state.short is not None and (reply := _shortened_answer(text, state, len(prompts) - 1, before)) is not None:
        return reply
    if last_material and not state.open_sid and state.refused is None:  # after a refusal the request goes on
        reply = praise.answer_to_ask(text, _newest(messages, last_material), messages)
        if reply is None:
            reply = _edit(text, messages, last_material, lexicon)
        if reply is None:
            reply = _about_last_material(text, last_material, messages, lexicon)
        if reply is not None:
            return reply
    if _GREETING.match(text):
        return say(_HELLO)
    turns = _request_turns(teacher_turns(messages), state, text, lexicon)
    step = dialog.next_step(turns, lexicon.terms, lexicon.grades, _oberstufe(messages), _faecher(messages))
    if isinstance(step, str):
        fach = dialog.understand(turns[:-1], lexicon.terms, _oberstufe(messages)).fach
        return say(_noted(dialog.typo_note(text, lexicon.terms, _oberstufe(messages), fach), step))
    if state.refused is not None and dialog.same_request(step, state.refused):
        # a plain „Ja, bitte so erstellen“ after a refusal with options: which one, not the same refusal again
        return say(f"{dialog.SAME_AS_REFUSED.split('. ')[0]}. {refusal.which_one(state.offered)}" if state.offered
                   else dialog.SAME_AS_REFUSED)
    return call("generate_material", step)


def _planned(messages: list[ModelMessage], text: str) -> ModelResponse | None:
    """The next step of a follow-up's edits, or (all done or one failed) what was done and what not."""
    text = edit_plan.chosen_instead(text, messages)[0]
    plan = edit_plan.steps(text, str(_current_request(messages).get("material_type") or ""))
    if (done := edit_plan.carried(plan, messages)) is None:
        return None
    if (then := edit_plan.next_call(plan, done)) is not None:
        return then
    return say("\n\n".join(x for x in (edit_plan.said(done, present), edit_plan.not_done(plan, done)) if x))


def _course_year_changed(text: str, messages: list[ModelMessage], lexicon: Lexicon) -> dict[str, Any] | None:
    last, turns, oberstufe = _current_request(messages), teacher_turns(messages)[:-1], _oberstufe(messages)
    if not last or not course_year.assumed(last, turns, lexicon.terms, oberstufe):
        return None
    return course_year.other_year(text, last, lexicon.terms, oberstufe)


def _called_args(messages: list[ModelMessage], call_id: str) -> dict[str, Any]:
    """The arguments of the tool call `call_id` in the response before the last request."""
    for m in reversed(messages):
        if isinstance(m, ModelResponse):
            for p in m.parts:
                if isinstance(p, ToolCallPart) and p.tool_call_id == call_id:
                    return p.args_as_dict()
    return {}


def _noted(note: str, reply: str) -> str:
    return f"{note}\n\n{reply}" if note else reply


def _refusal_answer(text: str, state: _Conversation, turn: int, before: str, lexicon: Lexicon
                    ) -> ModelResponse | None:
    """The teacher's answer to the options of the refusal just before it (or to the question which one she
    means): the chosen option carried out, or that question when she only agrees."""
    if state.refused is None or _CANCEL.search(text):
        return None
    if refusal.wants_retry(text):  # after an upload or a configured model: the same request once more
        return call("generate_material", state.refused)
    if not state.offered or not (state.refused_at == turn or refusal.WHICH in before):
        return None
    number = refusal.chosen(text, state.offered)
    if number is None:
        return say(refusal.which_one(state.offered)) if refusal.unclear(text) else None
    choice = refusal.carry_out(state.offered, number, state.refused)
    if choice.args is None:
        return say(choice.reply or "")
    said = extract(text, topic_terms=lexicon.terms)  # "Option 1, aber nur 8 Fragen"
    changed = {"klassenstufe": said.klassenstufe, "dauer_minuten": said.dauer_minuten,
               "anzahl": said.aufgaben_anzahl, "niveau": said.niveau}
    return call("generate_material", {**choice.args, **{k: v for k, v in changed.items() if v is not None}})


def _shortened_answer(text: str, state: _Conversation, turn: int, before: str) -> ModelResponse | None:
    """The answer to the options under a shortened material (right after it, or to the question which one), or
    „nochmal versuchen“ after an upload or a configured model."""
    if refusal.wants_retry(text) and state.short is not None:
        return call("generate_material", state.short)
    if state.short is None or not (state.short_at == turn or refusal.WHICH in before):
        return None
    return shortfall.answer(text, state.short_offered, state.short)


def _faecher(messages: list[ModelMessage]) -> tuple[str, ...]:
    """The Fächer the teacher teaches, named in the main agent's instructions, as Fach keys."""
    for m in reversed(messages):
        if isinstance(m, ModelRequest) and m.instructions and (found := _FAECHER.search(m.instructions)):
            return tuple(k for name in found.group(1).split(",") if (k := _fach_key(name)))
    return ()


def _fach_key(name: str) -> str | None:
    try:
        return normalize_fach(name.strip(" —"), required=False)
    except UserError:  # a subject the workbench does not teach („Kunst“)
        return None


def _oberstufe(messages: list[ModelMessage]) -> Oberstufe:
    """How the teacher's Bundesland, named in the main agent's instructions, counts the Oberstufe years (Q1, Q2)."""
    for m in reversed(messages):
        if isinstance(m, ModelRequest) and m.instructions and (found := _TEACHER.search(m.instructions)):
            return oberstufe_of(found.group(1))
    return oberstufe_of(None)


def _request_turns(turns: list[Turn], state: _Conversation, text: str, lexicon: Lexicon) -> list[Turn]:
    """The teacher's turns of the current request. After a refusal the request goes on with what was said before
    ("Dann nimm das Thema Tundra und Permafrost allgemein" keeps Klasse, Dauer and material type) — unless the
    teacher cancels or names another Fach, which starts a new request."""
    if _CANCEL.search(text):
        return [Turn(text)]
    current = turns[state.boundary:]
    if state.refused_at is not None and state.refused_at < len(turns):
        after = turns[state.refused_at:]
        named = extract(after[0].text, topic_terms=lexicon.terms)
        if named.fach_source == "explicit" and named.fach != (state.refused or {}).get("fach"):
            return after
    return current


def main_rules(lexicon: Lexicon) -> Rules:
    """The main agent's rules, reading requests with `lexicon` (the subject vocabulary it is told)."""

    def rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return _respond(messages, lexicon)

    return rules
