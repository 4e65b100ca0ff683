"""The benchmarks themselves: the search bench runs end to end on a database of its own (teachers' identities signed
with that database's key, so row-level security lets them see their rows), drops it afterwards unless kept, and a
kept one is measured again without loading; the scale-out bench's CPU accounting sees PostgreSQL work."""

from __future__ import annotations

import re

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from core.ops.bench.cpu import RunMeter, postgres_cpu_seconds
from core.ops.bench.rows import BENCH_DB, run_bench
from core.ops.bench.scaleout import bound
from db.repos import bench as bench_repo
from db.session import admin_engine, admin_url


def _exists() -> bool:
    return bench_repo.database_exists(url=make_url(admin_url()), name=BENCH_DB)


def test_search_bench_measures_every_size_and_leaves_no_database_behind(database, capsys) -> None:  # noqa: ANN001
    run_bench("search", rows=[1000, 2000], teachers=20, queries=6, write=False)
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "Zeilen · Suche p50" in line]
    assert [line.split()[0] for line in lines] == ["1,000", "2,000"], out
    # the vector path is exact: the same ten neighbours as a scan without any index, for teachers who see rows
    assert all("recall@10 1.000" in line for line in lines), out
    assert re.search(r"Wachstum p50 1,000 → 2,000 Zeilen: Suche \d+\.\d\d×", out), out
    assert not _exists()


def test_a_kept_bench_database_is_measured_again_without_loading(database, capsys) -> None:  # noqa: ANN001
    try:
        run_bench("search", rows=[1500], teachers=10, queries=3, write=False, keep=True)
        assert _exists()
        capsys.readouterr()
        run_bench("search", rows=[1000, 1500], teachers=10, queries=3, write=False, reuse=True)
        out = capsys.readouterr().out
        assert "Vorhandene Benchmark-Datenbank werkbank_bench: 1,500 Zeilen, 10 Lehrkräfte" in out, out
        assert "1,000 Zeilen übersprungen" in out
        assert re.search(r"1,500 Zeilen · Suche p50 .* Laden 0 s · Index 0 s", out), out
        assert not _exists()
    finally:
        bench_repo.drop_database(url=make_url(admin_url()), name=BENCH_DB)


def test_the_meter_counts_postgres_cpu_and_lock_waits(database) -> None:  # noqa: ANN001
    assert postgres_cpu_seconds() is not None
    meter = RunMeter(interval=0.05)
    meter.start()
    with admin_engine().connect() as c:
        c.execute(sa.text("SELECT sum(sqrt(g)) FROM generate_series(1, 3000000) g")).scalar()
    meter.stop()
    assert meter.pg is not None and meter.pg > 0.1, meter
    assert meter.samples >= 1 and meter.lock_waits == 0


def test_the_bound_is_what_two_cores_allow_for_the_cpu_one_turn_costs() -> None:
    run = {"teachers": 50, "wall_s": 100.0, "app_cpu": [80.0], "pg_cpu": 20.0, "machine_cpu": 100.0}
    # 0.8 s app + 0.2 s PostgreSQL per turn: one process ≤ 1.25 turns/s (GIL), two cores ≤ 2.0 turns/s
    assert round(bound(run, 2), 2) == 1.6
    heavy_db = {**run, "pg_cpu": 40.0}  # 0.8 s + 0.4 s per turn: two cores are full at 1.67 turns/s
    assert round(bound(heavy_db, 2), 2) == 1.33
