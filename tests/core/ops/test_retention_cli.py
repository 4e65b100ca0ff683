"""`python -m core retention` as the operator's cron job runs it, a real process on the test data dir: raw uploaded
files older than WERKBANK_UPLOAD_KEEP_DAYS are gone (their redacted text stays), old model-call logs are gone, what
is younger stays, and the report says how many of each."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from core.app.config import get_settings
from core.uploads.service import import_file
from db import models as m
from db.session import Identity, admin_engine, unit_of_work
from tests import fixtures_docs as docs
from tests.pages.conftest import fresh_person

ROOT = Path(__file__).resolve().parents[3]


def _call(days_ago: int) -> int:
    with admin_engine().begin() as db:
        return db.scalar(sa.text(
            "INSERT INTO llm_calls (role, model, input_tokens, output_tokens, tokens_estimated, cost_usd, latency_ms, "
            "outcome, created_at) VALUES ('main', 'test', 1, 1, true, 0, 1, 'ok', now() - make_interval(days => :d)) "
            "RETURNING id"), {"d": days_ago})


def test_the_retention_process_drops_old_raw_files_and_logs_and_keeps_young_ones(database, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("WERKBANK_UPLOAD_KEEP_DAYS", "7")
    get_settings.cache_clear()
    try:
        teacher = fresh_person(name="Test Aufbewahrung")
        data = docs.curriculum_docx()
        old, young = (import_file(teacher_id=teacher, filename=f"lp{i}.docx", data=data,
                                  kind="curriculum", fach="physik").upload_id for i in (1, 2))
    finally:
        monkeypatch.delenv("WERKBANK_UPLOAD_KEEP_DAYS")
        get_settings.cache_clear()
    with admin_engine().begin() as db:
        db.execute(sa.text("UPDATE uploads SET created_at = now() - interval '8 days' WHERE id = :i"), {"i": old})
    old_call, young_call = _call(91), _call(89)

    done = subprocess.run([sys.executable, "-m", "core", "retention"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "WERKBANK_UPLOAD_KEEP_DAYS": "7"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    report = dict(line.split(": ") for line in done.stdout.strip().splitlines())
    assert int(report["Hochgeladene Originaldateien gelöscht"]) >= 1
    assert int(report["Alte Modellaufruf-Protokolle gelöscht"]) >= 1

    with unit_of_work(Identity.system()) as db:
        gone, kept = db.get(m.Upload, old), db.get(m.Upload, young)
        assert gone.data is None and gone.data_deleted_at is not None and "Supraleitung" in gone.extracted_text
        assert kept.data == data and kept.data_deleted_at is None
        calls = set(db.scalars(sa.select(m.LlmCall.id).where(m.LlmCall.id.in_([old_call, young_call]))))
    assert calls == {young_call}
