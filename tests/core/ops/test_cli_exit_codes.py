"""Exit-code audit of `python -m core`: every command, given bad input, ends with one German line on stderr that
says what to do and exit code 2 — never a traceback, never an internal-error apology, never a silent success.

The table must name every command the parser knows, so a new command without a bad-input case fails here."""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from core.ops.cli.main import main
from core.ops.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[3]
NOBODY = "niemand-audit@example.org"
ZERO = "00000000-0000-0000-0000-000000000000"
MISSING = "/nicht/vorhanden/datei.docx"

CASES: list[tuple[str, list[str], str]] = [  # (command, argv, what the German line says)
    ("db-info", ["db-info", "--tabelle"], "Unbekannte Argumente: --tabelle"),
    ("seed", ["seed", "alles"], "Unbekannte Argumente: alles"),
    ("wissenskarte", ["wissenskarte", "--fach", "physik", "--teacher", NOBODY], "Unbekannte Lehrkraft"),
    ("wissenskarte", ["wissenskarte", "--fach", "alchemie"], "Unbekanntes Fach „alchemie“"),
    ("import-knowledge", ["import-knowledge", "/nicht/da.json"], "gibt es nicht"),
    ("import-knowledge", ["import-knowledge", "$DIR"], "ist ein Ordner, keine Datei"),
    ("search", ["search", "Strom", "--teacher", NOBODY], "Unbekannte Lehrkraft"),
    ("search", ["search", "Strom", "--limit", "0"], "zwischen 1 und 100"),
    ("reembed", ["reembed", "--alle"], "Unbekannte Argumente: --alle"),
    ("bench", ["bench", "search", "--queries", "0"], "--queries: erwartet eine ganze Zahl von 1 bis 100000"),
    ("bench", ["bench", "chat", "--runs", "-3"], "--runs: erwartet eine ganze Zahl von 1 bis 1000"),
    ("bench", ["bench", "all", "--teachers", "null"], "„null“ ist keine ganze Zahl"),
    ("bench", ["bench", "load", "--teachers", "50", "--processes", "abc"], "--processes erwartet Zahlen von 1 bis 8"),
    ("chat", ["chat", "", "--teacher", NOBODY], "Unbekannte Lehrkraft"),
    ("chat", ["chat", "Hallo", "--conversation", "abc"], "keine gültige Gesprächs-ID"),
    # Checked before the turn runs (a minute of generation was lost, or a greeting said nothing of the typo).
    ("chat", ["chat", "Hallo", "--out", "$TXT"], "ist kein Ordner"),
    ("chat", ["chat", "Hallo", "--out", "$UNDER_TXT"], "lässt sich nicht anlegen"),
    ("material", ["material", "abc"], "keine gültige Material-ID"),
    ("material", ["material", ZERO], "Dieses Material gibt es nicht"),
    ("rate", ["rate", ZERO, "3"], "Dieses Material gibt es nicht"),
    ("rate", ["rate", ZERO, "drei"], "Ungültiger Wert „drei“"),
    ("health", ["health", "--schnell"], "Unbekannte Argumente: --schnell"),
    ("retention", ["retention", "--session-days", "-1"], "--session-days: erwartet eine ganze Zahl von 0 bis 36500"),
    ("retention", ["retention", "--conversation-days", "-5"],
     "--conversation-days: erwartet eine ganze Zahl von 0 bis 36500"),
    ("retention", ["retention", "--session-days", "99999999999999999999"], "--session-days: erwartet eine ganze Zahl"),
    ("import-knowledge", ["import-knowledge", "$SPARSE"], "größer als 20 MB"),
    ("upload", ["upload", "$SPARSE", "--kind", "example"], "zu groß"),
    ("eval", ["eval", "--suite", "gibtsnicht"], "Die Suite „gibtsnicht“ gibt es nicht"),
    ("eval", ["eval", "--suite", "standard", "--prompt-version", "999"], "hat keine Version „999“"),
    ("eval", ["eval", "--suite", "standard", "--model", "quatsch:xyz"], "Der Modellname „quatsch:xyz“ ist unbekannt"),
    ("account", ["account", "create"], "Bitte die E-Mail-Adresse des Kontos angeben"),
    ("account", ["account", "disable", NOBODY], "gibt es kein Konto"),
    ("account", ["account", "create", "kein-at-zeichen"], "keine gültige E-Mail-Adresse"),
    ("account", ["account", "create", "neu-audit@example.org", "--password-stdin", "--name", "Neu"],
     "kam kein Passwort an"),
    ("upload", ["upload", MISSING, "--kind", "example"], "gibt es nicht"),
    ("upload", ["upload", "$DIR", "--kind", "example"], "ist ein Ordner, keine Datei"),
    ("upload", ["upload", "$TXT", "--kind", "curriculum", "--fach", "alchemie"], "Unbekanntes Fach „alchemie“"),
    ("upload", ["upload", "$TXT", "--kind", "example", "--teacher", NOBODY], "Unbekannte Lehrkraft"),
    ("delete-my-data", ["delete-my-data", "--teacher", NOBODY, "--yes"], "Unbekannte Lehrkraft"),
    # An empty variable in a script (`--teacher "$T"`) must not fall back to the demo teacher and delete her data.
    ("delete-my-data", ["delete-my-data", "--teacher", "", "--yes"], "--teacher ist leer"),
    ("delete-my-data", ["delete-my-data", "--teacher", "  ", "--yes"], "--teacher ist leer"),
    ("search", ["search", "Strom", "--teacher", ""], "--teacher ist leer"),
    ("delete-my-data", ["delete-my-data", "--teacher", "steffen.keller@demo-gymnasium.de"],
     "Zum Löschen ohne Rückfrage bitte --yes angeben"),
    ("db-stop", ["db-stop", "--sofort"], "Unbekannte Argumente: --sofort"),
]


