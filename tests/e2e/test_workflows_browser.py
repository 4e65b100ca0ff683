"""Teacher workflows in a real browser (Debian Chromium): an exam in the chat, the same exam "auch als PDF" (the
downloaded PDF is read back), the conversation reopened from its URL, then Meine Materialien with a version
restored, two versions side by side and a quiz played as a pupil; and the acceptance chain of #15 (an AFB change
rewritten and balanced, a direct edit, diff, restore, PDF, reload). Screenshots of these screens go to
docs/screenshots/.
"""

from __future__ import annotations

import io
import re
import time
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from agents.deps import TurnContext
from core.app.acting import acting
from core.chat.turn import chat_turn
from core.editing.apply import apply_operations
from core.editing.errors import PatchError
from core.generation.prepare import subject_operators
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.patch_ops import SetAfb
from db import models as m
from db.session import Identity, unit_of_work
from tests.e2e.test_browser import ARGS, CHROMIUM, SHOTS, _send, _shot, idle, pw, shows_acting_person
from tests.pages.conftest import fresh_person
from tests.pages.test_materialien import insert_materials

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no system chromium")]
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def _person(name: str, person_id: uuid.UUID | None = None) -> tuple[uuid.UUID, str]:
    """A fresh demo teacher (with `person_id`: always the same id) and the e-mail the URL names them by."""
    from core.app.acting import personas

    teacher = fresh_person(name=name, person_id=person_id)
    return teacher, {p.teacher_id: p.email for p in personas()}[teacher]


def _browser(p):  # noqa: ANN001, ANN202
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    return browser, browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)


def _exam_in_chat(page, app_url: str, email: str) -> str:  # noqa: ANN001
    """The teacher opens the chat and asks for the exam; the conversation id from the URL."""
    page.goto(f"{app_url}/chat?persona={email}")
    page.get_by_test_id("stChatInputTextArea").wait_for(state="visible", timeout=120_000)
    _send(page, EXAM)
    page.get_by_text("Fertig:").last.wait_for(timeout=120_000)
    page.wait_for_url("**gespraech=*", timeout=30_000)
    return page.url.split("gespraech=", 1)[1].split("&", 1)[0]


def test_pdf_follow_up_url_versions_and_quiz_in_a_real_browser(app_url: str) -> None:
    teacher, email = _person("Workflow Lehrkraft")
    with pw.sync_playwright() as p:
        browser, page = _browser(p)
        conv = _exam_in_chat(page, app_url, email)
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


def _reply_to(page, message: str) -> str:  # noqa: ANN001
    """The assistant's reply to `message`, once the turn has finished (its steps are shown while it runs)."""
    page.get_by_test_id("stChatMessage").filter(has_text=message).last.wait_for(timeout=60_000)
    idle(page, timeout=300_000)
    return page.get_by_test_id("stChatMessage").last.inner_text()


def _task_to_raise(teacher: uuid.UUID, k: Klausur, ziel: dict) -> int:
    """Aufgabe 2, or else the task with the fewest points below AFB III, that the app can move to AFB III within the
    exam's AFB target — tried with the editing code itself, nothing stored. The composer's exam varies with the
    knowledge base: when no rebalancing reaches the target, the app rightly asks how to rebalance instead
    (tests/core/editing/test_afb_change.py) — not this chain's subject."""
    below = {a.nummer: sum(t.punkte for t in a.teilaufgaben if t.afb != "III") for a in k.aufgaben}
    order = sorted((n for n, p in below.items() if p), key=lambda n: (n != 2, below[n]))
    with acting(teacher) as (db, t, ident):
        turn = TurnContext(db=db, identity=ident, teacher=t)
        for n in order:
            try:
                apply_operations(k, [SetAfb(ziel=str(n), afb="III")], operatoren=subject_operators(turn, "physik"),
                                 turn=turn, afb_ziel=ziel)
            except PatchError:
                continue
            db.rollback()
            return n
        db.rollback()
    raise AssertionError(f"no task of this exam can become AFB III within the target {ziel}: {k.afb_anteile}")


def _newest(teacher: uuid.UUID, version: int = 1) -> tuple[int, Klausur, dict]:
    """The teacher's newest exam version once `version` is stored (the chat shows steps before the turn commits):
    its number, content and stored AFB target."""
    for _ in range(120):
        with unit_of_work(Identity.system()) as db:
            row = db.scalars(sa.select(m.GeneratedMaterial).where(m.GeneratedMaterial.teacher_id == teacher)
                             .order_by(m.GeneratedMaterial.version.desc()).limit(1)).one()
            if row.version >= version:
                return row.version, Klausur.model_validate(row.content), dict(row.request or {})
        time.sleep(1)
    raise AssertionError(f"version {version} was not stored")


