"""Follow-ups that change the current material as teachers phrase them (teacher review, stop 21, findings 3, 7, 9,
18, 19): adding a named sub-topic to an exam, a differentiated sheet or a quiz, filling an exam to a duration,
striking several tasks — never a Rückfrage for Klasse or Materialart, never a new material titled with the verb."""

from __future__ import annotations

import uuid

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import override_models, rules_model
from core.chat.turn import ChatResult, chat_turn
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from db.repos.knowledge import knowledge_by_ids
from db.repos.materials import get_material
from db.repos.teachers import find_teacher
from tests.agents.models.scripts import text
from tests.conftest import DEMO_TEACHER

ASKED_AGAIN = ("Für welche Klasse", "Was soll entstehen")


def _conversation(db: Session, as_teacher, first: str, *, short_ok: bool = False):  # noqa: ANN001, ANN202
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    made = chat_turn(db=db, identity=ident, teacher=teacher, message=first)
    if made.session_id:  # the AFB question, once per Fach
        made = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=made.conversation_id,
                         message="30/40/30 ist ok")
    if short_ok and not made.material_id and "(1) die kurze Fassung" in made.reply:
        # too few questions on her topic: the options come first (decision 043); she takes the short quiz
        made = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=made.conversation_id, message="1")
        if made.session_id:  # nothing was made before the options, so the AFB question comes now (decision 057)
            made = chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=made.conversation_id,
                             message="30/40/30 ist ok")
    assert made.material_id, made.reply

    def say(message: str) -> ChatResult:
        return chat_turn(db=db, identity=ident, teacher=teacher, conversation_id=made.conversation_id,
                         message=message)
    return made, say


def _is_edit(first: ChatResult, reply: ChatResult, db: Session) -> None:
    """The follow-up changed the material (version 2 of it) or said plainly that nothing could be added — it never
    asked for the request again or made a separate material."""
    assert not any(q in reply.reply for q in ASKED_AGAIN) and reply.session_id is None, reply.reply
    if reply.material_id:
        row = get_material(db=db, material_id=uuid.UUID(reply.material_id))
        assert row.version == 2 and row.parent_id == uuid.UUID(first.material_id), reply.reply
        assert row.titel == get_material(db=db, material_id=uuid.UUID(first.material_id)).titel, row.titel
    else:
        assert "nichts gespeichert" in reply.reply, reply.reply


def _exam(db: Session, material_id: str) -> Klausur:
    return Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(material_id)).content)


def test_striking_two_tasks_removes_both_and_names_both(db: Session, as_teacher) -> None:  # noqa: ANN001
    first, say = _conversation(db, as_teacher, "Klausur Mathematik GK Q1 Stochastik: Binomialverteilung, "
                                               "Erwartungswert und Standardabweichung, einseitiger Hypothesentest, "
                                               "135 Minuten")
    v1 = _exam(db, first.material_id)
    assert len(v1.aufgaben) >= 5
    titles = [v1.aufgaben[0].titel, v1.aufgaben[4].titel]
    struck = say("Bitte Aufgabe 1 und Aufgabe 5 streichen, Normalverteilung war nicht gewünscht.")
    _is_edit(first, struck, db)
    v2 = _exam(db, struck.material_id)
    assert len(v2.aufgaben) == len(v1.aufgaben) - 2
    assert not {a.titel for a in v2.aufgaben} & set(titles), [a.titel for a in v2.aufgaben]
    assert all(t in struck.reply for t in titles), struck.reply


def test_adding_tasks_to_fill_90_minutes_makes_a_longer_version(db: Session, as_teacher) -> None:  # noqa: ANN001
    first, say = _conversation(db, as_teacher, "Klausur Physik GK Q1 elektromagnetische Induktion und Lenzsche "
                                               "Regel, 90 min")
    v1 = _exam(db, first.material_id)
    added = say("Bitte die Aufgaben zu magnetischem Fluss und Induktionsgesetz dazunehmen, damit es 90 Minuten "
                "werden.")
    _is_edit(first, added, db)
    if added.material_id is None:  # the exam already holds every fitting bank task on it: said, nothing stored
        assert any("Induktionsgesetz" in a.titel for a in v1.aufgaben), [a.titel for a in v1.aufgaben]
        assert "keine weitere Aufgabe, die noch nicht in der Klausur steht" in added.reply, added.reply
        return
    v2 = _exam(db, added.material_id)
    assert len(v2.aufgaben) > len(v1.aufgaben) and v2.gesamtpunkte > v1.gesamtpunkte
    assert "Ergänzt aus der geprüften Aufgabensammlung" in added.reply, added.reply
    if v1.dauer_minuten < 90:
        assert v2.dauer_minuten == 90 and f"Dauer {v1.dauer_minuten} → 90 Minuten" in added.reply, added.reply


