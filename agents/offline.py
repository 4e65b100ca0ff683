"""The offline rule model: a deterministic pydantic-ai FunctionModel per role, the app's default "LLM".

It reads the conversation like a model would, extracts what the teacher asks for (agents.offline_nlu), asks
what is missing, calls the same tools a real model calls, and assembles materials from the knowledge base
(agents.offline_builders). Same input, same output. It is also the last fallback when a real model fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from functools import lru_cache
from pathlib import Path
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
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from agents import offline_dialog as dialog
from agents import offline_nlu as nlu
from core.composition.examples import wants_example
from core.materials.replies import Absage, ClarificationRequest
from core.materials.request import MaterialRequest

MODEL_NAME = "offline-rules"
SEEDS = Path(__file__).resolve().parent.parent / "seeds" / "data"
Rules = Callable[[list[ModelMessage], AgentInfo], ModelResponse]


# --- reading the conversation ------------------------------------------------------------------------------------


def _user_prompts(messages: list[ModelMessage]) -> list[str]:
    return [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts
            if isinstance(p, UserPromptPart) and isinstance(p.content, str)]


def _turns(messages: list[ModelMessage]) -> list[dialog.Turn]:
    """The teacher's messages, each with the assistant's text reply just before it (the question it may answer)."""
    turns: list[dialog.Turn] = []
    reply = ""
    for m in messages:
        if isinstance(m, ModelResponse):
            texts = [p.content for p in m.parts if isinstance(p, TextPart)]
            if texts:
                reply = "".join(texts)
        else:
            for p in m.parts:
                if isinstance(p, UserPromptPart) and isinstance(p.content, str):
                    turns.append(dialog.Turn(p.content, reply))
    return turns


def _returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [p for m in messages if isinstance(m, ModelRequest) for p in m.parts
            if isinstance(p, ToolReturnPart) and getattr(p, "outcome", "success") != "retried"]


def _text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _call(name: str, args: dict[str, Any]) -> ToolCallPart:
    return ToolCallPart(name, {k: v for k, v in args.items() if v is not None})


def _output_tool(info: AgentInfo, cls: type) -> str:
    names = [t.name for t in info.output_tools]
    for n in names:
        if n == f"final_result_{cls.__name__}":
            return n
    return names[0] if len(names) == 1 else f"final_result_{cls.__name__}"


@lru_cache
def topic_terms() -> dict[str, dict[str, list[str]]]:
    """The subject vocabulary (fach -> Themenfeld -> terms) from the seeded profiles."""
    out: dict[str, dict[str, list[str]]] = {}
    for path in sorted(SEEDS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "profile" in data:
            out[data["fach"]] = data["profile"]["themenfelder"]
    return out


@lru_cache
def topic_grades() -> dict[str, dict[str, frozenset[int]]]:
    """The Klassenstufen of each Themenfeld (fach -> Themenfeld -> years) from the seeded Lehrplan excerpts."""
    out: dict[str, dict[str, set[int]]] = {}
    for path in sorted(SEEDS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for chunk in data.get("curriculum") or []:
            if isinstance(chunk, dict) and chunk.get("themenfeld"):
                years = out.setdefault(data.get("fach", ""), {}).setdefault(chunk["themenfeld"], set())
                years.update(int(k) for k in chunk.get("klassenstufen") or [] if isinstance(k, int))
    return {fach: {feld: frozenset(years) for feld, years in felder.items()} for fach, felder in out.items()}


# --- the main agent ----------------------------------------------------------------------------------------------

_SESSION = re.compile(r"\[session:([0-9a-fA-F-]{36})\]")
_MATERIAL = re.compile(r"\[material:([0-9a-fA-F-]{36})\]")
_CANCEL = re.compile(r"\b(abbrechen|vergiss (das|es)|neue anfrage|doch nicht|stopp)\b", re.I)
_REMEMBER = re.compile(r"^\s*(bitte\s+)?(merk(e)?\s+dir|notier(e)?\s+dir|zur info)\b[:,]?\s*(.*)", re.I | re.S)
_WEB = re.compile(r"\b(im internet|websuche|google|online suchen|such(e)? im netz)\b", re.I)
_GREETING = re.compile(r"^\s*(hallo|hi|guten (morgen|tag|abend)|moin|servus|danke|vielen dank)\b[\s!.,]*$", re.I)



def _open_set(messages: list[ModelMessage]) -> list[str]:
    """Session ids of a material set's collected Rückfragen still waiting for the teacher's one answer."""
    open_ids: list[str] = []
    for p in _returns(messages):
        if p.tool_name in ("generate_material_set", "continue_material_set"):
            text = _text(p.content)
            open_ids = _SESSION.findall(text) if text.startswith("MATERIALSET_RÜCKFRAGEN") else []
        elif p.tool_name in ("generate_material", "continue_material_generation"):
            open_ids = []
    return open_ids


def _state(messages: list[ModelMessage]) -> tuple[str | None, str | None, int]:
    """(open session id, last material id, index of the user prompt after which the current request began)."""
    open_sid = last_material = None
    boundary = 0
    n_user = 0
    for m in messages:
        if not isinstance(m, ModelRequest):
            continue
        for p in m.parts:
            if isinstance(p, UserPromptPart):
                n_user += 1
            elif isinstance(p, ToolReturnPart):
                text = _text(p.content)
                if p.tool_name in ("generate_material", "generate_exercise", "continue_material_generation",
                                   "patch_material_task", "regenerate_from_previous", "generate_material_set"):
                    if (s := _SESSION.search(text)) and text.startswith("RÜCKFRAGE"):
                        open_sid = s.group(1)
                    else:
                        open_sid = None
                        boundary = n_user
                        if mm := _MATERIAL.search(text):
                            last_material = mm.group(1)
                elif p.tool_name == "record_feedback":
                    boundary = n_user
    return open_sid, last_material, boundary


def _is_combined(text: str) -> bool:
    """Two or more materials in one message ("Klausur …, dazu ein Übungsblatt und ein Quiz")."""
    from agents.supervisor import rule_plan

    kinds = sum(bool(re.search(p, text, re.I)) for p in (
        r"\b(klausur|klassenarbeit|leistungskontrolle|test)\b", r"(arbeitsblatt|übungsblatt|differenziert)",
        r"(h5p|quiz|lückentext-übung|interaktiv)"))
    if kinds < 2:
        return False
    try:
        return len(rule_plan(text).parts) >= 2
    except Exception:  # a plan the rules cannot make: treat as a single request
        return False


def _present(part: ToolReturnPart) -> str:
    text = _text(part.content)
    if text.startswith(("MATERIALSET_FERTIG", "MATERIALSET_RÜCKFRAGEN")):
        body = text.split("\n", 1)[1] if "\n" in text else text
        return re.sub(r"\[(session|material):[0-9a-fA-F-]{36}\]", "", body).strip()
    if text.startswith("RÜCKFRAGE_AN_LEHRER"):
        head, _, rest = text.partition(": ")
        who = re.search(r"\((.*?)\)", head)
        frage = rest.split("\n", 1)[0]
        kontext = re.search(r"^Kontext: (.*)$", text, re.M)
        vorschlaege = re.search(r"^Vorschläge: (.*)$", text, re.M)
        lines = [f"Der {who.group(1) if who else 'Fach-Assistent'} hat eine Rückfrage: **{frage}**"]
        if kontext:
            lines.append(kontext.group(1))
        if vorschlaege and vorschlaege.group(1) != "keine":
            lines.append("")
            lines += [f"- {v.split(') ', 1)[-1]}" for v in vorschlaege.group(1).split(" | ")]
            lines.append("\nWählen Sie einen Vorschlag oder antworten Sie frei.")
        return "\n".join(lines)
    if text.startswith("MATERIAL_FERTIG"):
        body = text.split("\n")[1:]
        if not body:
            return "Fertig."
        lines = [f"Fertig: **{body[0]}**"] + [f"- {line}" for line in body[1:] if not line.startswith("Dateien")]
        files = next((line for line in body if line.startswith("Dateien")), "")
        if files:
            lines.append(f"\n{files} — zum Herunterladen unten. Sagen Sie gern, was gut ist oder was ich ändern soll.")
        return "\n".join(lines)
    if text.startswith("FEHLER: "):
        return text[len("FEHLER: "):]
    return text


def main_rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    last = messages[-1]
    returns = [p for p in last.parts if isinstance(p, ToolReturnPart)] if isinstance(last, ModelRequest) else []
    if returns:
        return ModelResponse(parts=[TextPart("\n\n".join(_present(p) for p in returns))])
    prompts = _user_prompts(messages)
    text = prompts[-1] if prompts else ""
    open_sid, last_material, boundary = _state(messages[:-1])
    open_set = _open_set(messages[:-1])
    if open_set and not _CANCEL.search(text):
        return ModelResponse(parts=[_call("continue_material_set", {"session_ids": open_set, "answer": text})])
    if _is_combined(text):
        return ModelResponse(parts=[_call("generate_material_set", {"text": text})])
    if open_sid and not _CANCEL.search(text):
        return ModelResponse(parts=[_call("continue_material_generation", {"session_id": open_sid, "answer": text})])
    if m := _REMEMBER.match(text):
        return ModelResponse(parts=[_call("remember", {"fact": (m.group(5) or text).strip()[:500]})])
    if _WEB.search(text):
        return ModelResponse(parts=[_call("search_web", {"query": text[:300]})])
    # Edit requests about the last material. Checked before the feedback rule on purpose: "Mach Aufgabe 3 leichter"
    # also reads as a difficulty complaint, but the teacher asks for a change, not only reports one. A complaint
    # without a change wish ("Aufgabe 3 ist zu schwer") is no edit and still goes to record_feedback below.
    if last_material and not open_sid:
        from core.editing.errors import EditUnclear
        from core.editing.parse import parse_edit_request
        from core.materials.patch_ops import RegenerateInstruction

        wanted = nlu.extract(text, topic_terms=topic_terms())
        new_request = bool(wanted.material_type and wanted.fach)
        try:
            edit = None if new_request else parse_edit_request(text)
        except EditUnclear as exc:
            return ModelResponse(parts=[TextPart(exc.message)])
        target = last_material  # the newest version: edits return [material:ID] of the version they made
        for p in _returns(messages):
            made = p.tool_name in ("generate_material", "generate_exercise", "continue_material_generation",
                                   "patch_material_task", "regenerate_from_previous")
            if made and (mm := _MATERIAL.search(_text(p.content))):
                target = mm.group(1)
        if not edit and target != last_material and not new_request and nlu.classify_feedback(text) is not None:
            # after an edit, praise or criticism is about the edited version, not the first one
            return ModelResponse(parts=[_call("record_feedback", {"material_id": target, "feedback": text})])
        if edit:
            if isinstance(edit, RegenerateInstruction):
                return ModelResponse(parts=[_call("regenerate_from_previous",
                                                  {"material_id": target, "instruction": text})])
            # The teacher asked for exactly this change: it is applied even if the check then reports deviations
            # (they are named in the reply; the previous version stays).
            return ModelResponse(parts=[_call("patch_material_task", {
                "material_id": target, "operations": [op.model_dump(exclude_none=True) for op in edit],
                "force": True})])
    feedback = nlu.classify_feedback(text)
    if feedback is not None and last_material and not open_sid:
        new_request = nlu.extract(text, topic_terms=topic_terms())
        if not (new_request.material_type and new_request.fach):
            return ModelResponse(parts=[_call("record_feedback", {"material_id": last_material, "feedback": text})])
    if not open_sid and last_material and nlu.parse_afb_answer(text) and not nlu.extract(text).material_type:
        return ModelResponse(parts=[TextPart(
            "Diese Rückfrage ist bereits beantwortet – das Material dazu liegt schon vor (siehe oben bzw. unter "
            "„Meine Materialien“). Soll ich etwas daran ändern, oder möchten Sie ein neues Material?")])
    if _GREETING.match(text):
        return ModelResponse(parts=[TextPart(
            "Hallo! Ich erstelle mit Ihnen Klausuren mit Erwartungshorizont, differenzierte Arbeitsblätter in drei "
            "Niveaus und interaktive H5P-Übungen. Sagen Sie einfach, was Sie brauchen – z. B. „Klausur Physik "
            "Klasse 10 zu Stromkreisen, 45 Minuten“.")])
    turns = _turns(messages)[boundary:] if _CANCEL.search(text) is None else [dialog.Turn(text)]
    step = dialog.next_step(turns, topic_terms(), topic_grades())
    if isinstance(step, str):
        return ModelResponse(parts=[TextPart(step)])
    return ModelResponse(parts=[_call("generate_material", step)])


# --- specialists -------------------------------------------------------------------------------------------------

_JSON_BLOCK = re.compile(r"```json\s*(\{.*?\})\s*```", re.S)


def _auftrag(messages: list[ModelMessage]) -> MaterialRequest:
    for p in _user_prompts(messages):
        if m := _JSON_BLOCK.search(p):
            return MaterialRequest.model_validate_json(m.group(1))
    raise ValueError("no Auftrag in the conversation")


def _json_returns(messages: list[ModelMessage], tool: str) -> list[Any]:
    out = []
    for p in _returns(messages):
        if p.tool_name == tool:
            try:
                out.append(json.loads(_text(p.content)))
            except json.JSONDecodeError:
                continue
    return out


def _context(messages: list[ModelMessage], key: str) -> dict[str, Any]:
    for data in reversed(_json_returns(messages, "get_context")):
        if isinstance(data, dict) and key in data:
            return data
    return {}


def _answers(messages: list[ModelMessage]) -> list[str]:
    return [p for p in _user_prompts(messages) if not _JSON_BLOCK.search(p)]


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
    return any(nlu.parse_afb_answer(a.split("(gewählter Vorschlag:")[-1]) for a in _answers(messages))


def _retried(messages: list[ModelMessage]) -> str | None:
    """The check's fault text when the last output was sent back for repair."""
    last = messages[-1] if messages else None
    if isinstance(last, ModelRequest):
        for p in last.parts:
            if isinstance(p, RetryPromptPart) and p.tool_name and p.tool_name.startswith("final_result"):
                return p.model_response()
            if isinstance(p, ToolReturnPart) and p.tool_name.startswith("final_result") \
                    and getattr(p, "outcome", "success") != "success":
                return _text(p.content)
    return None


