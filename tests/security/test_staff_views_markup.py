"""Attack round (issue #13): a teacher's text reaches staff pages (Good Practices, Sitzungen) — a title or request
written as Markdown must not load a remote image in the curator's or product person's browser (it would report
who looked, and when, to the teacher's server). Every Markdown string those pages render is checked."""

from __future__ import annotations

import uuid

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from core.app.service import grant_consent
from core.curation.service import share_for_curation
from tests.pages.conftest import app_as, fresh_person
from tests.pages.test_sitzungen import turn
from tests.security.conftest import knowledge_entry

PIXEL = "![x](http://127.0.0.1:9/pixel.png)"
_MD = MarkdownIt("commonmark")


def _images(at: AppTest) -> list[str]:
    """Every rendered Markdown string of the page (texts and labels) that would show an image."""
    texts = [str(getattr(e, "value", "")) for e in (*at.markdown, *at.caption, *at.subheader, *at.header)]
    texts += [e.label for e in at.expander] + [str(o) for r in at.radio for o in r.options]
    return [t for t in texts if "<img" in _MD.render(t)]


@pytest.mark.usefixtures("database")
def test_a_shared_entry_titled_with_an_image_loads_nothing_on_the_curation_desk() -> None:
    tag = uuid.uuid4().hex[:8]
    teacher = fresh_person(name="Test Pixel")
    entry = knowledge_entry(teacher, "teacher", teacher, f"Berechnen Sie die Stromstärke {tag}.")
    from db import models as m
    from db.session import Identity, unit_of_work

    with unit_of_work(Identity.system()) as db:
        db.get(m.AgentKnowledge, entry).thema = f"{PIXEL} Stromstärke {tag}"
    share_for_curation(teacher_id=teacher, knowledge_id=entry)
    at = app_as(fresh_person(role="curator", name="Test Kuratorin"), "views/good_practices.py")
    at.selectbox(key="gp_fach").set_value("physik")
    at.text_input(key="gp_text").set_value(tag).run()
    at.selectbox(key="gp_entry").set_value(str(entry)).run()
    assert not at.exception
    assert any(tag in s.value for s in at.subheader)  # the entry is open
    assert _images(at) == []


@pytest.mark.usefixtures("database")
def test_a_released_request_with_an_image_loads_nothing_in_the_product_teams_trace() -> None:
    teacher = fresh_person(name="Test Pixel")
    r = turn(teacher, f"{PIXEL} Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30")
    grant_consent(teacher, "conversation", r.conversation_id)
    at = app_as(fresh_person(role="product", name="Test Produkt", faecher=()), "views/sitzungen.py")
    at.selectbox(key="trace_shared").set_value(r.conversation_id).run()
    assert not at.exception
    assert any("Stromkreisen" in e.label for e in at.expander)  # the trace is open
    assert _images(at) == []
