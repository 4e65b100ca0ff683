"""What counts as a rating in chat words (decision 071): only unmistakable ones — and the yes/no to „merken?“."""

from __future__ import annotations

import pytest

from core.language.rating import explicit_stars, is_acknowledgement, is_no, is_yes


@pytest.mark.parametrize(
    "text, stars",
    [
        ("5 Sterne", 5),
        ("Fünf Sterne!", 5),
        ("Ein Stern, das war nichts.", 1),
        ("2 Sterne, zu schwer", 2),
        ("Bewertung: 4/5", 4),
        ("4/5", 4),
        ("Ich bewerte mit 3", 3),
        ("★★★★☆", 4),
        ("⭐⭐⭐⭐⭐ danke", 5),
        ("Sehr gut, bitte so merken", 5),
        ("Super, genau so – bitte so merken!", 5),
        ("Bitte als bewährte Aufgaben speichern", 5),
        ("Merk dir die Klausur als bewährt", 5),
        ("Bitte in meine bewährten Aufgaben aufnehmen", 5),
        # praise, thanks, answers and requests are no rating
        ("Super, genau so!", None),
        ("Perfekt", None),
        ("Standard passt", None),
        ("passt schon", None),
        ("ok danke", None),
        ("Super ⭐", None),
        ("Bitte nicht so merken", None),
        ("Note 2", None),
        ("30/40/30 bitte", None),
        ("Aufgabe 4 von 5 streichen", None),
        ("Klausur Physik Klasse 9, 45 Minuten, 5 Aufgaben", None),
    ],
)
def test_explicit_stars(text: str, stars: int | None) -> None:
    assert explicit_stars(text) == stars


@pytest.mark.parametrize(
    "text, yes, no",
    [
        ("Ja", True, False),
        ("Ja, bitte", True, False),
        ("gerne!", True, False),
        ("bitte merken", True, False),
        ("Nein", False, True),
        ("Nein danke", False, True),
        ("lieber nicht", False, True),
        ("Standard passt", False, False),
        ("ok", False, False),
        ("Ja, aber Aufgabe 2 leichter", False, False),
        ("ne Klausur zu Optik", False, False),
    ],
)
def test_yes_and_no_to_the_question(text: str, yes: bool, no: bool) -> None:
    assert (is_yes(text), is_no(text)) == (yes, no)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Standard passt", True),
        ("ok danke", True),
        ("Danke!", True),
        ("passt schon", True),
        ("alles klar", True),
        ("Super, genau so!", False),
        ("zu schwer", False),
        ("Klausur Physik Klasse 9", False),
        ("", False),
    ],
)
def test_acknowledgement(text: str, expected: bool) -> None:
    assert is_acknowledgement(text) is expected
