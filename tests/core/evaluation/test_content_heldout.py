"""The held-out content suite (#10, seeds/eval/content_heldout.yaml): it loads by name like every suite, every case
validates, it has the mix it promises, and none of its requests is a case of the tuned content suite."""

from __future__ import annotations

from collections import Counter

from core.evaluation.suites import list_suites, load_suite, suite_path
from core.materials.faecher import FAECHER


def test_the_heldout_suite_loads_by_name_and_every_case_validates() -> None:
    suite = load_suite("content_heldout")  # parse_suite validates every case; a broken one raises a UserError
    assert suite.name == "content_heldout"
    assert suite_path("content_heldout").name == "content_heldout.yaml"
    listed = {s.name: s for s in list_suites()}
    assert listed["content_heldout"].fehler is None
    assert listed["content_heldout"].faelle == 48


def test_the_heldout_suite_has_six_cases_per_fach_and_the_promised_mix() -> None:
    faelle = load_suite("content_heldout").faelle
    assert Counter(c.erwartet.fach for c in faelle) == dict.fromkeys(FAECHER, 6)
    assert Counter(c.erwartet.typ for c in faelle) == {"klausur": 26, "differenzierung": 12, "h5p": 10}
    # every case is measured by the content evaluators (they need topic words), every exam has a duration
    assert all(c.erwartet.themenwoerter for c in faelle)
    assert all(c.erwartet.dauer for c in faelle if c.erwartet.typ == "klausur")
    assert all(c.erwartet.fragen for c in faelle if c.erwartet.typ == "h5p")
    assert {c.erwartet.klassenstufe for c in faelle} >= {5, 6, 7, 8, 9, 10, 11, 12, 13}
    assert sum(1 for c in faelle if c.erwartet.afb) >= 5
    assert sum(1 for c in faelle if c.erwartet.unterthemen) >= 30


def test_no_heldout_request_repeats_a_case_of_the_content_suite() -> None:
    tuned = load_suite("content").faelle
    heldout = load_suite("content_heldout").faelle
    assert not {c.name for c in tuned} & {c.name for c in heldout}
    assert not {c.anfrage.casefold() for c in tuned} & {c.anfrage.casefold() for c in heldout}
