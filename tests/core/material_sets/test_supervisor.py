"""The supervisor for combined requests: decomposition (labelled set), capability matching, DAG and cycles,
conflicts, collected Rückfragen and how one answer is split, refused plans, and the full run with files and ZIP."""

from __future__ import annotations

import asyncio
import io
import uuid
import zipfile
from pathlib import Path

import pytest
import yaml
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.deps import TurnContext
from agents.guard import GuardedToolset
from agents.models.registry import lexicon, offline_rules, override_models, plan_by_rules, rules_model
from agents.offline.capability import select_specialist
from agents.offline.planner import planner_rules
from agents.planner import Plan, PlannerDeps, PlanPart, normalized, planner_agent, planner_prompt, topological_levels
from core.material_sets.accuracy import decomposition_accuracy
from core.material_sets.answers import split_answer
from core.material_sets.conflicts import plan_conflicts
from core.material_sets.plan import plan
from core.material_sets.records import CollectedQuestion, PlanRefused
from core.material_sets.service import continue_combined, run_combined
from db.repos import materials as material_repo
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER

LABELLED = Path(__file__).resolve().parents[3] / "seeds" / "eval" / "combined.yaml"
EXAMPLE_WITH_CONFLICT = ("Für die 10a: eine Klausur zu Stromkreisen (45 Minuten, AFB 30/40/30), dazu ein "
                         "differenziertes Übungsblatt zur Induktion zur Vorbereitung und ein H5P-Quiz mit 6 Fragen")


def _cases() -> list[dict]:
    return yaml.safe_load(LABELLED.read_text(encoding="utf-8"))["cases"]


def _turn(db: Session, as_teacher) -> TurnContext:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    return TurnContext(db=db, identity=ident, teacher=teacher)


# --- decomposition ----------------------------------------------------------------------------------------------------


def test_labelled_set_is_large_and_spans_the_subjects() -> None:
    cases = _cases()
    assert len(cases) >= 24
    assert len({p["fach"] for c in cases for p in c["parts"]}) == 8
    assert all(len(c["parts"]) >= 2 for c in cases)
    assert len({c["id"] for c in cases}) == len(cases)


def test_decomposition_accuracy_of_the_offline_rules_is_at_least_90_percent() -> None:
    cases = _cases()
    accuracy, failures = decomposition_accuracy(cases)
    print(f"\nDecomposition accuracy (offline rules, {len(cases)} labelled combined requests): {accuracy:.3f}")
    for case_id, why in failures:
        print(f"  miss: {case_id}: {why}")
    assert accuracy >= 0.9, failures


def test_the_10a_example_becomes_a_dag_where_worksheet_and_quiz_follow_the_exam() -> None:
    p = normalized(plan_by_rules("Für die 10a: eine Klausur zu Stromkreisen, dazu ein differenziertes Übungsblatt zur "
                                 "Vorbereitung und ein H5P-Quiz"))
    assert [(x.material_type, x.fach, x.klassenstufe, x.klasse, x.thema) for x in p.parts] == [
        ("klausur", "physik", 10, "10a", "Stromkreise"),
        ("differenzierung", "physik", 10, "10a", "Stromkreise"),
        ("h5p", "physik", 10, "10a", "Stromkreise"),
    ]
    assert [x.depends_on for x in p.parts] == [[], ["klausur"], ["klausur"]]
    assert topological_levels(p.parts) == [["klausur"], ["blatt", "quiz"]]


@pytest.mark.parametrize(("wording", "agent_type", "confidence"), [
    ("eine Lückentext-Übung zu Brüchen", "h5p", 0.9),
    ("ein Übungsblatt zur Vorbereitung", "differenzierung", 0.8),
    ("ein differenziertes Übungsblatt", "differenzierung", 0.9),
    ("ein H5P-Quiz", "h5p", 0.95),
    ("eine Klassenarbeit", "klausur", 0.95),
    ("ein interaktives Arbeitsblatt", "h5p", 0.9),
])
def test_capability_matching_names_specialist_and_confidence(wording: str, agent_type: str, confidence: float) -> None:
    choice = select_specialist(wording)
    assert (choice.agent_type, choice.confidence, choice.fallback) == (agent_type, confidence, False)