def test_a_real_model_fills_the_exam_to_a_duration_with_the_tool(db: Session, as_teacher) -> None:  # noqa: ANN001
    """The tool for a real model: `add_bank_task` takes the duration the exam should fill; a scripted model calls it
    with the sub-topic and 90 minutes, and the exam becomes a 90-minute version with tasks on that sub-topic."""
    first, say = _conversation(db, as_teacher, "Klausur Physik GK Q1 Lenzsche Regel, 30 min")
    v1 = _exam(db, first.material_id)

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if returned := [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]:
            return text(str(returned[0].content))
        tool = next(t for t in info.function_tools if t.name == "add_bank_task")
        assert "dauer_minuten" in tool.parameters_json_schema["properties"], tool.parameters_json_schema
        return ModelResponse(parts=[ToolCallPart("add_bank_task", {
            "material_id": first.material_id, "thema": "Induktionsgesetz", "dauer_minuten": 90})])

    with override_models(main=rules_model(model, model_name="claude-sonnet-4-6")):
        added = say("Bitte noch das Induktionsgesetz, die Klausur soll 90 Minuten dauern.")
    assert added.material_id, added.reply
    v2 = _exam(db, added.material_id)
    assert v2.dauer_minuten == 90 and len(v2.aufgaben) > len(v1.aufgaben), added.reply
    neu = [a.titel for a in v2.aufgaben[len(v1.aufgaben):]]
    assert neu[0] == "Magnetischer Fluss und Induktionsgesetz", neu  # the named sub-topic first
    if any(t != neu[0] for t in neu):  # the rest of the time filled from the same topic, and said so
        assert "die übrigen sind aus demselben Thema" in added.reply, added.reply
    assert "Dauer 30 → 90 Minuten" in added.reply or v1.dauer_minuten == 90, added.reply


@pytest.mark.parametrize(("first", "follow_up"), [
    ("Klassenarbeit Englisch Klasse 9: if-clauses (type I, II, III), 60 min",
     "Bitte noch eine reading comprehension zu Australia ergänzen, die fehlt."),
    ("Klassenarbeit Mathe Klasse 8 zu linearen Funktionen, 45 Minuten",
     "Könnten Sie bitte auch Aufgaben zu linearen Gleichungssystemen mit aufnehmen?"),
    ("Klassenarbeit Biologie Klasse 7 Fotosynthese, 45 Minuten", "Pack die Zellatmung bitte auch noch rein."),
])
def test_a_sub_topic_added_to_an_exam_is_an_edit(db: Session, as_teacher, first: str, follow_up: str) -> None:  # noqa: ANN001
    made, say = _conversation(db, as_teacher, first)
    reply = say(follow_up)
    _is_edit(made, reply, db)
    if reply.material_id:
        assert "Ergänzt" in reply.reply, reply.reply


# The bank's going-to sheet is for Klasse 7: above this sheet's grade, so the reply says that nothing could be added;
# Brechung (with the Physik 7 material of main) and the Komma sheets (all Klasse 8) can be added.
SHEETS = [("differenziertes Arbeitsblatt Englisch Kl 6 will-future vs. going to, 3 Niveaus bitte",
           "Bitte auch das going-to-future aufnehmen, der Unterschied will/going to war der Kern.", None),
          ("Differenziertes Arbeitsblatt Physik 7 Optik: Reflexionsgesetz, drei Niveaus",
           "Nimm bitte noch Aufgaben zur Brechung dazu.", "Brechung"),
          ("Differenziertes Arbeitsblatt Deutsch Klasse 8 Komma bei Konjunktionen, drei Niveaus",
           "Bitte auch das Komma bei Relativsätzen aufnehmen.", "Relativs")]


