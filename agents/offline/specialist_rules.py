"""The offline specialists (Klausur, Differenzierung, H5P): load profile and preferences, compose from checked tasks,
say plainly why not when nothing fits — and only then, for exams, ask the AFB Rückfrage when nothing fixes the split
(composing again with the answer) before handing the draft on."""

from __future__ import annotations

import re
from typing import Any

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo

from agents.offline.messages import JSON_BLOCK, Rules, json_returns, output_tool, text_of, tool_call, user_prompts
from core.language.afb import parse_afb_answer
from core.language.request.example_wish import wants_example
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.replies import Absage, ClarificationRequest
from core.materials.request import MaterialRequest
from core.materials.wording import anzahl


def _auftrag(messages: list[ModelMessage]) -> MaterialRequest:
    for p in user_prompts(messages):
        if m := JSON_BLOCK.search(p):
            return MaterialRequest.model_validate_json(m.group(1))
    raise ValueError("no Auftrag in the conversation")


def _context(messages: list[ModelMessage], key: str) -> dict[str, Any]:
    for data in reversed(json_returns(messages, "get_context")):
        if isinstance(data, dict) and key in data:
            return data
    return {}


def _answers(messages: list[ModelMessage]) -> list[str]:
    return [p for p in user_prompts(messages) if not JSON_BLOCK.search(p)]


def _clarifications(messages: list[ModelMessage]) -> int:
    return sum(1 for m in messages if isinstance(m, ModelResponse) for p in m.parts
               if isinstance(p, ToolCallPart) and p.tool_name.endswith("ClarificationRequest"))


def _afb_question(profile: dict[str, Any], request: MaterialRequest, again: bool) -> ClarificationRequest:
    dist = profile.get("typische_verteilung") or {"I": 30, "II": 40, "III": 30}
    standard = "/".join(str(dist.get(k, 0)) for k in ("I", "II", "III"))
    vorschlaege = [f"{standard} (Standard im Fachprofil)"]
    for alt, label in (("20/50/30", "mehr Anwendung"), ("40/40/20", "mehr Reproduktion"), ("30/40/30", "ausgewogen")):
        if alt != standard and len(vorschlaege) < 3:
            vorschlaege.append(f"{alt} ({label})")
    wishes = "; ".join(f"{w.thema} als AFB {w.afb}" for w in request.afb_wuensche)
    kontext = ("Weder der Auftrag noch Ihre Präferenzen legen die Verteilung auf die Anforderungsbereiche fest. "
               f"Das Fachprofil sieht {standard} vor.")
    if wishes:
        kontext += f" Ihr Wunsch ({wishes}) ist eingeplant."
    frage = "Welche Verteilung auf die Anforderungsbereiche I/II/III (in Prozent) wünschen Sie?"
    if again:
        frage = ("Ich habe Ihre Antwort nicht als AFB-Verteilung erkannt. Welche Anteile für I/II/III in Prozent "
                 "soll ich nehmen (z. B. 30/40/30)?")
    return ClarificationRequest(frage=frage, kontext=kontext, vorschlaege=vorschlaege)


def _afb_known(messages: list[ModelMessage], request: MaterialRequest, pref_ctx: dict[str, Any]) -> bool:
    if request.afb_ziel or pref_ctx.get("afb_quelle") in ("preference", "answer") or wants_example(request.zusatz):
        return True  # an example exam the teacher points to fixes the split
    return any(parse_afb_answer(a.split("(gewählter Vorschlag:")[-1]) for a in _answers(messages))


def _retried(messages: list[ModelMessage]) -> str | None:
    """The check's fault text when the last output was sent back for repair."""
    last = messages[-1] if messages else None
    if isinstance(last, ModelRequest):
        for p in last.parts:
            if isinstance(p, RetryPromptPart) and p.tool_name and p.tool_name.startswith("final_result"):
                return p.model_response()
            if isinstance(p, ToolReturnPart) and p.tool_name.startswith("final_result") \
                    and getattr(p, "outcome", "success") != "success":
                return text_of(p.content)
    return None


def _absage(info: AgentInfo, grund: str, gefunden: str, optionen: list[str]) -> ModelResponse:
    a = Absage(grund=grund, gefunden=gefunden, optionen=optionen or ["ein Sprachmodell konfigurieren"])
    return ModelResponse(parts=[tool_call(output_tool(info, Absage), a.model_dump())])


