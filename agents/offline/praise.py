"""Words about a finished material, read by the offline main agent: an explicit rating is recorded, praise gets one
question whether to remember the material, and only a yes to it records; thanks and „Standard passt“ record nothing."""

from __future__ import annotations

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolReturnPart, UserPromptPart

from agents.offline.dialog import asked_in
from agents.offline.messages import call, say, teacher_turns, text_of
from core.language.feedback import classify_feedback
from core.language.rating import explicit_stars, is_acknowledgement, is_no, is_yes

ASK = (
    "Freut mich! Soll ich mir dieses Material merken – seine geprüften Aufgaben als Ihre bewährten Aufgaben, "
    "damit die nächsten Materialien daran anknüpfen? Antworten Sie mit „Ja“ oder „Nein“; ohne Ihr Ja speichere "
    "ich nichts."
)
_ASKED = "Soll ich mir dieses Material merken"
THANKS = (
    "Gern! Gespeichert habe ich dazu nichts. Wenn ich mir das Material als bewährt merken soll, genügt eine "
    "Bewertung mit den Sternen unter dem Ergebnis oder z. B. „5 Sterne“ im Chat. Soll sich noch etwas ändern, "
    "sagen Sie es einfach (z. B. „Mach Aufgabe 2 leichter“)."
)
NOT_KEPT = "Gut, ich speichere nichts dazu. Das Material bleibt unter „Meine Materialien“."


def _record(material_id: str, text: str, stars: int | None = None) -> ModelResponse:
    return call("record_feedback", {"material_id": material_id, "feedback": text, "stars": stars})


def _asked_since_material(messages: list[ModelMessage]) -> bool:
    """Whether the question „merken?“ was asked since the last material was made (it is asked once)."""
    asked = False
    for m in messages:
        if isinstance(m, ModelResponse):
            asked = asked or any(isinstance(p, TextPart) and _ASKED in p.content for p in m.parts)
        elif any(isinstance(p, ToolReturnPart) and "[material:" in text_of(p.content) for p in m.parts):
            asked = False
    return asked


def _request_question_open(messages: list[ModelMessage]) -> bool:
    """Whether the reply before the teacher's message was a plain question about a new request („Für welche
    Klasse?“) — said without a tool call, unlike a material's summary."""
    turns = teacher_turns(messages)
    if not turns or not asked_in(turns[-1].reply_before):
        return False
    prompts = [
        i
        for i, m in enumerate(messages)
        if isinstance(m, ModelRequest) and any(isinstance(p, UserPromptPart) for p in m.parts)
    ]
    since = messages[prompts[-2] + 1 : prompts[-1]] if len(prompts) >= 2 else []
    return not any(isinstance(p, ToolReturnPart) for m in since if isinstance(m, ModelRequest) for p in m.parts)


def answer_to_ask(text: str, material_id: str, messages: list[ModelMessage]) -> ModelResponse | None:
    """The teacher's yes or no right after „Soll ich mir dieses Material merken?“; only a yes records."""
    turns = teacher_turns(messages)
    if not turns or _ASKED not in turns[-1].reply_before:
        return None
    if is_yes(text):
        return _record(material_id, text, stars=5)
    return say(NOT_KEPT) if is_no(text) else None


def about_material(text: str, material_id: str, messages: list[ModelMessage]) -> ModelResponse | None:
    """An explicit rating, praise, thanks or criticism of the material, else None (a new request, a question).

    Praise alone („Super, genau so!“) is no rating: it gets the question once; thanks („ok danke“, „Standard
    passt“) get a short answer. Criticism and standing wishes go to record_feedback, which keeps them as
    preferences without rating anything. An answer to a question about a new request („Für welche Klasse?“ –
    „ok“) is not about the material.
    """
    if _request_question_open(messages):
        return None
    if explicit_stars(text) is not None:
        return _record(material_id, text)
    if is_acknowledgement(text):
        return say(THANKS)
    feedback = classify_feedback(text)
    if feedback is None:
        return None
    if feedback.kind == "positive" and feedback.aspect == "gesamt":
        return say(THANKS if _asked_since_material(messages) else ASK)
    return _record(material_id, text)
