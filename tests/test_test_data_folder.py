"""The test session's throwaway data folder (/tmp/werkbank-test-*) is deleted when the session ends, unless
WERKBANK_KEEP_TEST_DATA=1 asks to keep it. Checked on a real pytest run in a subprocess with this suite's conftest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = '''
import os
from pathlib import Path


def test_note_the_data_folder() -> None:
    folder = Path(os.environ["WERKBANK_DATA_DIR"])
    (folder / "marker.txt").write_text("a file the session wrote")
    Path(os.environ["PROBE_OUT"]).write_text(str(folder))
'''


def session_folder(tmp_path: Path, keep: str | None) -> Path:
    """Run one test with tests/conftest.py as a plugin; the data folder that session used."""
    (tmp_path / "test_probe.py").write_text(PROBE)
    out = tmp_path / "folder.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PROBE_OUT": str(out)}
    env.pop("WERKBANK_KEEP_TEST_DATA", None)
    if keep is not None:
        env["WERKBANK_KEEP_TEST_DATA"] = keep
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider",
                          "--rootdir", str(tmp_path), str(tmp_path / "test_probe.py")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    folder = Path(out.read_text())
    assert folder.name.startswith("werkbank-test-") and folder != Path(os.environ["WERKBANK_DATA_DIR"])
    return folder


def test_the_data_folder_is_deleted_when_the_session_ends(tmp_path: Path) -> None:
    assert not session_folder(tmp_path, keep=None).exists()


def test_the_data_folder_is_kept_when_asked(tmp_path: Path) -> None:
    folder = session_folder(tmp_path, keep="1")
    try:
        assert (folder / "marker.txt").read_text() == "a file the session wrote"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
