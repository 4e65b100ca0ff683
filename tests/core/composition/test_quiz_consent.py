"""Quizzes follow decision 043 like exams: questions on a neighbour part fill a quiz only with the teacher's consent.
The shorter quiz says „Kürzer als gewünscht: N statt M Fragen“ and offers to fill it up; choosing the offer gives the
filled quiz with the neighbour's questions named by number; too few questions give the options first, no stub.
Requests written for these tests (in no eval suite), composed from the real seeded bank."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.composition import service as svc
from core.composition.h5p import QuizComposition
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.materials.request import MaterialRequest
from db.session import Identity

LEHEN = "H5P-Quiz Geschichte Klasse 7 Mittelalter: Lehnswesen und Grundherrschaft, 10 Fragen"


def _quiz(db: Session, text: str, zusatz: str | None = None) -> QuizComposition:
    e = extract(text, topic_terms=seeded_lexicon().terms)
    r = MaterialRequest(fach=e.fach, thema=e.thema, klassenstufe=e.klassenstufe, material_type="h5p",
                        unterthemen=list(e.unterthemen), zusatz=zusatz or text, niveau=e.niveau)
    return svc.compose_quiz(db=db, identity=Identity.system(), fach=r.fach, themenfelder={}, request=r)


def _show(comp: QuizComposition) -> str:
    s = comp.material
    return repr((s and [str(f)[:90] for f in s.fragen], comp.befund.hinweise(),
                 comp.befund.optionen(), comp.befund.grund))


def test_lehnswesen_quiz_is_not_silently_filled_from_another_part(db: Session) -> None:
    comp = _quiz(db, LEHEN)
    print(_show(comp))


def test_probe_more(db: Session) -> None:
    for t in ["H5P-Quiz Biologie Klasse 8 Ökosystem Wald: Nahrungsketten und Destruenten, 10 Fragen",
              "H5P-Quiz Physik Klasse 8 Optik: Linsen und Brennweite, 8 Fragen",
              "H5P Deutsch Klasse 5 Nomen und Verben, 8 Fragen",
              "H5P-Quiz Chemie Klasse 9 Atombau, 10 Fragen"]:
        print("\n###", t, _show(_quiz(db, t)))
    print("\n### consent", _show(_quiz(db, LEHEN, LEHEN + " Mit Nachbarthemen auffüllen.")))
