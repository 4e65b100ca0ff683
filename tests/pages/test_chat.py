"""The chat page: the whole walkthrough in AppTest, with the Rückfrage answered by clicking a suggestion."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from db.session import Identity, unit_of_work
from tests.pages.conftest import app_as


def _assistant_texts(at) -> list[str]:  # noqa: ANN001
    return [md.value for msg in at.chat_message if msg.name == "assistant" for md in msg.markdown]


def test_walkthrough_with_a_clicked_suggestion(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "pages/chat.py")
    assert not at.exception
    assert "Sagen Sie, was Sie brauchen" in at.info[0].value

    at.chat_input(key="chat_input").set_value("Ich brauche ne Klausur E-Lehre für die 10a").run()
    assert not at.exception
    assert any("Schwerpunkt" in t for t in _assistant_texts(at))

    at.chat_input(key="chat_input").set_value(
        "Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III").run()
    assert not at.exception
    assert any("Rückfrage" in t for t in _assistant_texts(at))
    suggestion = next(b for b in at.button if b.key and b.key.startswith("suggestion_") and "30/40/30" in b.label)
    suggestion.click().run()
    assert not at.exception
    assert any(t.startswith("Fertig:") for t in _assistant_texts(at)), _assistant_texts(at)
    downloads = [d for d in at.get("download_button") if "Lehrerfassung" in d.proto.label]
    assert downloads, "Lehrerfassung download offered"
    assert at.feedback, "star rating offered"

    # Reload: a new session of the page resumes the conversation from the sidebar list.
    again = app_as(teacher_id, "pages/chat.py")
    conv_buttons = [b for b in again.sidebar.button if b.key and b.key.startswith("conv_")]
    assert conv_buttons
    conv_buttons[0].click().run()
    assert any(t.startswith("Fertig:") for t in _assistant_texts(again))


def test_open_rueckfrage_is_shown_again_after_reload(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "pages/chat.py")
    at.chat_input(key="chat_input").set_value("Klausur Physik für die 10a zu Optik, 45 Minuten").run()
    conv = at.session_state["conv_id"]
    fresh = app_as(teacher_id, "pages/chat.py")
    fresh.session_state["conv_id"] = conv
    fresh.run()
    assert not fresh.exception
    assert [b for b in fresh.button if b.key and b.key.startswith("suggestion_")]


def test_star_rating_is_stored(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "pages/chat.py")
    at.chat_input(key="chat_input").set_value(
        "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30").run()
    material_fb = next(f for f in at.feedback if len(f.key.rsplit("_", 1)[-1]) == 36)  # …_<material uuid>
    material_fb.set_value(4).run()
    assert not at.exception
    with unit_of_work(Identity.system()) as db:
        stars = db.scalar(sa.text("SELECT stars FROM ratings WHERE teacher_id = :t"), {"t": teacher_id})
    assert stars == 5


def test_bad_message_and_file_show_a_german_message(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "pages/chat.py")
    at.chat_input(key="chat_input").set_value("   ").run()
    assert not at.exception
    assert any("Bitte eine Nachricht eingeben" in e.value for e in at.error)
    assert uuid  # noqa: B018


def test_demo_mode_plays_a_scenario_as_the_demo_teacher(product_id, monkeypatch) -> None:  # noqa: ANN001
    import core.app.acting
    from core.app.acting import personas
    from tests.pages.conftest import fresh_person

    # The scenario ends with "genau so!" (it teaches its teacher): use a stand-in, not the shared demo teacher.
    stand_in = fresh_person(name="Demo-Vertretung")
    email = next(p.email for p in personas() if p.teacher_id == stand_in)
    monkeypatch.setattr(core.app.acting, "DEMO_TEACHER_EMAIL", email)
    at = app_as(product_id, "pages/chat.py")
    assert not at.exception
    buttons = [b for b in at.button if b.key and b.key.startswith("demo_")]
    assert len(buttons) == 5
    next(b for b in buttons if b.key == "demo_e-lehre").click().run()
    assert not at.exception
    assert at.session_state["persona_id"] == str(stand_in)
    assert any(t.startswith("Fertig:") for t in _assistant_texts(at)), _assistant_texts(at)


def test_teachers_do_not_see_the_demo_mode(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "pages/chat.py")
    assert not [b for b in at.button if b.key and b.key.startswith("demo_")]
