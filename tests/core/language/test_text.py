"""The folds of core.language: one place for every way the app makes spellings meet."""

from __future__ import annotations

import pytest

from core.language.fold import fold_for_rules
from core.language.text import fold, fold_compatible, fold_composed, fold_loose


@pytest.mark.parametrize(("text", "expected"), [
    ("Brüche", "brueche"), ("Café", "cafe"), ("STRASSE", "strasse"), ("Maß", "mass"),
])
def test_fold_spells_out_umlauts_and_drops_accents(text: str, expected: str) -> None:
    assert fold(text) == expected


def test_loose_fold_merges_umlaut_spellings() -> None:
    assert fold_loose("Brüche") == fold_loose("Brueche") == fold_loose("Bruche") == "bruche"


def test_composed_fold_reads_decomposed_umlauts_from_files() -> None:
    assert fold_composed("fu\u0308r") == fold("für") == "fuer"
    assert fold("fu\u0308r") != "fuer"  # why file text needs the composed fold


@pytest.mark.parametrize(("text", "expected"), [
    ("fu\u0308r", "fuer"), ("\ufb01nden", "finden"), ("m²", "m2"), ("Ｘ", "x"), ("Ärger", "aerger"),
])
def test_the_embedders_fold_normalises_compatibility_forms(text: str, expected: str) -> None:
    assert fold_compatible(text) == expected


def test_the_rule_fold_drops_hidden_characters_and_unifies_quotes_and_dashes() -> None:
    assert fold_for_rules("  Sch\u200büler\u202e „Name“ – Klasse\n\n 7a ") == 'schueler "name" - klasse\n7a'
