"""The request-understanding suite (seeds/eval/requests.yaml): its shape, the dev set's accuracy per field, the
scoring and `python -m core eval --suite requests`. No database: the offline main model is asked directly."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.evaluation import requests as request_eval
from core.ops.cli.main import main

FAECHER = {"physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie"}


@pytest.fixture(scope="module")
def suite() -> request_eval.RequestSuite:
    return request_eval.load()


def test_suite_has_a_dev_and_a_heldout_part_covering_every_fach_and_material(suite) -> None:  # noqa: ANN001
    assert len(suite.dev) >= 150 and len(suite.heldout) >= 50
    ids = [c.id for c in suite.dev + suite.heldout]
    assert len(ids) == len(set(ids))
    for part in (suite.dev, suite.heldout):
        expected = [c.expect for c in part if c.expect is not None]
        assert {e.fach for e in expected} == FAECHER
        assert {e.material_type for e in expected} == {"klausur", "differenzierung", "h5p"}
        assert any(c.asks for c in part) and any(len(c.turns) > 1 for c in part)
        assert any(e.unterthemen for e in expected) and any(e.niveau for e in expected)


def test_dev_requests_are_understood_field_by_field(suite) -> None:  # noqa: ANN001
    result = request_eval.run_section("dev", suite.dev)
    low = {k: v for k, v in result.accuracy.items() if v < 0.95}
    assert not low, request_eval.format_results([result], min_accuracy=0.95)


def test_a_question_asked_twice_in_a_row_counts_as_wrong() -> None:
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
    from pydantic_ai.models.function import AgentInfo

    from agents.models.registry import rules_model

    def stubborn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart("Für welche Klasse bzw. Klassenstufe?")])

    out = request_eval.play(["Klausur Physik Optik", "8"], rules_model(stubborn))
    assert out.repeated and out.asked == ["klassenstufe"]
    case = request_eval.RequestCase(id="x", turns=["a", "b"], asks=["klassenstufe"])
    result = request_eval.run_section("x", [case], model=rules_model(stubborn))
    assert result.accuracy[request_eval.QUESTION] == 0.0


def test_topics_are_compared_exactly_but_english_ones_in_any_case() -> None:
    german = request_eval.Expected(fach="physik", klassenstufe=9, thema=["Ohmsches Gesetz"], material_type="klausur")
    assert request_eval.field_ok(german, "thema", "Ohmsches Gesetz")
    assert not request_eval.field_ok(german, "thema", "Ohmsches gesetz")
    english = german.model_copy(update={"fach": "englisch", "thema": ["Present Perfect"]})
    assert request_eval.field_ok(english, "thema", "present perfect")
    nested = german.model_copy(update={"unterthemen": [["Mendel", "Mendelsche Regeln"], "Stammbaumanalyse"]})
    assert request_eval.field_ok(nested, "unterthemen", ["Mendelsche Regeln", "Stammbaumanalyse"])
    assert not request_eval.field_ok(nested, "unterthemen", ["Stammbaumanalyse"])


def test_cli_prints_the_accuracy_table_for_the_dev_part(capsys) -> None:  # noqa: ANN001
    code = main(["eval", "--suite", "requests", "--teil", "dev"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("Anfrageverständnis (Offline-Modell)")
    for label in (*request_eval.FIELDS, "fragt richtig"):
        assert label in out


def test_cli_json_names_sections_and_failures(capsys) -> None:  # noqa: ANN001
    code = main(["eval", "--suite", "requests", "--teil", "dev", "--json", "--min-pass", "1.0"])
    data = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in data["sections"]] == ["dev"]
    accuracy = data["sections"][0]["accuracy"]
    assert set(accuracy) == {*request_eval.FIELDS, request_eval.QUESTION}
    assert code == (0 if all(v >= 1.0 for v in accuracy.values()) else 1)


def test_cli_refuses_another_model_for_the_request_suite(capsys) -> None:  # noqa: ANN001
    assert main(["eval", "--suite", "requests", "--model", "openai:gpt-5"]) == 2
    assert "Offline-Regelmodell" in capsys.readouterr().err


def test_every_question_field_is_labelled_somewhere(suite) -> None:  # noqa: ANN001
    asked = Counter(f for c in suite.dev + suite.heldout for f in (c.asks or []))
    assert set(asked) == {"fach", "klassenstufe", "thema", "dauer", "material_type"}
