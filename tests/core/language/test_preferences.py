"""Standing wishes in teacher text (core.language.preferences): phrase -> the preference store's fields."""

from __future__ import annotations

import pytest

from core.language.preferences import extract_preferences

# --- preferences -----------------------------------------------------------------------------------------------------

PREFERENCE_CASES: list[tuple[str, dict[str, object]]] = [
    ("immer 5 Aufgaben", {"aufgaben_anzahl": 5}),
    ("bitte grundsätzlich fünf Aufgaben", {"aufgaben_anzahl": 5}),
    ("keine Multiple Choice", {"dinge_vermeiden": ["Multiple Choice"]}),
    ("bitte keine MC-Aufgaben mehr", {"dinge_vermeiden": ["Multiple Choice"]}),
    ("ohne Taschenrechner", {"dinge_vermeiden": ["Taschenrechner"]}),
    ("Bitte künftig keine Lückentexte mehr und immer eine Bonusaufgabe",
     {"dinge_vermeiden": ["Lückentexte"], "bonusaufgabe": True}),
    ("mit Bonusaufgabe", {"bonusaufgabe": True}),
    ("ohne Bonusaufgabe bitte", {"bonusaufgabe": False}),
    ("60:40 Rechnung zu Theorie", {"rechnung_theorie_ratio": "60:40"}),
    ("Theorie zu Rechnung 40:60", {"rechnung_theorie_ratio": "60:40"}),
    ("70 % Rechnung, 30 % Theorie", {"rechnung_theorie_ratio": "70:30"}),
    ("immer AFB 30/40/30", {"afb_verteilung": (30, 40, 30)}),
    ("Super, genau so!", {}),
    ("Kein Problem, mach weiter", {}),
    ("", {}),
]


@pytest.mark.parametrize(("text", "expected"), PREFERENCE_CASES, ids=[c[0] or "empty" for c in PREFERENCE_CASES])
def test_extract_preferences(text: str, expected: dict[str, object]) -> None:
    assert extract_preferences(text) == expected
