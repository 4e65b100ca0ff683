"""The app starts, migrates, seeds and shows that the database is reachable."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_start_page_shows_database_reachable(database) -> None:  # noqa: ANN001
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert any("Datenbank erreichbar" in s.value and "pgvector 0.8" in s.value for s in at.success)
    assert at.metric[0].label == "Wissenseinträge" and int(at.metric[0].value.replace(".", "")) > 100
