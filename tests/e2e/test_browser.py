"""One real-browser test: Streamlit served on localhost, Debian's Chromium driven by Playwright.

The walkthrough with a clicked Rückfrage suggestion and a downloaded Lehrerfassung, then a screenshot of every
page (docs/screenshots/, referenced from the README). Skips when playwright or chromium is missing.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from docx import Document

from tests.pages.conftest import fresh_person

pw = pytest.importorskip("playwright.sync_api")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no system chromium")]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def _serve():  # noqa: ANN202
    """Start `streamlit run app.py` on a free port; returns (url, process)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless=true",
         f"--server.port={port}", "--server.address=127.0.0.1", "--browser.gatherUsageStats=false"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.terminate()
        pytest.fail("streamlit did not answer on /_stcore/health: " + Path(log.name).read_text()[-2000:])
    return url, proc


@pytest.fixture(scope="module")
def app_url(database):  # noqa: ANN001, ANN201
    url, proc = _serve()
    yield url
    proc.terminate()
    proc.wait(15)


def _chat_ready(page) -> None:  # noqa: ANN001
    """The chat page has finished its run (elements of a run in progress are inert)."""
    page.get_by_text("Sagen Sie, was Sie brauchen").wait_for(timeout=120_000)
    page.get_by_test_id("stChatInputTextArea").wait_for(state="visible", timeout=60_000)
    page.wait_for_load_state("networkidle")


def _send(page, text: str) -> None:  # noqa: ANN001
    box = page.get_by_test_id("stChatInputTextArea")
    try:
        box.fill(text, timeout=30_000)
    except Exception:
        page.screenshot(path=str(Path(tempfile.gettempdir()) / "werkbank-e2e-failure.png"), full_page=True)
        raise
    box.press("Enter")


def shows_acting_person(page, name: str) -> bool:  # noqa: ANN001
    """The sidebar names `name` as the acting person (as text or as the demo picker's chosen value)."""
    sidebar = page.get_by_test_id("stSidebar")
    return name in sidebar.inner_text() or sidebar.locator(f"input[value*='{name}']").count() > 0


def _shot(page, name: str) -> None:  # noqa: ANN001
    page.wait_for_timeout(800)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_walkthrough_in_a_real_browser_and_screenshots(app_url: str) -> None:
    teacher = fresh_person(name="Browser Lehrkraft")
    curator = fresh_person(role="curator", name="Browser Kuratorin")
    product = fresh_person(role="product", name="Browser Produkt", faecher=())
    from core.app.acting import personas

    emails = {p.teacher_id: p.email for p in personas()}
    SHOTS.mkdir(parents=True, exist_ok=True)
    with pw.sync_playwright() as p:  # playwright launches with a fresh, empty profile of its own
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page.goto(f"{app_url}/chat?persona={emails[teacher]}")
        page.get_by_text("Sagen Sie, was Sie brauchen").wait_for(timeout=120_000)
        page.get_by_test_id("stChatInputTextArea").wait_for(state="visible", timeout=60_000)

        _send(page, "Ich brauche ne Klausur E-Lehre für die 10a")
        page.get_by_text("Welchen Schwerpunkt").last.wait_for(timeout=60_000)
        _send(page, "Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III")
        suggestion = page.get_by_role("button", name="30/40/30 (Standard im Fachprofil)")
        suggestion.wait_for(timeout=60_000)
        suggestion.click()
        page.get_by_text("Fertig:").last.wait_for(timeout=60_000)
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name="Lehrerfassung.docx").last.click()
        data = Path(info.value.path()).read_bytes()
        text = "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)
        assert "Erwartungshorizont" in text
        _shot(page, "chat")

        for path, name in (("materialien", "materialien"), ("wissenskarte", "wissenskarte"),
                           ("praeferenzen", "praeferenzen"), ("sitzungen", "sitzungen"), ("bewerten", "bewerten"),
                           ("klassen-schule", "klassen_schule"), ("hochladen", "hochladen")):
            page.goto(f"{app_url}/{path}?persona={emails[teacher]}")  # a new page load is a new session
            page.get_by_test_id("stApp").wait_for(timeout=30_000)
            page.wait_for_load_state("networkidle")
            _shot(page, name)
        page.goto(f"{app_url}/good-practices?persona={emails[curator]}")
        page.wait_for_load_state("networkidle")
        _shot(page, "good_practices")
        for path, name in (("prompt-labor", "prompt_labor"), ("system", "system")):
            page.goto(f"{app_url}/{path}?persona={emails[product]}")
            page.wait_for_load_state("networkidle")
            _shot(page, name)
        browser.close()
    assert all((SHOTS / f"{n}.png").stat().st_size > 10_000 for n in ("chat", "wissenskarte", "system"))


def test_the_first_request_of_a_fresh_server_may_be_a_deep_link(database) -> None:  # noqa: ANN001
    """No warm-up: the very first page load of a just started server is a bookmark to a page that is not the role's
    landing page and whose path is no file name (/klassen-schule → views/notizen.py). It shows that page in the
    frame, not Streamlit's „Page not found“ (what a pages/ folder next to app.py caused, decision 007)."""
    teacher = fresh_person(name="Erster Aufruf")
    from core.app.acting import personas

    email = {p.teacher_id: p.email for p in personas()}[teacher]
    url, proc = _serve()
    try:
        with pw.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/klassen-schule?persona={email}")
            page.get_by_role("heading", name="Klassen & Schule").wait_for(timeout=120_000)
            page.wait_for_function(
                "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'",
                timeout=120_000)
            assert page.get_by_text("Page not found").count() == 0
            assert page.get_by_test_id("stException").count() == 0
            assert "/klassen-schule" in page.url
            assert shows_acting_person(page, "Erster Aufruf"), page.get_by_test_id("stSidebar").inner_text()[:300]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(15)


def test_rueckfrage_asked_on_one_server_is_answered_on_another(database) -> None:  # noqa: ANN001
    """Two app processes, one PostgreSQL: the paused specialist run lives in the database, not in a process."""
    app_url, first_server = _serve()
    other_url, other = _serve()
    teacher = fresh_person(name="Zwei Server")
    from core.app.acting import personas

    email = {p.teacher_id: p.email for p in personas()}[teacher]
    try:
        with pw.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            first = browser.new_page(viewport={"width": 1400, "height": 1000})
            first.goto(f"{app_url}/chat?persona={email}")
            _chat_ready(first)
            _send(first, "Klausur Physik für die 10a zu Optik, 45 Minuten")
            first.get_by_role("button", name="20/50/30 (mehr Anwendung)").wait_for(timeout=60_000)

            second = browser.new_page(viewport={"width": 1400, "height": 1000})
            second.goto(f"{other_url}/chat?persona={email}")
            _chat_ready(second)
            second.get_by_role("button", name="Klausur Physik für die 10a zu Optik").first.click()
            suggestion = second.get_by_role("button", name="20/50/30 (mehr Anwendung)")
            suggestion.wait_for(timeout=60_000)
            suggestion.click()
            second.get_by_text("Fertig:").last.wait_for(timeout=60_000)
            browser.close()
    finally:
        for proc in (first_server, other):
            proc.terminate()
            proc.wait(15)