def test_an_ambiguous_part_falls_back_to_the_klausur_with_low_confidence_noted() -> None:
    choice = select_specialist("Material zu Brüchen")
    assert (choice.agent_type, choice.fallback) == ("klausur", True) and choice.confidence < 0.5
    p = plan_by_rules("Mathe 6: Material zu Brüchen und ein Quiz dazu")
    assert p.parts[0].material_type == "klausur" and p.parts[0].confidence < 0.5
    assert any("nicht erkennbar" in n and "Klausur angenommen" in n for n in p.notes)


def test_a_cycle_falls_back_to_a_flat_list() -> None:
    cyclic = Plan(parts=[
        PlanPart(key="a", material_type="klausur", fach="Physik", klassenstufe=10, thema="Optik", dauer_minuten=45,
                 depends_on=["b"]),
        PlanPart(key="b", material_type="h5p", fach="Physik", klassenstufe=10, thema="Linsen", depends_on=["a"]),
    ])
    assert topological_levels(cyclic.parts) is None
    flat = normalized(cyclic)
    assert flat.flat and all(not x.depends_on for x in flat.parts)
    assert topological_levels(flat.parts) == [["a", "b"]]
    assert any("Kreis" in n for n in flat.notes)
    assert [x.fach for x in flat.parts] == ["physik", "physik"]


def test_more_than_five_parts_and_impossible_classes_are_refused_in_german() -> None:
    with pytest.raises(PlanRefused, match="höchstens 5"):
        asyncio.run(plan("Physik 8: eine Klausur zu Optik (45 Minuten), ein Quiz zu Linsen, ein Arbeitsblatt zu "
                         "Spiegeln, ein Test zu Schatten (20 Minuten), ein Lückentext zu Licht und ein Übungsblatt "
                         "zur Brechung"))
    with pytest.raises(PlanRefused, match="Grundschulklasse"):
        asyncio.run(plan("Für Klasse 4: ein Quiz zu Brüchen und ein Arbeitsblatt zu Brüchen"))


def test_the_rules_planner_as_a_model_gives_the_same_plan_through_the_checked_agent() -> None:
    text = "Chemie 9a: eine Lernkontrolle zum Periodensystem (30 Minuten), dazu eine Zuordnungsübung"
    result = planner_agent.run_sync(planner_prompt(text, {"fach": "chemie"}), deps=PlannerDeps(),
                                    model=rules_model(planner_rules(lexicon())))
    assert result.output == plan_by_rules(text, {"fach": "chemie"})


# --- conflicts --------------------------------------------------------------------------------------------------------


def test_durations_that_do_not_fit_into_the_shared_lesson_are_named() -> None:
    p = normalized(plan_by_rules("Biologie Klasse 8: eine Klausur über das Nervensystem (45 Minuten) und ein "
                                 "Übungsblatt zur Vorbereitung (90 Minuten) in derselben Stunde"))
    assert p.lesson_minutes == 45
    conflicts = plan_conflicts(p)
    assert any("Zeit passt nicht" in c and "135 Minuten" in c for c in conflicts), conflicts


def test_differing_klassenstufen_are_named() -> None:
    p = normalized(plan_by_rules("Geschichte: für die 8a ein Test zur Französischen Revolution (30 Minuten) und für "
                                 "die 9a ein Quiz zum Absolutismus"))
    assert any("unterschiedliche Klassenstufen" in c for c in plan_conflicts(p))


# --- splitting one answer to several Rückfragen -----------------------------------------------------------------------


def test_a_combined_answer_is_split_into_afb_for_the_exam_and_count_for_the_quiz() -> None:
    exam = CollectedQuestion(part_key="klausur", material_type="klausur", session_id=uuid.uuid4(),
                             frage="Welche Verteilung auf die Anforderungsbereiche I/II/III wünschen Sie?")
    quiz = CollectedQuestion(part_key="quiz", material_type="h5p", session_id=uuid.uuid4(),
                             frage="Wie viele Fragen soll das Quiz haben?")
    routed, rest = split_answer("30/40/30, und beim Quiz 10 Fragen", [exam, quiz])
    assert routed == {exam.session_id: "30/40/30", quiz.session_id: "beim Quiz 10 Fragen"} and rest == []
    routed, _ = split_answer("Quiz: 12 Fragen; Klausur: 20, 50, 30", [exam, quiz])
    assert routed == {quiz.session_id: "Quiz: 12 Fragen", exam.session_id: "Klausur: 20, 50, 30"}
    routed, _ = split_answer("10 Fragen und 40/40/20", [exam, quiz])
    assert routed == {quiz.session_id: "10 Fragen", exam.session_id: "40/40/20"}
    routed, _ = split_answer("wie vorgeschlagen", [exam, quiz])
    assert routed == {exam.session_id: "wie vorgeschlagen", quiz.session_id: "wie vorgeschlagen"}


