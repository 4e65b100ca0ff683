"""A model that answers the Klausur specialist with a compact plan (decision 015) gets the exam it describes stored:
one request holding profile, preferences and the composed draft, a short answer, the server's expansion."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import override_models, rules_model
from core.chat.turn import chat_turn
from core.materials.klausur import Klausur
from core.materials.service import material_view
from core.ops.bench.chat import EXAM_REQUEST
from core.safety.service import unquoted_data
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER
from tests.core.chat.test_provider_faults import LOCAL, SONNET, provider, turn  # noqa: F401 - a fixture
from tests.fakes.provider_server import Reply, ToolCall

REQUEST = "Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten, AFB 30/40/30"
ADDED = " Gib das Ergebnis mit Einheit an."


def _returns(messages: list[ModelMessage]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for m in messages:
        if isinstance(m, ModelRequest):
            for p in m.parts:
                if isinstance(p, ToolReturnPart):
                    found.setdefault(p.tool_name, []).append(str(p.content))
    return found


def test_a_plan_that_rewrites_one_sub_task_stores_the_draft_with_that_change(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident, teacher = as_teacher(DEMO_TEACHER), find_teacher(db=db, ref=DEMO_TEACHER)
    seen: list[list[ModelMessage]] = []
    answers: list[dict] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        draft = json.loads(unquoted_data(_returns(messages)["compose_draft"][-1]))["entwurf"]
        text_2a = re.search(r"^2a [^:]+: (.*)$", draft, re.M).group(1)
        n = len(re.findall(r"^Aufgabe \d+:", draft, re.M))
        plan = {"aufgaben": [{"aus": 1}, {"aus": 2, "teile": [{"aus": "2a", "text": text_2a + ADDED}] + [
            {"aus": f"2{x}"} for x in re.findall(r"^2([b-z]) ", draft, re.M)]}, *({"aus": k} for k in range(3, n + 1))]}
        answers.append(plan)
        return ModelResponse(parts=[ToolCallPart("final_result_Klausur", plan)])

    with override_models(klausur=rules_model(model)):
        r = chat_turn(db=db, identity=ident, teacher=teacher, message=REQUEST)
    assert r.material_id, r.reply
    # one request: profile, preferences and the draft came with it, the model called no tool itself
    assert len(seen) == 1
    returns = _returns(seen[0])
    assert len(returns["get_context"]) == 2 and "operatoren" in returns["get_context"][0]
    draft = unquoted_data(returns["compose_draft"][0])
    assert draft.startswith('{"entwurf":"') and "2a " in draft
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(r.material_id))
    k = Klausur.model_validate(view["content"])
    zwei_a = k.aufgaben[1].teilaufgaben[0]
    assert zwei_a.text.endswith(ADDED) and zwei_a.quellen  # the changed sub-task keeps its sources
    assert view["validation"] == [] and len(view["files"]) == 4
    # the answer is the changed text and references, a fraction of the exam it stands for
    assert len(json.dumps(answers[0], ensure_ascii=False)) * 5 < len(json.dumps(view["content"], ensure_ascii=False))


def test_a_model_that_keeps_the_draft_gets_what_the_offline_model_makes(db: Session, as_teacher) -> None:  # noqa: ANN001
    ident, teacher = as_teacher(DEMO_TEACHER), find_teacher(db=db, ref=DEMO_TEACHER)

    def keep(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("final_result_Klausur", {})])

    offline = chat_turn(db=db, identity=ident, teacher=teacher, message=REQUEST)
    with override_models(klausur=rules_model(keep)):
        kept = chat_turn(db=db, identity=ident, teacher=teacher, message=REQUEST)
    contents = [material_view(db=db, teacher=teacher, material_id=uuid.UUID(x.material_id))["content"]
                for x in (offline, kept)]
    assert contents[0] == contents[1] and contents[0]["aufgaben"]


@pytest.mark.usefixtures("provider")
@pytest.mark.parametrize("api", ["openai", "anthropic"])
def test_a_provider_over_http_gets_the_opening_in_one_request_and_answers_with_the_plan(
        db, as_teacher, monkeypatch, api) -> None:  # noqa: ANN001
    """The opening (tool calls the server made, their results) is a history both APIs accept: the exam takes one
    request whose answer is `{}`."""
    monkeypatch.setenv("WERKBANK_TURN_TIMEOUT_S", "120")  # about the history sent, not timing (composing is slow)
    keep = Reply(tool_calls=[ToolCall("final_result_Klausur", raw_args="{}")])
    t = turn(db, as_teacher, monkeypatch, [keep], api=api, role="klausur", message=EXAM_REQUEST)

    assert t.result is not None and t.result.material_id and t.result.notices == [], t.result
    assert [c for c in t.calls if c[0] == "klausur"] == [("klausur", LOCAL if api == "openai" else SONNET, "ok")]
    [request] = t.server.requests
    sent = json.dumps(request.body, ensure_ascii=False)
    assert "vorab_3" in sent and "operatoren" in sent and "\\n2a " in sent  # profile and the draft as text
