"""Notenschlüssel: ranges a teacher can print as they are — contiguous, half-point steps, thresholds honoured."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from core.materials.notenschluessel import (
    OBERSTUFE_SCHWELLEN,
    SEK1_SCHWELLEN,
    NotenSchema,
    compute_notenschluessel,
    default_schema,
    format_zahl,
)

SCHEMAS = {
    "oberstufe": NotenSchema(art="oberstufe_15"),
    "sek1": NotenSchema(art="sek1_6"),
    "sek1_eigene": NotenSchema(art="sek1_6", schwellen_prozent=[95, 85, 70, 55, 35]),
}
TOTALS = [37, 45, 60.5, 100, 24, 7, 5, 1.5]


def _half_steps(total: float) -> list[float]:
    return [i / 2 for i in range(int(total * 2) + 1)]


@pytest.mark.parametrize("total", TOTALS)
@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_ranges_are_contiguous_non_overlapping_and_cover_zero_to_total(schema_name, total):
    rows = compute_notenschluessel(total, SCHEMAS[schema_name])
    assert rows[0].max_punkte == total
    assert rows[-1].min_punkte == 0
    for row in rows:
        assert row.min_punkte <= row.max_punkte
        assert (row.min_punkte * 2).is_integer() and (row.max_punkte * 2).is_integer()
    for better, worse in zip(rows, rows[1:], strict=False):
        assert worse.max_punkte == better.min_punkte - 0.5


@pytest.mark.parametrize("total", TOTALS)
@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_every_half_point_gets_exactly_one_grade_meeting_its_threshold(schema_name, total):
    rows = compute_notenschluessel(total, SCHEMAS[schema_name])
    for punkte in _half_steps(total):
        matches = [r for r in rows if r.min_punkte <= punkte <= r.max_punkte]
        assert len(matches) == 1, punkte
        row = matches[0]
        # reaching the grade means reaching its percentage; half a point less would not
        assert Fraction(str(punkte)) * 100 >= Fraction(str(row.ab_prozent)) * Fraction(str(total))
        if row is not rows[0]:
            better = rows[rows.index(row) - 1]
            assert Fraction(str(punkte)) * 100 < Fraction(str(better.ab_prozent)) * Fraction(str(total))


def test_oberstufe_key_for_60_points_matches_the_kmk_table():
    rows = {r.note: (r.min_punkte, r.max_punkte) for r in compute_notenschluessel(60, SCHEMAS["oberstufe"])}
    assert rows["15"] == (57, 60)  # 95 %
    assert rows["10"] == (42, 44.5)  # 70 %
    assert rows["5"] == (27, 29.5)  # 45 %
    assert rows["4"] == (24, 26.5)  # 40 %
    assert rows["3"] == (20, 23.5)  # 33 % = 19.8 -> 20
    assert rows["0"] == (0, 11.5)  # below 20 % = 12
    assert list(rows) == [str(n) for n in range(15, -1, -1)]


def test_sek1_default_key_for_37_points_rounds_minimums_up_to_half_points():
    rows = compute_notenschluessel(37, SCHEMAS["sek1"])
    assert [(r.note, r.label, r.min_punkte, r.max_punkte) for r in rows] == [
        ("1", "sehr gut", 34.5, 37),  # 92 % = 34.04
        ("2", "gut", 30, 34),  # 81 % = 29.97
        ("3", "befriedigend", 25, 29.5),  # 67 % = 24.79
        ("4", "ausreichend", 18.5, 24.5),  # 50 % = 18.5
        ("5", "mangelhaft", 11.5, 18),  # 30 % = 11.1
        ("6", "ungenügend", 0, 11),
    ]


def test_half_point_totals_use_exact_arithmetic():
    rows = {r.note: r for r in compute_notenschluessel(60.5, SCHEMAS["oberstufe"])}
    assert rows["3"].min_punkte == 20  # 33 % of 60.5 = 19.965, not a float artefact like 19.965000000000003
    assert rows["15"].min_punkte == 57.5  # 95 % of 60.5 = 57.475


def test_tiny_totals_leave_out_unreachable_grades_instead_of_overlapping():
    rows = compute_notenschluessel(5, SCHEMAS["oberstufe"])
    notes = [r.note for r in rows]
    assert "13" not in notes  # 85 % of 5 = 4.25 -> 4.5, same half point as 14 (90 %)
    assert len(notes) == len(set(notes)) and notes[0] == "15" and notes[-1] == "0"


def test_no_points_means_no_key_and_odd_totals_are_refused():
    assert compute_notenschluessel(0, SCHEMAS["sek1"]) == []
    with pytest.raises(ValueError, match="0,5"):
        compute_notenschluessel(37.3, SCHEMAS["sek1"])


def test_schemas_default_to_the_documented_thresholds():
    assert NotenSchema(art="oberstufe_15").schwellen_prozent == list(OBERSTUFE_SCHWELLEN)
    assert NotenSchema(art="sek1_6").schwellen_prozent == list(SEK1_SCHWELLEN) == [92, 81, 67, 50, 30]


@pytest.mark.parametrize(
    "schwellen",
    [
        [92, 81, 81, 50, 30],  # not strictly decreasing
        [92, 81, 67, 70, 30],  # rising
        [101, 81, 67, 50, 30],  # above 100
        [92, 81, 67, 50, 0],  # zero: the worst grade would be unreachable
        [92, 81, 67, 50],  # one short for grades 1-6
    ],
)
def test_custom_thresholds_are_validated(schwellen):
    with pytest.raises(ValidationError):
        NotenSchema(art="sek1_6", schwellen_prozent=schwellen)


def test_default_schema_uses_the_15_point_scale_in_the_oberstufe():
    assert default_schema(10, "Sek I").art == "sek1_6"
    assert default_schema(5, "Sek I").art == "sek1_6"
    assert default_schema(11, "Sek I").art == "oberstufe_15"
    assert default_schema(12, "gA").art == "oberstufe_15"
    assert default_schema(13, "eA").art == "oberstufe_15"


def test_german_number_format():
    assert format_zahl(37.5) == "37,5"
    assert format_zahl(45.0) == "45"
    assert format_zahl(33.333, 1) == "33,3"
