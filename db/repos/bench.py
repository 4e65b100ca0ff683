"""Benchmark data: throw-away databases, synthetic schools/classes/teachers, knowledge rows by binary COPY, the bulk
indexes dropped and rebuilt around a load, copies of a material, and the consistency count after a load test."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from pgvector.psycopg import register_vector
from sqlalchemy.orm import Session

from db.repos.search_global import SLICE_AGENTS, SLICE_FAECHER

# Bulk loading with the vector and full-text indexes in place maintains them row by row (hours at 1M rows);
# like any bulk load, drop them while loading and build them once afterwards.
BULK_INDEXES = {
    "ix_ak_embedding": "CREATE INDEX ix_ak_embedding ON agent_knowledge USING hnsw (embedding vector_cosine_ops) "
                       "WITH (m = 16, ef_construction = 64)",
    "ix_ak_global_vec": "CREATE INDEX ix_ak_global_vec ON agent_knowledge (fach, agent_type, knowledge_type) "
                        "INCLUDE (id, quality_score, scope_type, scope_id, shared_for_curation, embedding) "
                        "WHERE scope_type = 'global' AND status = 'active'",
    **{f"ix_ak_gfts_{f}_{a}": f"CREATE INDEX ix_ak_gfts_{f}_{a} ON agent_knowledge USING gin (fts) "
                              f"WHERE scope_type = 'global' AND status = 'active' AND fach = '{f}' "
                              f"AND agent_type = '{a}' AND knowledge_type = 'good_practice'"
       for f in SLICE_FAECHER for a in SLICE_AGENTS},
}
KNOWLEDGE_COPY = ("COPY agent_knowledge (agent_type, scope_type, scope_id, owner_id, fach, thema, knowledge_type, "
                  "content, description, quality_score, source, search_text, embedding, embedding_model) "
                  "FROM STDIN WITH (FORMAT BINARY)")
KNOWLEDGE_TYPES = ["text", "text", "uuid", "uuid", "text", "text", "text", "jsonb", "text", "float8", "text", "text",
                   "vector", "text"]


def _server(url: sa.URL) -> sa.Engine:
    return sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)


def recreate_database(*, url: sa.URL, name: str) -> None:
    """An empty database `name` on the server of `url` (dropped first, also with open connections)."""
    eng = _server(url)
    with eng.connect() as c:
        c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    eng.dispose()


def drop_database(*, url: sa.URL, name: str) -> None:
    eng = _server(url)
    with eng.connect() as c:
        c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    eng.dispose()


def database_exists(*, url: sa.URL, name: str) -> bool:
    eng = _server(url)
    with eng.connect() as c:
        found = c.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).scalar()
    eng.dispose()
    return bool(found)


def bench_people(*, conn: sa.Connection) -> list[tuple[uuid.UUID, uuid.UUID, list[uuid.UUID]]]:
    """The synthetic teachers of a kept benchmark database: (teacher, school, classes), in a stable order."""
    return [(r.id, r.school_id, list(r.classes)) for r in conn.execute(sa.text(
        "SELECT t.id, t.school_id, array_agg(tc.class_id ORDER BY tc.class_id) AS classes FROM teachers t "
        "JOIN teacher_classes tc ON tc.teacher_id = t.id WHERE t.email LIKE 'bench%@bench.de' "
        "GROUP BY t.id, t.school_id ORDER BY t.email"))]


def knowledge_count(*, conn: sa.Connection) -> int:
    return int(conn.execute(sa.text("SELECT count(*) FROM agent_knowledge WHERE source = 'generated'")).scalar())


def act_as_role_on_connect(engine: sa.Engine, role: str) -> None:
    """Every new connection of `engine` switches to `role` (a DATABASE_URL's user may own the tables)."""

    @sa.event.listens_for(engine, "connect")
    def _role(conn, _rec) -> None:  # noqa: ANN001
        with conn.cursor() as cur:
            cur.execute(f'SET ROLE "{role}"')


def insert_people(*, conn: sa.Connection, schools: Sequence[dict[str, Any]], classes: Sequence[dict[str, Any]],
                  teachers: Sequence[dict[str, Any]], links: Sequence[dict[str, Any]]) -> None:
    """Synthetic schools (id, n), classes (id, s, n, k), teachers (id, s, e) and their classes (t, c)."""
    conn.execute(sa.text("INSERT INTO schools (id, name, bundesland, schulform) VALUES (:id, :n, 'Sachsen', "
                         "'Gymnasium')"), list(schools))
    conn.execute(sa.text("INSERT INTO classes (id, school_id, name, klassenstufe, schuljahr) "
                         "VALUES (:id, :s, :n, :k, '2026/27')"), list(classes))
    conn.execute(sa.text("INSERT INTO teachers (id, school_id, name, email, bundesland, faecher) VALUES "
                         "(:id, :s, 'Bench', :e, 'Sachsen', '{physik}')"), list(teachers))
    conn.execute(sa.text("INSERT INTO teacher_classes (teacher_id, class_id, fach) VALUES (:t, :c, 'physik')"),
                 list(links))


def copy_knowledge(*, engine: sa.Engine, batches: Iterable[Iterable[tuple[Any, ...]]]) -> None:
    """Knowledge rows by binary COPY, one COPY per batch, committed at the end."""
    raw = engine.raw_connection()
    try:
        register_vector(raw.driver_connection)
        with raw.driver_connection.cursor() as cur:
            for rows in batches:
                with cur.copy(KNOWLEDGE_COPY) as copy:
                    copy.set_types(KNOWLEDGE_TYPES)
                    for row in rows:
                        copy.write_row(row)
        raw.driver_connection.commit()
    finally:
        raw.close()


def drop_bulk_indexes(*, engine: sa.Engine) -> None:
    with engine.begin() as c:
        for name in BULK_INDEXES:
            c.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))


