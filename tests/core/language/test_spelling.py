"""Typos in key words are corrected before parsing; everything else stays as written (core.language.spelling)."""

from __future__ import annotations

import pytest

from core.language.spelling import correct


@pytest.mark.parametrize(("text", "expected"), [
    ("Physick Klausur", "Physik Klausur"),
    ("physick test", "physik test"),
    ("Klausr Chemi Klasse 9", "Klausur Chemie Klasse 9"),
    ("englich quiz", "englisch quiz"),
    ("Arbeitsblat Mathe", "Arbeitsblatt Mathe"),
    ("Übungsblat zu Brüchen", "Übungsblatt zu Brüchen"),
    ("deutsche Geschichte", "deutsche Geschichte"),  # an inflected key word is no typo
    ("Klassenarbeiten und Geschichten", "Klassenarbeiten und Geschichten"),
    ("Mathe Test 45 Minuten", "Mathe Test 45 Minuten"),  # short words are never touched
    ("Stromkreise und Widerstände", "Stromkreise und Widerstände"),
])
def test_correct(text: str, expected: str) -> None:
    assert correct(text) == expected
