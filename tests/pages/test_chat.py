"""The chat page: the whole walkthrough in AppTest, with the Rückfrage answered by clicking a suggestion."""

from __future__ import annotations

import uuid
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from db import models as m
from db.session import Identity, unit_of_work
from tests.pages.conftest import APP, app_as


def _assistant_texts(at) -> list[str]:  # noqa: ANN001
    return [md.value for msg in at.chat_message if msg.name == "assistant" for md in msg.markdown]


def test_walkthrough_with_a_clicked_suggestion(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
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
    again = app_as(teacher_id, "views/chat.py")
    conv_buttons = [b for b in again.sidebar.button if b.key and b.key.startswith("conv_")]
    assert conv_buttons
    conv_buttons[0].click().run()
    assert any(t.startswith("Fertig:") for t in _assistant_texts(again))


def test_open_rueckfrage_is_shown_again_after_reload(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    at.chat_input(key="chat_input").set_value("Klausur Physik für die 10a zu Optik, 45 Minuten").run()
    conv = at.session_state["conv_id"]
    fresh = app_as(teacher_id, "views/chat.py")
    fresh.session_state["conv_id"] = conv
    fresh.run()
    assert not fresh.exception
    assert [b for b in fresh.button if b.key and b.key.startswith("suggestion_")]


def _opened_by_url(teacher_id: uuid.UUID, gespraech: str) -> AppTest:
    """F5 or a bookmark: a new session that has only the URL (the acting person is #13's part of the URL)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["persona_id"] = str(teacher_id)
    at.query_params["gespraech"] = gespraech
    at.run()
    at.switch_page("views/chat.py")
    at.query_params["gespraech"] = gespraech
    return at.run()


def test_the_open_conversation_is_in_the_url_and_a_reload_opens_it(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    at.chat_input(key="chat_input").set_value("Klausur Physik für die 10a zu Optik, 45 Minuten").run()
    conv = at.session_state["conv_id"]
    assert at.query_params["gespraech"] == conv  # what the browser's address bar holds
    reloaded = _opened_by_url(teacher_id, conv)
    assert not reloaded.exception
    assert reloaded.session_state["conv_id"] == conv
    assert any("Rückfrage" in t for t in _assistant_texts(reloaded)), _assistant_texts(reloaded)
    labels = [b.label for b in reloaded.sidebar.button if b.key == f"conv_{conv}"]
    assert labels and labels[0].startswith("▶ ")



def test_sidebar_times_are_school_time(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    at.chat_input(key="chat_input").set_value("Hallo").run()
    with unit_of_work(Identity.system()) as db:
        updated = db.scalar(sa.select(m.Conversation.updated_at).where(m.Conversation.teacher_id == teacher_id))
    berlin = updated.astimezone(ZoneInfo("Europe/Berlin"))
    label = next(b.label for b in at.sidebar.button if b.key and b.key.startswith("conv_"))
    assert f"{berlin:%d.%m. %H:%M}" in label, label


def test_star_rating_is_stored(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    at.chat_input(key="chat_input").set_value(
        "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30").run()
    material_fb = next(f for f in at.feedback if len(f.key.rsplit("_", 1)[-1]) == 36)  # …_<material uuid>
    material_fb.set_value(4).run()
    assert not at.exception
    with unit_of_work(Identity.system()) as db:
        stars = db.scalar(sa.text("SELECT stars FROM ratings WHERE teacher_id = :t"), {"t": teacher_id})
    assert stars == 5


def test_bad_message_and_file_show_a_german_message(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    at.chat_input(key="chat_input").set_value("   ").run()
    assert not at.exception
    assert any("Bitte eine Nachricht eingeben" in e.value for e in at.error)
    assert uuid  # noqa: B018


def _demo_teacher_state() -> dict[str, int]:
    """Everything a demo could have written for the real demo teacher, counted."""
    import sqlalchemy as sa

    from db import models as m
    from db.session import Identity, unit_of_work
    from tests.conftest import DEMO_TEACHER

    with unit_of_work(Identity.system()) as db:
        t = db.scalar(sa.select(m.Teacher).where(m.Teacher.email == DEMO_TEACHER))
        classes = list(db.scalars(sa.select(m.TeacherClass.class_id).where(m.TeacherClass.teacher_id == t.id)))
        ak = m.AgentKnowledge
        return {
            "conversations": db.scalar(sa.select(sa.func.count()).select_from(m.Conversation)
                                       .where(m.Conversation.teacher_id == t.id)),
            "materials": db.scalar(sa.select(sa.func.count()).select_from(m.GeneratedMaterial)
                                   .where(m.GeneratedMaterial.teacher_id == t.id)),
            "knowledge": db.scalar(sa.select(sa.func.count()).select_from(ak).where(
                sa.or_(ak.owner_id == t.id, ak.scope_id.in_([t.id, t.school_id, *classes])))),
        }


def test_demo_mode_plays_every_scenario_in_a_sandbox(product_id) -> None:  # noqa: ANN001
    before = _demo_teacher_state()
    at = app_as(product_id, "views/chat.py", timeout=180)
    assert not at.exception
    buttons = [b.key for b in at.button if b.key and b.key.startswith("demo_") and b.key != "demo_open"]
    assert len(buttons) == 5
    for key in buttons:
        next(b for b in at.button if b.key == key).click().run()
        assert not at.exception, key
        assert not at.error, [e.value for e in at.error]
        assert any("ist durchgelaufen" in s.value for s in at.success), key
    next(b for b in at.button if b.key == "demo_e-lehre").click().run()  # again: a fresh sandbox, same course
    assert not at.exception and not at.error
    assert any(md.value.startswith("**Werkbank:** Fertig:") for md in at.markdown)
    assert _demo_teacher_state() == before  # the real demo teacher's chats, materials and knowledge unchanged
    next(b for b in at.button if b.key == "demo_open").click().run()
    assert not at.exception
    assert at.session_state["persona_id"] != str(product_id)
    assert any(t.startswith("Fertig:") for t in _assistant_texts(at)), _assistant_texts(at)


def test_teachers_do_not_see_the_demo_mode(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    assert not [b for b in at.button if b.key and b.key.startswith("demo_")]


def test_the_options_of_a_shortened_material_are_buttons_that_answer(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, "views/chat.py")
    at.chat_input(key="chat_input").set_value(
        "Klassenarbeit Geschichte Klasse 6 Olympische Spiele in der Antike, 90 Minuten, AFB 30/40/30").run()
    assert not at.exception
    assert "(1) die kurze Fassung" in _assistant_texts(at)[-1], _assistant_texts(at)  # under the stub line (057)
    at.chat_input(key="chat_input").set_value("1").run()  # she takes the short version
    assert not at.exception
    assert any(t.startswith("Fertig:") and "Möglichkeiten:" in t for t in _assistant_texts(at)), _assistant_texts(at)
    choices = [b for b in at.button if b.key and b.key.startswith("choice_")]
    assert choices and choices[0].label.startswith("(1) die kürzere Klassenarbeit"), [b.label for b in choices]
    choices[0].click().run()
    assert not at.exception
    assert "bleibt es bei dieser Fassung" in _assistant_texts(at)[-1], _assistant_texts(at)
    assert not [b for b in at.button if b.key and b.key.startswith("choice_")]  # answered: no buttons any more
