"""Attack round (issue #13), the sign-in form as a stranger sends it: NUL bytes, huge and SQL-ish values get the one
German "falsch" message (never an internal error), and are counted like any failed attempt."""

from __future__ import annotations

import pytest

from core.app.accounts import WRONG, sign_in
from core.app.errors import UserError


@pytest.mark.usefixtures("database")
@pytest.mark.parametrize(("email", "password"), [
    ("a@schule-a.de\x00", "geheim"),
    ("\x00", "\x00"),
    ("lehrerin@schule.de", "Passwort\x00mit NUL"),
    ("x" * 100_000 + "@schule.de", "y" * 100_000),
    ("' OR 1=1 --", "' OR 1=1 --"),
    ("lehrerin@schule.de\r\nX-Injected: 1", "geheim"),
])
def test_crafted_sign_in_values_get_the_plain_german_refusal(email: str, password: str) -> None:
    with pytest.raises(UserError) as refused:
        sign_in(email=email, password=password, client="10.77.0.1")
    assert refused.value.message == WRONG
