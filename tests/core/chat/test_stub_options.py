"""Too little to hand out, whether or not neighbours could fill it (decision 057): the chat gives no finished-looking
stub exam but what exists (the short version, with its true length) and the options first; „1“ makes the short
version. A request the bank covers still gets its exam at once. A quiz on a part named after its topic („Ökologie:
Konkurrenz und ökologische Nische“) is not filled from the topic's other parts without her consent; a quiz on the
whole topic fills from all its parts. Requests written for these tests (in no eval suite), real chat, offline engine."""

from __future__ import annotations

import re
import uuid

from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from db.repos.materials import get_material
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER
from tests.core.chat.test_shortened_options import _offered

THIN = "Klassenarbeit Chemie Klasse 8 Alkalimetalle, 90 Minuten, AFB 30/40/30"  # no neighbour to fill it up
SHORT = re.compile(r"^die kurze Fassung mit Aufgaben für ca\. (\d+) Minuten erstellen$")
NICHE = "H5P-Quiz Biologie Klasse 12: Ökologie: Konkurrenz und ökologische Nische, 10 Fragen"


def _chat(db: Session, as_teacher):  # noqa: ANN001, ANN202
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)

    def say(message: str, conversation_id: uuid.UUID | str | None = None):  # noqa: ANN202
        return chat_turn(db=db, identity=ident, teacher=teacher, message=message, conversation_id=conversation_id)

    return say


def _content(db: Session, material_id: str) -> dict:
    return get_material(db=db, material_id=uuid.UUID(material_id)).content


def test_too_little_without_neighbours_gives_the_options_first_and_the_short_exam_on_1(db: Session, as_teacher) -> None:  # noqa: ANN001
    say = _chat(db, as_teacher)
    first = say(THIN)
    assert first.material_id is None and first.session_id is None, first.reply  # no finished-looking stub
    assert "zu wenig für eine brauchbare Arbeit" in first.reply and "der 90 Minuten" in first.reply, first.reply
    options = _offered(first.reply)
    short = SHORT.match(options[0])
    assert short, options  # what exists, with its true length, is option 1
    minuten = int(short.group(1))
    assert minuten < 0.4 * 90, minuten
    assert not [o for o in options if o.endswith("so verwenden")], options  # nothing was handed out to keep
    assert not [o for o in options if o.endswith("auffüllen")], options  # no neighbour to fill it with
    assert any("Hochladen" in o for o in options) and any("Sprachmodell" in o for o in options), options
    taken = say("1", first.conversation_id)
    assert taken.material_id, taken.reply
    exam = Klausur.model_validate(_content(db, taken.material_id))
    assert exam.dauer_minuten == minuten, (exam.dauer_minuten, minuten)
    assert f"Kürzer als gewünscht: ausgelegt auf {minuten} statt 90 Minuten." in " ".join(exam.hinweise_lehrkraft)
    assert "(1) die kürzere Klassenarbeit so verwenden" in taken.reply, taken.reply


def test_a_request_the_bank_covers_still_gets_its_exam_directly(db: Session, as_teacher) -> None:  # noqa: ANN001
    made = _chat(db, as_teacher)("Klassenarbeit Mathematik Klasse 7 Prozentrechnung, 45 Minuten, AFB 30/40/30")
    assert made.material_id, made.reply
    assert Klausur.model_validate(_content(db, made.material_id)).dauer_minuten == 45
    assert "kurze Fassung" not in made.reply and "zu wenig" not in made.reply, made.reply


def test_a_quiz_on_a_named_part_is_not_filled_from_the_other_parts_without_her_consent(db: Session, as_teacher) -> None:  # noqa: ANN001
    say = _chat(db, as_teacher)
    first = say(NICHE)
    if first.material_id is None:  # under the stub line: the short quiz is option 1
        assert "(1) die kurze Fassung mit" in first.reply, first.reply
    else:
        quiz = H5PSet.model_validate(_content(db, first.material_id))
        assert len(quiz.fragen) < 10
        assert not [h for h in quiz.hinweise_lehrkraft if h.startswith("Ergänzt um")], quiz.hinweise_lehrkraft
    fill = next((o for o in _offered(first.reply) if o.endswith("auf 10 Fragen auffüllen")), None)
    assert fill is not None and "Nische" not in fill, first.reply  # the other parts, offered by name
    number = _offered(first.reply).index(fill) + 1
    filled = say(str(number), first.conversation_id)  # she consents: the named neighbours fill it, labelled
    quiz = H5PSet.model_validate(_content(db, filled.material_id))
    assert len(quiz.fragen) == 10
    note = next(h for h in quiz.hinweise_lehrkraft if h.startswith("Ergänzt um Fragen zu"))
    assert "wie gewünscht" in note and "sondern zu diesem Nachbarthema" in note, note


def test_a_quiz_on_the_whole_topic_still_fills_from_all_its_parts(db: Session, as_teacher) -> None:  # noqa: ANN001
    made = _chat(db, as_teacher)("H5P-Quiz Biologie Klasse 12 Populationsökologie, 10 Fragen")
    assert made.material_id, made.reply
    quiz = H5PSet.model_validate(_content(db, made.material_id))
    assert len(quiz.fragen) == 10  # no part of it has more than three questions for Klasse 11–13
    assert "Möglichkeiten" not in made.reply and "kurze Fassung" not in made.reply, made.reply
