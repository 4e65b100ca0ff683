"""`python -m core`: the commands operators use, and German one-line errors (exit 2) for bad arguments."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from core.ops.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:  # noqa: ANN001
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_wissenskarte_prints_the_block_and_its_tokens(database, capsys) -> None:  # noqa: ANN001
    code, out, _ = run_cli(capsys, "wissenskarte", "--teacher", "steffen.keller@demo-gymnasium.de", "--agent",
                           "klausur", "--fach", "physik")
    assert code == 0
    assert out.startswith("### Wissenskarte Physik · Klausur")
    assert "Tokens, geschätzt" in out


def test_db_info_reports_server_pgvector_head_and_counts(database, capsys) -> None:  # noqa: ANN001
    code, out, _ = run_cli(capsys, "db-info", "--json")
    info = json.loads(out)
    assert code == 0
    assert info["server"].startswith("18") and info["pgvector"] >= "0.8"
    assert info["migration"] == info["migration_head"]
    assert info["rows"]["teachers"] >= 5 and info["rows"]["curriculum_chunks"] >= 8


def test_search_json_echoes_external_ids(database, capsys) -> None:  # noqa: ANN001
    code, out, _ = run_cli(capsys, "search", "Reihenschaltung Teilspannungen", "--fach", "physik", "--json",
                           "--limit", "3")
    hits = json.loads(out)
    assert code == 0 and len(hits) == 3
    assert "demo:keller:gp:1" in [h["external_id"] for h in hits]


def test_seed_twice_changes_nothing(database, capsys) -> None:  # noqa: ANN001
    code, out, _ = run_cli(capsys, "seed")
    assert code == 0
    assert "nichts zu tun" in out


@pytest.mark.parametrize("args, message", [
    (["wissenskarte"], "Es fehlt: --fach"),
    (["wissenskarte", "--fach", "latein"], "Unbekanntes Fach „latein“"),
    (["wissenskarte", "--fach", "physik", "--teacher", "niemand@example.org"], "Unbekannte Lehrkraft"),
    (["wissenskarte", "--fach", "physik", "--agent", "referat"], "Ungültiger Wert „referat“"),
    (["search", "", "--fach", "physik"], "Bitte einen Suchbegriff"),
    (["search", "x" * 100_000], "zu lang"),
    (["search", "Strom", "--limit", "viele"], "Ungültiger Wert „viele“"),
    (["search", "Strom", "--limit", "0"], "zwischen 1 und 100"),
    (["bench", "search", "--rows", "abc"], "Ungültiger Wert"),
    (["bench", "search", "--rows", "5"], "zwischen 1000"),
    (["zaubern"], "Ungültiger Wert „zaubern“"),
    (["import-knowledge", "/nicht/da.json"], "gibt es nicht"),
])
def test_bad_arguments_give_one_german_line_and_exit_2(database, capsys, args, message) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit) as exit_info:  # argparse errors exit directly
        code = main(args)
        raise SystemExit(code)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert message in err
    assert err.startswith("Fehler:") and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_invalid_json_import_writes_nothing(database, capsys, tmp_path: Path) -> None:  # noqa: ANN001
    bad = tmp_path / "kaputt.json"
    bad.write_text('[{"fach": "physik", "content": {"aufgabe": "x"}}, {"fach": ', encoding="utf-8")
    with database.connect() as c:
        before = c.execute(sa.text("SELECT count(*) FROM agent_knowledge")).scalar()
    code, _, err = run_cli(capsys, "import-knowledge", str(bad))
    assert code == 2 and "Ungültiges JSON in Zeile 1" in err
    with database.connect() as c:
        assert c.execute(sa.text("SELECT count(*) FROM agent_knowledge")).scalar() == before


def test_cli_process_never_shows_a_traceback(database) -> None:  # noqa: ANN001
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ok = subprocess.run([sys.executable, "-m", "core", "wissenskarte", "--fach", "physik"], cwd=ROOT, env=env,
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "Wissenskarte Physik" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "core", "search", "Strom", "--fach", "Alchemie"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.startswith("Fehler: Unbekanntes Fach") and "Traceback" not in bad.stderr


def test_eval_gate_prints_precision_and_recall_per_class_and_fails_below_the_bar(capsys) -> None:  # noqa: ANN001
    code, out, _ = run_cli(capsys, "eval", "--suite", "gate_heldout", "--json", "--min-pass", "0")
    assert code == 0
    data = json.loads(out)
    names = [c["name"] for c in data["classes"]]
    assert names == ["Füllaufgabe", "Doppelung", "Thema", "Niveau"]  # a held-out set: the bank is not added
    for c in data["classes"]:
        assert 0 <= c["precision"] <= 1 and 0 <= c["recall"] <= 1 and c["tp"] + c["fn"] > 0
    weakest = min(min(c["precision"], c["recall"]) for c in data["classes"])
    code, _, _ = run_cli(capsys, "eval", "--suite", "gate_heldout", "--min-pass", f"{weakest + 0.001:.3f}")
    assert code == 1
    code, _, err = run_cli(capsys, "eval", "--suite", "gate_gibtsnicht")
    assert code == 2 and "gibt es nicht" in err
