"""The registry's seams to the offline provider: the rule models, the rule planner and its lexicon (no database)."""

from __future__ import annotations

from pydantic_ai.messages import ModelRequest, ToolCallPart, UserPromptPart
from pydantic_ai.models.function import FunctionModel

from agents.models.calls import LoggedModel
from agents.models.names import OFFLINE_MODEL_NAME
from agents.models.registry import (
    lexicon,
    model_for,
    offline_model,
    offline_rules,
    override_models,
    plan_by_rules,
    planner_model,
    rules_model,
)


def test_offline_roles_are_rule_models_named_offline_rules() -> None:
    for role in ("main", "klausur", "differenzierung", "h5p", "supervisor"):
        assert offline_model(role).model_name == OFFLINE_MODEL_NAME
    wrapped = model_for("main")
    assert isinstance(wrapped, LoggedModel) and wrapped.wrapped.model_name == OFFLINE_MODEL_NAME


def test_the_main_rules_read_requests_with_the_seeded_lexicon() -> None:
    assert "Elektrizitätslehre" in lexicon().terms["physik"]
    response = offline_rules("main")([ModelRequest(parts=[UserPromptPart(
        "Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten")])], None)  # type: ignore[arg-type]
    call = response.parts[0]
    assert isinstance(call, ToolCallPart) and call.tool_name == "generate_material"
    assert call.args_as_dict()["fach"] == "physik" and call.args_as_dict()["dauer_minuten"] == 45


def test_offline_the_rules_plan_without_a_planner_model() -> None:
    assert planner_model() is None
    plan = plan_by_rules("Für die 10a: eine Klausur zu Stromkreisen und ein H5P-Quiz dazu")
    assert [p.material_type for p in plan.parts] == ["klausur", "h5p"]


def test_an_override_of_the_supervisor_role_is_the_planner_model() -> None:
    scripted = rules_model(offline_rules("supervisor"), model_name="scripted-planner")
    with override_models(supervisor=scripted):
        model = planner_model()
    assert isinstance(model, LoggedModel) and isinstance(model.wrapped, FunctionModel)
    assert model.wrapped.model_name == "scripted-planner"