# --- end to end -------------------------------------------------------------------------------------------------------


def test_combined_request_stores_three_materials_offers_one_zip_and_names_the_conflict(
        db: Session, as_teacher, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    # The concurrent sub-runs share one session: each tool call (inside its savepoint) must run without interleaving.
    calls: list[tuple[str, int]] = []
    original = GuardedToolset.call_tool

    async def spy(self, name, args, ctx, tool):  # noqa: ANN001, ANN202
        calls.append(("begin", id(asyncio.current_task())))
        try:
            return await original(self, name, args, ctx, tool)
        finally:
            calls.append(("end", id(asyncio.current_task())))

    monkeypatch.setattr(GuardedToolset, "call_tool", spy)
    turn = _turn(db, as_teacher)
    out = asyncio.run(run_combined(turn=turn, text=EXAMPLE_WITH_CONFLICT))
    assert calls and all(calls[i][0] == "begin" and calls[i + 1] == ("end", calls[i][1])
                         for i in range(0, len(calls), 2))
    assert out.kind == "materials", out.text
    assert not out.questions
    materials = [material_repo.get_material(db=db, material_id=i) for i in out.material_ids]
    assert sorted(m.material_type for m in materials) == ["differenzierung", "h5p", "klausur"]
    assert {m.klassenstufe for m in materials} == {10}
    klausur = next(m for m in materials if m.material_type == "klausur")
    assert klausur.request["afb_ziel_verwendet"] == {"I": 30, "II": 40, "III": 30}
    quiz = next(m for m in materials if m.material_type == "h5p")
    assert quiz.thema == klausur.thema  # the quiz follows the exam's topic …
    assert "Aufgaben:" in quiz.request["zusatz"]  # … and its Aufgaben titles
    files = {m.material_type: material_repo.files_of(db=db, material_id=m.id) for m in materials}
    kinds = {f.kind for fs in files.values() for f in fs}
    assert all(files.values()) and {"schueler_docx", "lehrer_docx", "h5p", "moodle_xml"} <= kinds
    assert all(k.replace("_docx", "_pdf") in kinds for k in kinds if k.endswith("_docx"))  # a PDF beside every DOCX
    names = zipfile.ZipFile(io.BytesIO(out.zip_bytes)).namelist()
    for n, mid in enumerate(out.material_ids, 1):
        for f in material_repo.files_of(db=db, material_id=mid):
            assert any(name.startswith(f"{n}_") and name.endswith(f.filename) for name in names), (f.filename, names)
    assert "0_Uebersicht.txt" in names
    assert any("Induktion" in c and "prüft das nicht ab" in c for c in out.conflicts), out.conflicts
    assert "Bitte prüfen" in out.answer and "Induktion" in out.answer and out.zip_name in out.answer
    assert out.text.startswith("MATERIALSET_FERTIG") and all(f"[material:{i}]" in out.text for i in out.material_ids)


def _quiz_that_asks_first(answers: list[str]):  # noqa: ANN202
    """A scripted H5P specialist: asks for the number of questions once, records the answer, then builds offline."""

    def rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        prompts = [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts
                   if isinstance(p, UserPromptPart) and isinstance(p.content, str)]
        if len(prompts) == 1:
            tool = next(t.name for t in info.output_tools if t.name.endswith("ClarificationRequest"))
            return ModelResponse(parts=[ToolCallPart(tool, {
                "frage": "Wie viele Fragen soll das Quiz haben?", "kontext": "Die Anfrage nennt keine Zahl.",
                "vorschlaege": ["8 Fragen", "12 Fragen"]})])
        if prompts[-1] not in answers:
            answers.append(prompts[-1])
        return offline_rules("h5p")(messages, info)

    return rules_model(rules, model_name="scripted-h5p")


def test_rueckfragen_of_sub_requests_are_collected_and_one_answer_is_routed(db: Session, as_teacher) -> None:
    turn = _turn(db, as_teacher)
    answers: list[str] = []
    text = "Physik 10a: eine Klausur zu Stromkreisen (45 Minuten), dazu ein Übungsblatt und ein H5P-Quiz"
    with override_models(h5p=_quiz_that_asks_first(answers)):
        out = asyncio.run(run_combined(turn=turn, text=text))
        assert out.kind == "rueckfrage", out.text
        assert sorted(q.material_type for q in out.questions) == ["h5p", "klausur"]
        assert all(q.session_id and f"[session:{q.session_id}]" in out.text for q in out.questions)
        assert "Rückfragen" in out.answer and "Anforderungsbereiche" in out.answer and "Wie viele Fragen" in out.answer
        assert len(out.material_ids) == 1  # the worksheet is done; exam and quiz wait
        sheet = material_repo.get_material(db=db, material_id=out.material_ids[0])
        assert sheet.material_type == "differenzierung" and sheet.thema == "Stromkreise"

        again = asyncio.run(continue_combined(turn=turn, session_ids=out.session_ids,
                                              answer="30/40/30, und beim Quiz 10 Fragen",
                                              earlier_material_ids=out.material_ids))
    assert again.kind == "materials", again.text
    assert answers == ["beim Quiz 10 Fragen"]
    made = [material_repo.get_material(db=db, material_id=i) for i in again.material_ids]
    assert sorted(m.material_type for m in made) == ["differenzierung", "h5p", "klausur"]
    klausur = next(m for m in made if m.material_type == "klausur")
    assert klausur.request["afb_ziel_verwendet"] == {"I": 30, "II": 40, "III": 30}
    stored = sum(len(material_repo.files_of(db=db, material_id=m.id)) for m in made)
    assert len(zipfile.ZipFile(io.BytesIO(again.zip_bytes)).namelist()) == 1 + stored  # overview + every file


def test_missing_facts_are_asked_together_before_anything_runs(db: Session, as_teacher) -> None:
    turn = _turn(db, as_teacher)
    out = asyncio.run(run_combined(turn=turn, text="eine Klausur zu Stromkreisen und ein Quiz dazu"))
    assert out.kind == "rueckfrage" and not out.material_ids and not out.session_ids
    asked = " ".join(q.frage for q in out.questions)
    assert "Klassenstufe" in asked and "Klausur dauern" in asked
    out2 = asyncio.run(run_combined(turn=turn, text="eine Klausur zu Stromkreisen und ein Quiz dazu",
                                    base={"klassenstufe": 9, "dauer_minuten": 45, "afb_ziel": {"I": 30, "II": 40,
                                                                                               "III": 30}}))
    assert out2.kind == "materials" and len(out2.material_ids) == 2, out2.text


def _scripted_planner(plan_args: dict):  # noqa: ANN202
    def rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, plan_args)])

    return rules_model(rules, model_name="scripted-planner")