def _commands() -> set[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")  # noqa: SLF001  # argparse has no API
    return set(sub.choices)


def _argv(argv: list[str], tmp_path: Path) -> list[str]:
    txt = tmp_path / "lehrplan.txt"
    txt.write_text("Kompetenzen: Die Schülerinnen und Schüler beschreiben Stromkreise.", encoding="utf-8")
    sparse = tmp_path / "riesig.docx"
    with sparse.open("wb") as f:  # 2 GB that take no disk space: only the size is read, never the whole file
        f.truncate(2 * 2**30)
    fifo = tmp_path / "leitung.json"
    os.mkfifo(fifo)
    return [{"$DIR": str(tmp_path), "$TXT": str(txt), "$SPARSE": str(sparse), "$FIFO": str(fifo),
             "$UNDER_TXT": str(txt / "unter")}.get(a, a)
            for a in argv]


def test_every_command_has_a_bad_input_case() -> None:
    assert _commands() == {command for command, _, _ in CASES}


@pytest.mark.parametrize("command, argv, says", CASES, ids=[" ".join(c[1])[:50] for c in CASES])
def test_bad_input_ends_with_one_german_line_and_exit_2(database, capsys, monkeypatch, tmp_path: Path,  # noqa: ANN001
                                                        command: str, argv: list[str], says: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no terminal: nothing waits for an answer
    try:
        code = main(_argv(argv, tmp_path))
    except SystemExit as exc:  # argparse's own errors exit directly
        code = exc.code
    out = capsys.readouterr()
    assert code == 2, (out.out, out.err)
    assert out.err.startswith("Fehler: ") and says in out.err
    assert len(out.err.strip().splitlines()) == 1
    assert "Traceback" not in out.err + out.out and "interner Fehler" not in out.err


def _memory_cap() -> None:
    """At most 2 GB for the child: a command that reads /dev/zero dies of MemoryError instead of the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


@pytest.mark.parametrize("argv, says", [
    (["retention", "--trace-days", "-1"], "--trace-days: erwartet eine ganze Zahl von 0 bis 36500"),
    (["import-knowledge", "$DIR"], "ist ein Ordner, keine Datei"),
    (["upload", MISSING, "--kind", "example"], "gibt es nicht"),
    # Special files: a FIFO with no writer blocked for ever, /dev/zero was read until the machine ran out of memory.
    (["import-knowledge", "$FIFO"], "ist keine gewöhnliche Datei"),
    (["import-knowledge", "/dev/zero"], "ist keine gewöhnliche Datei"),
    (["upload", "$FIFO", "--kind", "example"], "ist keine gewöhnliche Datei"),
    (["upload", "/dev/zero", "--kind", "example"], "ist keine gewöhnliche Datei"),
])
def test_the_real_process_exits_2_with_the_german_line(database, tmp_path: Path, argv: list[str],  # noqa: ANN001
                                                       says: str) -> None:
    done = subprocess.run([sys.executable, "-m", "core", *_argv(argv, tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL,
                          preexec_fn=_memory_cap)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("Fehler: ") and says in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("env, argv, says", [
    # A typo in the configuration: one German line naming the setting, not a pydantic traceback on every command.
    ({"WERKBANK_UPLOAD_KEEP_DAYS": "-3"}, ["retention"], "WERKBANK_UPLOAD_KEEP_DAYS"),
    ({"WERKBANK_UPLOAD_KEEP_DAYS": "sieben"}, ["health"], "WERKBANK_UPLOAD_KEEP_DAYS"),
    ({"WERKBANK_RETAIN_SESSION_DAYS": "abc"}, ["retention"], "WERKBANK_RETAIN_SESSION_DAYS"),
    # -1 days meant "keep nothing newer than tomorrow": every model-call log was deleted, exit 0.
    ({"WERKBANK_RETAIN_TRACE_DAYS": "-1"}, ["retention"], "WERKBANK_RETAIN_TRACE_DAYS"),
    ({"WERKBANK_RETAIN_CONVERSATION_DAYS": "1e9"}, ["retention"], "WERKBANK_RETAIN_CONVERSATION_DAYS"),
])
def test_a_bad_setting_is_one_german_line_and_changes_nothing(database, tmp_path: Path, env: dict[str, str],  # noqa: ANN001
                                                              argv: list[str], says: str) -> None:
    from db.session import admin_engine

    def calls() -> int:
        with admin_engine().connect() as db:
            return db.scalar(sa.text("SELECT count(*) FROM llm_calls"))

    with admin_engine().begin() as db:  # a model call of today, which no retention setting may delete
        db.execute(sa.text("INSERT INTO llm_calls (role, model, input_tokens, output_tokens, tokens_estimated, "
                           "cost_usd, latency_ms, outcome) VALUES ('main', 'test', 1, 1, true, 0, 1, 'ok')"))
    before = calls()
    done = subprocess.run([sys.executable, "-m", "core", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT), **env}, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("Fehler: ") and says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert calls() == before
