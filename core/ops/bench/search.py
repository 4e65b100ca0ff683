"""P2 `bench search`: hybrid search latency as a teacher, and recall@10 of its vector path against an exact scan;
the ranking step also timed on the path before migration 0006 (all visible candidates gathered, then ranked), so
both are measured side by side in one run."""

from __future__ import annotations

import functools
import os
import random
import statistics
import time

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.knowledge.embeddings import embed_query
from core.knowledge.retrieval import VOCABULARY, search
from core.ops.bench.common import FAECHER, measure, pct
from core.ops.bench.cpu import backend_cpu_seconds, process_cpu_seconds
from core.ops.bench.world import World
from db.repos import bench as bench_repo
from db.repos.search import exact_vector_ids, rank_knowledge
from db.session import Identity, apply_identity

BENCH_QUERIES = ["Stromkreis Widerstand berechnen", "Brechung Licht Linse", "Fotosynthese Licht", "Gedicht Metrum",
                 "quadratische Gleichung Nullstellen", "Weimarer Republik Quelle", "Klimadiagramm auswerten",
                 "if-clauses grammar", "Säuren und Basen pH-Wert", "Zellatmung Mitochondrien", "Prozentrechnung",
                 "Industrialisierung Folgen", "Energie Leistung Wasserkocher", "Kurzgeschichte Wendepunkt"]


def _tsquery(query: str) -> str:
    return " | ".join(w.lower() for w in query.replace("-", " ").split() if w.isalpha())


