"""A refusal through the real chat (offline models, database): the specialist refuses before it asks for the AFB
split, the conversation keeps the request, and "Standard passt" answers the AFB Rückfrage (teacher test r22/r32/r40)."""

from __future__ import annotations

import uuid

import pytest

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


QUIZ = "H5P Quiz Chemie Klasse 10 Nomenklatur der Alkane, 12 Fragen"


@pytest.mark.parametrize("answer", ["2", "(2)", "Option 2", "das ganze Thema", "ja, nimm das ganze Thema"])
def test_the_teacher_accepts_the_whole_topic_the_refusal_offered(db, as_teacher, answer: str) -> None:  # noqa: ANN001
    results, _ = chat(db, as_teacher, QUIZ, answer)
    refusal, made = results
    # the bank has one question on naming alkanes at Klasse 10 (decision 055 counts it by its filing): the short quiz
    # is option 1, the whole topic option 2 (decision 057)
    assert "(1) die kurze Fassung mit 1 Frage erstellen" in refusal.reply, refusal.reply
    assert "(2) das ganze Thema „Alkane und Erdöl“ nehmen" in refusal.reply, refusal.reply
    # each turn loads the conversation from the database: the options are read back from the stored history
    assert made.material_id, made.reply
    assert "Fertig: **Übung: Alkane und Erdöl — Chemie, Klassenstufe 10, 12 Fragen" in made.reply
    view = material_view(db=db, teacher=find_teacher(db=db, ref=DEMO_TEACHER), material_id=uuid.UUID(made.material_id))
    assert view["request"]["thema"] == "Alkane und Erdöl" and view["klassenstufe"] == 10


def test_related_topics_are_offered_only_with_questions_for_the_class(db, as_teacher) -> None:  # noqa: ANN001
    """The bank's „Organische Reaktionsmechanismen“ (Kl. 11/12) and „Aromaten“ (Kl. 12/13) hold no question a
    Klasse-10 quiz may use: offering them led back into the same refusal (teacher review stop 22, #14). „Ergänzen“
    then means her own tasks."""
    results, args = chat(db, as_teacher, QUIZ, "ergänzen")
    assert "verwandte Themen" not in results[0].reply, results[0].reply
    assert "Seite „Hochladen“ hoch" in results[-1].reply and results[-1].material_id is None, results[-1].reply
    assert args is not None and args["thema"] == "Nomenklatur der Alkane"  # no new call with other topics


def test_upload_option_then_retry_asks_the_same_request_again(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, QUIZ, "3", "nochmal versuchen")
    assert "Seite „Hochladen“ hoch" in results[1].reply and "„nochmal versuchen“" in results[1].reply
    assert args is not None and args["thema"] == "Nomenklatur der Alkane"  # not a new topic „Versuchen“
    assert results[2].reply.split(" Wählen Sie")[0] == results[0].reply.split(" Wählen Sie")[0]  # the same refusal
    assert "Zu „Nomenklatur der Alkane“" in results[2].reply and results[2].material_id is None