def build_indexes_and_analyze(*, engine: sa.Engine, rebuild_hnsw: bool) -> None:
    """Build the dropped indexes (HNSW only when asked), then VACUUM ANALYZE."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(sa.text("SET maintenance_work_mem = '4GB'"))
        c.execute(sa.text("SET max_parallel_maintenance_workers = 1"))
        for name, ddl in BULK_INDEXES.items():
            if name == "ix_ak_embedding" and not rebuild_hnsw:
                continue
            c.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))
            c.execute(sa.text(ddl))
        c.execute(sa.text("VACUUM ANALYZE agent_knowledge"))


def one_teacher_per_role(*, conn: sa.Connection) -> dict[str, Any]:
    """role -> a row (id, school_id, role) of a seeded person with that role."""
    return {r.role: r for r in conn.execute(sa.text(
        "SELECT DISTINCT ON (role) id, school_id, role FROM teachers ORDER BY role, email DESC"))}


def teacher_with_classes(*, conn: sa.Connection, email: str) -> tuple[Any, list[uuid.UUID]]:
    """(row with id and school_id, the ids of the classes the teacher teaches)."""
    teacher = conn.execute(sa.text("SELECT id, school_id FROM teachers WHERE email = :e"), {"e": email}).one()
    classes = [r[0] for r in conn.execute(sa.text("SELECT class_id FROM teacher_classes WHERE teacher_id = :t"),
                                          {"t": teacher.id})]
    return teacher, classes


def copy_material(*, engine: sa.Engine, teacher_id: uuid.UUID, content_json: str, n: int) -> None:
    """`n` copies of one exam (content as JSON text) for the teacher, titled 'Bench-Klausur 1' … 'n'."""
    with engine.begin() as c:
        c.execute(sa.text(
            "INSERT INTO generated_materials (teacher_id, material_type, fach, klassenstufe, thema, titel, content) "
            "SELECT :t, 'klausur', 'physik', 10, 'Stromkreise', 'Bench-Klausur ' || g, CAST(:c AS jsonb) "
            "FROM generate_series(1, :n) g"), {"t": teacher_id, "c": content_json, "n": n})


def turn_counts(*, db: Session, teacher_ids: list[uuid.UUID]) -> list[Any]:
    """Per teacher: conversations, messages, completed sessions with a material, open sessions, materials, files,
    ratings — what a load test checks for lost or duplicated objects."""
    return db.execute(sa.text("""
        SELECT t.id,
          (SELECT count(*) FROM conversations c WHERE c.teacher_id = t.id) AS conversations,
          (SELECT count(*) FROM conversation_messages m WHERE m.teacher_id = t.id) AS messages,
          (SELECT count(*) FROM agent_sessions s WHERE s.teacher_id = t.id AND s.status = 'completed'
             AND s.result_material_id IS NOT NULL) AS sessions_done,
          (SELECT count(*) FROM agent_sessions s WHERE s.teacher_id = t.id AND s.status <> 'completed') AS open,
          (SELECT count(*) FROM generated_materials g WHERE g.teacher_id = t.id) AS materials,
          (SELECT count(*) FROM material_files f WHERE f.teacher_id = t.id) AS files,
          (SELECT count(*) FROM ratings r WHERE r.teacher_id = t.id) AS ratings
        FROM teachers t WHERE t.id = ANY(:ids)"""), {"ids": teacher_ids}).all()


def backend_waits(*, conn: sa.Connection) -> tuple[int, int]:
    """(active backends of this database, of them waiting for a heavyweight lock) right now."""
    row = conn.execute(sa.text(
        "SELECT count(*) FILTER (WHERE state = 'active'), count(*) FILTER (WHERE wait_event_type = 'Lock') "
        "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).one()
    return int(row[0]), int(row[1])


def backend_pid(*, conn: sa.Connection) -> int:
    """The process id of the server backend serving `conn` (for its CPU time in /proc)."""
    return int(conn.execute(sa.text("SELECT pg_backend_pid()")).scalar())