class SqlClock:
    """Milliseconds spent in statements on an engine (execute and fetch of the driver's cursor)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.ms = 0.0
        self._t0 = 0.0
        sa.event.listen(engine, "before_cursor_execute", self._before)
        sa.event.listen(engine, "after_cursor_execute", self._after)

    def close(self, engine: sa.Engine) -> None:
        sa.event.remove(engine, "before_cursor_execute", self._before)
        sa.event.remove(engine, "after_cursor_execute", self._after)

    def _before(self, *_: object) -> None:
        self._t0 = time.perf_counter()

    def _after(self, *_: object) -> None:
        self.ms += (time.perf_counter() - self._t0) * 1000


def bench_search(app: sa.Engine, world: World, queries: int) -> dict[str, float]:
    VOCABULARY.clear()
    rng = random.Random(11)
    picks = [(rng.choice(world.teachers), rng.choice(BENCH_QUERIES), rng.choice(FAECHER)) for _ in range(queries)]
    times, sql, cpu, ranks_new, ranks_old, recalls = [], [], [], [], [], []
    args = {"agent_type": "klausur", "knowledge_type": "good_practice"}
    clock = SqlClock(app)
    with Session(app) as db:
        for (tid, school, classes), q, fach in picks:
            ident = Identity(teacher_id=tid, school_id=school, class_ids=tuple(classes))
            apply_identity(db.connection(), ident)
            clock.ms = 0.0
            pid = bench_repo.backend_pid(conn=db.connection())
            cpu0 = (process_cpu_seconds(), backend_cpu_seconds(pid))
            times += measure(lambda: search(db=db, identity=ident, query=q, fach=fach, limit=10), 1)  # noqa: B023
            sql.append(clock.ms)
            backend = backend_cpu_seconds(pid)
            if backend is not None and cpu0[1] is not None:
                cpu.append((process_cpu_seconds() - cpu0[0] + backend - cpu0[1]) * 1000)
            qvec, tsq = embed_query(q), _tsquery(q)
            for path, out in (("auto", ranks_new), ("exact", ranks_old)):
                call = functools.partial(rank_knowledge, db=db, identity=ident, qvec=qvec, tsquery=tsq, fach=fach,
                                         k=40, path=path, **args)
                out += measure(call, 1)
            approx = [r.id for r in sorted(
                (r for r in rank_knowledge(db=db, identity=ident, qvec=qvec, tsquery=None, fach=fach, k=10, **args)
                 if r.vector_rank is not None), key=lambda r: r.vector_rank)]
            exact = exact_vector_ids(db=db, identity=ident, qvec=qvec, fach=fach, limit=10, **args)
            if exact:
                recalls.append(len(set(approx) & set(exact)) / len(exact))
            db.rollback()
    clock.close(app)
    return {"p50": statistics.median(times), "p95": pct(times, 95), "sql_p50": statistics.median(sql),
            "load": os.getloadavg()[0], "cpu_mean": statistics.mean(cpu) if cpu else float("nan"),
            "recall10": statistics.mean(recalls),
            "rank_p50": statistics.median(ranks_new), "rank_old_p50": statistics.median(ranks_old)}


def line(r: dict[str, float]) -> str:
    return (f"{r['rows']:>9,} Zeilen · Suche p50 {r['p50']:.2f} ms p95 {r['p95']:.2f} ms (SQL p50 "
            f"{r['sql_p50']:.2f} ms; CPU Ø {r['cpu_mean']:.1f} ms) · Ranking p50 {r['rank_p50']:.2f} ms "
            f"(vorher {r['rank_old_p50']:.2f} ms) · "
            f"recall@10 {r['recall10']:.3f} · Last {r['load']:.1f} · "
            f"Laden {r['load_s']:.0f} s · Index {r['index_s']:.0f} s")


def growth(results: list[dict[str, float]]) -> str:
    if len(results) < 2:
        return ""
    first, last = results[0], results[-1]
    old = last["rank_old_p50"] / first["rank_old_p50"]
    return (f"Wachstum p50 {first['rows']:,} → {last['rows']:,} Zeilen: Suche {last['p50'] / first['p50']:.2f}× "
            f"(SQL darin {last['sql_p50'] / first['sql_p50']:.2f}×; CPU je Suche "
            f"{last['cpu_mean'] / first['cpu_mean']:.2f}×), "
            f"Ranking {last['rank_p50'] / first['rank_p50']:.2f}× "
            f"(vorher {old:.2f}×)")


def table(results: list[dict[str, float]]) -> str:
    head = ("### P2 · Hybrid search (exact vector + German full text, RRF)\n\n"
            "Goal: p50 grows at most 2× from 10k to 1M rows; recall@10 of the vector path vs. an exact scan ≥ 0.95.\n\n"
            "A teacher's own, her classes' and her school's rows stay few at any size and are ranked exactly; the "
            "global rows of the Fach grow with the installation and are ranked exactly through indexes of their own "
            "(migration 0006: an index-only covering index with the embeddings; 0009: partial GIN indexes per Fach × "
            "agent, reached through a function because under row-level security `@@` can use no index); the text "
            "rank is `ts_rank` (cover density, `ts_rank_cd`, cost ~9× more per matching row with the expanded topic "
            "query and was most of the growth). Latency is the whole `core.knowledge.retrieval.search` call as "
            "a teacher (query expansion, embedding, SQL with RLS, fusion), *SQL* the time spent in its statements, "
            "*CPU* the CPU time of the bench process and of its server backend per search (the work done — wall "
            "times on a shared machine include waiting for a core, see the load average); "
            "*ranking* is the SQL ranking step alone (the query's words only, no expansion), on this path and on "
            "the path before 0006 (all visible candidates gathered, then ranked), measured side by side on the same "
            "queries.\n\n"
            "| rows | search p50 | search p95 | SQL p50 in search | CPU per search (mean) | ranking p50 | "
            "ranking p50 before 0006 | "
            "recall@10 vs exact | load average | bulk load | index build |\n"
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    body = "".join(f"| {r['rows']:,} | {r['p50']:.2f} ms | {r['p95']:.2f} ms | {r['sql_p50']:.2f} ms | "
                   f"{r['cpu_mean']:.1f} ms | {r['rank_p50']:.2f} ms | {r['rank_old_p50']:.2f} ms | "
                   f"{r['recall10']:.3f} | {r['load']:.1f} | "
                   f"{r['load_s']:.0f} s | {r['index_s']:.0f} s |\n" for r in results)
    return head + body + (f"\n{growth(results)}\n" if len(results) > 1 else "")
