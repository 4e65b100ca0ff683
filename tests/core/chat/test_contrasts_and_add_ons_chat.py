"""Decision 069 through the real chat and the offline engine: the parts after „A vs. B“ reach the exam, an add-on
(„plus Wortschatz Holidays“) is covered or named as missing, and a kind of task she names that the exam has none of
is named as missing."""

from __future__ import annotations

import json
import re
import uuid

from sqlalchemy.orm import Session

from core.materials.klausur import Klausur
from db.repos.materials import get_material
from tests.core.chat.test_material_followups import _conversation


def _exam_for(db: Session, as_teacher, request: str) -> tuple[str, list[str]]:  # noqa: ANN001
    """The reply to her request and each Aufgabe of the exam as the pupil reads it: title, materials, sub-tasks."""
    made, _ = _conversation(db, as_teacher, request)
    exam = Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(made.material_id)).content)
    blocks = [
        [
            a.titel,
            *(m.text or json.dumps(m.model_dump(), ensure_ascii=False) for m in a.materialien),
            *(t.text for t in a.teilaufgaben),
        ]
        for a in exam.aufgaben
    ]
    return made.reply, [" ".join(b) for b in blocks]


def test_the_part_after_a_contrast_reaches_the_exam_and_the_contrast_is_set_side_by_side(
    db: Session, as_teacher
) -> None:  # noqa: ANN001
    # „vs.“ ended the part list: Sonderkulturen was silently missing (brief, stop 26)
    reply, texts = _exam_for(
        db,
        as_teacher,
        "Klausur Geographie Kl. 6 Landwirtschaft: Massentierhaltung vs. "
        "ökologischer Landbau, Sonderkulturen, 45 Minuten",
    )
    assert "Massentierhaltung vs" not in reply
    assert any(re.search(r"Sonderkultur", t) for t in texts) or re.search(r"„Sonderkulturen“.*fehlt", reply)
    side_by_side = [
        t for t in texts if re.search(r"Massentierhaltung|konventionell", t) and re.search(r"ökologisch|Bio-", t)
    ]
    assert side_by_side or re.search(r"Gegenüberstellung Massentierhaltung – Ökologischer Landbau.*fehlt", reply), [
        t[:120] for t in texts
    ]


def test_a_vocabulary_add_on_is_covered_or_named_as_missing(db: Session, as_teacher) -> None:  # noqa: ANN001
    # „… plus Wortschatz Holidays, 45 min“: the Holidays vocabulary was dropped without a word
    reply, texts = _exam_for(
        db, as_teacher, "Englisch Test Kl. 6: will-future and going-to future, plus Wortschatz Holidays, 45 min"
    )
    assert any(re.search(r"holiday", t, re.I) for t in texts) or re.search(r"„Holidays“[^\n]*fehlt", reply), reply


def test_a_named_kind_of_task_the_exam_lacks_is_named_as_missing(db: Session, as_teacher) -> None:  # noqa: ANN001
    reply, texts = _exam_for(
        db,
        as_teacher,
        "Englisch Klausur Jgst. 11, grundlegendes Anforderungsniveau: Thema "
        "Globalisation – analysis of a newspaper article plus comment, 135 Minuten",
    )
    if not any(re.search(r"\bcomment", t, re.I) for t in texts):
        assert re.search(r"„Kommentar“[^\n]*fehlt", reply), reply
    if not any(re.search(r"article|newspaper", t, re.I) for t in texts):
        assert re.search(r"„Analyse eines Zeitungsartikels“[^\n]*fehlt", reply), reply
