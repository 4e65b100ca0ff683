"""Sign-in in a real browser: without a sign-in the app refuses a server reachable from other computers; with local
accounts a teacher signs in, and `?persona=` does nothing. Skips when playwright or chromium is missing."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from core.app.accounts import create_account
from core.app.acting import personas
from tests.e2e.test_browser import ARGS, CHROMIUM, ROOT
from tests.pages.conftest import fresh_person

pw = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no system chromium")]
PASSWORD = "Tafel-Kreide-Schwamm-7"


def _serve(address: str, auth: str):  # noqa: ANN202
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tempfile.NamedTemporaryFile(prefix="streamlit-login-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless=true",
         f"--server.port={port}", f"--server.address={address}", "--browser.gatherUsageStats=false"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "WERKBANK_AUTH": auth}, stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                return url, proc
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    pytest.fail("streamlit did not answer: " + Path(log.name).read_text()[-2000:])


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(15)


def test_without_sign_in_a_server_on_every_interface_refuses(database) -> None:  # noqa: ANN001
    url, proc = _serve("0.0.0.0", "demo")  # noqa: S104 — exactly the deployment mistake under test
    try:
        with pw.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page()
            some_teacher = next(x.email for x in personas() if x.role == "teacher")
            page.goto(f"{url}/prompt-labor?persona={some_teacher}")
            page.get_by_text("keine Anmeldung eingerichtet").first.wait_for(timeout=90_000)
            body = page.inner_text("body")
            assert "Sofort aktivieren" not in body and "Version" not in body  # nothing of the page itself
            assert "Handelnde Person" not in body and "Traceback" not in body
            browser.close()
    finally:
        _stop(proc)


def test_with_local_accounts_a_teacher_signs_in_and_persona_does_nothing(database) -> None:  # noqa: ANN001
    teacher = fresh_person(name="Konto Lehrkraft")
    other = fresh_person(name="Fremde Lehrkraft")
    emails = {p.teacher_id: p.email for p in personas()}
    create_account(email=emails[teacher], password=PASSWORD)
    url, proc = _serve("127.0.0.1", "local")
    try:
        with pw.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/chat?persona={emails[other]}")
            page.get_by_text("Werkbank · Anmeldung").wait_for(timeout=90_000)
            assert "Fremde Lehrkraft" not in page.inner_text("body")
            page.get_by_label("E-Mail-Adresse").fill(emails[teacher])
            page.get_by_label("Passwort").fill("falsches-passwort")
            page.get_by_role("button", name="Anmelden").click()
            page.get_by_text("E-Mail-Adresse oder Passwort ist falsch").wait_for(timeout=60_000)
            page.get_by_label("Passwort").fill(PASSWORD)
            page.get_by_role("button", name="Anmelden").click()
            page.get_by_text("Angemeldet: Konto Lehrkraft").wait_for(timeout=90_000)
            body = page.inner_text("body")
            assert "Fremde Lehrkraft" not in body and "Demo-Modus" not in body and "Handelnde Person" not in body
            browser.close()
    finally:
        _stop(proc)