@pytest.mark.parametrize(("first", "follow_up", "thema"), SHEETS)
def test_a_sub_topic_added_to_a_differentiated_sheet_is_an_edit(db: Session, as_teacher, first: str,  # noqa: ANN001
                                                                follow_up: str, thema: str | None) -> None:
    made, say = _conversation(db, as_teacher, first)
    reply = say(follow_up)
    _is_edit(made, reply, db)
    if thema is None:
        assert reply.material_id is None and "keine weiteren Aufgaben" in reply.reply, reply.reply
        return
    assert reply.material_id and "Ergänzt: „" in reply.reply, reply.reply
    content = get_material(db=db, material_id=uuid.UUID(reply.material_id)).content
    assert thema.casefold() in str(content).casefold()
    assert not any("dieser Teil fehlt" in h and thema in h for h in content.get("hinweise_lehrkraft") or [])


@pytest.mark.parametrize(("first", "follow_up", "thema"), [
    ("H5P Erdkunde Klasse 5: Kontinente und Ozeane, 10 Fragen",
     "Bitte die Fragen zum Gradnetz dazunehmen, das gehört zu meinem Auftrag.", "Gradnetz"),
    ("H5P Quiz Erdkunde Klasse 5 Bundesländer und Hauptstädte, 5 Fragen",
     "Bitte noch ein paar Fragen zu Flüssen und Gebirgen ergänzen.", "Flüsse"),
])
def test_a_sub_topic_added_to_a_quiz_appends_bank_questions_on_it(db: Session, as_teacher, first: str,  # noqa: ANN001
                                                                  follow_up: str, thema: str) -> None:
    made, say = _conversation(db, as_teacher, first, short_ok=True)
    v1 = H5PSet.model_validate(get_material(db=db, material_id=uuid.UUID(made.material_id)).content)
    reply = say(follow_up)
    _is_edit(made, reply, db)
    assert reply.material_id, reply.reply
    v2 = H5PSet.model_validate(get_material(db=db, material_id=uuid.UUID(reply.material_id)).content)
    assert v2.fragen[: len(v1.fragen)] == v1.fragen and len(v2.fragen) > len(v1.fragen)
    added = [uuid.UUID(q.ref) for q in v2.quellen if q not in v1.quellen]
    bank = knowledge_by_ids(db=db, identity=as_teacher(DEMO_TEACHER), ids=added)
    assert len(bank) == len(added) >= len(v2.fragen) - len(v1.fragen)
    for row in bank.values():  # each added question is from the bank and on the named sub-topic
        c = row.content or {}
        assert thema.casefold() in f"{c.get('unterthema')} {c.get('topic')} {c}".casefold(), c
    assert f"Ergänzt: {len(v2.fragen) - len(v1.fragen)} geprüfte Fragen zu" in reply.reply, reply.reply
    assert not any(thema in n and "keine geprüfte" in n for n in v2.hinweise_lehrkraft), v2.hinweise_lehrkraft


def test_a_quiz_that_holds_every_bank_question_on_the_sub_topic_says_so(db: Session, as_teacher) -> None:  # noqa: ANN001
    made, say = _conversation(db, as_teacher, "H5P Quiz Geschichte Klasse 9 Imperialismus: Wettlauf um Afrika, "
                                              "Berliner Konferenz, 10 Fragen, gern auffüllen")  # decision 051
    v1 = get_material(db=db, material_id=uuid.UUID(made.material_id)).content
    assert "konferenz" in str(v1["fragen"]).casefold()  # the bank's two Konferenz questions are in it already
    # the bank grew (stop 25): the first request may still add Konferenz questions; once every one is in, it says so
    for _ in range(3):
        reply = say("Ergänze bitte noch Fragen zur Berliner Konferenz.")
        _is_edit(made, reply, db)
        if reply.material_id is None:
            break
        added = get_material(db=db, material_id=uuid.UUID(reply.material_id)).content
        assert str(added["fragen"]).casefold().count("konferenz") > str(v1["fragen"]).casefold().count("konferenz")
        made, v1 = reply, added
    assert reply.material_id is None
    assert "Zu „Berliner Konferenz“ hat die geprüfte Aufgabensammlung für Klasse 9 keine weiteren Fragen" in reply.reply


