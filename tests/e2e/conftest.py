"""The app server the browser tests of a module share: started once per module, stopped after it. No warm-up visit:
the very first request may be a deep link (test_browser.py checks that on a fresh server)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def app_url(database):  # noqa: ANN001, ANN201
    from tests.e2e.test_browser import _serve  # (skips the module when playwright is missing)

    url, proc = _serve()
    yield url
    proc.terminate()
    proc.wait(15)