def _absage(info: AgentInfo, grund: str, gefunden: str, optionen: list[str]) -> ModelResponse:
    a = Absage(grund=grund, gefunden=gefunden, optionen=optionen or ["ein Sprachmodell konfigurieren"])
    return ModelResponse(parts=[_call(_output_tool(info, Absage), a.model_dump())])


def _from_draft(messages: list[ModelMessage], info: AgentInfo, cls: type) -> ModelResponse:
    """Hand the composed draft on as the output, or say plainly that there is none."""
    data = _json_returns(messages, "compose_draft")[-1]
    if not isinstance(data, dict) or data.get("kein_material") or "entwurf" not in data:
        d = data if isinstance(data, dict) else {}
        gefunden = f"{d.get('gefunden', 0)} passende geprüfte Aufgaben" if d.get("gefunden") else "nichts Passendes"
        return _absage(info, str(d.get("grund") or "Keine geprüften Aufgaben zu diesem Thema."), gefunden,
                       list(d.get("optionen") or []))
    draft = dict(data["entwurf"])
    draft["hinweise_lehrkraft"] = list(data.get("hinweise") or [])
    return ModelResponse(parts=[_call(_output_tool(info, cls), draft)])


def _draft_was_sent(messages: list[ModelMessage], info: AgentInfo, cls: type) -> bool:
    """Whether the output the check sent back was the composed draft itself (then repeating it cannot help)."""
    outputs = [p for m in messages if isinstance(m, ModelResponse) for p in m.parts
               if isinstance(p, ToolCallPart) and p.tool_name.startswith("final_result")]
    if not outputs or not _json_returns(messages, "compose_draft"):
        return False
    draft = _from_draft(messages, info, cls).parts[0]
    return isinstance(draft, ToolCallPart) and outputs[-1].args_as_dict() == draft.args_as_dict()


