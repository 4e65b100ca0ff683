"""Sitzungen & Traces: Rückfrage sessions by status, the trace of a conversation, and what RLS lets a person see."""

from __future__ import annotations

import uuid

from core.app.acting import acting
from core.chat.turn import ChatResult, chat_turn
from tests.pages.conftest import app_as, fresh_person

PAGE = "views/sitzungen.py"
ASK = "Klausur Physik für die 10a zu Optik, 45 Minuten"
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def turn(person_id: uuid.UUID, message: str, conversation_id: uuid.UUID | None = None) -> ChatResult:
    with acting(person_id) as (db, teacher, identity):
        return chat_turn(db=db, identity=identity, teacher=teacher, message=message, conversation_id=conversation_id)


def test_a_waiting_session_is_listed_with_its_question(teacher_id) -> None:  # noqa: ANN001
    r = turn(teacher_id, ASK)
    assert r.session_id and r.question
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    status = at.radio(key="ses_status")
    assert status.value == "waiting" and "Wartend (1)" in status.options
    sessions = at.dataframe[0].value
    assert sessions["Frage"].tolist() == [r.question["frage"]]
    assert sessions["Agent"].tolist() == ["Klausur-Assistent"] and sessions["Rückfragen"].tolist() == [1]
    assert " | ".join(r.question["vorschlaege"]) == sessions["Vorschläge"].tolist()[0]


def test_an_answered_session_shows_under_completed_with_its_material(teacher_id) -> None:  # noqa: ANN001
    r = turn(teacher_id, ASK)
    done = turn(teacher_id, "30/40/30", conversation_id=r.conversation_id)
    assert done.material_id, done.reply
    at = app_as(teacher_id, PAGE)
    assert any("Keine Rückfragen" in i.value for i in at.info)  # nothing waiting any more
    at.radio(key="ses_status").set_value("completed").run()
    assert not at.exception
    sessions = at.dataframe[0].value
    assert len(sessions) == 1 and "Optik" in sessions["Material"].tolist()[0]
    headings = [md.value for md in at.markdown if "Rückfrage-Sitzung" in md.value]
    assert len(headings) == 1 and "Klausur-Assistent" in headings[0] and "(Abgeschlossen)" in headings[0]


def test_the_trace_shows_tool_calls_and_the_model_calls_table(teacher_id) -> None:  # noqa: ANN001
    r = turn(teacher_id, EXAM)
    assert r.material_id
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert at.selectbox(key="trace_conv").value == r.conversation_id
    labels = [e.label for e in at.expander]
    # first the turn as it ran (request → model, its steps), then the stored messages step by step
    assert labels[0].startswith("1. ") and "Stromkreisen" in labels[0] and labels[0].endswith("→ offline-rules")
    assert any("arbeitet" in t.value and "Wissenskarte" in t.value for t in at.text)
    heading = next(md.value for md in at.markdown if md.value.startswith("**Nachrichten**"))
    n_main = int(heading.split("· ")[1].split()[0])
    steps, specialist = labels[1:1 + n_main], labels[1 + n_main:]
    # the Klausur specialist finished without a Rückfrage: its run is stored and shown too (tools, its answer)
    assert any(md.value.startswith("**Klausur") and "Lauf ohne Rückfrage" in md.value for md in at.markdown)
    assert any("Werkzeugaufruf: `compose_draft`" in s for s in specialist)
    assert steps[0] == "1. ⚙️ Anweisungen an das Modell"
    assert steps[1] == "2. 👩‍🏫 Lehrkraft" and steps[-1].startswith(f"{len(steps)}. 💬 Antwort")
    assert any("Werkzeugaufruf: `generate_material`" in s for s in steps)
    assert any("Werkzeug-Ergebnis: `generate_material`" in s for s in steps)
    assert any("Stromkreisen" in t.value for t in at.text)  # the teacher's prompt, in order
    calls = at.dataframe[-1].value
    assert {"Rolle", "Modell", "Tokens ein", "Tokens aus", "Zählung", "Kosten (USD)", "Dauer (ms)",
            "Ergebnis"} <= set(calls.columns)
    assert len(calls) >= 1
    assert at.metric[0].label == "Aufrufe" and int(at.metric[0].value) == len(calls)
    tokens = at.metric[1]
    assert tokens.value == f"{calls['Tokens ein'].sum():,} / {calls['Tokens aus'].sum():,}".replace(",", ".")


def test_the_newest_conversation_comes_first(teacher_id) -> None:  # noqa: ANN001
    first = turn(teacher_id, EXAM)
    second = turn(teacher_id, ASK)
    at = app_as(teacher_id, PAGE)
    box = at.selectbox(key="trace_conv")
    assert box.options[0].startswith(box.format_func(second.conversation_id)[:10])
    assert box.value == second.conversation_id
    box.set_value(first.conversation_id).run()
    assert not at.exception
    assert any("Werkzeugaufruf: `generate_material`" in e.label for e in at.expander)


def test_a_teacher_sees_no_other_persons_sessions_or_conversations(teacher_id) -> None:  # noqa: ANN001
    other = fresh_person(name="Andere Lehrkraft")
    turn(other, ASK)
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert "Wartend (0)" in at.radio(key="ses_status").options
    assert any("Keine Rückfragen" in i.value for i in at.info)
    assert any("Noch keine Gespräche" in i.value for i in at.info)


def test_a_product_person_is_told_that_rls_shows_only_their_own_data(product_id, teacher_id) -> None:  # noqa: ANN001
    turn(teacher_id, ASK)
    at = app_as(product_id, PAGE)
    assert not at.exception
    assert any("Row-Level Security" in c.value for c in at.caption)
    assert at.radio(key="trace_source").value == "shared"  # staff start with what teachers released to them
    at.radio(key="trace_source").set_value("mine").run()
    assert "Wartend (0)" in at.radio(key="ses_status").options