def test_invalid_plans_from_a_scripted_planner_are_refused_in_german(db: Session, as_teacher) -> None:
    turn = _turn(db, as_teacher)
    bad = {"parts": [{"key": f"t{i}", "material_type": "podcast" if i == 0 else "h5p", "fach": "Physik",
                      "klassenstufe": 4 if i == 1 else 8, "thema": "Optik", "depends_on": ["gibtsnicht"] if i == 2
                      else []} for i in range(6)]}
    before = len(material_repo.list_materials(db=db, teacher_id=turn.teacher.id))
    with override_models(supervisor=_scripted_planner(bad)):
        out = asyncio.run(run_combined(turn=turn, text="egal, der Planer ist gescriptet"))
    assert out.kind == "error" and out.text.startswith("FEHLER: ")
    for expected in ("„podcast“ gibt es nicht", "Klassenstufe 4 ist nicht möglich", "höchstens 5",
                     "„gibtsnicht“", "Bitte nennen Sie die Materialien einzeln"):
        assert expected in out.answer, (expected, out.answer)
    assert len(material_repo.list_materials(db=db, teacher_id=turn.teacher.id)) == before


def test_a_scripted_plan_with_a_cycle_runs_as_a_flat_list(db: Session, as_teacher) -> None:
    turn = _turn(db, as_teacher)
    cyclic = {"parts": [
        {"key": "blatt", "material_type": "differenzierung", "fach": "Physik", "klassenstufe": 8, "thema": "Optik",
         "depends_on": ["quiz"]},
        {"key": "quiz", "material_type": "h5p", "fach": "Physik", "klassenstufe": 8, "thema": "Linsen",
         "depends_on": ["blatt"]},
    ]}
    with override_models(supervisor=_scripted_planner(cyclic)):
        out = asyncio.run(run_combined(turn=turn, text="egal, der Planer ist gescriptet"))
    assert out.kind == "materials" and len(out.material_ids) == 2, out.text
    assert out.plan is not None and out.plan.flat
    assert "Kreis" in out.answer
