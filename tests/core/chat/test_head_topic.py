"""An exam or quiz with not one task on the topic she asked for is not finished (decision 067), even above the stub
line: the options come first — what exists, named, the nearest topics that hold her topic, upload, model — and the
material on what exists is one answer („1“) away, titled after what it is on. A named part that shares a word with
the topic („Logistisches Wachstum“ under „Exponentielles Wachstum“) is missing, with its note, when no task says its
own words. A request the bank covers still gets its material directly. Requests written for these tests (in no eval
suite), real chat, offline engine."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from tests.core.chat.test_shortened_options import _offered
from tests.core.chat.test_stub_options import _chat, _content

HEAD = "Dezimalzahlen addieren und subtrahieren"  # the bank files „Addieren und Subtrahieren“ under negative numbers
EXAM = f"Test Mathe Klasse 6: {HEAD}, 45 Minuten, AFB 40/40/20"
QUIZ = f"H5P-Quiz Mathe Klasse 6: {HEAD}, 8 Fragen"
SHORT = re.compile(
    r"^die kurze Fassung mit (?:Aufgaben für ca\. (\d+) Minuten|(\d+) Fragen) zu (.+) erstellen – "
    r"nicht zu „(.+)“$"
)


def _first_options(reply: str) -> tuple[re.Match[str], list[str]]:
    options = _offered(reply)
    short = SHORT.match(options[0])
    assert short, options  # what exists, named, is option 1
    assert short.group(4) == HEAD and "Dezimal" not in short.group(3), options
    assert not [o for o in options if o.endswith("so verwenden")], options  # nothing was handed out to keep
    assert any(o.startswith("das ganze Thema „Brüche und Dezimalzahlen“ nehmen") for o in options), options
    assert any("Hochladen" in o for o in options) and any("Sprachmodell" in o for o in options), options
    return short, options


def test_an_exam_with_no_task_on_its_topic_gives_the_options_first_and_the_exam_on_1(db: Session, as_teacher) -> None:  # noqa: ANN001
    say = _chat(db, as_teacher)
    first = say(EXAM)
    assert first.material_id is None and first.session_id is None, first.reply
    assert f"Zu „{HEAD}“ habe ich für Klasse 6 keine geprüfte Aufgabe." in first.reply, first.reply
    short, _ = _first_options(first.reply)
    assert int(short.group(1)) >= 0.4 * 45, short.group(0)  # above the stub line: the old rule handed it out
    taken = say("1", first.conversation_id)
    assert taken.material_id, taken.reply
    exam = Klausur.model_validate(_content(db, taken.material_id))
    assert "Dezimal" not in exam.titel and "Dezimal" not in exam.thema, exam.titel  # titled after what it is on
    assert any(h.startswith(f"Keine Aufgabe ist zu „{HEAD}“") for h in exam.hinweise_lehrkraft), exam.hinweise_lehrkraft


def test_the_nearest_topic_that_holds_her_topic_is_one_answer_away(db: Session, as_teacher) -> None:  # noqa: ANN001
    say = _chat(db, as_teacher)
    first = say(EXAM)
    _, options = _first_options(first.reply)
    number = next(i for i, o in enumerate(options, 1) if o.startswith("das ganze Thema „Brüche und Dezimalzahlen“"))
    taken = say(str(number), first.conversation_id)
    assert taken.material_id, taken.reply
    exam = Klausur.model_validate(_content(db, taken.material_id))
    assert exam.thema == "Brüche und Dezimalzahlen", exam.thema
    assert any("Dezimalzahl" in t.text or re.search(r"\d,\d", t.text) for t in exam.teilaufgaben()), exam.aufgaben


def test_a_quiz_with_no_question_on_its_topic_gives_the_options_first(db: Session, as_teacher) -> None:  # noqa: ANN001
    say = _chat(db, as_teacher)
    first = say(QUIZ)
    assert first.material_id is None, first.reply
    assert f"Zu „{HEAD}“ habe ich für Klasse 6 keine geprüfte Frage." in first.reply, first.reply
    short, _ = _first_options(first.reply)
    assert int(short.group(2)) >= 0.4 * 8, short.group(0)  # above the stub line
    taken = say("1", first.conversation_id)
    quiz = H5PSet.model_validate(_content(db, taken.material_id))
    assert "Dezimal" not in quiz.titel, quiz.titel
    assert any(h.startswith(f"Keine Aufgabe ist zu „{HEAD}“") for h in quiz.hinweise_lehrkraft), quiz.hinweise_lehrkraft


def test_a_named_part_sharing_a_word_with_the_topic_is_missing_with_its_note(db: Session, as_teacher) -> None:  # noqa: ANN001
    made = _chat(db, as_teacher)(
        "Klassenarbeit Mathe Klasse 10: Exponentielles Wachstum – Zerfall und logistisches Wachstum, 45 Minuten, "
        "AFB 40/40/20"
    )
    assert made.material_id, made.reply
    exam = Klausur.model_validate(_content(db, made.material_id))
    gap = "Zu „Logistisches Wachstum“ habe ich keine geprüfte Aufgabe für Klasse 10 – dieser Teil fehlt."
    assert gap in made.reply and gap in exam.hinweise_lehrkraft, exam.hinweise_lehrkraft
    assert not any("logistisch" in t.text.casefold() for t in exam.teilaufgaben())  # the note says what is printed
    # „Zerfall“ is the bank's „exponentielle Abnahme“: a decay task is printed and no note calls it missing
    assert not [h for h in exam.hinweise_lehrkraft if h.startswith("Zu „Zerfall“")], exam.hinweise_lehrkraft
    assert any("Abnahme" in t.text or "Halbwertszeit" in t.text for t in exam.teilaufgaben()), exam.aufgaben


def test_a_request_the_bank_covers_still_gets_its_exam_directly(db: Session, as_teacher) -> None:  # noqa: ANN001
    made = _chat(db, as_teacher)(
        "Klassenarbeit Mathematik Klasse 6: Brüche und Dezimalzahlen, 45 Minuten, AFB 40/40/20"
    )
    assert made.material_id, made.reply
    exam = Klausur.model_validate(_content(db, made.material_id))
    assert exam.dauer_minuten == 45 and exam.thema == "Brüche und Dezimalzahlen", exam.titel
    assert "Möglichkeiten" not in made.reply and "Keine Aufgabe ist zu" not in made.reply, made.reply
