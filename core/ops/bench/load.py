"""P5 `bench load`: many teachers at once on one PostgreSQL — Klausur request, Rückfrage, answer, material, rating
— then every conversation, session, material, file and rating counted: nothing lost, nothing twice."""

from __future__ import annotations

import concurrent.futures
import os
import statistics
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from core.chat.turn import chat_turn
from core.knowledge.learning import rate_material
from core.ops.bench.common import machine, pct, write_section, written
from core.ops.bench.databases import fresh_database
from db import models as m
from db.repos import bench as bench_repo
from db.repos.teachers import identity_for
from db.session import Identity, unit_of_work

LOAD_DB = "werkbank_load_bench"
LOAD_STEPS = ("anfrage", "antwort", "bewertung")


def load_teachers(n: int) -> dict[uuid.UUID, Identity]:
    """`n` physics teachers of one school, each with a class of their own; their identities."""
    with unit_of_work(Identity.system()) as db:
        school = m.School(name="Lastschule", bundesland="Sachsen", schulform="Gymnasium")
        db.add(school)
        db.flush()
        people = []
        for i in range(n):
            klasse = m.SchoolClass(school_id=school.id, name=f"10{chr(97 + i % 26)}{i // 26}", klassenstufe=10,
                                   schuljahr="2026/27")
            t = m.Teacher(name=f"Last {i}", email=f"last{i}@last.de", bundesland="Sachsen", faecher=["physik"],
                          school_id=school.id)
            db.add_all([klasse, t])
            db.flush()
            db.add(m.TeacherClass(teacher_id=t.id, class_id=klasse.id, fach="physik"))
            people.append(t.id)
    with unit_of_work(Identity.system()) as db:
        return {tid: identity_for(db=db, teacher=db.get(m.Teacher, tid)) for tid in people}


def one_teacher(tid: uuid.UUID, ident: Identity) -> tuple[float, float, float]:
    """Request → Rückfrage, answer → material, 5-star rating: the seconds of each step."""
    t0 = time.perf_counter()
    with unit_of_work(ident) as db:
        r1 = chat_turn(db=db, identity=ident, teacher=db.get(m.Teacher, tid),
                       message="Klausur Physik für die 10a zu Optik, 45 Minuten")
    t1 = time.perf_counter()
    assert r1.session_id, r1.reply
    with unit_of_work(ident) as db:
        r2 = chat_turn(db=db, identity=ident, teacher=db.get(m.Teacher, tid),
                       conversation_id=r1.conversation_id, message="30/40/30")
    t2 = time.perf_counter()
    assert r2.material_id, r2.reply
    with unit_of_work(ident) as db:
        rate_material(db=db, identity=ident, teacher=db.get(m.Teacher, tid),
                      material_id=uuid.UUID(r2.material_id), stars=5)
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2


def bench_load(teachers: int) -> dict[str, Any]:
    """`teachers` simulated teachers at once: Klausur request → Rückfrage → answer → material → 5-star rating."""
    os.environ["WERKBANK_DB_POOL_SIZE"] = str(teachers + 5)
    os.environ["WERKBANK_DB_MAX_OVERFLOW"] = "10"
    fresh_database(LOAD_DB)
    idents = load_teachers(teachers)
    people = list(idents)
    times: dict[str, list[float]] = {s: [] for s in LOAD_STEPS}
    errors: list[str] = []

    def one(tid: uuid.UUID) -> None:
        try:
            steps = one_teacher(tid, idents[tid])
            for step, dt in zip(LOAD_STEPS, steps, strict=True):
                times[step].append(dt * 1000)
        except Exception as exc:  # counted and reported, the run goes on
            errors.append(f"{type(exc).__name__}: {str(exc)[:160]}")

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=teachers) as pool:
        list(pool.map(one, people))
    wall = time.perf_counter() - start
    check = load_consistency(people)
    return {"teachers": teachers, "wall_s": wall, "turns_per_s": 2 * teachers / wall, "errors": errors,
            "steps": {s: (statistics.median(v), pct(v, 95)) if v else (0, 0) for s, v in times.items()},
            **check}


def load_consistency(people: list[uuid.UUID]) -> dict[str, Any]:
    """Afterwards: per teacher exactly one conversation (4 messages), one completed session pointing at the one
    material, four files (Schüler- and Lehrerfassung, each as DOCX and PDF), one rating — 0 lost, 0 duplicated."""
    with unit_of_work(Identity.system()) as db:
        rows = bench_repo.turn_counts(db=db, teacher_ids=people)
    expected = {"conversations": 1, "messages": 4, "sessions_done": 1, "open": 0, "materials": 1, "files": 4,
                "ratings": 1}
    lost = sum(1 for r in rows for k, v in expected.items() if getattr(r, k) < v)
    duplicated = sum(1 for r in rows for k, v in expected.items() if getattr(r, k) > v)
    return {"lost": lost, "duplicated": duplicated, "checked": len(rows)}


def run_load_bench(*, teachers: int, write: bool) -> None:
    print(f"Benchmark load · Maschine: {machine()}")
    r = bench_load(teachers)
    print(f"{r['teachers']} Lehrkräfte gleichzeitig · {r['wall_s']:.1f} s · {r['turns_per_s']:.1f} Gesprächszüge/s · "
          f"Fehler: {len(r['errors'])} · verloren: {r['lost']} · doppelt: {r['duplicated']}")
    for step, (p50, p95) in r["steps"].items():
        print(f"  {step:<10} p50 {p50:7.0f} ms   p95 {p95:7.0f} ms")
    for e in r["errors"][:5]:
        print("  Fehler:", e)
    if not write:
        return
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    steps = "".join(f"| {s} | {p50:.0f} ms | {p95:.0f} ms |\n" for s, (p50, p95) in r["steps"].items())
    section = ("### P5 · Concurrent teachers (offline model, one PostgreSQL)\n\n"
               f"{r['teachers']} simulated teachers at the same time, each: Klausur request → Rückfrage → answer "
               "→ validated exam with DOCX and PDF files → 5-star rating (which learns good practices and "
               "preferences). "
               "Afterwards every conversation, session, material, file and rating is counted per teacher.\n\n"
               f"| measure | value | goal |\n|---|---:|---:|\n| wall time | {r['wall_s']:.1f} s | — |\n"
               f"| throughput | {r['turns_per_s']:.1f} chat turns/s | — |\n| errors | {len(r['errors'])} | 0 |\n"
               f"| lost objects | {r['lost']} | 0 |\n| duplicated objects | {r['duplicated']} | 0 |\n\n"
               "| step | p50 | p95 |\n|---|---:|---:|\n" + steps +
               "\nThe offline model is CPU-bound Python, so 50 threads share one core through the GIL; step "
               "latencies under this load are mostly queueing. Several app processes (replicas) scale it out.\n\n"
               f"*{stamp} · {machine()} · `python -m core bench load --teachers {r['teachers']}`*\n")
    write_section("load", section)
    written()
