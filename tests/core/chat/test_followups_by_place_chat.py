"""Follow-ups a teacher types after the first draft, on all three kinds of material, with the offline model on the
real bank (issue #10, cause D of the stop-22 review): quiz questions by number („Frage 3 raus“, „Ersetze Frage 2
durch …“, „noch zwei Fragen zu …“), one Niveau of a differentiated sheet („Niveau C: Aufgabe 2 raus“), tasks by place
(„die vorletzte“, „die erste und die dritte“, „Aufgabe 3b“), and an addition the bank has nothing on, which offers
the nearest sub-topics as numbered options and adds one only when she chooses it. Every change is a new version with
its files; what cannot be done is said, and nothing is stored then."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from core.chat.turn import ChatResult, chat_turn
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from db.models import GeneratedMaterial
from db.repos.materials import get_material
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

QUIZ = "Quiz Biologie Klasse 6 zu Wirbeltieren: Fische, Amphibien, Vögel und Säugetiere, 8 Fragen"
SHEET = "Differenziertes Arbeitsblatt Mathematik Klasse 7 zur Prozentrechnung"
EXAM = "Klassenarbeit Physik Klasse 8 Kräfte: Hookesches Gesetz und Hebel, 45 Minuten, AFB 30/40/30"  # 4+ Aufgaben


@dataclass
class _Talk:
    """One conversation of the demo teacher (`open` makes its first material), then follow-ups in it."""

    db: Session
    ident: Any
    conversation: uuid.UUID | None = None
    first: ChatResult | None = None

    @classmethod
    def open(cls, db: Session, as_teacher: Any, request: str) -> _Talk:
        talk = cls(db, as_teacher(DEMO_TEACHER))
        talk.first = talk.say(request)
        assert talk.first.material_id, talk.first.reply
        return talk

    def say(self, message: str) -> ChatResult:
        said = chat_turn(db=self.db, identity=self.ident, teacher=find_teacher(db=self.db, ref=DEMO_TEACHER),
                         conversation_id=self.conversation, message=message)
        self.conversation = said.conversation_id
        return said

    def row(self, material_id: str | None) -> GeneratedMaterial:
        assert material_id, "no new version"
        return get_material(db=self.db, material_id=uuid.UUID(str(material_id)))


def _question(f) -> str:  # noqa: ANN001
    return f.model_dump_json()


def test_quiz_questions_struck_by_number_and_by_place_and_replaced(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk.open(db, as_teacher, QUIZ)
    v1 = H5PSet.model_validate(talk.row(talk.first.material_id).content)
    assert len(v1.fragen) >= 5, talk.first.reply

    struck = talk.say("Frage 3 raus.")
    row = talk.row(struck.material_id)
    v2 = H5PSet.model_validate(row.content)
    assert row.version == 2 and "Gestrichen: Frage 3" in struck.reply, struck.reply
    assert [_question(f) for f in v2.fragen] == [_question(f) for i, f in enumerate(v1.fragen) if i != 2]
    assert {f["filename"].rsplit(".", 1)[-1] for f in struck.files} >= {"h5p", "pdf"}, struck.files

    last = talk.say("Die letzte Frage bitte löschen.")
    v3 = H5PSet.model_validate(talk.row(last.material_id).content)
    assert f"Gestrichen: Frage {len(v2.fragen)}" in last.reply, last.reply
    assert [_question(f) for f in v3.fragen] == [_question(f) for f in v2.fragen[:-1]]

    swapped = talk.say("Ersetze Frage 2 durch eine Frage zu den Amphibien.")
    if "keine weiteren Fragen" in swapped.reply:  # the bank may hold no further one: then nothing is struck either
        assert "nicht ausgeführt: Frage 2 streichen" in swapped.reply, swapped.reply
        return
    v5 = H5PSet.model_validate(talk.row(swapped.material_id).content)
    assert len(v5.fragen) == len(v3.fragen), swapped.reply
    assert _question(v3.fragen[1]) not in {_question(f) for f in v5.fragen}
    assert "Ergänzt: 1 geprüfte Frage zu „Amphibien“" in swapped.reply and "Gestrichen: Frage 2" in swapped.reply


def test_quiz_gets_as_many_questions_as_asked_and_is_not_made_easier_silently(
        db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk.open(db, as_teacher, QUIZ)
    v1 = H5PSet.model_validate(talk.row(talk.first.material_id).content)
    more = talk.say("Noch zwei Fragen zu den Vögeln, bitte.")
    if more.material_id is None:  # said plainly, nothing stored
        assert "keine weiteren Fragen" in more.reply and "nichts gespeichert" in more.reply, more.reply
    else:
        v2 = H5PSet.model_validate(talk.row(more.material_id).content)
        added = len(v2.fragen) - len(v1.fragen)
        assert 1 <= added <= 2 and f"Ergänzt: {added} geprüfte Frage" in more.reply, more.reply
    versions_before = talk.row(more.material_id or talk.first.material_id).version
    easier = talk.say("Die Fragen bitte leichter.")
    assert easier.material_id is None and "ohne Sprachmodell" in easier.reply, easier.reply
    assert "Ich habe nichts geändert" in easier.reply
    assert talk.row(more.material_id or talk.first.material_id).version == versions_before


def test_a_niveau_of_the_sheet_loses_one_task_with_its_solution_and_the_others_stay(
        db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk.open(db, as_teacher, SHEET)
    v1 = DifferenziertesMaterial.model_validate(talk.row(talk.first.material_id).content)
    erweitert = next(n for n in v1.niveaus if n.name == "erweitert")
    assert len(erweitert.aufgaben) >= 2, talk.first.reply

    which = talk.say("Bitte Aufgabe 1 streichen.")
    assert which.material_id is None and "Auf welchem Niveau" in which.reply, which.reply

    struck = talk.say("Niveau C: Aufgabe 2 raus.")
    row = talk.row(struck.material_id)
    v2 = DifferenziertesMaterial.model_validate(row.content)
    assert row.version == 2 and "Gestrichen auf Niveau C (erweitert): Aufgabe 2" in struck.reply, struck.reply
    neu = next(n for n in v2.niveaus if n.name == "erweitert")
    assert neu.aufgaben == [a for i, a in enumerate(erweitert.aufgaben) if i != 1]
    assert neu.loesungen == [x for i, x in enumerate(erweitert.loesungen) if i != 1]
    assert [n for n in v2.niveaus if n.name != "erweitert"] == [n for n in v1.niveaus if n.name != "erweitert"]
    assert {f["filename"].rsplit(".", 1)[-1] for f in struck.files} == {"docx", "pdf"}, struck.files

    easier = talk.say("Niveau A leichter.")
    assert easier.material_id is None and "Niveau A kann ich ohne Sprachmodell nicht leichter" in easier.reply


def test_exam_tasks_by_place_and_a_sub_task(db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk.open(db, as_teacher, EXAM)
    v0 = Klausur.model_validate(talk.row(talk.first.material_id).content)
    a = next((a for a in v0.aufgaben if len(a.teilaufgaben) >= 2), None)
    assert a is not None and len(v0.aufgaben) >= 4, [a.titel for a in v0.aufgaben]
    sub = talk.say(f"Aufgabe {a.nummer}b bitte streichen")
    v1 = Klausur.model_validate(talk.row(sub.material_id).content)
    now = next(x for x in v1.aufgaben if x.nummer == a.nummer)
    assert [t.text for t in now.teilaufgaben] == [t.text for i, t in enumerate(a.teilaufgaben) if i != 1], sub.reply

    titles = [a.titel for a in v1.aufgaben]
    done = talk.say("Die vorletzte Aufgabe bitte streichen.")
    v2 = Klausur.model_validate(talk.row(done.material_id).content)
    assert [a.titel for a in v2.aufgaben] == titles[:-2] + titles[-1:], done.reply
    assert f"Aufgabe {len(titles) - 1} „{titles[-2]}“ gestrichen" in done.reply, done.reply
    assert v2.gesamtpunkte == sum(t.punkte for t in v2.teilaufgaben()) < v1.gesamtpunkte
    assert v2.notenschluessel != v1.notenschluessel  # recomputed for the new total

    both = talk.say("Die erste und die dritte Aufgabe können raus.")
    v3 = Klausur.model_validate(talk.row(both.material_id).content)
    before = [a.titel for a in v2.aufgaben]
    assert [a.titel for a in v3.aufgaben] == [t for i, t in enumerate(before) if i not in (0, 2)], both.reply


def test_an_addition_the_bank_lacks_offers_the_nearest_sub_topics_and_adds_the_chosen_one(
        db: Session, as_teacher) -> None:  # noqa: ANN001
    talk = _Talk.open(db, as_teacher, EXAM)
    v1 = Klausur.model_validate(talk.row(talk.first.material_id).content)
    asked = talk.say("Noch eine Aufgabe zum zweiseitigen Hebel dazu.")
    assert asked.material_id is None and "nichts gespeichert" in asked.reply, asked.reply
    assert "zu „zweiseitigen Hebel“ für Klasse 8 keine weitere Aufgabe" in asked.reply, asked.reply
    offered = [line for line in asked.reply.split("\n") if line.startswith("- (3) stattdessen eine geprüfte Aufgabe")]
    assert offered, asked.reply  # the nearest sub-topic that has a task, numbered like every option
    near = offered[0].split("„")[1].split("“")[0]

    chosen = talk.say("3")
    v2 = Klausur.model_validate(talk.row(chosen.material_id).content)
    assert len(v2.aufgaben) == len(v1.aufgaben) + 1, chosen.reply
    assert f"Ergänzt aus der geprüften Aufgabensammlung: „{near}“" in chosen.reply, chosen.reply
