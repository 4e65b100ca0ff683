"""Capture the frozen stored-format fixtures once: `python -m tests.reliability.capture_fixtures [--version N]`.

Runs the CLI walkthrough's first two turns against a throwaway embedded server (offline model) until the Klausur
specialist asks its AFB Rückfrage, then writes what PostgreSQL holds at that moment — the main conversation's
history and the paused session's message_history/request/deps/question — into `fixtures/*_v<N>.json`.

The files are data, committed once and never regenerated: they stand for histories already stored in schools'
databases. `test_stored_formats.py` resumes them with the current code. When the stored format changes on purpose
(new SESSION_SCHEMA_VERSION), capture a new version next to the old ones — existing files are never overwritten.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TURNS = ("Ich brauche ne Klausur E-Lehre für die 10a",
         "Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III")


def capture(version: int) -> list[Path]:
    targets = [FIXTURES / f"main_conversation_v{version}.json", FIXTURES / f"klausur_session_v{version}.json"]
    existing = [t.name for t in targets if t.exists()]
    if existing:
        raise SystemExit(f"Fixtures are frozen, not regenerated: {', '.join(existing)} already exist.")
    data_dir = Path(tempfile.mkdtemp(prefix="werkbank-capture-"))
    os.environ.update(WERKBANK_DATA_DIR=str(data_dir), WERKBANK_MODEL="offline", WERKBANK_EMBEDDER="offline")
    for key in ("DATABASE_URL", "DATABASE_ADMIN_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        os.environ.pop(key, None)

    from importlib.metadata import version as dist_version

    from core.chat.turn import chat_turn
    from core.generation.sessions import SESSION_SCHEMA_VERSION
    from core.ops.bootstrap import ensure_ready
    from db import models as m
    from db.server import stop_embedded
    from db.session import Identity, unit_of_work
    from tests.pages.conftest import fresh_person

    try:
        ensure_ready(seed=True)
        teacher_id = fresh_person(name="Fixture Lehrkraft")
        with unit_of_work(Identity.system()) as db:
            from db.repos.teachers import identity_for

            teacher = db.get(m.Teacher, teacher_id)
            identity = identity_for(db=db, teacher=teacher)
        conversation_id = None
        for text in TURNS:
            with unit_of_work(identity) as db:
                result = chat_turn(db=db, identity=identity, teacher=db.merge(teacher), message=text,
                                   conversation_id=conversation_id)
            conversation_id = result.conversation_id
        assert result.session_id, result.reply
        with unit_of_work(Identity.system()) as db:
            conv = db.get(m.Conversation, conversation_id)
            session = db.get(m.AgentSession, result.session_id)
            captured = {"at": datetime.now(UTC).isoformat(timespec="seconds"),
                        "pydantic_ai": dist_version("pydantic-ai-slim"), "session_schema_version":
                        SESSION_SCHEMA_VERSION, "turns": list(TURNS)}
            main = {"captured": captured, "session_id": str(session.id), "history": conv.history}
            paused = {"captured": captured, "id": str(session.id), "agent_type": session.agent_type,
                      "schema_version": session.schema_version, "clarification_count": session.clarification_count,
                      "question": session.question, "request": session.request, "deps": session.deps,
                      "message_history": session.message_history}
    finally:
        stop_embedded(data_dir)
        shutil.rmtree(data_dir, ignore_errors=True)
    FIXTURES.mkdir(exist_ok=True)
    for target, payload in zip(targets, (main, paused), strict=True):
        target.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return targets


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", type=int, default=1, help="stored-format version the files stand for")
    for path in capture(parser.parse_args().version):
        print(path)
