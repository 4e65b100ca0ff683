"""The offline main rules after a finished material (decision 071): an explicit rating goes to record_feedback, praise
gets the question „merken?“ once and only a yes records (with stars), thanks record nothing — and an answer to a
question about a new request is the dialog's, not a thanks."""

from __future__ import annotations

import uuid

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart

from agents.offline.main_rules import main_rules
from agents.offline.praise import ASK, NOT_KEPT, THANKS
from core.language.lexicon import seeded_lexicon

MAIN = main_rules(seeded_lexicon())
MATERIAL = str(uuid.UUID(int=7))


def _after_exam() -> list[ModelMessage]:
    """A conversation in which a finished exam was just presented."""
    call = ToolCallPart(
        "generate_material",
        {"fach": "physik", "thema": "Hebelgesetz", "material_type": "klausur", "klassenstufe": 9, "dauer_minuten": 45},
    )
    return [
        ModelRequest.user_text_prompt("Klausur Physik Klasse 9 zum Hebelgesetz, 45 Minuten, AFB 30/40/30"),
        ModelResponse(parts=[call]),
        ModelRequest(
            parts=[
                ToolReturnPart(
                    "generate_material",
                    f"MATERIAL_FERTIG [material:{MATERIAL}] Hebelgesetz",
                    tool_call_id=call.tool_call_id,
                )
            ]
        ),
        ModelResponse(parts=[TextPart("Fertig: Klausur Physik: Hebelgesetz — 3 Aufgaben, 30 Punkte.")]),
    ]


def _turn(messages: list[ModelMessage], text: str) -> ModelResponse:
    messages.append(ModelRequest.user_text_prompt(text))
    response = MAIN(messages, None)  # type: ignore[arg-type]  # the main rules do not read the AgentInfo
    messages.append(response)
    return response


def _said(response: ModelResponse) -> str:
    return "".join(p.content for p in response.parts if isinstance(p, TextPart))


def _feedback_call(response: ModelResponse) -> dict | None:
    calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
    return calls[0].args_as_dict() if calls and calls[0].tool_name == "record_feedback" else None


def test_praise_is_asked_about_once_and_a_yes_records_five_stars() -> None:
    messages = _after_exam()
    assert _said(_turn(messages, "Super, genau so!")) == ASK
    assert _said(_turn(messages, "Standard passt")) == THANKS  # no yes, and no second question
    assert _said(_turn(messages, "Perfekt!")) == THANKS
    messages = _after_exam()
    _turn(messages, "Super, genau so!")
    assert _feedback_call(_turn(messages, "Ja, bitte")) == {
        "material_id": MATERIAL,
        "feedback": "Ja, bitte",
        "stars": 5,
    }


def test_a_no_records_nothing() -> None:
    messages = _after_exam()
    _turn(messages, "Toll, danke!")
    no = _turn(messages, "Nein")
    assert _said(no) == NOT_KEPT and _feedback_call(no) is None


def test_thanks_record_nothing_and_an_explicit_rating_records() -> None:
    for text in ("Standard passt", "ok danke", "danke", "passt schon"):
        response = _turn(_after_exam(), text)
        assert _said(response) == THANKS and _feedback_call(response) is None, text
    assert _feedback_call(_turn(_after_exam(), "4 Sterne")) == {"material_id": MATERIAL, "feedback": "4 Sterne"}
    complaint = _feedback_call(_turn(_after_exam(), "Aufgabe 3 ist zu schwer"))
    assert complaint == {"material_id": MATERIAL, "feedback": "Aufgabe 3 ist zu schwer"}  # kept as a wish, no stars


def test_an_answer_to_a_new_requests_question_is_no_thanks() -> None:
    messages = _after_exam()
    asked = _said(_turn(messages, "Jetzt noch eine Klausur Chemie"))
    assert "Für welche Klasse" in asked, asked
    again = _said(_turn(messages, "ok"))
    assert again != THANKS and "Schwerpunkt" in again, again
