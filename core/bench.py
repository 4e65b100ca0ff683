"""Benchmarks (scripts that print numbers and write docs/benchmarks.md — never timed tests).

P1 `bench wissenskarte`: the map's SQL aggregate vs the seed design's load-and-filter, at growing row counts.
P2 `bench search`: hybrid search latency and recall@10 of the HNSW vector path against an exact scan.
Both run in a separate database `werkbank_bench` (dropped and refilled), acting as random synthetic teachers.
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import statistics
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import sqlalchemy as sa
from psycopg.types.json import Jsonb
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from core.app.config import ROOT, get_settings
from core.embeddings import embedding_model_name, hashing_vector
from db.models import EMBEDDING_DIM
from db.session import Identity, admin_url, apply_identity, upgrade_schema

BENCH_DB = "werkbank_bench"
DOC = ROOT / "docs" / "benchmarks.md"
FAECHER = ["physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie"]
AGENTS = ["klausur", "differenzierung", "h5p"]
TEACHERS_PER_SCHOOL = 25
CLASSES_PER_TEACHER = 4
# Share of rows per scope: most knowledge is personal; curated global knowledge is a few percent.
SCOPE_MIX = [("teacher", 0.85), ("class", 0.05), ("school", 0.04), ("global", 0.06)]


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python {platform.python_version()}"


# --- bench database ----------------------------------------------------------------------------------------------


def _bench_urls() -> tuple[str, str]:
    admin = make_url(admin_url())
    server = admin.set(database="postgres")
    eng = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with eng.connect() as c:
        c.execute(sa.text(f'DROP DATABASE IF EXISTS "{BENCH_DB}" WITH (FORCE)'))
        c.execute(sa.text(f'CREATE DATABASE "{BENCH_DB}"'))
    eng.dispose()
    bench_admin = admin.set(database=BENCH_DB).render_as_string(hide_password=False)
    role = get_settings().werkbank_app_role
    bench_app = (
        make_url(bench_admin).set(username=role, password=None).render_as_string(hide_password=False)
        if not get_settings().database_url else bench_admin
    )
    return bench_admin, bench_app


class World:
    """Synthetic schools, classes and teachers; then knowledge rows in batches up to a target count."""

    def __init__(self, admin: sa.Engine, teachers: int, rng: random.Random):
        self.admin = admin
        self.rng = rng
        self.n_teachers = teachers
        self.teachers: list[tuple[uuid.UUID, uuid.UUID, list[uuid.UUID]]] = []  # (teacher, school, classes)
        self.rows = 0
        self._texts = self._base_texts()

    def _base_texts(self) -> list[tuple[str, str, str, np.ndarray]]:
        """Real task texts from the seed files: (fach, thema, text, vector)."""
        out = []
        for path in sorted((ROOT / "seeds" / "data").glob("*.json")):
            if path.name == "demo.json":
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
            for gp in data.get("good_practices", []):
                out.append((data["fach"], gp["thema"], gp["aufgabe"]))
            for q in data.get("quiz", []):
                out.append((data["fach"], q["thema"], q["frage"]))
        return [(f, t, x, np.asarray(hashing_vector(x), dtype=np.float32)) for f, t, x in out]

    def create_people(self) -> None:
        schools = max(1, self.n_teachers // TEACHERS_PER_SCHOOL)
        with self.admin.begin() as c:
            school_ids = [uuid.uuid4() for _ in range(schools)]
            c.execute(sa.text("INSERT INTO schools (id, name, bundesland, schulform) VALUES (:id, :n, 'Sachsen', "
                              "'Gymnasium')"), [{"id": s, "n": f"Bench-Schule {i}"} for i, s in enumerate(school_ids)])
            classes: dict[uuid.UUID, list[uuid.UUID]] = {s: [] for s in school_ids}
            class_rows = []
            for s in school_ids:
                for k in range(TEACHERS_PER_SCHOOL * CLASSES_PER_TEACHER // 2):
                    cid = uuid.uuid4()
                    classes[s].append(cid)
                    class_rows.append({"id": cid, "s": s, "n": f"{5 + k % 8}{chr(97 + k // 8)}", "k": 5 + k % 8})
            c.execute(sa.text("INSERT INTO classes (id, school_id, name, klassenstufe, schuljahr) "
                              "VALUES (:id, :s, :n, :k, '2026/27')"), class_rows)
            trows, links = [], []
            for i in range(self.n_teachers):
                tid, s = uuid.uuid4(), school_ids[i % schools]
                mine = self.rng.sample(classes[s], CLASSES_PER_TEACHER)
                self.teachers.append((tid, s, mine))
                trows.append({"id": tid, "s": s, "e": f"bench{i}@bench.de"})
                links += [{"t": tid, "c": cid} for cid in mine]
            c.execute(sa.text("INSERT INTO teachers (id, school_id, name, email, bundesland, faecher) VALUES "
                              "(:id, :s, 'Bench', :e, 'Sachsen', '{physik}')"), trows)
            c.execute(sa.text("INSERT INTO teacher_classes (teacher_id, class_id, fach) VALUES (:t, :c, 'physik')"),
                      links)

    def grow(self, target: int) -> float:
        """Add knowledge rows until `target`; returns seconds spent (binary COPY, vectors jittered per row)."""
        from pgvector.psycopg import register_vector

        t0 = time.perf_counter()
        raw = self.admin.raw_connection()
        try:
            register_vector(raw.driver_connection)
            with raw.driver_connection.cursor() as cur:
                while self.rows < target:
                    n = min(20_000, target - self.rows)
                    with cur.copy(
                        "COPY agent_knowledge (agent_type, scope_type, scope_id, owner_id, fach, thema, "
                        "knowledge_type, content, description, quality_score, source, search_text, embedding, "
                        "embedding_model) FROM STDIN WITH (FORMAT BINARY)"
                    ) as copy:
                        copy.set_types(["text", "text", "uuid", "uuid", "text", "text", "text", "jsonb", "text",
                                        "float8", "text", "text", "vector", "text"])
                        for row in self._rows(n):
                            copy.write_row(row)
                    self.rows += n
            raw.driver_connection.commit()
        finally:
            raw.close()
        return time.perf_counter() - t0

    def _rows(self, n: int):  # noqa: ANN202
        rng = self.rng
        model = embedding_model_name()
        scopes, weights = zip(*SCOPE_MIX, strict=True)
        for _ in range(n):
            fach, thema, text, vec = rng.choice(self._texts)
            tid, school, classes = rng.choice(self.teachers)
            scope = rng.choices(scopes, weights)[0]
            scope_id = {"teacher": tid, "class": rng.choice(classes), "school": school, "global": None}[scope]
            kt = rng.choices(["good_practice", "example"], [0.85, 0.15])[0]
            noise = np.asarray([rng.gauss(0, 1) for _ in range(8)], dtype=np.float32)
            v = vec.copy()
            v[rng.sample(range(EMBEDDING_DIM), 8)] += 0.08 * noise  # distinct rows near real texts
            v /= np.linalg.norm(v)
            variant = f"{text} (Variante {rng.randint(1, 10**6)})"
            yield (rng.choice(AGENTS), scope, scope_id, tid if scope != "global" else None, fach, thema, kt,
                   Jsonb({"aufgabe": variant}), thema, round(rng.random(), 3), "generated", variant, v, model)


def _measure(fn: Callable[[], Any], n: int) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times


# Bulk loading with the vector and full-text indexes in place maintains them row by row (hours at 1M rows);
# like any bulk load, drop them while loading and build them once afterwards.
_BULK_INDEXES = {
    "ix_ak_embedding": "CREATE INDEX ix_ak_embedding ON agent_knowledge USING hnsw (embedding vector_cosine_ops) "
                       "WITH (m = 16, ef_construction = 64)",
    "ix_ak_fts": "CREATE INDEX ix_ak_fts ON agent_knowledge USING gin (fts)",
}


def _drop_bulk_indexes(admin: sa.Engine) -> None:
    with admin.begin() as c:
        for name in _BULK_INDEXES:
            c.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))


def _analyze(admin: sa.Engine, *, rebuild_index: bool) -> float:
    """Build the dropped indexes (HNSW only when the benchmark searches), then VACUUM ANALYZE."""
    t0 = time.perf_counter()
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.execute(sa.text("SET maintenance_work_mem = '4GB'"))
        c.execute(sa.text("SET max_parallel_maintenance_workers = 1"))
        for name, ddl in _BULK_INDEXES.items():
            if name == "ix_ak_embedding" and not rebuild_index:
                continue
            c.execute(sa.text(f"DROP INDEX IF EXISTS {name}"))
            c.execute(sa.text(ddl))
        c.execute(sa.text("VACUUM ANALYZE agent_knowledge"))
    return time.perf_counter() - t0


# --- the two benchmarks ------------------------------------------------------------------------------------------


def bench_wissenskarte(app: sa.Engine, world: World, queries: int) -> dict[str, float]:
    from db.repos.knowledge import wissenskarte_baseline, wissenskarte_facts

    rng = random.Random(7)
    picks = [(rng.choice(world.teachers), rng.choice(AGENTS), rng.choice(FAECHER)) for _ in range(queries)]
    out: dict[str, float] = {}
    with Session(app) as db:
        for label, fn, n in (("map", wissenskarte_facts, queries), ("baseline", wissenskarte_baseline,
                                                                     max(10, queries // 10))):
            times = []
            for (tid, school, classes), agent, fach in picks[:n]:
                ident = Identity(teacher_id=tid, school_id=school, class_ids=tuple(classes))
                apply_identity(db.connection(), ident)
                times += _measure(lambda: fn(db=db, identity=ident, agent_type=agent, fach=fach), 1)  # noqa: B023
                db.rollback()
            out[f"{label}_p50"] = statistics.median(times)
            out[f"{label}_p95"] = _pct(times, 95)
    out["ratio"] = out["baseline_p50"] / out["map_p50"]
    return out


BENCH_QUERIES = ["Stromkreis Widerstand berechnen", "Brechung Licht Linse", "Fotosynthese Licht", "Gedicht Metrum",
                 "quadratische Gleichung Nullstellen", "Weimarer Republik Quelle", "Klimadiagramm auswerten",
                 "if-clauses grammar", "Säuren und Basen pH-Wert", "Zellatmung Mitochondrien", "Prozentrechnung",
                 "Industrialisierung Folgen", "Energie Leistung Wasserkocher", "Kurzgeschichte Wendepunkt"]


def bench_search(app: sa.Engine, world: World, queries: int) -> dict[str, float]:
    from core.embeddings import embed_query
    from core.retrieval import VOCABULARY, search
    from db.repos.knowledge import exact_vector_ids, rank_knowledge

    VOCABULARY.clear()
    rng = random.Random(11)
    picks = [(rng.choice(world.teachers), rng.choice(BENCH_QUERIES), rng.choice(FAECHER)) for _ in range(queries)]
    times, recalls = [], []
    with Session(app) as db:
        for (tid, school, classes), q, fach in picks:
            ident = Identity(teacher_id=tid, school_id=school, class_ids=tuple(classes))
            apply_identity(db.connection(), ident)
            times += _measure(lambda: search(db=db, identity=ident, query=q, fach=fach, limit=10), 1)  # noqa: B023
            qvec = embed_query(q)
            approx = [r.id for r in sorted(
                (r for r in rank_knowledge(db=db, identity=ident, qvec=qvec, tsquery=None, fach=fach,
                                           agent_type="klausur", knowledge_type="good_practice", k=10)),
                key=lambda r: r.vector_rank)]
            exact = exact_vector_ids(db=db, identity=ident, qvec=qvec, fach=fach, agent_type="klausur",
                                     knowledge_type="good_practice", limit=10)
            if exact:
                recalls.append(len(set(approx) & set(exact)) / len(exact))
            db.rollback()
    return {"p50": statistics.median(times), "p95": _pct(times, 95), "recall10": statistics.mean(recalls)}


def run_bench(what: str, *, rows: list[int], teachers: int = 1000, queries: int = 200, write: bool = True) -> None:
    print(f"Benchmark {what} · Maschine: {machine()}")
    bench_admin, bench_app = _bench_urls()
    upgrade_schema(bench_admin)
    admin = sa.create_engine(bench_admin, poolclass=sa.pool.NullPool)
    app = sa.create_engine(bench_app, pool_size=2)  # pooled like the app: server-side prepared statements survive
    if get_settings().database_url:
        role = get_settings().werkbank_app_role

        @sa.event.listens_for(app, "connect")
        def _role(conn, _rec) -> None:  # noqa: ANN001
            with conn.cursor() as cur:
                cur.execute(f'SET ROLE "{role}"')

    from seeds.steps import SeedReport, step_subject_profiles

    with Session(admin) as db:
        step_subject_profiles(db, SeedReport())
        db.commit()
    world = World(admin, teachers, random.Random(3))
    world.create_people()
    results = []
    for target in sorted(rows):
        _drop_bulk_indexes(admin)
        load_s = world.grow(target)
        # The teacher-facing search ranks exactly among the visible candidates (filter first), so HNSW is not on its
        # path; building it at 1M rows takes longer than everything else here and changes none of these numbers.
        index_s = _analyze(admin, rebuild_index=False)
        res = bench_wissenskarte(app, world, queries) if what == "wissenskarte" else bench_search(app, world, queries)
        res.update(rows=target, load_s=load_s, index_s=index_s)
        results.append(res)
        print(_line(what, res), flush=True)
    admin.dispose()
    app.dispose()
    if write:
        _write_doc(what, results, teachers, queries)
        print(f"→ {DOC.relative_to(ROOT)} aktualisiert")


def _line(what: str, r: dict[str, float]) -> str:
    if what == "wissenskarte":
        return (f"{r['rows']:>9,} Zeilen · Karte p50 {r['map_p50']:.2f} ms p95 {r['map_p95']:.2f} ms · "
                f"Baseline p50 {r['baseline_p50']:.1f} ms · Faktor {r['ratio']:.0f}× · Laden {r['load_s']:.0f} s")
    return (f"{r['rows']:>9,} Zeilen · Suche p50 {r['p50']:.2f} ms p95 {r['p95']:.2f} ms · "
            f"recall@10 {r['recall10']:.3f} · Laden {r['load_s']:.0f} s · Index {r['index_s']:.0f} s")


def _write_doc(what: str, results: list[dict[str, float]], teachers: int, queries: int) -> None:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if what == "wissenskarte":
        head = ("### P1 · Wissenskarte (SQL-Aggregat vs. Laden-und-Filtern)\n\n"
                "Goal: p50 ≤ 5 ms at 1M rows and ≥ 100× faster than the baseline.\n\n"
                "| rows | map p50 | map p95 | baseline p50 | baseline p95 | factor |\n"
                "|---:|---:|---:|---:|---:|---:|\n")
        body = "".join(f"| {r['rows']:,} | {r['map_p50']:.2f} ms | {r['map_p95']:.2f} ms | {r['baseline_p50']:.1f} ms "
                       f"| {r['baseline_p95']:.1f} ms | {r['ratio']:.0f}× |\n" for r in results)
    else:
        head = ("### P2 · Hybrid search (pgvector HNSW + German full text, RRF)\n\n"
                "Goal: p50 ≤ 20 ms at 1M rows; recall@10 of the vector path vs. an exact scan ≥ 0.95.\n\n"
                "The search filters first (visibility × Fach × agent type, served by the map index) and ranks the "
                "candidates exactly — by cosine distance and by German full-text rank — so the vector path's recall "
                "is 1.0 by construction. Latency is the whole `core.retrieval.search` call as a teacher (query "
                "expansion, embedding, one SQL statement with RLS, fusion).\n\n"
                "| rows | search p50 | search p95 | recall@10 vs exact | load | index build |\n"
                "|---:|---:|---:|---:|---:|---:|\n")
        body = "".join(f"| {r['rows']:,} | {r['p50']:.2f} ms | {r['p95']:.2f} ms | {r['recall10']:.3f} | "
                       f"{r['load_s']:.0f} s | {r['index_s']:.0f} s |\n" for r in results)
    section = (f"{head}{body}\n*{stamp} · {machine()} · {teachers} synthetic teachers, {queries} queries per size · "
               f"`python -m core bench {what} --rows {','.join(str(r['rows']) for r in results)}`*\n")
    _write_section(what, section)


# --- P3: offline chat → validated exam + DOCX ---------------------------------------------------------------------

EXAM_REQUEST = ("Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30, eine Aufgabe Induktion "
                "als AFB III")


def _sent_text(part) -> str:  # noqa: ANN001
    """The text of a message part as a provider receives it: content and tool arguments, no pydantic-ai metadata."""
    if getattr(part, "part_kind", "") == "tool-call":
        return part.tool_name + part.args_as_json_str()
    content = getattr(part, "content", "")
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)


def _metered(rules, meter: dict[str, list[int]], role: str):  # noqa: ANN001, ANN202
    """Wrap a rules function: record the input a real model would get (instructions, history, tool schemas)."""
    from pydantic_ai.messages import ModelResponse

    from core.tokens import estimate_tokens

    def rules_with_meter(messages, info):  # noqa: ANN001, ANN202
        tools = [{"name": t.name, "description": t.description, "parameters": t.parameters_json_schema}
                 for t in [*info.function_tools, *info.output_tools]]
        sent = [info.instructions or "", json.dumps(tools, ensure_ascii=False)]
        sent += [_sent_text(p) for m in messages for p in m.parts]
        response: ModelResponse = rules(messages, info)
        meter.setdefault(f"{role}_in", []).append(estimate_tokens("".join(sent)))
        meter.setdefault(f"{role}_out", []).append(estimate_tokens("".join(_sent_text(p) for p in response.parts)))
        return response

    return rules_with_meter


def bench_chat(runs: int = 20) -> dict[str, float]:
    from agents.models import override_models
    from agents.offline import RULES, rules_model
    from core.bootstrap import ensure_ready
    from core.chat import chat_turn
    from core.llm import cost_usd
    from core.wissenskarte import build_wissenskarte
    from db.repos.teachers import find_teacher, identity_for
    from db.session import unit_of_work

    ensure_ready()
    with unit_of_work(Identity.system()) as db:
        teacher = find_teacher(db=db, ref="steffen.keller@demo-gymnasium.de")
        ident = identity_for(db=db, teacher=teacher)
    times, meters, wk_tokens = [], [], 0
    for i in range(runs + 2):  # two warm-up turns
        meter: dict[str, list[int]] = {}
        models = {role: rules_model(_metered(RULES[role], meter, role)) for role in ("main", "klausur")}
        with unit_of_work(ident) as db, override_models(**models):
            t = db.merge(teacher)
            t0 = time.perf_counter()
            result = chat_turn(db=db, identity=ident, teacher=t, message=EXAM_REQUEST)
            elapsed = (time.perf_counter() - t0) * 1000
            assert result.material_id and len(result.files) == 2, result.reply
            wk_tokens = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik").tokens
            db.rollback()  # measure without filling the demo teacher's materials
        if i >= 2:
            times.append(elapsed)
            meters.append(meter)
    spec_final = statistics.median(max(m["klausur_in"]) for m in meters)
    spec_in = statistics.median(sum(m["klausur_in"]) for m in meters)
    spec_out = statistics.median(sum(m["klausur_out"]) for m in meters)
    main_in = statistics.median(sum(m["main_in"]) for m in meters)
    main_out = statistics.median(sum(m["main_out"]) for m in meters)
    cost = (cost_usd("claude-sonnet-4-6", int(spec_in), int(spec_out)) or 0) + (
        cost_usd("claude-sonnet-4-6", int(main_in), int(main_out)) or 0)
    return {"p50": statistics.median(times), "p95": _pct(times, 95), "runs": runs, "wk_tokens": wk_tokens,
            "spec_final": spec_final, "spec_in": spec_in, "spec_out": spec_out, "main_in": main_in,
            "main_out": main_out, "cost": cost}


def run_chat_bench(*, runs: int, write: bool) -> None:
    print(f"Benchmark chat · Maschine: {machine()}")
    r = bench_chat(runs)
    print(f"Offline-Chat → geprüfte Klausur + 2 DOCX: p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms ({runs} Läufe)")
    print(f"Tokens: Wissenskarte {r['wk_tokens']} · Klausur-Spezialist: Kontext beim Schreiben {r['spec_final']:.0f}, "
          f"Eingabe über alle Anfragen {r['spec_in']:.0f} / Ausgabe "
          f"{r['spec_out']:.0f} · Hauptagent {r['main_in']:.0f} / {r['main_out']:.0f}")
    print(f"Geschätzte Kosten je Klausur zu Sonnet-Preisen: ${r['cost']:.4f}")
    if not write:
        return
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    section = (
        "### P3 · Offline chat → validated exam + DOCX\n\n"
        "One message with everything (Fach, Klasse, Thema, Dauer, AFB, a wish) → main agent → router → Klausur "
        "specialist (tools, validation) → stored material + Schüler-/Lehrerfassung DOCX, warm.\n\n"
        "| measure | value | goal |\n|---|---:|---:|\n"
        f"| latency p50 | {r['p50']:.0f} ms | ≤ 1 500 ms |\n| latency p95 | {r['p95']:.0f} ms | — |\n"
        f"| Wissenskarte tokens | {r['wk_tokens']} | ≤ 200 |\n"
        f"| Klausur specialist's whole input when it writes the exam (largest request) | {r['spec_final']:.0f} tokens "
        "| ≤ 6 000 |\n"
        f"| Klausur specialist input summed over its requests (billed) | {r['spec_in']:.0f} tokens | — |\n"
        f"| Klausur specialist output per exam | {r['spec_out']:.0f} tokens | — |\n"
        f"| main agent input / output per turn | {r['main_in']:.0f} / {r['main_out']:.0f} tokens | — |\n"
        f"| estimated cost per exam at Sonnet prices ($3/$15 per M, no prompt cache) | ${r['cost']:.4f} "
        "| ≤ $0.03 |\n\n"
        "Tokens are what a real model would be sent (instructions + history + tool schemas, and the JSON it "
        "returns), counted with `core.tokens.estimate_tokens` (3.2 characters per token, on the safe side for "
        "German), not the offline model's own word count.\n\n"
        f"*{stamp} · {machine()} · `python -m core bench chat --runs {runs}`*\n"
    )
    _write_section("chat", section)
    print(f"→ {DOC.relative_to(ROOT)} aktualisiert")


def _write_section(key: str, section: str) -> None:
    DOC.parent.mkdir(exist_ok=True)
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n\n"
    start, end = f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"
    block = f"{start}\n{section}{end}"
    if start in text:
        text = re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    DOC.write_text(text, encoding="utf-8")


# --- P4: page render times with 100 000 knowledge rows ------------------------------------------------------------

PAGE_DB = "werkbank_pages_bench"
PAGES = [("pages/chat.py", "teacher"), ("pages/materialien.py", "teacher"), ("pages/wissenskarte.py", "teacher"),
         ("pages/praeferenzen.py", "teacher"), ("pages/sitzungen.py", "teacher"), ("pages/bewerten.py", "teacher"),
         ("pages/notizen.py", "teacher"), ("pages/hochladen.py", "teacher"),
         ("pages/good_practices.py", "curator"), ("pages/prompt_labor.py", "product"), ("pages/start.py", "product")]


def bench_pages(rows: int, runs: int = 3) -> list[dict[str, Any]]:
    """Fill a database of its own (seeds + `rows` synthetic knowledge rows, many of them the demo teacher's, and
    300 materials), then time every page in AppTest as the matching demo persona (median of `runs`, warm)."""
    from streamlit.testing.v1 import AppTest

    _fresh_database(PAGE_DB)
    owner = sa.create_engine(admin_url(), poolclass=sa.pool.NullPool)
    with owner.connect() as c:
        people = {r.role: r for r in c.execute(sa.text(
            "SELECT DISTINCT ON (role) id, school_id, role FROM teachers ORDER BY role, email DESC"))}
        keller = c.execute(sa.text("SELECT id, school_id FROM teachers WHERE email = 'steffen.keller@demo-gymnasium.de'"
                                   )).one()
        classes = [r[0] for r in c.execute(sa.text("SELECT class_id FROM teacher_classes WHERE teacher_id = :t"),
                                           {"t": keller.id})]
    world = World(owner, 1000, random.Random(5))
    world.create_people()
    world.teachers += [(keller.id, keller.school_id, classes)] * 40  # ~4 % of all rows are the demo teacher's
    world.rows = 0
    _drop_bulk_indexes(owner)
    load_s = world.grow(rows)
    _analyze(owner, rebuild_index=True)
    _fill_materials(owner, keller.id, 300)
    owner.dispose()
    results = []
    for path, role in PAGES:
        person = keller.id if role == "teacher" else people[role].id
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
        results.append({"page": path, "role": role, "p50": statistics.median(times), "max": max(times),
                        "load_s": load_s})
        print(f"{path:<28} {role:<8} {statistics.median(times):7.0f} ms (max {max(times):.0f} ms)", flush=True)
    return results


def _fill_materials(engine: sa.Engine, teacher_id: uuid.UUID, n: int) -> None:
    """Copies of one real exam, so the materials page has hundreds of rows to page through."""
    from core.materials import Klausur
    from seeds.steps import load_subjects

    gp = load_subjects()[0].good_practices[0]
    exam = Klausur(titel="Bench-Klausur", fach="Physik", klassenstufe=10, klasse="10a", thema="Stromkreise",
                   dauer_minuten=45, niveau="Sek I", aufgaben=[{"nummer": 1, "titel": gp.thema, "teilaufgaben": [{
                       "label": "a", "operator": gp.operator, "text": gp.aufgabe, "afb": gp.afb, "punkte": gp.punkte,
                       "erwartung": [{"text": c.kriterium, "punkte": c.punkte} for c in gp.erwartung]}]}])
    content = json.dumps(exam.model_dump(mode="json"))
    with engine.begin() as c:
        c.execute(sa.text(
            "INSERT INTO generated_materials (teacher_id, material_type, fach, klassenstufe, thema, titel, content) "
            "SELECT :t, 'klausur', 'physik', 10, 'Stromkreise', 'Bench-Klausur ' || g, CAST(:c AS jsonb) "
            "FROM generate_series(1, :n) g"), {"t": teacher_id, "c": content, "n": n})


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
    _write_section("pages", section)
    print(f"→ {DOC.relative_to(ROOT)} aktualisiert")


# --- P5: concurrent teachers ---------------------------------------------------------------------------------------

LOAD_DB = "werkbank_load_bench"
LOAD_STEPS = ("anfrage", "antwort", "bewertung")


def _fresh_database(name: str) -> None:
    from core import bootstrap
    from db import session as db_session

    os.environ["WERKBANK_DB_NAME"] = name
    get_settings.cache_clear()
    db_session.reset_engines()
    server = sa.create_engine(make_url(admin_url()).set(database="postgres"), isolation_level="AUTOCOMMIT",
                              poolclass=sa.pool.NullPool)
    with server.connect() as c:
        c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    server.dispose()
    db_session.reset_engines()
    bootstrap._done = False
    bootstrap.ensure_ready(seed=True)


def bench_load(teachers: int) -> dict[str, Any]:
    """`teachers` simulated teachers at once: Klausur request → Rückfrage → answer → material → 5-star rating."""
    import concurrent.futures

    from core.chat import chat_turn
    from core.learning import rate_material
    from db import models as m
    from db.repos.teachers import identity_for
    from db.session import unit_of_work

    os.environ["WERKBANK_DB_POOL_SIZE"] = str(teachers + 5)
    os.environ["WERKBANK_DB_MAX_OVERFLOW"] = "10"
    _fresh_database(LOAD_DB)
    with unit_of_work(Identity.system()) as db:
        school = m.School(name="Lastschule", bundesland="Sachsen", schulform="Gymnasium")
        db.add(school)
        db.flush()
        people = []
        for i in range(teachers):
            klasse = m.SchoolClass(school_id=school.id, name=f"10{chr(97 + i % 26)}{i // 26}", klassenstufe=10,
                                   schuljahr="2026/27")
            t = m.Teacher(name=f"Last {i}", email=f"last{i}@last.de", bundesland="Sachsen", faecher=["physik"],
                          school_id=school.id)
            db.add_all([klasse, t])
            db.flush()
            db.add(m.TeacherClass(teacher_id=t.id, class_id=klasse.id, fach="physik"))
            people.append(t.id)
    with unit_of_work(Identity.system()) as db:
        idents = {tid: identity_for(db=db, teacher=db.get(m.Teacher, tid)) for tid in people}
    times: dict[str, list[float]] = {s: [] for s in LOAD_STEPS}
    errors: list[str] = []

    def one(tid: uuid.UUID) -> None:
        ident = idents[tid]
        try:
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
            for step, dt in zip(LOAD_STEPS, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                times[step].append(dt * 1000)
        except Exception as exc:  # counted and reported, the run goes on
            errors.append(f"{type(exc).__name__}: {str(exc)[:160]}")

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=teachers) as pool:
        list(pool.map(one, people))
    wall = time.perf_counter() - start
    check = _load_consistency(people)
    return {"teachers": teachers, "wall_s": wall, "turns_per_s": 2 * teachers / wall, "errors": errors,
            "steps": {s: (statistics.median(v), _pct(v, 95)) if v else (0, 0) for s, v in times.items()},
            **check}


def _load_consistency(people: list[uuid.UUID]) -> dict[str, Any]:
    """Afterwards: per teacher exactly one conversation (4 messages), one completed session pointing at the one
    material, two files, one rating — 0 lost, 0 duplicated."""
    from db.session import unit_of_work

    with unit_of_work(Identity.system()) as db:
        rows = db.execute(sa.text("""
            SELECT t.id,
              (SELECT count(*) FROM conversations c WHERE c.teacher_id = t.id) AS conversations,
              (SELECT count(*) FROM conversation_messages m WHERE m.teacher_id = t.id) AS messages,
              (SELECT count(*) FROM agent_sessions s WHERE s.teacher_id = t.id AND s.status = 'completed'
                 AND s.result_material_id IS NOT NULL) AS sessions_done,
              (SELECT count(*) FROM agent_sessions s WHERE s.teacher_id = t.id AND s.status <> 'completed') AS open,
              (SELECT count(*) FROM generated_materials g WHERE g.teacher_id = t.id) AS materials,
              (SELECT count(*) FROM material_files f WHERE f.teacher_id = t.id) AS files,
              (SELECT count(*) FROM ratings r WHERE r.teacher_id = t.id) AS ratings
            FROM teachers t WHERE t.id = ANY(:ids)"""), {"ids": people}).all()
    expected = {"conversations": 1, "messages": 4, "sessions_done": 1, "open": 0, "materials": 1, "files": 2,
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
               "→ validated exam with 2 DOCX → 5-star rating (which learns good practices and preferences). "
               "Afterwards every conversation, session, material, file and rating is counted per teacher.\n\n"
               f"| measure | value | goal |\n|---|---:|---:|\n| wall time | {r['wall_s']:.1f} s | — |\n"
               f"| throughput | {r['turns_per_s']:.1f} chat turns/s | — |\n| errors | {len(r['errors'])} | 0 |\n"
               f"| lost objects | {r['lost']} | 0 |\n| duplicated objects | {r['duplicated']} | 0 |\n\n"
               "| step | p50 | p95 |\n|---|---:|---:|\n" + steps +
               "\nThe offline model is CPU-bound Python, so 50 threads share one core through the GIL; step "
               "latencies under this load are mostly queueing. Several app processes (replicas) scale it out.\n\n"
               f"*{stamp} · {machine()} · `python -m core bench load --teachers {r['teachers']}`*\n")
    _write_section("load", section)
    print(f"→ {DOC.relative_to(ROOT)} aktualisiert")
