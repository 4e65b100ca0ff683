"""Spelling families German allows both ways (Potential/Potenzial, essentiell/essenziell, Photo-/Foto-, -graph/-graf)
are one word for every matcher: the stem merges them, so covers(), topicality and focus agree (teacher retest: „Zu
‚Ruhepotential‘ gibt es keine Aufgabe“ under an exam with two tasks on the Ruhepotenzial)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from core.checks.promises import covers
from core.checks.views import TaskView
from core.composition import service as svc
from core.language.text import fold_loose, stem, stems
from core.materials.request import MaterialRequest
from db.session import Identity


@pytest.mark.parametrize(("one", "other"), [
    ("Ruhepotential", "Ruhepotenzial"), ("essentiell", "essenziell"), ("Differentialrechnung", "Differenzialrechnung"),
    ("Photosynthese", "Fotosynthese"), ("Geographie", "Geografie"), ("Paragraph", "Paragraf"),
    ("Mikrophon", "Mikrofon"), ("Aktionspotentiale", "Aktionspotenziale"),
])
def test_both_spellings_have_one_stem(one: str, other: str) -> None:
    assert stem(one) == stem(other)
    assert fold_loose(one) == fold_loose(other)  # the loose fold (class notes, material sets) agrees


@pytest.mark.parametrize(("one", "other"), [("Phase", "Faser"), ("Philosophie", "Filiale"), ("Partial", "Parzelle")])
def test_other_words_stay_apart(one: str, other: str) -> None:
    assert stem(one) != stem(other)


def test_a_task_on_the_ruhepotenzial_covers_the_ruhepotential() -> None:
    task = TaskView(ref="2a", titel="Ruhepotenzial bei veränderten Außenkonzentrationen",
                    text="Erkläre, wie sich das Ruhepotenzial ändert, wenn die äußere K⁺-Konzentration steigt.")
    assert covers([task], "Ruhepotential") and covers([task], "Ruhepotenzial")
    assert stems("Fotosynthese der Pflanzen") == stems("Photosynthese der Pflanzen")


def test_an_exam_on_the_ruhepotential_does_not_report_it_missing(db: Session) -> None:
    request = MaterialRequest(fach="biologie", thema="Neurobiologie", unterthemen=["Ruhepotential"], klassenstufe=11,
                              material_type="klausur", dauer_minuten=90)
    comp = svc.compose_exam(db=db, identity=Identity.system(), teacher_id=None, fach="biologie", themenfelder={},
                            request=request, afb_ziel={"I": 30, "II": 45, "III": 25}, operators=[])
    assert comp.material is not None
    assert any("Ruhepotenzial" in t.text or "Ruhepotenzial" in a.titel
               for a in comp.material.aufgaben for t in a.teilaufgaben)
    # naming the focus is right („Nur Aufgaben zum Schwerpunkt „Ruhepotential“ …“); reporting it missing is not
    missing = [h for h in comp.befund.hinweise() if "Ruhepotential" in h and ("keine" in h or "fehlt" in h)]
    assert not missing, comp.befund.hinweise()
