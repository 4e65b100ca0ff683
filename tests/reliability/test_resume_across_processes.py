"""A Rückfrage lives in PostgreSQL, not in a process: it is answered by another process (the CLI) or after the app
restarted, exactly once — also when two processes answer at the same moment or the same answer comes twice.

Extends tests/core/generation/test_rueckfrage_sessions.py (same process, threads) and test_cli_walkthrough.py
(CLI only).
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid

import sqlalchemy as sa

from agents.deps import TurnContext
from agents.models.registry import override_models, rules_model
from core.app.config import get_settings
from core.generation.service import continue_generation
from db import models as m
from db.session import Identity, reset_engines, unit_of_work
from tests.reliability.conftest import (
    ASK,
    FaultyKlausurModel,
    Person,
    cli_json,
    committed_turn,
    materials_of,
    row_counts,
    session_row,
    start_cli,
)

BUSY = ("Diese Rückfrage wird gerade schon beantwortet (z. B. in einem anderen Fenster). Bitte einen Moment warten und "
        "die Seite neu laden.")
CONVERSATION_BUSY = ("Fehler: Dieses Gespräch wird gerade an anderer Stelle bearbeitet (z. B. in einem anderen "
                     "Fenster). Bitte warten, bis die Antwort dort erscheint, und die Seite neu laden.")
ALREADY_DONE = ("Diese Rückfrage ist bereits beantwortet – das Material dazu liegt schon vor (siehe oben bzw. unter "
                "„Meine Materialien“). Soll ich etwas daran ändern, oder möchten Sie ein neues Material?")


def test_cli_answers_a_rueckfrage_asked_in_this_process_and_a_repeat_changes_nothing(person: Person) -> None:
    asked = committed_turn(person, ASK)
    out = cli_json("chat", "--teacher", person.email, "--conversation", str(asked.conversation_id), "30/40/30")
    assert out["material_id"] and out["session_id"] is None, out["reply"]
    done = session_row(asked.session_id)
    assert done["status"] == "completed" and str(done["result_material_id"]) == out["material_id"]
    before = row_counts()

    # The same answer again, now here: the conversation knows the Rückfrage is answered; nothing new is made.
    again = committed_turn(person, "30/40/30", asked.conversation_id)
    assert again.reply == ALREADY_DONE and again.material_id is None
    # A model that calls continue_material_generation again with the same answer (retry, double click) gets the
    # material the other process made — matched by the answer hash, whitespace and case aside.
    with unit_of_work(person.identity) as db:
        turn = TurnContext(db=db, identity=person.identity, teacher=person.teacher(db),
                           conversation_id=asked.conversation_id)
        same = asyncio.run(continue_generation(turn=turn, session_id=asked.session_id, answer="  30/40/30 "))
        other = asyncio.run(continue_generation(turn=turn, session_id=asked.session_id, answer="20/50/30"))
    assert same.kind == "material" and str(same.material_id) == out["material_id"]
    assert "Diese Antwort wurde schon verarbeitet" in same.text
    assert other.text == ("FEHLER: Diese Rückfrage ist bereits beantwortet; das Material liegt unter „Meine "
                          "Materialien“.")
    after = row_counts()
    assert after["generated_materials"] == before["generated_materials"]
    assert after["material_files"] == before["material_files"]
    assert [str(x) for x in materials_of(person.teacher_id)] == [out["material_id"]]


def test_this_process_answers_a_rueckfrage_the_cli_asked_after_an_app_restart(person: Person) -> None:
    out = cli_json("chat", "--teacher", person.email, "--new", ASK)
    assert out["session_id"] and out["question"]["vorschlaege"], out["reply"]
    # The app process starts afresh: settings and engines are built again, nothing is remembered in memory.
    get_settings.cache_clear()
    reset_engines()
    answered = committed_turn(person, "den zweiten Vorschlag", uuid.UUID(out["conversation_id"]))
    assert answered.material_id, answered.reply
    assert session_row(out["session_id"])["status"] == "completed"
    with unit_of_work(Identity.system()) as db:
        request = db.scalar(sa.select(m.GeneratedMaterial.request).where(
            m.GeneratedMaterial.id == uuid.UUID(answered.material_id)))
    assert request["afb_ziel_verwendet"] == {"I": 20, "II": 50, "III": 30}  # the CLI's suggestion no. 2


def test_answer_from_another_process_waits_for_the_claim_and_then_loses(person: Person) -> None:
    """This process holds the claim (mid-answer); the CLI answers the same Rückfrage from a second window."""
    asked = committed_turn(person, ASK)
    # A second conversation of the same teacher showing the same open Rückfrage (another window, another process).
    with unit_of_work(Identity.system()) as db:
        first = db.get(m.Conversation, asked.conversation_id)
        second = m.Conversation(teacher_id=person.teacher_id, title="Zweites Fenster", history=first.history)
        db.add(second)
        db.flush()
        second_id = second.id

    claimed, release = threading.Event(), threading.Event()
    results: list[object] = []

    def hold_claim() -> None:  # runs after the claim, inside the answering turn's transaction
        claimed.set()
        assert release.wait(120), "the other process never finished"

    def answer_here() -> None:
        try:
            with override_models(klausur=rules_model(FaultyKlausurModel({1: hold_claim}))):
                results.append(committed_turn(person, "30/40/30", asked.conversation_id))
        except Exception as exc:  # surfaced by the assertions below
            results.append(exc)
            claimed.set()

    here = threading.Thread(target=answer_here)
    here.start()
    try:
        assert claimed.wait(60)
        assert session_row(asked.session_id)["status"] == "waiting"  # the claim is not visible outside the turn
        out = cli_json("chat", "--teacher", person.email, "--conversation", str(second_id), "20/50/30")
    finally:
        release.set()
        here.join(120)
    assert out["reply"] == BUSY and out["material_id"] is None
    (winner,) = results
    assert getattr(winner, "material_id", None), winner
    assert [str(x) for x in materials_of(person.teacher_id)] == [winner.material_id]
    done = session_row(asked.session_id)
    assert done["status"] == "completed" and str(done["result_material_id"]) == winner.material_id


def test_two_processes_sending_the_same_answer_at_once_make_one_material(person: Person) -> None:
    asked = committed_turn(person, ASK)
    procs = [start_cli("chat", "--teacher", person.email, "--conversation", str(asked.conversation_id), "--json",
                       "30/40/30") for _ in range(2)]
    outs = [p.communicate(timeout=180) for p in procs]
    assert len(materials_of(person.teacher_id)) == 1
    made, other = sorted(zip(procs, outs, strict=True), key=lambda po: po[0].returncode != 0 or
                         not json.loads(po[1][0])["material_id"])
    assert made[0].returncode == 0 and json.loads(made[1][0])["material_id"]
    assert "Traceback" not in made[1][1] + other[1][1]
    if other[0].returncode == 0:  # it got the conversation after the winner's commit
        assert json.loads(other[1][0])["reply"] == ALREADY_DONE
    else:  # it waited 3 s for the conversation's row lock, then was told
        assert other[0].returncode == 2 and other[1][1].strip() == CONVERSATION_BUSY, other[1][1]
    assert session_row(asked.session_id)["status"] == "completed"
