"""A teacher's exam request as the offline chat reads it, composed from the real seeded bank (shared by the
composition tests that start from a request's wording)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.composition import service as svc
from core.composition.candidates import TaskCandidate
from core.composition.klausur import Composition
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.materials.blocks import MaterialBlock, Quelle
from core.materials.request import MaterialRequest
from db.session import Identity


def exam_for(db: Session, text: str) -> Composition:
    """The exam for a teacher's request as the offline chat reads it (AFB 30/40/30 from the profile)."""
    e = extract(text, topic_terms=seeded_lexicon().terms)
    assert e.fach and e.thema and e.klassenstufe, e
    request = MaterialRequest(fach=e.fach, thema=e.thema, klassenstufe=e.klassenstufe, material_type="klausur",
                              dauer_minuten=e.dauer_minuten or 45, unterthemen=list(e.unterthemen), zusatz=text,
                              niveau=e.niveau)
    return svc.compose_exam(db=db, identity=Identity.system(), teacher_id=None, fach=e.fach, themenfelder={},
                            request=request, afb_ziel={"I": 30, "II": 40, "III": 30}, operators=[])


def lgs_task(key: str, text: str, *blocks: MaterialBlock, material_key: str | None = None) -> TaskCandidate:
    """A bank-like LGS word problem as the composer sees it (for tests of layout and repeats)."""
    return TaskCandidate(key=key, herkunft="bank", topic="lineare-gleichungssysteme", unterthema="Sachaufgaben",
                         klassenstufe=9, niveau="Sek I", operator="Bestimmen", afb="II", text=text,
                         erwartung=(("Lösung", 5),), minuten=10, quelle=Quelle(art="good_practice", ref=key, titel=key),
                         materialien=blocks, material_key=material_key)