def specialist_rules(cls_name: str, *, asks_afb: bool) -> Rules:
    """The offline specialist: load profile and preferences, ask for the AFB split when nothing fixes it (exams),
    compose from checked tasks, hand the draft on. A draft the checks send back is not disguised: it says so."""

    def rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        from core.materials.stored import MATERIAL_MODELS

        cls = next(m for m in MATERIAL_MODELS.values() if m.__name__ == cls_name)
        request = _auftrag(messages)
        if (fault := _retried(messages)) and _draft_was_sent(messages, info, cls):
            return _absage(info, "Der zusammengestellte Entwurf hat die Prüfung nicht bestanden: "
                           + fault.split("\n", 1)[-1][:600], "ein Entwurf mit Mängeln",
                           ["das Thema enger oder anders fassen", "eigene Aufgaben hochladen",
                            "ein Sprachmodell konfigurieren"])
        if not _json_returns(messages, "get_context"):
            return ModelResponse(parts=[TextPart("Ich lade Fachprofil und Präferenzen."),
                                        _call("get_context", {"scope": "profile", "depth": "relevant"}),
                                        _call("get_context", {"scope": "preferences", "depth": "full"})])
        if _json_returns(messages, "compose_draft"):
            return _from_draft(messages, info, cls)
        pref_ctx = _context(messages, "praeferenzen")
        final = any("KEINE_WEITEREN_RUECKFRAGEN" in a for a in _answers(messages))
        if asks_afb and not _afb_known(messages, request, pref_ctx) and not final and _clarifications(messages) < 3:
            profile = _context(messages, "profil").get("profil") or {}
            q = _afb_question(profile, request, again=bool(_answers(messages)))
            return ModelResponse(parts=[_call(_output_tool(info, ClarificationRequest), q.model_dump())])
        return ModelResponse(parts=[TextPart("Ich stelle das Material aus geprüften Aufgaben zusammen."),
                                    _call("compose_draft", {})])

    return rules


