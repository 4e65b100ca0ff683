"""Named parts and wishes as the composer reads them (stop 21). A worksheet's named sub-topics are judged on what
the sheet prints, as the check judges them: a bank item filed
under „Temperatur- und pH-Abhängigkeit“ whose tasks are about pH only does not cover „Temperatur“ — the sheet says
so instead of being refused by the check (content suite case bi-diff-enzyme-11). A wish for one AFB III task on the
exam's own topic („mindestens eine Aufgabe auf AFB III“) leaves the rest of the exam on that topic: it was a
one-task exam of 10 of 90 minutes."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.checks.promises import broken_promises
from core.checks.views import views
from core.composition import service as svc
from core.materials.request import AfbWunsch, MaterialRequest
from db.session import Identity


def test_named_parts_a_worksheet_lacks_are_said_and_the_check_passes(db: Session) -> None:
    request = MaterialRequest(fach="biologie", thema="Enzyme", klassenstufe=11, material_type="differenzierung",
                              unterthemen=["Schlüssel-Schloss", "Temperatur"])
    comp = svc.compose_worksheet(db=db, identity=Identity.system(), fach="biologie", themenfelder={},
                                 request=request)
    assert comp.material is not None
    assert broken_promises(comp.material, request, views(comp.material)) == []
    printed = " ".join(t for n in comp.material.niveaus for t in [*n.aufgaben, *n.loesungen]).lower()
    for part in ("Schlüssel-Schloss", "Temperatur"):
        if part.lower() not in printed:
            assert any(f"„{part}“" in h for h in comp.material.hinweise_lehrkraft), comp.material.hinweise_lehrkraft


def test_a_wish_for_one_afb_iii_task_on_the_exam_topic_keeps_the_rest_of_the_exam(db: Session) -> None:
    request = MaterialRequest(fach="physik", thema="Transformator", klassenstufe=10, material_type="klausur",
                              dauer_minuten=90, afb_wuensche=[AfbWunsch(thema="Transformator", afb="III")])
    comp = svc.compose_exam(db=db, identity=Identity.system(), teacher_id=None, fach="physik", themenfelder={},
                            request=request, afb_ziel={"I": 30, "II": 40, "III": 30}, operators=[])
    assert comp.material is not None
    afbs = [t.afb for a in comp.material.aufgaben for t in a.teilaufgaben]
    assert "III" in afbs and len(comp.material.aufgaben) >= 3, [a.titel for a in comp.material.aufgaben]


def test_a_part_spelled_without_the_linking_s_is_found_in_tasks_that_spell_it_with_one(db: Session) -> None:
    # „Halbwertzeit“ (as the teacher typed it) is „Halbwertszeit“ in the bank: the exam said the part was missing
    request = MaterialRequest(fach="physik", thema="Radioaktivität und Halbwertzeit", klassenstufe=10,
                              material_type="klausur", dauer_minuten=45,
                              unterthemen=["Radioaktivität", "Halbwertzeit"])
    comp = svc.compose_exam(db=db, identity=Identity.system(), teacher_id=None, fach="physik", themenfelder={},
                            request=request, afb_ziel={"I": 30, "II": 40, "III": 30}, operators=[])
    assert comp.material is not None
    assert "Halbwertszeit" in comp.material.model_dump_json()
    missing = [h for h in comp.material.hinweise_lehrkraft if "Halbwertzeit“" in h and "fehlt" in h]
    assert not missing, missing  # it said: „Zu „Halbwertzeit“ gibt es keine geprüfte Aufgabe … – dieser Teil fehlt.“
    assert broken_promises(comp.material, request, views(comp.material)) == []
