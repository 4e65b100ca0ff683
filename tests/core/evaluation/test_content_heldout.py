"""The held-out content suites (#10, seeds/eval/content_heldout.yaml and content_heldout_2.yaml): each loads by name
like every suite, every case validates, it has the mix it promises, and none of their requests is a case of the tuned
content suite or of the other held-out suite."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from core.evaluation.suites import list_suites, load_suite, suite_path
from core.materials.faecher import FAECHER

HELDOUT = ("content_heldout", "content_heldout_2")


@pytest.mark.parametrize("name", HELDOUT)
def test_the_heldout_suite_loads_by_name_and_every_case_validates(name: str) -> None:
    suite = load_suite(name)  # parse_suite validates every case; a broken one raises a UserError
    assert suite.name == name
    assert suite_path(name).name == f"{name}.yaml"
    listed = {s.name: s for s in list_suites()}
    assert listed[name].fehler is None
    assert listed[name].faelle == 48


@pytest.mark.parametrize("name", HELDOUT)
def test_the_heldout_suite_has_six_cases_per_fach_and_the_promised_mix(name: str) -> None:
    faelle = load_suite(name).faelle
    assert Counter(c.erwartet.fach for c in faelle) == dict.fromkeys(FAECHER, 6)
    assert Counter(c.erwartet.typ for c in faelle) == {"klausur": 26, "differenzierung": 12, "h5p": 10}
    # every case is measured by the content evaluators (they need topic words), every exam has a duration
    assert all(c.erwartet.themenwoerter for c in faelle)
    assert all(c.erwartet.dauer for c in faelle if c.erwartet.typ == "klausur")
    assert all(c.erwartet.fragen for c in faelle if c.erwartet.typ == "h5p")
    assert {c.erwartet.klassenstufe for c in faelle} >= {5, 6, 7, 8, 9, 10, 11, 12, 13}
    assert sum(1 for c in faelle if c.erwartet.afb) >= 5
    assert sum(1 for c in faelle if c.erwartet.unterthemen) >= 30


@pytest.mark.parametrize(("a", "b"), list(combinations(("content", *HELDOUT), 2)))
def test_no_heldout_request_repeats_a_case_of_another_content_suite(a: str, b: str) -> None:
    first, second = load_suite(a).faelle, load_suite(b).faelle
    assert not {c.name for c in first} & {c.name for c in second}
    assert not {c.anfrage.casefold() for c in first} & {c.anfrage.casefold() for c in second}
