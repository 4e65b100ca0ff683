"""A refusal through the real chat (offline models, database): the specialist refuses before it asks for the AFB
split, the conversation keeps the request, and "Standard passt" answers the AFB Rückfrage (teacher test r22/r32/r40)."""

from __future__ import annotations

import uuid

from core.materials.service import material_view
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER
from tests.core.chat.test_request_chat import chat


def test_refusal_comes_first_and_the_adjusted_request_keeps_what_was_said(db, as_teacher) -> None:  # noqa: ANN001
    results, _ = chat(db, as_teacher, "Physik LK Q2 Klausur zum Quantenradierer, 180 Minuten",
                      "Dann nimm das Thema Quantenobjekte allgemein.", "Standard passt")
    refusal, question, made = results
    # nothing in the bank fits: the teacher hears that at once, not after answering the AFB question
    assert refusal.session_id is None and refusal.question is None
    assert "Das kann ich nicht gut erstellen" in refusal.reply and "Quantenradierer" in refusal.reply
    # the adjusted topic keeps Fach, course, duration and material type: only the AFB split is asked
    assert question.session_id and "Anforderungsbereiche" in question.question["frage"]
    assert "Klasse" not in question.reply and "Wie lange" not in question.reply
    assert made.material_id, made.reply
    view = material_view(db=db, teacher=find_teacher(db=db, ref=DEMO_TEACHER), material_id=uuid.UUID(made.material_id))
    assert view["fach"] == "physik" and view["klassenstufe"] == 12  # Q2 in Sachsen (G8), the demo teacher's Land
    assert view["request"]["afb_quelle"] == "answer"  # "Standard passt" picked the profile's standard suggestion
