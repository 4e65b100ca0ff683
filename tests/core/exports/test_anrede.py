"""The printed worksheet addresses Oberstufe pupils in the Sie-form, like its tasks (decision 024)."""

from __future__ import annotations

from core.exports.sheets_differenzierung import schuelerfassung
from tests.core.checks.test_structure import make_differenzierung


def test_an_oberstufe_worksheet_tells_pupils_about_help_cards_in_the_sie_form() -> None:
    text = schuelerfassung(make_differenzierung(klassenstufe=12)).plain_text()
    assert "Nutzen Sie eine Hilfekarte erst, wenn Sie allein nicht weiterkommen." in text
    assert "wenn du" not in text


def test_a_sek_one_worksheet_keeps_the_du_form() -> None:
    text = schuelerfassung(make_differenzierung(klassenstufe=7)).plain_text()
    assert "Nutze eine Hilfekarte erst, wenn du allein nicht weiterkommst." in text
