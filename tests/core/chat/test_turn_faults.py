"""Faults in a whole chat turn, driven by scripted FunctionModels (tables of replies): rate limits, provider
errors, quota, usage limits, a failing tool, an invalid exam that the validator sends back."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest
import sqlalchemy as sa
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.fallback import guard_model
from agents.models.registry import offline_model, offline_rules, override_models, rules_model
from core.app.errors import UserError
from core.chat.turn import chat_turn
from core.materials.service import material_view
from core.safety.service import unquoted_data
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

SONNET = "claude-sonnet-4-6"
Row = Exception | Callable[[list[ModelMessage], AgentInfo], ModelResponse]


@dataclass
class Script:
    """Each model request takes the next row: raise it, or answer with it (a rules function)."""

    rows: Sequence[Row]
    calls: int = 0
    seen: list[list[ModelMessage]] = field(default_factory=list)

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        row = self.rows[min(self.calls, len(self.rows) - 1)]
        self.calls += 1
        self.seen.append(list(messages))
        if isinstance(row, Exception):
            raise row
        return row(messages, info)


async def _no_sleep(_: float) -> None:
    return None


def _http(status: int, body: object = None, retry_after: str | None = None) -> ModelHTTPError:
    return ModelHTTPError(status, SONNET, body, headers={"retry-after": retry_after} if retry_after else None)


def _teacher(db: Session, as_teacher):  # noqa: ANN001, ANN202
    return as_teacher(DEMO_TEACHER), find_teacher(db=db, ref=DEMO_TEACHER)


def test_rate_limited_three_times_then_the_real_model_answers(db: Session, as_teacher) -> None:
    ident, teacher = _teacher(db, as_teacher)
    script = Script([_http(429, retry_after="1")] * 3 + [offline_rules("main")])
    real = rules_model(script, model_name=SONNET)
    with override_models(main=guard_model(real, "main", offline=offline_model("main"), sleep=_no_sleep)):
        r = chat_turn(db=db, identity=ident, teacher=teacher, message="Hallo")
    assert script.calls == 4 and r.model == SONNET and not r.notices
    outcomes = db.execute(sa.text("SELECT outcome FROM llm_calls WHERE conversation_id = :c ORDER BY id"),
                          {"c": r.conversation_id}).scalars().all()
    assert outcomes.count("retry") == 3 and outcomes[-1] == "ok"


@pytest.mark.parametrize("error, reason", [
    (_http(500, {"error": "boom"}), "mit einem Fehler geantwortet"),  # a 500 is an answer: not "nicht erreichbar"
    (_http(429, {"error": {"code": "insufficient_quota", "message": "You exceeded your current quota"}}), "Kontingent"),
])
def test_provider_failure_falls_back_to_offline_with_a_notice(db: Session, as_teacher, error, reason) -> None:  # noqa: ANN001
    ident, teacher = _teacher(db, as_teacher)
    script = Script([error])
    real = rules_model(script, model_name=SONNET)
    with override_models(main=guard_model(real, "main", offline=offline_model("main"), sleep=_no_sleep)):
        r = chat_turn(db=db, identity=ident, teacher=teacher, message="Klausur Physik Klasse 10 Optik, 45 Minuten")
    assert r.model == "offline-rules"
    assert r.notices and "Offline-Modell" in r.notices[0], r.notices
    assert reason.lower() in r.notices[0].lower(), r.notices[0]
    if "quota" in str(error.body):
        assert script.calls == 1  # an exhausted quota is not retried


def test_usage_limit_gives_a_partial_answer_and_a_german_message(db: Session, as_teacher) -> None:
    ident, teacher = _teacher(db, as_teacher)

    def search_forever(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("search_web", {"query": "Induktion"})])

    with override_models(main=rules_model(search_forever)):
        r = chat_turn(db=db, identity=ident, teacher=teacher, message="Such im Internet nach Induktion")
    assert "zu viele Arbeitsschritte" in r.reply
    stored = db.execute(sa.text("SELECT role, content FROM conversation_messages WHERE conversation_id = :c "
                                "ORDER BY id"), {"c": r.conversation_id}).all()
    assert [row.role for row in stored] == ["user", "assistant"] and "Arbeitsschritte" in stored[1].content
    # The conversation goes on normally afterwards.
    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message="Hallo")
    assert r2.reply.startswith("Hallo")


def test_a_failing_tool_goes_back_to_the_model_which_recovers(db: Session, as_teacher, monkeypatch) -> None:
    import core.composition.service as tools  # the search behind the specialists' compose_draft tool

    ident, teacher = _teacher(db, as_teacher)
    real_search = tools.search
    failures = {"n": 0}

    def flaky_search(**kwargs):  # noqa: ANN003, ANN202
        if kwargs.get("kind") != "curriculum" and failures["n"] == 0:
            failures["n"] += 1
            raise RuntimeError("Index vorübergehend nicht erreichbar")
        return real_search(**kwargs)

    monkeypatch.setattr(tools, "search", flaky_search)
    r = chat_turn(db=db, identity=ident, teacher=teacher,
                  message="Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    assert failures["n"] == 1
    assert r.material_id, r.reply
    assert any("fehlgeschlagen" in s or "Aufgaben" in s for s in r.steps)


def _draft(messages: list[ModelMessage]) -> str:
    """The text of the composed draft the specialist was sent."""
    drafts = [json.loads(unquoted_data(p.content)) for m in messages if isinstance(m, ModelRequest) for p in m.parts
              if isinstance(p, ToolReturnPart) and p.tool_name == "compose_draft"]
    return drafts[-1]["entwurf"]


def _plan(teile: list[dict], messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """A compact Klausur output: task 1 with these sub-tasks first, then the draft's other sub-tasks of task 1, and
    every other task of the draft kept as it is."""
    draft = _draft(messages)
    named = {t.get("aus") for t in teile}
    rest_1 = [{"aus": f"1{x}"} for x in re.findall(r"^1([a-z]) ", draft, re.M) if f"1{x}" not in named]
    others = [{"aus": n} for n in range(2, len(re.findall(r"^Aufgabe \d+:", draft, re.M)) + 1)]
    return ModelResponse(parts=[ToolCallPart("final_result_Klausur",
                                             {"aufgaben": [{"aus": 1, "teile": [*teile, *rest_1]}, *others]})])


def test_invalid_exam_goes_back_as_model_retry_and_comes_back_valid(db: Session, as_teacher) -> None:
    ident, teacher = _teacher(db, as_teacher)

    def broken_exam(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:  # 1a as AFB III: misfit
        return _plan([{"aus": "1a", "afb": "III"}], messages, info)

    script = Script([broken_exam, offline_rules("klausur")])  # output (profile and draft come with it), repair
    with override_models(klausur=rules_model(script)):
        r = chat_turn(db=db, identity=ident, teacher=teacher,
                      message="Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    assert r.material_id, r.reply
    retry = [p for p in script.seen[-1][-1].parts if isinstance(p, ToolReturnPart)] if isinstance(
        script.seen[-1][-1], ModelRequest) else []
    assert retry and retry[0].outcome == "retried" and "1a" in str(retry[0].content), retry
    assert "Aufgabe 1a: Der Operator" in str(retry[0].content)  # the operator that does not fit AFB III is named
    assert any("Prüfung fand" in s for s in r.steps)
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(r.material_id))
    assert view["validation"] == []


def test_a_plan_that_names_no_draft_task_goes_back_in_german(db: Session, as_teacher) -> None:
    ident, teacher = _teacher(db, as_teacher)

    def wrong_refs(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        plan = {"aufgaben": [{"aus": 9, "teile": [{"aus": "1x"}, {"text": "Nenne zwei Leiter."}]}]}
        return ModelResponse(parts=[ToolCallPart("final_result_Klausur", plan)])

    script = Script([wrong_refs, offline_rules("klausur")])
    with override_models(klausur=rules_model(script)):
        r = chat_turn(db=db, identity=ident, teacher=teacher,
                      message="Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    assert r.material_id, r.reply
    [retry] = [p for p in script.seen[-1][-1].parts if isinstance(p, ToolReturnPart) and p.outcome == "retried"]
    text = str(retry.content)
    assert "Aufgabe 9 gibt es im Entwurf nicht (er hat 4 Aufgaben)" in text
    assert "Teilaufgabe „1x“ gibt es im Entwurf nicht" in text and "ohne operator, afb, erwartung" in text


@pytest.mark.parametrize("message, expected", [
    ("", "Bitte eine Nachricht eingeben"),
    ("   \n  ", "Bitte eine Nachricht eingeben"),
    ("x" * 50_000, "zu lang (50.000 Zeichen)"),
])
def test_bad_messages_are_refused_before_anything_is_stored(db: Session, as_teacher, message, expected) -> None:  # noqa: ANN001
    ident, teacher = _teacher(db, as_teacher)
    before = db.scalar(sa.text("SELECT count(*) FROM conversations"))
    with pytest.raises(UserError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        chat_turn(db=db, identity=ident, teacher=teacher, message=message)
    assert db.scalar(sa.text("SELECT count(*) FROM conversations")) == before


@pytest.mark.parametrize("message, expected", [
    ("Klausur Physik Klasse 99 Optik, 45 Minuten", "Klassenstufe 99 gibt es nicht"),
    ("Klausur Physik Klasse 10 Optik, 0 Minuten", "Minuten"),
    ("Klausur Physik Klasse 10 Optik, 1000 Minuten", "Minuten"),
    ("Klausur Latein Klasse 8 zu Ovid, 45 Minuten", "Latein"),
    ("<script>alert(1)</script> ![x](http://evil/x.png)", "Fach"),
])
def test_impossible_requests_get_a_german_reply_and_no_material(db: Session, as_teacher, message, expected) -> None:  # noqa: ANN001
    ident, teacher = _teacher(db, as_teacher)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message=message)
    assert r.material_id is None
    assert expected in r.reply, r.reply
    assert "<script>" not in r.reply


def test_nonsense_answer_to_a_rueckfrage_is_asked_again(db: Session, as_teacher) -> None:
    ident, teacher = _teacher(db, as_teacher)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message="Klausur Physik für die 10a zu Optik, 45 Minuten")
    assert r.session_id
    r2 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id, message="Blumenkohl")
    assert r2.session_id == r.session_id and "nicht als AFB-Verteilung erkannt" in r2.reply
    r3 = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=r.conversation_id,
                   message="den zweiten Vorschlag")
    assert r3.material_id
    assert TextPart  # noqa: B018 - imported for readers of the scripted replies above


def test_invented_task_and_wrong_calculation_are_flagged_and_repaired(db: Session, as_teacher) -> None:
    """A scripted specialist adds a sub-task without any source and breaks a calculation; verification sends it
    back, and the repaired exam (from the offline rules) is stored without open hints. (The added task has content:
    a content-free one would already be sent back by the content gate.)"""
    ident, teacher = _teacher(db, as_teacher)

    def sloppy(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        added = {"operator": "Nennen", "afb": "I",
                 "text": "Berechne die Stromstärke in einem Stromkreis mit 12 V und einem Widerstand von 120 Ω.",
                 "erwartung": [{"text": "I = U / R = 12 V / 120 Ω = 1 A", "punkte": 2}]}
        return _plan([{"aus": "1a"}, added], messages, info)

    script = Script([sloppy, offline_rules("klausur")])  # output, repair
    with override_models(klausur=rules_model(script)):
        r = chat_turn(db=db, identity=ident, teacher=teacher,
                      message="Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    assert r.material_id, r.reply
    feedback = [str(p.content) for p in script.seen[-1][-1].parts if isinstance(p, ToolReturnPart)]
    assert any("1b" in f and "Quelle" in f for f in feedback), feedback
    assert any("0,1 A" in f for f in feedback), feedback  # the recomputed value is named
    assert any("Verifikation fand" in s for s in r.steps)
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(r.material_id))
    assert view["validation"] == []


def test_flags_that_survive_repair_are_shown_not_hidden(db: Session, as_teacher) -> None:
    ident, teacher = _teacher(db, as_teacher)

    def stubborn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:  # wrong (20 Ω), every time
        wrong = {"aus": "1a", "erwartung": [{"text": "R = U / I = 6 V / 0,3 A = 30 Ω", "punkte": 4}]}
        return _plan([wrong], messages, info)

    with override_models(klausur=rules_model(stubborn)):
        r = chat_turn(db=db, identity=ident, teacher=teacher,
                      message="Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    assert r.material_id, r.reply
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(r.material_id))
    assert any("20 Ω" in v for v in view["validation"]), view["validation"]
