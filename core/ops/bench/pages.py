"""P4 `bench pages`: every page's render time in AppTest as the matching demo persona, with many knowledge rows
and hundreds of materials. The one module outside pages/ that imports streamlit (for AppTest)."""

from __future__ import annotations

import json
import random
import statistics
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from core.app.acting import DEMO_TEACHER_EMAIL
from core.app.config import ROOT
from core.materials.klausur import Klausur
from core.ops.bench.common import machine, write_section, written
from core.ops.bench.databases import analyze, fresh_database
from core.ops.bench.world import World
from db.repos import bench as bench_repo
from db.session import admin_url
from seeds.steps import load_subjects

PAGE_DB = "werkbank_pages_bench"
PAGES = [("views/chat.py", "teacher"), ("views/materialien.py", "teacher"), ("views/wissenskarte.py", "teacher"),
         ("views/praeferenzen.py", "teacher"), ("views/sitzungen.py", "teacher"), ("views/bewerten.py", "teacher"),
         ("views/notizen.py", "teacher"), ("views/hochladen.py", "teacher"),
         ("views/good_practices.py", "curator"), ("views/prompt_labor.py", "product"), ("views/start.py", "product")]


def _fill(rows: int) -> tuple[float, dict[str, Any], uuid.UUID]:
    """The page database: seeds, `rows` synthetic knowledge rows (~4 % the demo teacher's), 300 materials.
    Returns (seconds to load the rows, a person per role, the demo teacher's id)."""
    fresh_database(PAGE_DB)
    owner = sa.create_engine(admin_url(), poolclass=sa.pool.NullPool)
    with owner.connect() as c:
        people = bench_repo.one_teacher_per_role(conn=c)
        keller, classes = bench_repo.teacher_with_classes(conn=c, email=DEMO_TEACHER_EMAIL)
    world = World(owner, 1000, random.Random(5))
    world.create_people()
    world.teachers += [(keller.id, keller.school_id, classes)] * 40  # ~4 % of all rows are the demo teacher's
    world.rows = 0
    bench_repo.drop_bulk_indexes(engine=owner)
    load_s = world.grow(rows)
    analyze(owner, rebuild_index=True)
    _fill_materials(owner, keller.id, 300)
    owner.dispose()
    return load_s, people, keller.id


def _time_page(path: str, person: uuid.UUID, runs: int) -> list[float]:
    times = []
    for i in range(runs + 1):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.session_state["persona_id"] = str(person)
        at.run()
        t0 = time.perf_counter()
        at.switch_page(path).run()
        if i:  # the first run warms caches (imports, the page's cached resources)
            times.append((time.perf_counter() - t0) * 1000)
        if at.exception:
            raise RuntimeError(f"{path}: {at.exception[0].value}")
    return times


def bench_pages(rows: int, runs: int = 3) -> list[dict[str, Any]]:
    """Fill a database of its own (seeds + `rows` synthetic knowledge rows, many of them the demo teacher's, and
    300 materials), then time every page in AppTest as the matching demo persona (median of `runs`, warm)."""
    load_s, people, keller = _fill(rows)
    results = []
    for path, role in PAGES:
        times = _time_page(path, keller if role == "teacher" else people[role].id, runs)
        results.append({"page": path, "role": role, "p50": statistics.median(times), "max": max(times),
                        "load_s": load_s})
        print(f"{path:<28} {role:<8} {statistics.median(times):7.0f} ms (max {max(times):.0f} ms)", flush=True)
    return results


def _fill_materials(engine: sa.Engine, teacher_id: uuid.UUID, n: int) -> None:
    """Copies of one real exam, so the materials page has hundreds of rows to page through."""
    gp = load_subjects()[0].good_practices[0]
    exam = Klausur(titel="Bench-Klausur", fach="Physik", klassenstufe=10, klasse="10a", thema="Stromkreise",
                   dauer_minuten=45, niveau="Sek I", aufgaben=[{"nummer": 1, "titel": gp.thema, "teilaufgaben": [{
                       "label": "a", "operator": gp.operator, "text": gp.aufgabe, "afb": gp.afb, "punkte": gp.punkte,
                       "erwartung": [{"text": c.kriterium, "punkte": c.punkte} for c in gp.erwartung]}]}])
    content = json.dumps(exam.model_dump(mode="json"))
    bench_repo.copy_material(engine=engine, teacher_id=teacher_id, content_json=content, n=n)


def run_pages_bench(*, rows: int, write: bool) -> None:
    print(f"Benchmark pages · Maschine: {machine()}")
    results = bench_pages(rows)
    if not write:
        return
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    body = "".join(f"| `{r['page']}` | {r['role']} | {r['p50']:.0f} ms | {r['max']:.0f} ms |\n" for r in results)
    section = ("### P4 · Page render times with many knowledge rows\n\n"
               f"{rows:,} synthetic knowledge rows (about 4 % the demo teacher's) plus the seeds and 300 materials; "
               "AppTest timing of one page run as the matching demo persona, warm. Goal: ≤ 2 s per page.\n\n"
               "| page | persona | p50 | max |\n|---|---|---:|---:|\n" + body +
               f"\n*{stamp} · {machine()} · `python -m core bench pages --rows {rows}`*\n")
    write_section("pages", section)
    written()