def _from_draft(messages: list[ModelMessage], info: AgentInfo, cls: type) -> ModelResponse:
    """Hand the composed draft on as the output, or say plainly that there is none."""
    data = json_returns(messages, "compose_draft")[-1]
    if not isinstance(data, dict) or data.get("kein_material") or "entwurf" not in data:
        d = data if isinstance(data, dict) else {}
        gefunden = anzahl(d["gefunden"], "passende geprüfte Aufgabe") if d.get("gefunden") else "nichts Passendes"
        return _absage(info, str(d.get("grund") or "Keine geprüften Aufgaben zu diesem Thema."), gefunden,
                       list(d.get("optionen") or []))
    if isinstance(data["entwurf"], str):  # an exam draft shown as text: the plan {} keeps it (agents/klausur_plan.py)
        return ModelResponse(parts=[tool_call(output_tool(info, cls), {})])
    draft = dict(data["entwurf"])
    draft["hinweise_lehrkraft"] = list(data.get("hinweise") or [])
    return ModelResponse(parts=[tool_call(output_tool(info, cls), draft)])


def _draft_was_sent(messages: list[ModelMessage], info: AgentInfo, cls: type) -> bool:
    """Whether the output the check sent back was the composed draft itself (then repeating it cannot help)."""
    outputs = [p for m in messages if isinstance(m, ModelResponse) for p in m.parts
               if isinstance(p, ToolCallPart) and p.tool_name.startswith("final_result")]
    if not outputs or not json_returns(messages, "compose_draft"):
        return False
    draft = _from_draft(messages, info, cls).parts[0]
    return isinstance(draft, ToolCallPart) and outputs[-1].args_as_dict() == draft.args_as_dict()


def _compose() -> ModelResponse:
    return ModelResponse(parts=[TextPart("Ich stelle das Material aus geprüften Aufgaben zusammen."),
                                tool_call("compose_draft", {})])


def _deliverable(draft: Any) -> bool:
    return isinstance(draft, dict) and not draft.get("kein_material") and "entwurf" in draft


def _answered_since_draft(messages: list[ModelMessage]) -> bool:
    """Whether the teacher answered a Rückfrage after the last compose_draft result."""
    answered = False
    for m in messages:
        if not isinstance(m, ModelRequest):
            continue
        for p in m.parts:
            if isinstance(p, ToolReturnPart) and p.tool_name == "compose_draft":
                answered = False
            elif isinstance(p, UserPromptPart) and isinstance(p.content, str) and not JSON_BLOCK.search(p.content):
                answered = True
    return answered


def specialist_rules(cls: type, *, asks_afb: bool) -> Rules:
    """The offline specialist: load profile and preferences, compose from checked tasks (a refusal comes before any
    Rückfrage), ask for the AFB split when nothing fixes it (exams) and compose again with the answer, hand the draft
    on. A draft the checks send back is not disguised: it says so."""

    def rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        request = _auftrag(messages)
        if (fault := _retried(messages)) and _draft_was_sent(messages, info, cls):
            lines = [x for x in fault.split("\n") if x.startswith("- ")] or fault.split("\n", 1)[-1:]
            faults = re.sub(r"\s*\(Ähnlichkeit \d+\s?%\)", "", "\n".join(lines))  # no check internals
            return _absage(info, "Im Entwurf blieben Mängel, die ich ohne Sprachmodell nicht beheben kann: "
                           + faults[:600], "ein Entwurf mit Mängeln",
                           ["das Thema enger oder anders fassen", "eigene Aufgaben hochladen",
                            "ein Sprachmodell konfigurieren"])
        if not json_returns(messages, "get_context"):
            return ModelResponse(parts=[TextPart("Ich lade Fachprofil und Präferenzen."),
                                        tool_call("get_context", {"scope": "profile", "depth": "relevant"}),
                                        tool_call("get_context", {"scope": "preferences", "depth": "full"})])
        drafts = json_returns(messages, "compose_draft")
        if not drafts:  # first see what the checked tasks allow: a refusal needs no AFB answer from the teacher
            return _compose()
        if not _deliverable(drafts[-1]):
            return _from_draft(messages, info, cls)
        pref_ctx = _context(messages, "praeferenzen")
        final = any("KEINE_WEITEREN_RUECKFRAGEN" in a for a in _answers(messages))
        if asks_afb and not _afb_known(messages, request, pref_ctx) and not final and _clarifications(messages) < 3:
            profile = _context(messages, "profil").get("profil") or {}
            q = _afb_question(profile, request, again=bool(_answers(messages)))
            return ModelResponse(parts=[tool_call(output_tool(info, ClarificationRequest), q.model_dump())])
        if _answered_since_draft(messages):  # the draft was made before the teacher's answer: make it anew
            return _compose()
        return _from_draft(messages, info, cls)

    return rules


klausur_rules = specialist_rules(Klausur, asks_afb=True)
differenzierung_rules = specialist_rules(DifferenziertesMaterial, asks_afb=False)
h5p_rules = specialist_rules(H5PSet, asks_afb=False)
