"""Attack round (issue #13), URL parameters: another school's conversation or material id, garbage and SQL in
`?gespraech=` show nothing of the other teacher and no traceback — a German message at most."""

from __future__ import annotations

import secrets

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.conftest import ROOT, fresh_person
from tests.pages.test_sitzungen import EXAM, turn


@pytest.mark.usefixtures("database")
def test_foreign_or_crafted_ids_in_the_url_show_nothing_of_another_teacher() -> None:
    victim, attacker = fresh_person(name="Test Opfer"), fresh_person(name="Test Angreifer")
    token = f"Kennung{secrets.token_hex(4)}"
    r = turn(victim, f"{EXAM} ({token})")
    assert r.material_id and r.conversation_id
    for page, param, values in (
        ("views/chat.py", "gespraech", [str(r.conversation_id), "x' OR 1=1 --", "0" * 40, "%00"]),
    ):
        for value in values:
            at = AppTest.from_file(str(ROOT / page), default_timeout=60)
            at.session_state["persona_id"] = str(attacker)
            at.query_params[param] = value
            at.run()
            assert not at.exception, (page, value, at.exception)
            shown = " ".join(str(getattr(e, "value", "")) for e in at.main)
            assert token not in shown, (page, value)  # nothing of the victim's conversation
