"""Issue #10, the three reproductions of the off-topic drift (lead's blind check, stop 21), through the real chat
(offline models, database): a topic resolves only on the words that carry its meaning, the reader keeps every named
part, and a free reply to offered options is never a topic (decision 037)."""

from __future__ import annotations

import uuid

import pytest

from core.materials.service import material_view
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER
from tests.core.chat.test_request_chat import chat

ENGLISCH_8 = "Klassenarbeit Englisch Klasse 8 reported speech und Vokabeln zum Thema school life, 45 Minuten"


def _task_texts(db, material_id: str) -> list[str]:  # noqa: ANN001
    view = material_view(db=db, teacher=find_teacher(db=db, ref=DEMO_TEACHER), material_id=uuid.UUID(material_id))
    return [" ".join([a.get("titel") or "", *(t.get("text") or "" for t in a.get("teilaufgaben", []))])
            for a in view["content"]["aufgaben"]]


def test_school_life_with_reported_speech_is_no_australia_exam(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, ENGLISCH_8, "Standard passt")
    made = results[-1]
    assert made.material_id, made.reply
    # the reader keeps the part named before „zum Thema“: reported speech is asked for as much as school life
    assert args is not None and args["unterthemen"] == ["Reported speech", "School Life"], args
    assert "Standard" not in args["thema"]
    texts = _task_texts(db, made.material_id)
    # „school“ alone (School of the Air) no longer resolves the request to Australia
    assert not any(w in t for t in texts for w in ("Australia", "Aborigin", "Stolen Generation")), texts
    # nor, through „phone-free school“ + „digital life“, to Media and digital life
    assert not any("Cyberbullying" in t or "cyberbullying" in t for t in texts), texts
    assert any("reported speech" in t.lower() or "Reported" in t for t in texts), texts


def test_labelled_parts_are_the_parts_of_the_request(db, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klassenarbeit Englisch Klasse 8, Grammatik: reported speech, "
                         "Wortschatz: school life, 45 Minuten", "Standard passt")
    assert args is not None and [u.casefold() for u in args["unterthemen"]] == ["reported speech", "school life"], args
    assert "Grammatik" not in args["thema"] and "Wortschatz" not in args["thema"]


@pytest.mark.parametrize("reply", ["Standard passt", "egal", "ok, dann so"])
def test_a_free_reply_to_the_options_of_a_refusal_is_no_topic(db, as_teacher, reply: str) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klassenarbeit Biologie Klasse 8 zum Thema Bionik, 45 Minuten", reply)
    refusal, answer = results
    assert "Das kann ich nicht gut erstellen" in refusal.reply and "Möglichkeiten" in refusal.reply, refusal.reply
    # she agreed without choosing: the question which option, never a material on a topic „Standard Passt“
    assert answer.material_id is None, answer.reply
    assert "Welche Möglichkeit soll ich nehmen?" in answer.reply, answer.reply
    assert args is not None and args["thema"] == "Bionik", args
