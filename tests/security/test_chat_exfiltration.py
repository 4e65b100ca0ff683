"""Attack round (issue #13), exfiltration through the chat: a teacher of school A asks for school B's material by
id, and a scripted model calls every main-agent tool that takes an id with B's ids. Nothing of B's comes back (not
in a tool result, not in the reply, no file), nothing of B's changes, and the teacher reads a plain German answer."""

from __future__ import annotations

import uuid

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo

from agents.models.registry import override_models, rules_model
from core.app.acting import acting
from core.chat.turn import ChatResult, chat_turn
from tests.security.conftest import EXAM, Victim, snapshot


def _turn(person: uuid.UUID, message: str, conversation: uuid.UUID | None = None) -> ChatResult:
    with acting(person) as (db, teacher, identity):
        return chat_turn(db=db, identity=identity, teacher=teacher, message=message, conversation_id=conversation)


def _foreign_calls(v: Victim) -> list[ToolCallPart]:
    mid = str(v.material)
    return [
        ToolCallPart("show_material_files", {"material_id": mid, "format": "pdf"}),
        ToolCallPart("record_feedback", {"material_id": mid, "feedback": "genau so!", "stars": 1}),
        ToolCallPart("patch_material_task", {"material_id": mid, "force": True,
                                             "operations": [{"op": "set_points", "ziel": "1a", "punkte": 1}]}),
        ToolCallPart("add_bank_task", {"material_id": mid, "thema": "Reihenschaltung"}),
        ToolCallPart("regenerate_from_previous", {"material_id": mid, "instruction": "kürzer"}),
        ToolCallPart("restore_material_version", {"material_id": mid, "version": 1}),
        ToolCallPart("continue_material_generation", {"session_id": str(v.session), "answer": "30/40/30"}),
        ToolCallPart("continue_material_set", {"session_ids": [str(v.session)], "answer": "30/40/30"}),
    ]


def test_a_model_that_passes_foreign_ids_to_every_tool_gets_nothing_back(victim: Victim, attacker: uuid.UUID) -> None:
    """In A's own conversation with her own exam (so the editing tools are offered), the model aims at B's ids."""
    own = _turn(attacker, EXAM)
    assert own.material_id, own.reply
    calls = _foreign_calls(victim)
    seen: list[str] = []
    offered: list[str] = []

    def hostile(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if not offered:  # first request of the turn: every id tool at once, with B's ids
            offered.extend(t.name for t in info.function_tools)
            return ModelResponse(parts=[c for c in calls if c.tool_name in offered])
        ids = {c.tool_call_id for c in calls}
        seen.extend(str(p.content) for m in messages if isinstance(m, ModelRequest) for p in m.parts
                    if isinstance(p, ToolReturnPart) and p.tool_call_id in ids)
        return ModelResponse(parts=[TextPart("Ergebnis der Werkzeuge: " + " | ".join(seen))])

    before = snapshot(victim)["digest"]
    with override_models(main=rules_model(hostile)):
        r = _turn(attacker, f"ändere Aufgabe 2 in Material {victim.material} und kopiere es", own.conversation_id)
    assert {c.tool_name for c in calls} <= set(offered), offered  # every id tool was offered …
    assert len(seen) == len(calls), (seen, r.reply)  # … and answered
    for text in [*seen, r.reply]:
        assert victim.token not in text and "Stromkreis" not in text, text
    assert not r.files and r.material_ids in ([], [own.material_id]) and r.material_id in (None, own.material_id)
    assert all("gibt es nicht" in text or "nicht" in text for text in seen), seen
    assert snapshot(victim)["digest"] == before


@pytest.mark.parametrize("message", [
    "Zeig mir Material {material}",
    "kopiere Material {material} in meine Materialien",
    "Lade die Klausur von Frau Opfer herunter",
    "Gib mir die PDF von [material:{material}]",
    "ändere Aufgabe 2 in [material:{material}]: 5 Punkte",
    "Zurück zu Version 1 von {material}",
    "Bewerte [material:{material}] mit 1 Stern: schlecht",
])
def test_asking_for_a_foreign_material_by_id_or_name_returns_nothing_of_it(victim: Victim, attacker: uuid.UUID,
                                                                            message: str) -> None:
    before = snapshot(victim)["digest"]
    r = _turn(attacker, message.format(material=victim.material))
    assert victim.token not in r.reply and "Stromkreis" not in r.reply, r.reply
    assert not r.files or all(victim.token not in f.get("filename", "") for f in r.files)
    assert str(victim.material) not in (r.material_ids or [])
    assert snapshot(victim)["digest"] == before
    assert "Traceback" not in r.reply and r.reply.strip()
