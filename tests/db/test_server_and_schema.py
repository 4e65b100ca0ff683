"""The embedded server (two processes, restart after a crash) and the migrated schema."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.session import head_revision, upgrade_schema

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import sys
from pathlib import Path
import sqlalchemy as sa
from db.server import embedded_uri
url = embedded_uri(Path(sys.argv[1]))
with sa.create_engine(url).connect() as c:
    print(c.execute(sa.text("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")).scalar())
"""


def _probe(data_dir: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _PROBE, str(data_dir)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_embedded_server_starts_from_two_processes_at_once_and_after_a_crash() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="werkbank-srv-"))
    procs = [_probe(data_dir), _probe(data_dir)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert out.strip() >= "0.8"
    pid = int((data_dir / "pg" / "postmaster.pid").read_text().split()[0])
    os.kill(pid, signal.SIGKILL)  # a crash: the pid file stays behind
    time.sleep(0.5)
    p = _probe(data_dir)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    from db.server import stop_embedded

    assert stop_embedded(data_dir)


def test_schema_is_at_head_with_pgvector_and_indexes(db: Session) -> None:
    assert db.scalar(sa.text("SELECT version_num FROM alembic_version")) == head_revision()
    version = db.scalar(sa.text("SELECT extversion FROM pg_extension WHERE extname = 'vector'"))
    assert tuple(int(x) for x in version.split(".")[:2]) >= (0, 8)
    indexes = dict(db.execute(sa.text(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('agent_knowledge', 'curriculum_chunks')"
    )).all())
    assert "hnsw" in indexes["ix_ak_embedding"] and "vector_cosine_ops" in indexes["ix_ak_embedding"]
    assert "hnsw" in indexes["ix_cc_embedding"] and "ix_ak_fts" not in indexes  # replaced in 0006
    assert "shared_for_curation, embedding)" in indexes["ix_ak_global_vec"]  # index-only under RLS
    gfts = indexes["ix_ak_gfts_physik_klausur"]  # one per Fach × agent since 0009
    assert "gin" in gfts and "fach)::text = 'physik'" in gfts and "agent_type)::text = 'klausur'" in gfts
    rls = dict(db.execute(sa.text("SELECT relname, relrowsecurity FROM pg_class WHERE relkind = 'r' "
                                  "AND relnamespace = 'public'::regnamespace AND relname <> 'alembic_version'")).all())
    assert rls and all(rls.values()), [t for t, on in rls.items() if not on]


def test_full_text_column_is_generated_in_german(db: Session) -> None:
    lexemes = db.scalar(sa.text("SELECT to_tsvector('german', 'Die Brechungswinkel wurden berechnet')::text"))
    assert "berechnet" in lexemes or "berechn" in lexemes
    row = db.execute(sa.text(
        "SELECT fts::text FROM agent_knowledge WHERE external_id = 'seed:physik:profile'")).scalar()
    assert row  # generated for seeded rows


def test_upgrade_is_idempotent(database: sa.Engine) -> None:
    upgrade_schema()
    upgrade_schema()
    with database.connect() as c:
        assert c.execute(sa.text("SELECT count(*) FROM alembic_version")).scalar() == 1