def test_a_sub_topic_struck_from_an_exam_removes_its_tasks_and_names_them(db: Session, as_teacher) -> None:  # noqa: ANN001
    first, say = _conversation(db, as_teacher, "Klausur Mathematik GK Q1 Stochastik: Binomialverteilung, "
                                               "Erwartungswert und Standardabweichung, einseitiger Hypothesentest, "
                                               "135 Minuten")
    v1 = _exam(db, first.material_id)
    struck = say("Bitte die Aufgaben zum Erwartungswert weglassen, das hatten wir schon.")
    _is_edit(first, struck, db)
    assert struck.material_id, struck.reply
    v2 = _exam(db, struck.material_id)
    gone = [a for a in v1.aufgaben if a.titel not in {b.titel for b in v2.aufgaben}]
    assert gone and len(v2.aufgaben) == len(v1.aufgaben) - len(gone), struck.reply
    assert all("erwartungswert" in (a.titel + " ".join(t.text for t in a.teilaufgaben)).casefold() for a in gone)
    assert not any("erwartungswert" in (a.titel + " ".join(t.text for t in a.teilaufgaben)).casefold()
                   for a in v2.aufgaben)
    assert struck.reply.count("Gestrichen: ") == 1 and all(f"„{a.titel}“" in struck.reply for a in gone), struck.reply


def test_a_real_model_strikes_quiz_questions_on_a_sub_topic_with_the_tool(db: Session, as_teacher) -> None:  # noqa: ANN001
    first, say = _conversation(db, as_teacher, "H5P Quiz Geschichte Klasse 6 Antikes Griechenland: Polis, Sparta, "
                                               "attische Demokratie, 10 Fragen")
    v1 = H5PSet.model_validate(get_material(db=db, material_id=uuid.UUID(first.material_id)).content)
    on_sparta = [f for f in v1.fragen if "sparta" in f.model_dump_json().casefold()]
    assert on_sparta

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if returned := [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]:
            return text(str(returned[0].content))
        assert "remove_topic_tasks" in {t.name for t in info.function_tools}
        return ModelResponse(parts=[ToolCallPart("remove_topic_tasks", {"material_id": first.material_id,
                                                                        "thema": "Sparta"})])

    with override_models(main=rules_model(model, model_name="claude-sonnet-4-6")):
        struck = say("Nimm die Fragen zu Sparta raus.")
    assert struck.material_id, struck.reply
    v2 = H5PSet.model_validate(get_material(db=db, material_id=uuid.UUID(struck.material_id)).content)
    assert len(v2.fragen) == len(v1.fragen) - len(on_sparta)
    assert not any("sparta" in f.model_dump_json().casefold() for f in v2.fragen)
    assert f"Gestrichen: {len(on_sparta)} Fragen zu „Sparta“" in struck.reply, struck.reply


def test_statt_x_lieber_y_strikes_x_and_adds_y_in_one_turn(db: Session, as_teacher) -> None:  # noqa: ANN001
    first, say = _conversation(db, as_teacher, "Klausur Mathematik GK Q1 Stochastik: Binomialverteilung, "
                                               "Erwartungswert und Standardabweichung, einseitiger Hypothesentest, "
                                               "135 Minuten")
    v1 = _exam(db, first.material_id)

    def normal(a) -> bool:  # noqa: ANN001
        return "erwartungswert" in (a.titel + " ".join(t.text for t in a.teilaufgaben)).casefold()
    assert any(normal(a) for a in v1.aufgaben) and not all(normal(a) for a in v1.aufgaben)
    swapped = say("Statt des Erwartungswerts lieber mehr zum Hypothesentest.")
    assert not any(q in swapped.reply for q in ASKED_AGAIN) and swapped.session_id is None, swapped.reply
    assert swapped.material_id, swapped.reply
    row = get_material(db=db, material_id=uuid.UUID(swapped.material_id))
    now = Klausur.model_validate(row.content)
    assert not any(normal(a) for a in now.aufgaben), [a.titel for a in now.aufgaben]
    assert "Gestrichen: " in swapped.reply, swapped.reply
    if row.version == 3:  # version 2 struck, version 3 added
        assert "Ergänzt aus der geprüften Aufgabensammlung" in swapped.reply, swapped.reply
    else:  # the bank had no further task: the reply says so for the second half
        assert row.version == 2 and "zu „Hypothesentest“ für Klasse 11 keine weitere Aufgabe" in swapped.reply, \
            swapped.reply