klausur_rules = specialist_rules("Klausur", asks_afb=True)
differenzierung_rules = specialist_rules("DifferenziertesMaterial", asks_afb=False)
h5p_rules = specialist_rules("H5PSet", asks_afb=False)


def generic_rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Roles without their own rules answer plainly (never with an invented result)."""
    return ModelResponse(parts=[TextPart("Das kann das Offline-Modell nicht beantworten.")])


RULES: dict[str, Rules] = {"main": main_rules, "klausur": klausur_rules, "differenzierung": differenzierung_rules,
                           "h5p": h5p_rules}


def _streamer(rules: Rules) -> Callable[[list[ModelMessage], AgentInfo], AsyncIterator[Any]]:
    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        response = rules(messages, info)
        calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
        texts = [p.content for p in response.parts if isinstance(p, TextPart)]
        if calls:
            yield {i: DeltaToolCall(name=c.tool_name, json_args=c.args_as_json_str(), tool_call_id=c.tool_call_id)
                   for i, c in enumerate(calls)}
        else:
            for word in re.split(r"(?<=\s)", "".join(texts)):
                yield word

    return stream


def rules_model(rules: Rules, *, model_name: str = MODEL_NAME) -> FunctionModel:
    """A FunctionModel that also streams (the chat shows live steps), from any rules function (also test scripts)."""
    return FunctionModel(rules, stream_function=_streamer(rules), model_name=model_name)


def offline_model(role: str) -> FunctionModel:
    return rules_model(RULES.get(role, generic_rules))
