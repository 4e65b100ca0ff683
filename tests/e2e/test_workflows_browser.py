"""Teacher workflows in a real browser (Debian Chromium): an exam in the chat, the same exam "auch als PDF" (the
downloaded PDF is read back), the conversation reopened from its URL, then Meine Materialien with a version
restored, two versions side by side and a quiz played as a pupil. Screenshots of these screens go to docs/screenshots/.
"""

from __future__ import annotations

import io
import uuid
from pathlib import Path

import pytest
from pypdf import PdfReader

from core.app.acting import acting
from core.chat.turn import chat_turn
from core.materials.h5p import H5PSet
from tests.e2e.test_browser import ARGS, CHROMIUM, SHOTS, _send, _serve, _shot, pw
from tests.pages.conftest import fresh_person
from tests.pages.test_materialien import insert_materials

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no system chromium")]
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


@pytest.fixture(scope="module")
def app_url(database):  # noqa: ANN001, ANN201
    url, proc = _serve()
    yield url
    proc.terminate()
    proc.wait(15)


def test_pdf_follow_up_url_versions_and_quiz_in_a_real_browser(app_url: str) -> None:
    teacher = fresh_person(name="Workflow Lehrkraft")
    from core.app.acting import personas

    email = {p.teacher_id: p.email for p in personas()}[teacher]
    SHOTS.mkdir(parents=True, exist_ok=True)
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page.goto(f"{app_url}/chat?persona={email}")
        page.get_by_test_id("stChatInputTextArea").wait_for(state="visible", timeout=120_000)
        _send(page, EXAM)
        page.get_by_text("Fertig:").last.wait_for(timeout=120_000)
        page.wait_for_url("**gespraech=*", timeout=30_000)
        conv = page.url.split("gespraech=", 1)[1].split("&", 1)[0]
        uuid.UUID(conv)

        _send(page, "kannst du mir die klausur auch als pdf geben?")
        page.get_by_text("als PDF").last.wait_for(timeout=120_000)
        assert page.get_by_text("Für welches Fach").count() == 0
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name="Schuelerfassung.pdf").last.click()
        pdf = PdfReader(io.BytesIO(Path(info.value.path()).read_bytes()))
        text = "\n".join(pg.extract_text() for pg in pdf.pages)
        assert "Name" in text and "Aufgabe 1" in text and "Seite 1 von" in text, text[:500]
        assert "Erwartungshorizont" not in text
        _shot(page, "chat_pdf_folgefrage")

        # a bookmark / deep link with the conversation opens it again in a new session
        page.goto(f"{app_url}/chat?persona={email}&gespraech={conv}")
        page.get_by_text("als PDF").last.wait_for(timeout=120_000)
        assert f"gespraech={conv}" in page.url

        # a second version and a quiz, made directly (the chat part is tested above)
        with acting(teacher) as (db, t, ident):
            r = chat_turn(db=db, identity=ident, teacher=t, conversation_id=uuid.UUID(conv),
                          message="Titel von Aufgabe 1: Schaltungen im Alltag")
        assert r.material_id, r.reply
        page.goto(f"{app_url}/materialien?persona={email}")
        page.get_by_text("Version 2").first.wait_for(timeout=120_000)  # one card for both versions
        page.get_by_text("Vorschau und Downloads").first.click()
        page.get_by_text("nur links, + nur rechts").first.wait_for(timeout=120_000)
        page.get_by_text("Versionen vergleichen").first.scroll_into_view_if_needed()
        _shot(page, "materialien_versionen")
        page.get_by_role("button", name="Version 1 wiederherstellen").first.click()
        page.get_by_text("Version 3 von").first.wait_for(timeout=120_000)

        quiz = H5PSet(titel="Quiz Optik", fach="Physik", klassenstufe=8, thema="Optik", fragen=[
            {"typ": "truefalse", "frage": "Licht breitet sich geradlinig aus.", "wahr": True,
             "erklaerung": "Deshalb gibt es scharfe Schatten."},
            {"typ": "multichoice", "frage": "Welche Farbe hat das Licht mit der größten Wellenlänge?",
             "antworten": [{"text": "Rot", "korrekt": True}, {"text": "Blau", "korrekt": False}]},
            {"typ": "blanks", "text": "Der Einfallswinkel ist gleich dem *Reflexionswinkel/Ausfallswinkel*."}])
        (quiz_id,) = insert_materials(teacher, 1, material_type="h5p", titel="Quiz Optik",
                                      content=quiz.model_dump(mode="json"))
        page.goto(f"{app_url}/materialien?persona={email}&material={quiz_id}")
        page.get_by_text("Ausprobieren wie eine Schülerin").first.wait_for(timeout=120_000)
        page.get_by_text("richtig", exact=True).first.click()
        page.get_by_text("Rot", exact=True).first.click()
        page.get_by_label("Lücke 1").first.fill("Ausfallswinkel")
        page.get_by_role("button", name="Überprüfen").first.click()
        page.get_by_text("3 von 3 richtig").first.wait_for(timeout=60_000)
        _shot(page, "materialien_quiz")
        browser.close()
