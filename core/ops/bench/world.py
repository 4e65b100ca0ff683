"""A synthetic world for the knowledge benchmarks: schools, classes and teachers, then knowledge rows near real
task texts (from the seed files) in batches, with the scope mix of a real installation."""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np
import sqlalchemy as sa
from psycopg.types.json import Jsonb

from core.app.config import ROOT
from core.knowledge.embeddings import embedding_model_name, hashing_vector
from core.ops.bench.common import AGENTS
from db.models import EMBEDDING_DIM
from db.repos import bench as bench_repo

TEACHERS_PER_SCHOOL = 25
CLASSES_PER_TEACHER = 4
# Share of rows per scope: most knowledge is personal; curated global knowledge is a few percent.
SCOPE_MIX = [("teacher", 0.85), ("class", 0.05), ("school", 0.04), ("global", 0.06)]
BATCH = 20_000


class World:
    """Synthetic schools, classes and teachers; then knowledge rows in batches up to a target count."""

    def __init__(self, admin: sa.Engine, teachers: int, rng: random.Random):
        self.admin = admin
        self.rng = rng
        self.n_teachers = teachers
        self.teachers: list[tuple[uuid.UUID, uuid.UUID, list[uuid.UUID]]] = []  # (teacher, school, classes)
        self.rows = 0
        self._texts = self._base_texts()

    @classmethod
    def kept(cls, admin: sa.Engine, rng: random.Random) -> World:
        """The world of a benchmark database kept by an earlier run: its teachers and its number of rows."""
        with admin.connect() as c:
            people = bench_repo.bench_people(conn=c)
            rows = bench_repo.knowledge_count(conn=c)
        world = cls(admin, len(people), rng)
        world.teachers, world.rows = people, rows
        return world

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
        school_ids = [uuid.uuid4() for _ in range(schools)]
        classes: dict[uuid.UUID, list[uuid.UUID]] = {s: [] for s in school_ids}
        class_rows = []
        for s in school_ids:
            for k in range(TEACHERS_PER_SCHOOL * CLASSES_PER_TEACHER // 2):
                cid = uuid.uuid4()
                classes[s].append(cid)
                class_rows.append({"id": cid, "s": s, "n": f"{5 + k % 8}{chr(97 + k // 8)}", "k": 5 + k % 8})
        trows, links = [], []
        for i in range(self.n_teachers):
            tid, s = uuid.uuid4(), school_ids[i % schools]
            mine = self.rng.sample(classes[s], CLASSES_PER_TEACHER)
            self.teachers.append((tid, s, mine))
            trows.append({"id": tid, "s": s, "e": f"bench{i}@bench.de"})
            links += [{"t": tid, "c": cid} for cid in mine]
        with self.admin.begin() as c:
            bench_repo.insert_people(conn=c, schools=[{"id": s, "n": f"Bench-Schule {i}"} for i, s in
                                                      enumerate(school_ids)],
                                     classes=class_rows, teachers=trows, links=links)

    def grow(self, target: int) -> float:
        """Add knowledge rows until `target`; returns seconds spent (binary COPY, vectors jittered per row)."""
        t0 = time.perf_counter()

        def batches() -> Iterator[Iterator[tuple[Any, ...]]]:
            while self.rows < target:
                n = min(BATCH, target - self.rows)
                yield self._rows(n)
                self.rows += n

        bench_repo.copy_knowledge(engine=self.admin, batches=batches())
        return time.perf_counter() - t0

    def _rows(self, n: int) -> Iterator[tuple[Any, ...]]:
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
