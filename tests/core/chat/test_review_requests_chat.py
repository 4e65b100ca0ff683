"""Request reading a teacher hit in the review of stop 20, through the real chat (offline models, database): the
topic shown is her words („Uhrzeiten“, not „Uhrzeite“); a plain „Ja“ after a refusal with options asks which one,
naming the numbers, instead of repeating the refusal; „Radioaktivitat“ is corrected to „Radioaktivität“ while the
accepted variant „Halbwertzeit“ stays."""

from __future__ import annotations

from sqlalchemy.orm import Session

from tests.agents.offline.test_refusal_dialog import OPTIONS as REFUSAL_OPTIONS
from tests.agents.offline.test_refusal_dialog import answer_refusal
from tests.core.chat.test_request_chat import chat

QUIZ = "H5P-Quiz Englisch 5 Uhrzeiten und Wochentage, 10 Fragen"


def test_the_topic_is_shown_as_the_teacher_typed_it(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, QUIZ)
    reply = results[0].reply
    assert "Uhrzeite " not in reply and "Uhrzeiten und Wochentage" in reply, reply
    assert args is not None and args["thema"] == "Uhrzeiten und Wochentage"


def test_a_plain_yes_after_a_refusal_with_options_asks_which_number_and_never_repeats_the_refusal() -> None:
    _, yes, plain_yes, chosen = answer_refusal(QUIZ, "Ja, bitte so erstellen", "Ja.", "2",
                                               optionen=REFUSAL_OPTIONS[2:])
    for reply in (yes, plain_yes):
        assert isinstance(reply, str) and "Mit denselben Angaben" not in reply, reply
        assert reply.splitlines()[0] == ("Welche Möglichkeit soll ich nehmen? Antworten Sie einfach mit der Nummer: "
                                         "1 oder 2."), reply
    assert isinstance(chosen, str) and "Sprachmodell" in chosen  # the number then counts


def test_a_missing_umlaut_is_corrected_and_the_accepted_variant_kept(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klassenarbeit Physik Klasse 10 „Radioaktivitat und Halbwertzeit“, "
                                         "45 Minuten, AFB 30/40/30")
    reply = results[0].reply
    assert reply.startswith("Ich nehme an, Sie meinen „Radioaktivität und Halbwertzeit“."), reply
    assert args is not None and args["thema"] == "Radioaktivität und Halbwertzeit"  # what titles are made from
    assert "Radioaktivitat" not in reply.split("\n", 1)[1], reply
