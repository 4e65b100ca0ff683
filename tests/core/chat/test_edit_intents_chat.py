"""Follow-ups that strike, replace or add tasks of the material just made, with the offline model on the real bank
(teacher review, stop 22: „Bitte durch eine Aufgabe zum zweiseitigen Hebel ersetzen“ was „notiert“, „Ersetze Aufgabe 1
durch …“ a new request, „Bitte ohne Aufgabe 2 (…)“ a stored preference, „Noch eine Aufgabe zum Branddreieck dazu“ a
silent neighbour). Every change is a new version; when the bank has nothing on what she named she is told so with her
options, and nothing is changed — a replacement then strikes nothing either."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from core.chat.turn import ChatResult, chat_turn
from core.editing.bank_tasks import stems
from core.materials.klausur import Klausur
from db.repos.materials import get_material, list_materials
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

PROZENT = "Klassenarbeit Mathematik Klasse 7 Prozentrechnung, 45 Minuten, AFB 30/40/30"
HEBEL = "Kurztest Physik Klasse 8 zum Hebelgesetz (einseitiger und zweiseitiger Hebel), 20 Minuten, AFB 30/40/30"


class _Talk:
    """One conversation of the demo teacher: the first material, then follow-ups in the same conversation."""

    def __init__(self, db: Session, as_teacher, first_message: str) -> None:  # noqa: ANN001
        self.db, self.ident = db, as_teacher(DEMO_TEACHER)
        self.teacher = find_teacher(db=db, ref=DEMO_TEACHER)
        self.first = self.say(first_message, conversation_id=None)
        assert self.first.material_id, self.first.reply

    def say(self, message: str, conversation_id: str | None = "same") -> ChatResult:
        cid = self.first.conversation_id if conversation_id == "same" else conversation_id
        return chat_turn(db=self.db, identity=self.ident, teacher=self.teacher, conversation_id=cid, message=message)

    def exam(self, material_id: str | None) -> tuple[int, Klausur]:
        assert material_id, "no new version"
        row = get_material(db=self.db, material_id=uuid.UUID(str(material_id)))
        return row.version, Klausur.model_validate(row.content)

    def versions(self) -> int:
        return len(list_materials(db=self.db, teacher_id=self.teacher.id, fach="physik"))


def _titles(k: Klausur) -> list[str]:
    return [a.titel for a in k.aufgaben]


def test_replace_by_a_sub_topic_the_bank_lacks_says_so_and_changes_nothing(
        db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    _, v1 = talk.exam(talk.first.material_id)
    before = talk.versions()
    asked = talk.say("Aufgabe 1 (Auflagedruck) passt nicht zum Hebel. Bitte durch eine Aufgabe zum zweiseitigen Hebel "
                     "ersetzen.")
    assert "Danke für die Rückmeldung" not in asked.reply and "Für welche Klasse" not in asked.reply, asked.reply
    assert "zu „zweiseitigen Hebel“ für Klasse 8 keine weitere Aufgabe" in asked.reply, asked.reply
    assert "nichts gespeichert" in asked.reply, asked.reply
    assert "nicht ausgeführt: Aufgabe 1 streichen" in asked.reply, asked.reply
    assert talk.versions() == before, "a refused replacement must store nothing"
    assert len(talk.exam(talk.first.material_id)[1].aufgaben) == len(v1.aufgaben)


def test_replace_by_number_with_a_sub_topic_the_bank_has(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    _, v1 = talk.exam(talk.first.material_id)
    done = talk.say("Ersetze Aufgabe 1 durch eine Aufgabe zum Hookeschen Gesetz.")
    assert "Für welche Klasse" not in done.reply and done.session_id is None, done.reply
    version, last = talk.exam(done.material_id)
    assert version == 3 and len(last.aufgaben) == len(v1.aufgaben), (version, _titles(last))
    assert v1.aufgaben[0].titel not in _titles(last), _titles(last)
    added = last.aufgaben[-1].model_dump_json().casefold()
    assert "hooke" in added or "feder" in added, last.aufgaben[-1]


def test_ohne_aufgabe_n_strikes_it_and_is_no_preference(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, PROZENT)
    _, v1 = talk.exam(talk.first.material_id)
    assert len(v1.aufgaben) >= 2, _titles(v1)
    done = talk.say("Bitte ohne Aufgabe 2 – die Arbeit soll sich auf die übrigen Aufgaben konzentrieren.")
    assert "Wunsch gespeichert" not in done.reply and done.material_id, done.reply
    version, v2 = talk.exam(done.material_id)
    assert version == 2 and _titles(v2) == [t for i, t in enumerate(_titles(v1)) if i != 1], _titles(v2)


def test_a_task_named_by_its_words_is_struck(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, PROZENT)
    _, v1 = talk.exam(talk.first.material_id)
    titles = _titles(v1)
    unique = [(i, w.strip(":,()")) for i, t in enumerate(titles) for w in t.split()
              if len(w.strip(":,()")) >= 5 and all(w.strip(":,()").casefold() not in o.casefold()
                                                      for j, o in enumerate(titles) if j != i)]
    assert unique, titles  # a word only one task's title has
    i, word = unique[0]
    done = talk.say(f"Die Aufgabe zu {word} bitte raus.")
    assert done.material_id, (word, done.reply)
    version, v2 = talk.exam(done.material_id)
    assert version == 2 and _titles(v2) == titles[:i] + titles[i + 1:], (word, _titles(v2))


def test_add_a_sub_topic_the_bank_has_adds_only_that(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    _, v1 = talk.exam(talk.first.material_id)
    done = talk.say("Noch eine Aufgabe zum Hookeschen Gesetz dazu, bitte.")
    version, v2 = talk.exam(done.material_id)
    assert version == 2 and len(v2.aufgaben) == len(v1.aufgaben) + 1, _titles(v2)
    added = v2.aufgaben[-1].model_dump_json().casefold()
    assert "hooke" in added or "feder" in added, v2.aufgaben[-1]


def test_add_a_sub_topic_the_bank_lacks_names_no_neighbour(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, "Test Chemie Klasse 7 Verbrennung: Branddreieck, Brandbekämpfung, Oxidation, "
                                 "30 Minuten, AFB 35/40/25")
    before = len(list_materials(db=db, teacher_id=talk.teacher.id, fach="chemie"))
    asked = talk.say("Noch eine Aufgabe zum Branddreieck dazu, bitte.")
    assert "zu „Branddreieck“ für Klasse 7 keine weitere Aufgabe" in asked.reply, asked.reply
    assert "nichts gespeichert" in asked.reply, asked.reply
    # a neighbour („Zerteilungsgrad“) is at most offered as a numbered option, never added (decision 048)
    assert all(line.startswith("- (") and "stattdessen" in line for line in asked.reply.split("\n")
               if "Zerteilungsgrad" in line), asked.reply
    assert len(list_materials(db=db, teacher_id=talk.teacher.id, fach="chemie")) == before


def test_two_wishes_in_one_message_are_both_carried_out(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    _, v1 = talk.exam(talk.first.material_id)
    done = talk.say("Streiche Aufgabe 1 und nimm noch eine Aufgabe zum Hookeschen Gesetz dazu.")
    version, last = talk.exam(done.material_id)
    assert version == 3, done.reply
    assert _titles(last)[:-1] == _titles(v1)[1:], _titles(last)
    assert "hooke" in last.aufgaben[-1].model_dump_json().casefold() or "feder" in last.aufgaben[-1].model_dump_json()


def test_easier_keeps_the_task_on_its_own_topic(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    _, v1 = talk.exam(talk.first.material_id)
    n = next(a.nummer for a in v1.aufgaben if "hebel" in a.titel.casefold())
    done = talk.say(f"Aufgabe {n} ist für meine 8er zu schwer, bitte leichter.")
    version, v2 = talk.exam(done.material_id)
    assert version == 2, done.reply
    old = {t.text for t in v1.aufgaben[n - 1].teilaufgaben}
    own = stems(v1.aufgaben[n - 1].titel)
    for t in v2.aufgaben[n - 1].teilaufgaben:  # the same task one AFB lower, or another one on the task's topic
        assert t.text in old or own & stems(t.model_dump_json()), (v1.aufgaben[n - 1].titel, t.text)
    assert sum(t.punkte for t in v2.aufgaben[n - 1].teilaufgaben) == sum(t.punkte for t in v1.aufgaben[n - 1]
                                                                         .teilaufgaben)


def test_shorter_with_minutes_is_a_new_version_of_that_length(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, "Klassenarbeit Mathematik Klasse 7 Prozentrechnung, 45 Minuten, AFB 30/40/30")
    done = talk.say("Das ist zu lang, bitte auf 30 Minuten kürzen.")
    version, v2 = talk.exam(done.material_id)
    assert version == 2 and v2.dauer_minuten == 30, done.reply
    assert "Für welche Klasse" not in done.reply


def test_harder_for_the_whole_exam_is_a_new_version_not_a_new_request(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    _, v1 = talk.exam(talk.first.material_id)
    done = talk.say("Der Test ist zu leicht, bitte schwerer machen.")
    assert done.material_id and done.material_id != talk.first.material_id, done.reply
    version, v2 = talk.exam(done.material_id)
    assert version == 2 and v2.afb_punkte["III"] >= v1.afb_punkte["III"], (v1.afb_punkte, v2.afb_punkte)


def test_a_replacement_without_a_topic_is_asked_about_and_changes_nothing(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk(db, as_teacher, HEBEL)
    before = talk.versions()
    asked = talk.say("Kannst du Aufgabe 1 austauschen?")
    assert asked.reply.startswith("Wodurch soll ich Aufgabe 1 ersetzen?"), asked.reply
    assert talk.versions() == before
