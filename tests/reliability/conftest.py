"""Reliability suite: committed turns of fresh teachers (other processes must see them), row counts of everything a
turn writes, the CLI as a second process, and what the chat page shows when a turn fails.

Tests marked `server_restart` stop and restart the session's embedded server; they run after every other test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo

from agents.models.registry import offline_rules
from core.chat.turn import ChatResult, chat_turn
from db.models import Teacher
from db.repos.teachers import identity_for
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ASK = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten"
# Everything a chat turn can write; a failed turn must leave every count as it was.
TURN_TABLES = ("conversations", "conversation_messages", "generated_materials", "material_files", "agent_sessions",
               "llm_calls")
# core.app.observability.apology: what the chat page (pages/ui.run) and the CLI show for a fault the teacher did
# not cause.
APOLOGY = re.compile(r"Das hat leider nicht geklappt — ein interner Fehler \(Fehler-ID [0-9a-f]{8}\)\. Bitte versuchen "
                     r"Sie es noch einmal; bleibt der Fehler, nennen Sie dem Support die Fehler-ID\.")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "server_restart: stops and restarts the session's embedded PostgreSQL; "
                                       "runs after all other tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Stable sort: everything else keeps its order, the server restarts come last.
    items.sort(key=lambda item: item.get_closest_marker("server_restart") is not None)


@dataclass(frozen=True)
class Person:
    """A committed teacher of their own (new school, class 10a, Physik): turns here commit for real."""

    teacher_id: uuid.UUID
    email: str
    identity: Identity

    def teacher(self, db: sa.orm.Session) -> Teacher:
        teacher = db.get(Teacher, self.teacher_id)
        assert teacher is not None
        return teacher


def new_person() -> Person:
    teacher_id = fresh_person(name="Zuverlässigkeit")
    with unit_of_work(Identity.system()) as db:
        teacher = db.get(Teacher, teacher_id)
        return Person(teacher_id=teacher_id, email=teacher.email, identity=identity_for(db=db, teacher=teacher))


@pytest.fixture
def person(database: sa.Engine) -> Person:
    return new_person()


def committed_turn(person: Person, message: str, conversation_id: uuid.UUID | None = None) -> ChatResult:
    """One chat turn in its own unit of work, as the chat page and the CLI run it (commits on success)."""
    with unit_of_work(person.identity) as db:
        return chat_turn(db=db, identity=person.identity, teacher=person.teacher(db), message=message,
                         conversation_id=conversation_id)


def row_counts() -> dict[str, int]:
    with unit_of_work(Identity.system()) as db:
        return {t: db.scalar(sa.text(f"SELECT count(*) FROM {t}")) for t in TURN_TABLES}


def session_row(session_id: str | uuid.UUID) -> dict[str, Any]:
    with unit_of_work(Identity.system()) as db:
        row = db.execute(sa.text("SELECT * FROM agent_sessions WHERE id = :i"), {"i": str(session_id)}).mappings().one()
        return dict(row)


def materials_of(teacher_id: uuid.UUID) -> list[uuid.UUID]:
    with unit_of_work(Identity.system()) as db:
        return list(db.scalars(sa.text("SELECT id FROM generated_materials WHERE teacher_id = :t"), {"t": teacher_id}))


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m core …` as a separate process against the test session's server (same data dir)."""
    return subprocess.run([sys.executable, "-m", "core", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=180, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def start_cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "core", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def cli_json(*args: str) -> dict[str, Any]:
    proc = run_cli(*args, "--json")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture
def chat_page(monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[Any, list[str]]]:
    """`chat_page(message=…, teacher_id=…, conversation_id=…)` sends like views/chat.py does — `ui.run(send, …)` —
    and returns (result or None, the error messages the page showed)."""
    import views.ui as ui
    from core.chat.service import send

    shown: list[str] = []
    monkeypatch.setattr(ui.st, "error", lambda body, *a, **k: shown.append(str(body)))

    def submit(**kwargs: Any) -> tuple[Any, list[str]]:
        shown.clear()
        result = ui.run(send, **kwargs)
        return result, list(shown)

    return submit


@dataclass
class FaultyKlausurModel:
    """The Klausur specialist's model as a table: request n runs `faults[n]` (if any), then the offline rules answer."""

    faults: dict[int, Callable[[], None]]
    calls: int = 0

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.calls += 1
        if fault := self.faults.get(self.calls):
            fault()
        return offline_rules("klausur")(messages, info)


def assert_apology(result: object, shown: list[str]) -> None:
    """The chat page showed the apology with an error id — and nothing else, and no traceback."""
    assert result is None
    assert len(shown) == 1 and APOLOGY.fullmatch(shown[0]), shown
    assert "Traceback" not in shown[0]


def load_fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.fixture
def settings_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """`settings_env(WERKBANK_…="…")`: change settings for this test (new engines); restored afterwards."""
    from core.app.config import get_settings
    from db.session import reset_engines

    def apply(**values: str) -> None:
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()
        reset_engines()

    yield apply
    monkeypatch.undo()
    get_settings.cache_clear()
    reset_engines()
