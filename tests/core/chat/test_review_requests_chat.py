"""Request reading a teacher hit in the review of stop 20, through the real chat (offline models, database): the
topic shown is her words („Uhrzeiten“, not „Uhrzeite“); a plain „Ja“ after a refusal with options asks which one,
naming the numbers, instead of repeating the refusal; „Radioaktivitat“ is corrected to „Radioaktivität“ while the
accepted variant „Halbwertzeit“ stays, and the headings use the corrected words."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from core.materials.klausur import Klausur
from db.repos.materials import get_material
from tests.core.chat.test_request_chat import chat

QUIZ = "H5P-Quiz Englisch 5 Uhrzeiten und Wochentage, 10 Fragen"


def test_the_topic_is_shown_as_typed_and_a_plain_yes_after_the_refusal_asks_which_number(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, QUIZ, "Ja, bitte so erstellen", "Ja.", "2")
    first, yes, plain_yes, chosen = (r.reply for r in results)
    assert "Uhrzeite " not in first and "„Uhrzeiten und Wochentage“" in first, first
    assert args is not None and args["thema"] == "Uhrzeiten und Wochentage"
    assert "Das kann ich nicht gut erstellen" in first and "(1)" in first and "(2)" in first, first
    for reply in (yes, plain_yes):
        assert "Mit denselben Angaben" not in reply, reply
        assert reply.splitlines()[0] == "Welche Möglichkeit soll ich nehmen? Antworten Sie einfach mit der Nummer: " \
                                        "1 oder 2.", reply
    assert "Sprachmodell" in chosen or "Hochladen" in chosen, chosen  # the number then counts


def test_a_missing_umlaut_is_corrected_and_the_accepted_variant_kept_in_every_heading(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klassenarbeit Physik Klasse 10 „Radioaktivitat und Halbwertzeit“, "
                                         "45 Minuten, AFB 30/40/30")
    reply = results[0].reply
    assert reply.startswith("Ich nehme an, Sie meinen „Radioaktivität und Halbwertzeit“."), reply
    assert args is not None and args["thema"] == "Radioaktivität und Halbwertzeit"
    assert results[0].material_id, reply
    k = Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(results[0].material_id)).content)
    headings = [k.titel, *(a.titel for a in k.aufgaben)]
    assert "Radioaktivität und Halbwertzeit" in k.titel, k.titel
    assert not any("Radioaktivitat" in h or "Radioaktivität und Halbwertszeit" in h for h in headings), headings