def test_afb_rewrite_direct_edit_diff_restore_pdf_and_reload_in_a_real_browser(app_url: str) -> None:
    """The acceptance chain of #15: exam → „Aufgabe 2 bitte als AFB III“ (or the task that can be; rewritten, AFB shares
    within target) →
    1a's text edited on Meine Materialien (version 3) → v1/v3 side by side → v1 restored → PDF read back → F5."""
    name = "Kette Lehrkraft"
    # A fixed id: the composer seeds her generator numbers with it, so her exam is the same on every run. With a new
    # id each run, about 1 run in 6 drew an exam where no task can become AFB III within the target (III 35.5 %) and
    # the chain failed by chance — the app then rightly asks how to rebalance (tests/core/editing/test_afb_change.py).
    teacher, email = _person(name, uuid.uuid5(uuid.NAMESPACE_URL, "werkbank-test/Kette Lehrkraft"))
    with pw.sync_playwright() as p:
        browser, page = _browser(p)
        conv = _exam_in_chat(page, app_url, email)
        _, k1, request1 = _newest(teacher)
        n = _task_to_raise(teacher, k1, request1["afb_ziel_verwendet"])
        wish = f"Aufgabe {n} bitte als AFB III"

        _send(page, wish)
        reply = _reply_to(page, wish)
        assert "Version 2 von" in reply, reply[:800]  # e.g. not „Wie soll ich ausgleichen?“
        version, k2, request = _newest(teacher, 2)
        ziel = request["afb_ziel_verwendet"]
        assert version == 2 and {t.afb for t in k2.aufgaben[n - 1].teilaufgaben} == {"III"}
        for old, new in zip(k1.aufgaben[n - 1].teilaufgaben, k2.aufgaben[n - 1].teilaufgaben, strict=True):
            assert old.afb == "III" or (new.text != old.text and new.erwartung != old.erwartung)
        assert all(abs(k2.afb_anteile[a] - ziel[a]) <= 10 for a in ziel), (k2.afb_anteile, ziel)
        page.get_by_test_id("stChatMessage").filter(has_text="aus der Aufgabensammlung").filter(
            has_text="Version 1 bleibt").last.wait_for(timeout=60_000)  # the reply, not only the live steps
        assert page.get_by_text("verschiebe Punkte").count() == 0
        _shot(page, "chat_afb_umbau")

        # 1a's text edited directly on Meine Materialien: version 3
        page.goto(f"{app_url}/materialien?persona={email}")
        page.get_by_text("Vorschau und Downloads").first.click()
        area = page.get_by_label("Aufgabentext").first
        area.wait_for(timeout=120_000)
        new_text = k2.aufgaben[0].teilaufgaben[0].text + " Gib jeden Wert mit seiner Einheit an."
        area.fill(new_text)
        page.get_by_role("button", name="Teilaufgabe speichern (neue Version)").first.scroll_into_view_if_needed()
        _shot(page, "materialien_bearbeiten")
        page.get_by_role("button", name="Teilaufgabe speichern (neue Version)").first.click()
        page.get_by_text("Version 3 von").first.wait_for(timeout=120_000)
        version, k3, _ = _newest(teacher, 3)
        assert version == 3 and k3.aufgaben[0].teilaufgaben[0].text == new_text

        # version 1 and version 3 side by side (the comparison opens with the oldest left, the newest right)
        page.goto(f"{app_url}/materialien?persona={email}")
        page.get_by_text("Vorschau und Downloads").first.click()
        page.get_by_text("nur links, + nur rechts").first.wait_for(timeout=120_000)
        table = page.get_by_test_id("stDataFrame").last
        table.scroll_into_view_if_needed()
        assert page.get_by_text("Versionen vergleichen").count() > 0
        _shot(page, "materialien_vergleich_v1_v3")

        # version 1 back (as version 4), then its PDF read back
        page.get_by_role("button", name="Version 1 wiederherstellen").first.click()
        page.get_by_text("Version 4 von").first.wait_for(timeout=120_000)
        version, k4, _ = _newest(teacher, 4)
        assert version == 4 and k4.aufgaben == k1.aufgaben
        page.goto(f"{app_url}/materialien?persona={email}")
        page.get_by_text("Vorschau und Downloads").first.click()
        current = page.get_by_role("button", name=re.compile(r"^\W*Lehrerfassung \(PDF\)$"))  # not „… · Version 3“
        with page.expect_download(timeout=60_000) as info:
            current.click()
        assert not info.value.suggested_filename.startswith("V"), info.value.suggested_filename
        pdf = PdfReader(io.BytesIO(Path(info.value.path()).read_bytes()))
        text = " ".join(" ".join(pg.extract_text() for pg in pdf.pages).split())
        assert "Erwartungshorizont" in text and "Seite 1 von" in text
        assert "Gib jeden Wert mit seiner Einheit an" not in text  # the restored version 1, not version 3
        assert k1.aufgaben[n - 1].titel.split()[0] in text

        # F5 in the conversation keeps the person and the conversation
        page.goto(f"{app_url}/chat?persona={email}&gespraech={conv}")
        reply = page.get_by_test_id("stChatMessage").filter(has_text="Version 2 von").last
        reply.wait_for(timeout=120_000)
        page.reload()
        reply.wait_for(timeout=120_000)
        assert f"gespraech={conv}" in page.url and "persona=" in page.url
        # the acting person is still the one of the URL
        assert shows_acting_person(page, name), page.get_by_test_id("stSidebar").inner_text()[:300]
        browser.close()
