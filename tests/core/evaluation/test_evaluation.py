"""Evaluation suites: scenario files, evaluators, runs as the evaluation teacher (rolled back), storage, cost,
comparison, the `eval` command — and the demo scenarios, which play through the same chat."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_evals import Case, Dataset

from agents.models.registry import offline_rules, override_models, rules_model
from agents.prompts import DEFAULTS, instructions_for
from core.app.errors import NotFoundError, UserError
from core.chat import demo
from core.evaluation import prompts as pl
from core.evaluation.comparison import compare_runs
from core.evaluation.formats import fmt_pct
from core.evaluation.model_choice import JUDGE_RUBRIC, SubjectJudge, build_judge, judge_model_name, model_overrides
from core.evaluation.player import EVAL_EMAIL, EVAL_SCHOOL, CaseInputs, CaseOutput, Turn
from core.evaluation.results import failures
from core.evaluation.runner import EvalInterrupted, evaluators, run_suite, start_run
from core.evaluation.runs import list_runs, run_costs, run_detail
from core.evaluation.suites import Expectation, list_suites, load_suite, parse_suite
from core.materials.faecher import FAECHER
from core.ops.cli.main import main
from db import models as m
from db.repos import evals as eval_repo
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person

RUN_ID = re.compile(r"Lauf ([0-9a-f-]{36}) gespeichert")


@pytest.fixture
def product(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person(role="product", faecher=(), name="Test Produkt")


def write_suite(tmp_path: Path, cases: list[tuple[str, str, str]], name: str = "mini") -> Path:
    """A suite file of (name, anfrage, erwartet as inline YAML) cases."""
    lines = [f"name: {name}", "faelle:"]
    for case, anfrage, erwartet in cases:
        lines += [f"  - name: {case}", f'    anfrage: "{anfrage}"', f"    erwartet: {erwartet}"]
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def quick_cases(n: int) -> list[tuple[str, str, str]]:
    """Cheap cases: the main agent asks Schärfungsfragen and the case ends after one turn."""
    return [(f"fall-{i}", f"Klausur Chemie 8 (Fall {i})", "{typ: klausur, fach: chemie, klassenstufe: 8}")
            for i in range(1, n + 1)]


def failing_main(trigger: str, exc: BaseException):  # noqa: ANN201
    def fn(messages: list[ModelMessage], info: AgentInfo):  # noqa: ANN202
        prompts = [p.content for msg in messages if isinstance(msg, ModelRequest) for p in msg.parts
                   if isinstance(p, UserPromptPart) and isinstance(p.content, str)]
        if any(trigger in p for p in prompts):
            raise exc
        return offline_rules("main")(messages, info)

    return rules_model(fn)


def stored(run_id: uuid.UUID) -> m.EvalRun:
    with unit_of_work(Identity.system()) as db:
        row = eval_repo.get_run(db=db, run_id=run_id)
        assert row is not None
        return row


# --- suite files -----------------------------------------------------------------------------------------------------


def test_standard_suite_covers_all_subjects_and_material_types() -> None:
    suite = load_suite("standard")
    assert len(suite.faelle) >= 40
    assert {c.erwartet.fach for c in suite.faelle} == set(FAECHER)
    assert {c.erwartet.typ for c in suite.faelle} == {"klausur", "differenzierung", "h5p"}
    for fach in FAECHER:  # every subject with all three material types
        assert {c.erwartet.typ for c in suite.faelle if c.erwartet.fach == fach} == {"klausur", "differenzierung",
                                                                                      "h5p"}, fach
    assert any(c.erwartet.rueckfrage for c in suite.faelle) and any(not c.erwartet.rueckfrage for c in suite.faelle)
    assert any(c.nachrichten for c in suite.faelle) and any(c.erwartet.afb for c in suite.faelle)
    assert all(c.erwartet.themen for c in suite.faelle if c.erwartet.typ == "klausur")
    assert {s.name for s in list_suites()} >= {"schnelltest", "standard"}


def test_a_yaml_syntax_error_names_line_and_column() -> None:
    text = "name: x\nfaelle:\n  - name: a\n    anfrage: Klausur: Physik\n"
    with pytest.raises(UserError) as err:
        parse_suite(text, path=Path("kaputt.yaml"))
    assert err.value.message.startswith("Die Suite-Datei kaputt.yaml ist kein gültiges YAML in Zeile 4, Spalte 21")
    assert "Anführungszeichen" in err.value.message


def test_a_validation_error_names_line_case_and_field() -> None:
    text = ("name: x\nfaelle:\n"
            "  - name: gut\n    anfrage: Quiz Physik 7\n    erwartet: {typ: h5p, fach: physik, klassenstufe: 7}\n"
            "  - name: schlecht\n    anfrage: Quiz Sport 7\n    erwartet:\n      typ: quiz\n      fach: physik\n"
            "      klassenstufe: 14\n      afb: 30/40/40\n      erwartett: ja\n")
    with pytest.raises(UserError) as err:
        parse_suite(text, path=Path("fehler.yaml"))
    message = err.value.message
    assert "Zeile 9, Fall 2 „schlecht“: Feld erwartet.typ: muss einer dieser Werte sein" in message
    assert "Zeile 11, Fall 2 „schlecht“: Feld erwartet.klassenstufe: muss ≤ 13 sein" in message
    assert "Zeile 12, Fall 2 „schlecht“: Feld erwartet.afb: die AFB-Verteilung „30/40/40“ ergibt 110" in message
    assert "Zeile 13, Fall 2 „schlecht“: Feld erwartet.erwartett: ist kein bekanntes Feld (Tippfehler?)" in message


@pytest.mark.parametrize("text, expected", [
    ("", "ist leer"),
    ("- a\n- b\n", "muss mit Feldern beginnen"),
    ("name: x\n", "Zeile 1: Feld faelle: fehlt"),
    ("faelle:\n  - {name: a, anfrage: Quiz 7, erwartet: {typ: h5p, fach: bio, klassenstufe: 7}}\n"
     "  - {name: a, anfrage: Quiz 8, erwartet: {typ: h5p, fach: bio, klassenstufe: 8}}\n",
     "Zeile 3, Fall 2: der Name „a“ kommt schon in Fall 1 vor"),
    ("faelle:\n  - {name: A B, anfrage: Quiz 7, erwartet: {typ: h5p, fach: Latein, klassenstufe: 7}}\n",
     "Unbekanntes Fach „Latein“"),
])
def test_other_suite_file_errors_are_german(text: str, expected: str) -> None:
    with pytest.raises(UserError, match=re.escape(expected)):
        parse_suite(text, path=Path("x.yaml"))


def test_a_broken_suite_is_listed_with_its_error_and_foreign_files_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "gut.yaml").write_text("faelle:\n  - {name: a, anfrage: Quiz 7, erwartet: "
                                       "{typ: h5p, fach: physik, klassenstufe: 7}}\n", encoding="utf-8")
    (tmp_path / "kaputt.yaml").write_text("faelle: [\n", encoding="utf-8")
    (tmp_path / "fremd.yaml").write_text("cases:\n  - id: x\n", encoding="utf-8")
    suites = {s.name: s for s in list_suites(tmp_path)}
    assert set(suites) == {"gut", "kaputt"}
    assert suites["gut"].faelle == 1 and suites["kaputt"].fehler and "Zeile" in suites["kaputt"].fehler


# --- evaluators ------------------------------------------------------------------------------------------------------

KLAUSUR = {
    "titel": "Klassenarbeit", "fach": "Physik", "klassenstufe": 10, "thema": "Stromkreise", "dauer_minuten": 10,
    "niveau": "Sek I", "aufgaben": [{"nummer": 1, "titel": "Reihenschaltung", "teilaufgaben": [
        {"label": "a", "operator": "Nennen", "text": "Nenne die Formel für den Widerstand.", "afb": "I", "punkte": 3,
         "erwartung": [{"text": "R = U / I", "punkte": 2}], "quellen": [{"art": "curriculum", "ref": "x"}]},
        {"label": "b", "operator": "Beurteilen", "text": "Beurteile die Schaltung.", "afb": "I", "punkte": 7,
         "erwartung": [{"text": "Urteil", "punkte": 7}], "quellen": []}]}],
}


def evaluate(output: CaseOutput, expectation: dict) -> dict[str, tuple[bool, str]]:  # noqa: ANN001
    dataset = Dataset[CaseInputs, CaseOutput, Expectation](
        name="unit", cases=[Case(name="c", inputs=CaseInputs(anfrage="x"),
                                 metadata=Expectation.model_validate(expectation))],
        evaluators=evaluators("offline"))
    report = dataset.evaluate_sync(lambda _: output, progress=False)
    (case,) = report.cases
    return {k: (bool(r.value), r.reason or "") for k, r in case.assertions.items()}


def test_evaluators_fail_with_reasons_that_name_the_fault() -> None:
    output = CaseOutput(material_type="klausur", material=KLAUSUR, afb_ziel_verwendet={"I": 30, "II": 40,
                                                                                            "III": 30},
                           operatoren={"Nennen": "I", "Beurteilen": "III"}, quellen_gefunden={"x": False},
                           validation=["Aufgabe 1a: Die Kriterien ergeben 2 Punkte, die Teilaufgabe hat 3 Punkte."])
    got = evaluate(output, {"typ": "klausur", "fach": "physik", "klassenstufe": 9, "dauer": 45,
                            "themen": ["Widerstand", "Induktion|induziert"]})
    assert got["schema"][0] and got["fach"][0]
    assert got["klassenstufe"] == (False, "Klassenstufe 10 (erwartet 9)")
    assert got["dauer"] == (False, "10 Minuten (erwartet 45)")
    assert not got["punkte"][0] and "1a: Kriterien 2 ≠ 3 P." in got["punkte"][1]
    assert not got["afb"][0] and "Ist 100/0/0, Ziel 30/40/30" in got["afb"][1]
    assert not got["operatoren"][0] and "„Beurteilen“ gehört üblicherweise zu AFB III" in got["operatoren"][1]
    assert got["zeit"][0] is True  # 10 points in 10 minutes
    assert got["themen"] == (False, "es fehlt: Induktion|induziert")
    assert not got["grounding"][0] and "1a: Quelle x gibt es nicht" in got["grounding"][1]
    assert "1b zitiert weder Lehrplan noch Good Practice" in got["grounding"][1]
    assert not got["pruefung"][0] and "Kriterien ergeben" in got["pruefung"][1]
    assert got["rueckfrage"][0] and "urteil" not in got  # no LLM judge offline


def test_no_material_is_one_explained_failure_not_a_crash() -> None:
    output = CaseOutput(verlauf=[Turn(lehrkraft="Klausur Chemie 8", antwort="Welches Thema?",
                                            art="schaerfungsfrage")], schaerfungsfragen=1)
    got = evaluate(output, {"typ": "klausur", "fach": "chemie", "klassenstufe": 8, "schaerfungsfrage": True})
    assert got["schema"] == (False, "Kein Material erzeugt; letzte Antwort: „Welches Thema?“")
    assert got["schaerfungsfrage"][0] and got["rueckfrage"][0]
    assert "punkte" not in got and "grounding" not in got


def test_three_levels_and_h5p_package_are_checked() -> None:
    worksheet = {"titel": "AB", "fach": "Biologie", "klassenstufe": 7, "thema": "Zelle", "lernziel": "Zellen",
                 "niveaus": [{"name": "grundlegend", "aufgaben": ["a"], "hilfekarten": ["h"], "loesungen": ["l"]},
                             {"name": "mittel", "aufgaben": ["a", "b"], "hilfekarten": ["h"], "loesungen": ["l"]}],
                 "quellen": []}
    got = evaluate(CaseOutput(material_type="differenzierung", material=worksheet),
                   {"typ": "differenzierung", "fach": "biologie", "klassenstufe": 7})
    assert not got["drei_niveaus"][0] and "mittel: 2 Aufgaben, 1 Lösungen" in got["drei_niveaus"][1]
    quiz = {"titel": "Quiz", "fach": "Physik", "klassenstufe": 7, "thema": "Optik", "quellen": [],
            "fragen": [{"typ": "truefalse", "frage": "Licht ist schnell.", "wahr": True},
                       {"typ": "multichoice", "frage": "Farbe?", "antworten": [{"text": "rot", "korrekt": True},
                                                                                {"text": "blau", "korrekt": False}]}]}
    got = evaluate(CaseOutput(material_type="h5p", material=quiz), {"typ": "h5p", "fach": "physik",
                                                                       "klassenstufe": 7})
    assert got["h5p_paket"] == (True, "H5P.QuestionSet mit 2 Fragen, lesbar")
    assert got["grounding"] == (False, "H5P zitiert weder Lehrplan noch Good Practice")


def test_the_llm_judge_is_added_only_with_a_real_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert build_judge("offline") is None
    assert not any(isinstance(e, SubjectJudge) for e in evaluators("offline"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-used")
    judge = build_judge("anthropic:claude-haiku-4-5")  # built only, never called (no network in tests)
    assert isinstance(judge, SubjectJudge) and "fachlich korrekt" in judge.rubric
    assert judge_model_name("anthropic:claude-haiku-4-5") == "anthropic:claude-haiku-4-5"
    # the model under test: nothing to swap when it is the configured one; a real one runs without offline fallback
    assert model_overrides("klausur", "offline") == {}
    # one model for every role of a case, each without the offline fallback (an evaluation measures that model)
    swapped = model_overrides("klausur", "anthropic:claude-haiku-4-5")
    assert set(swapped) == {"main", "klausur", "differenzierung", "h5p", "supervisor"}
    assert all(type(m).__name__ == "RetryingModel" and m.model_name == "claude-haiku-4-5" for m in swapped.values())
    # the judge is never silently a local test model; WERKBANK_MODEL_JUDGE chooses it explicitly
    assert judge_model_name("openai-compatible:SmolLM2@http://127.0.0.1:8091/v1") is None
    monkeypatch.setenv("WERKBANK_MODEL_JUDGE", "anthropic:claude-sonnet-4-6")
    assert judge_model_name("openai-compatible:SmolLM2@http://127.0.0.1:8091/v1") == "anthropic:claude-sonnet-4-6"


# --- runs ------------------------------------------------------------------------------------------------------------


def test_the_standard_suite_passes_offline_from_the_cli_with_every_failure_explained(capsys, product) -> None:  # noqa: ANN001
    code = main(["eval", "--suite", "standard", "--min-pass", "0.95"])
    out = capsys.readouterr().out
    print(out)  # the table, for the record (pytest -s)
    assert code == 0, out
    assert out.startswith("Suite „standard“ · Haupt-Assistent (Chat) · Prompt v")
    assert "Mindestquote 95,0 % erreicht" in out
    run = run_detail(teacher_id=product, run_id=RUN_ID.search(out).group(1))
    s = run.summary
    assert run.status == "completed" and s["faelle_fertig"] == s["faelle_gesamt"] == len(run.cases) >= 40
    assert s["quote"] >= 0.95 and s["faelle_fehler"] == 0
    for case, check, reason in failures(run):  # nothing hidden: each failure is in the table with its reason
        assert reason and f"✗ {case} · {check}: {reason}" in out
    assert {c.typ for c in run.cases} == {"klausur", "differenzierung", "h5p"}
    assert all(c.verlauf and c.aufrufe > 0 and c.tokens_geschaetzt for c in run.cases)

    costs = run_costs(teacher_id=product, run_id=run.id)  # per case and per run, from llm_calls
    assert costs.calls == sum(c.aufrufe for c in run.cases)
    assert costs.input_tokens == s["input_tokens"] and costs.output_tokens == s["output_tokens"]
    assert costs.estimated and costs.cost_usd == 0.0 and not costs.cost_unknown
    assert {r["Fall"] for r in costs.rows} == {c.name for c in run.cases}

    with unit_of_work(Identity.system()) as db:  # every case was rolled back: the evaluation teacher has nothing
        teacher = db.scalar(sa.select(m.Teacher).where(m.Teacher.email == EVAL_EMAIL))
        assert teacher is not None and teacher.role == "teacher" and set(teacher.faecher) == set(FAECHER)
        school = db.get(m.School, teacher.school_id)
        assert school.name == EVAL_SCHOOL and school.bundesland == "Sachsen"
        classes = db.scalars(sa.select(m.SchoolClass.name).where(m.SchoolClass.school_id == school.id)).all()
        assert {f"{n}a" for n in range(5, 14)} <= set(classes)
        for model in (m.Conversation, m.GeneratedMaterial, m.AgentSession, m.UserMemory, m.Rating):
            assert db.scalar(sa.select(sa.func.count()).select_from(model)
                             .where(model.teacher_id == teacher.id)) == 0, model.__name__
        assert db.scalar(sa.select(sa.func.count()).select_from(m.AgentKnowledge)
                         .where(m.AgentKnowledge.owner_id == teacher.id)) == 0


def test_the_cli_exits_1_below_min_pass_and_2_for_bad_input(capsys, tmp_path: Path) -> None:  # noqa: ANN001
    path = write_suite(tmp_path, [("ohne-rueckfrage", "Klausur Physik Klasse 9 zum Ohmschen Gesetz, 45 Minuten",
                                   "{typ: klausur, fach: physik, klassenstufe: 9, dauer: 45, rueckfrage: false}")])
    code = main(["eval", "--suite", str(path), "--agent", "klausur", "--min-pass", "0.99"])
    out = capsys.readouterr().out
    assert code == 1
    assert "Mindestquote 99,0 % NICHT erreicht" in out
    assert "✗ ohne-rueckfrage · rueckfrage: Rückfrage gestellt: „Welche Verteilung" in out

    broken = tmp_path / "kaputt.yaml"
    broken.write_text("faelle:\n  - name: a\n    anfrage: Klausur: Physik\n", encoding="utf-8")
    for args, message in [
        (["--suite", "gibtsnicht"], "Die Suite „gibtsnicht“ gibt es nicht. Vorhanden:"),
        (["--suite", str(broken)], "kein gültiges YAML in Zeile 3, Spalte 21"),
        (["--suite", str(path), "--model", "gpt-irgendwas"], "Der Modellname „gpt-irgendwas“ ist unbekannt"),
        (["--suite", str(path), "--model", "openai:gpt-5.2"], "fehlt der API-Schlüssel"),
        (["--suite", str(path), "--prompt-version", "999"], "keine Version „999“"),
        (["--suite", str(path), "--agent", "referat"], "Unbekannter Agent „referat“"),
        (["--suite", str(path), "--min-pass", "95"], "--min-pass erwartet eine Quote zwischen 0 und 1"),
    ]:
        assert main(["eval", *args]) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("Fehler: ") and message in err and "Traceback" not in err, (args, err)


def test_an_override_run_sends_the_version_under_test_and_compares_with_the_active(product, tmp_path) -> None:  # noqa: ANN001
    marker = f"PRUEFMARKE-{uuid.uuid4().hex[:8]}"
    active = pl.resolve_version(agent_name="klausur", ref=None)
    candidate = pl.save_version(teacher_id=product, agent_name="klausur", text=f"{active.text}\n{marker}",
                                note="Kandidat")
    request = "Klausur Physik Klasse 9 zum Ohmschen Gesetz, 45 Minuten, AFB 40/40/20"
    path = write_suite(tmp_path, [("physik-ohm", request,
                                   "{typ: klausur, fach: physik, klassenstufe: 9, dauer: 45, afb: 40/40/20}")])
    runs = {}
    for version in (active, candidate):
        seen: list[str] = []

        def fn(messages: list[ModelMessage], info: AgentInfo, seen: list[str] = seen):  # noqa: ANN202
            seen.append(info.instructions or "")
            return offline_rules("klausur")(messages, info)

        with override_models(klausur=rules_model(fn)):
            runs[version.version] = run_suite(suite=path, agent="klausur", prompt_version=version.version,
                                                 created_by=product)
        assert seen and all((marker in text) == (version is candidate) for text in seen), version.version
    with unit_of_work(Identity.system()) as db:  # the candidate was only tried, never activated
        assert instructions_for("klausur", db) == active.text and marker not in DEFAULTS["klausur"]
    a, b = runs[active.version], runs[candidate.version]
    assert (a.prompt_version, b.prompt_version) == (active.version, candidate.version)
    assert stored(b.run_id).prompt_version_id == candidate.id

    cmp = compare_runs(teacher_id=product, run_a=a.run_id, run_b=b.run_id)
    assert [r["Fall"] for r in cmp.cases] == ["physik-ohm"]
    assert cmp.cases[0]["A"] == cmp.cases[0]["B"] == f"{a.cases[0].passed}/{a.cases[0].total}"
    assert cmp.flips == [] and cmp.verdict.startswith("Nicht aussagekräftig: Beide Läufe sind offline gelaufen")
    assert {row["Kennzahl"] for row in cmp.totals} >= {"Bestanden (Quote)", "Kosten (USD)", "Dauer je Fall (s, Mittel)"}
    labels = sorted({c["Lauf"] for c in cmp.chart})
    assert len(labels) == 2 and labels[0].startswith(f"A: klausur v{active.version} · offline (")
    assert labels[1].startswith(f"B: klausur v{candidate.version} · offline (")


def test_a_keyboard_interrupt_in_case_7_keeps_six_cases_and_marks_the_run(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = write_suite(tmp_path, quick_cases(9))
    progress: list[tuple[int, int]] = []
    with override_models(main=failing_main("(Fall 7)", KeyboardInterrupt())), \
            pytest.raises(EvalInterrupted) as err:
        run_suite(suite=path, on_progress=lambda done, total: progress.append((done, total)))
    assert err.value.keyboard and err.value.status == "interrupted" and err.value.done == 6
    assert "nach 6 von 9 Fällen unterbrochen: abgebrochen (Strg+C)" in err.value.message
    assert "Die 6 fertigen Fälle sind gespeichert" in err.value.message
    assert progress == [(i, 9) for i in range(1, 7)]
    row = stored(err.value.run_id)
    assert row.status == "interrupted" and row.finished_at is not None
    assert [c["name"] for c in row.cases] == [f"fall-{i}" for i in range(1, 7)]
    assert row.summary["faelle_fertig"] == 6 and row.summary["abbruch"] == "abgebrochen (Strg+C)"

    with override_models(main=failing_main("(Fall 7)", KeyboardInterrupt())):  # the same through the CLI
        code = main(["eval", "--suite", str(path)])
    out = capsys.readouterr()
    assert code == 130 and "6/9 Fälle" in out.out and "Abbruch: abgebrochen (Strg+C)" in out.out
    assert "unterbrochen" in out.err and "Traceback" not in out.err


def test_an_error_in_a_case_is_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    path = write_suite(tmp_path, quick_cases(4))
    with override_models(main=failing_main("(Fall 2)", RuntimeError("Modell kaputt"))):
        report = run_suite(suite=path)
    assert report.status == "completed" and len(report.cases) == 4
    broken = report.cases[1]
    assert broken.status == "fehler" and broken.checks["lauf"].grund == (
        "Der Fall brach mit einem Fehler ab: RuntimeError: Modell kaputt")
    assert report.summary["faelle_fehler"] == 1 and ("fall-2", "lauf", broken.fehler) in failures(report)


def test_an_error_while_storing_interrupts_the_run_with_an_error_id(tmp_path: Path) -> None:
    path = write_suite(tmp_path, quick_cases(8))

    def progress(done: int, total: int) -> None:
        if done == 6:
            raise RuntimeError("Platte voll")

    with pytest.raises(EvalInterrupted) as err:
        run_suite(suite=path, on_progress=progress)
    assert not err.value.keyboard and err.value.status == "interrupted" and err.value.done == 6
    assert re.search(r"unterbrochen: interner Fehler \(Fehler-ID [0-9a-f]{8}\)", err.value.message)
    assert len(stored(err.value.run_id).cases) == 6


def test_bad_model_suite_and_limit_are_refused_before_a_run_is_stored(tmp_path: Path) -> None:
    path = write_suite(tmp_path, quick_cases(1))
    with unit_of_work(Identity.system()) as db:
        before = db.scalar(sa.select(sa.func.count()).select_from(m.EvalRun))
    with pytest.raises(UserError, match="Der Modellname „claude“ ist unbekannt"):
        run_suite(suite=path, model="claude")
    with pytest.raises(UserError, match="keine Fälle für H5P-Assistent"):
        run_suite(suite=path, agent="h5p")
    with pytest.raises(UserError, match="--limit muss mindestens 1 sein"):
        run_suite(suite=path, limit=0)
    with unit_of_work(Identity.system()) as db:
        assert db.scalar(sa.select(sa.func.count()).select_from(m.EvalRun)) == before


def test_only_the_product_team_reads_and_starts_runs(database) -> None:  # noqa: ANN001
    teacher = fresh_person()
    with pytest.raises(UserError, match="dem Produktteam vorbehalten"):
        list_runs(teacher_id=teacher)
    with pytest.raises(UserError, match="dem Produktteam vorbehalten"):
        start_run(teacher_id=teacher, suite="schnelltest", agent="main", prompt_version=None, model=None)


# --- demo mode ---------------------------------------------------------------------------------------------------


def test_five_demo_scenarios_play_into_new_conversations(database) -> None:  # noqa: ANN001
    assert len(demo.scenarios()) == 5 and all(s.title and s.description and s.messages for s in demo.scenarios())
    teacher = fresh_person(faecher=("physik",), classes=("10a",))
    steps: list[tuple[str, int, bool, bool]] = []
    try:
        play_all(teacher, steps)
    finally:  # "bitte so merken" taught this teacher good practices; other tests search as system, must not see them
        with unit_of_work(Identity.system()) as db:
            db.execute(sa.delete(m.AgentKnowledge).where(sa.or_(
                m.AgentKnowledge.owner_id == teacher,
                sa.and_(m.AgentKnowledge.scope_type == "teacher", m.AgentKnowledge.scope_id == teacher))))
    assert [x[1:] for x in steps if x[0] == "e-lehre"] == [(1, False, False), (2, False, True), (3, True, False),
                                                           (4, False, False)]
    assert [x[1:] for x in steps if x[0] == "rueckfrage-vorschlag"] == [(1, False, True), (2, True, False)]
    for sid in ("differenzierung", "h5p-quiz", "deutsch-klausur"):
        assert [x[1:] for x in steps if x[0] == sid] == [(1, True, False)]
    with pytest.raises(NotFoundError, match="Demo-Szenario „gibtsnicht“"):
        demo.play("gibtsnicht", teacher_id=teacher)


def play_all(teacher: uuid.UUID, steps: list[tuple[str, int, bool, bool]]) -> None:
    for s in demo.scenarios():
        cid = demo.play(s.id, teacher_id=teacher, on_step=lambda n, msg, r, sid=s.id: steps.append(
            (sid, n, bool(r.material_id), bool(r.question))))
        with unit_of_work(Identity.system()) as db:
            conv = db.get(m.Conversation, cid)
            n_messages = db.scalar(sa.select(sa.func.count()).select_from(m.ConversationMessage)
                                   .where(m.ConversationMessage.conversation_id == cid))
        assert conv is not None and conv.teacher_id == teacher and n_messages == 2 * len(s.messages), s.id


def test_the_comparison_names_flipped_checks_and_the_trend(product, tmp_path: Path) -> None:  # noqa: ANN001
    path = write_suite(tmp_path, [("bio-quiz", "H5P-Übung Biologie Klasse 9 zum Immunsystem",
                                   "{typ: h5p, fach: biologie, klassenstufe: 9, themen: [Immun]}")])
    good = run_suite(suite=path, created_by=product)
    with override_models(main=failing_main("Immunsystem", RuntimeError("Zeitüberschreitung beim Anbieter"))):
        bad = run_suite(suite=path, created_by=product)
    cmp = compare_runs(teacher_id=product, run_a=good.run_id, run_b=bad.run_id)
    assert cmp.verdict.startswith("Nicht aussagekräftig")  # offline runs: code and knowledge base, not the prompt
    assert f"{fmt_pct(good.pass_rate)} → 0,0 % bestanden, 0 von 1 Fällen mit gleicher Ausgabe" in cmp.verdict
    [(case, diff)] = cmp.diffs  # the page shows each case's output diff
    assert case == "bio-quiz" and "+fehler: " in diff and "-material: " in diff
    flipped = {f["Prüfung"]: (f["A"], f["B"]) for f in cmp.flips}
    assert flipped["schema"] == ("✓", "–") and flipped["h5p_paket"] == ("✓", "–") and flipped["lauf"] == ("–", "✗")
    lauf = next(f for f in cmp.flips if f["Prüfung"] == "lauf")
    assert lauf["Grund in B"].endswith("RuntimeError: Zeitüberschreitung beim Anbieter")
    (row,) = cmp.cases
    assert row["A"] == f"{good.cases[0].passed}/{good.cases[0].total}" and row["B"] == "0/1"
    assert row["Δ Quote"] == round(-good.pass_rate, 3)


def test_the_judge_grades_the_request_and_material_only() -> None:
    prompts: list[str] = []

    def judge(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:  # a scripted judge, never a real model
        prompts.extend(p.content for msg in messages if isinstance(msg, ModelRequest) for p in msg.parts
                       if isinstance(p, UserPromptPart) and isinstance(p.content, str))
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name,
                                                 {"reason": "klar und altersgerecht", "pass": True, "score": 0.9})])

    quiz = {"titel": "Quiz", "fach": "Physik", "klassenstufe": 7, "thema": "Optik", "quellen": [],
            "fragen": [{"typ": "truefalse", "frage": "Licht ist schnell.", "wahr": True}]}
    subject = SubjectJudge(rubric=JUDGE_RUBRIC, model=FunctionModel(judge), include_input=True,
                              assertion={"evaluation_name": "urteil", "include_reason": True})
    dataset = Dataset[CaseInputs, CaseOutput, Expectation](
        name="judge", evaluators=[subject],
        cases=[Case(name="c", inputs=CaseInputs(anfrage="Quiz Optik Klasse 7"),
                    metadata=Expectation(typ="h5p", fach="physik", klassenstufe=7))])
    report = dataset.evaluate_sync(lambda _: CaseOutput(material_type="h5p", material=quiz,
                                                           operatoren={"Nennen": "I"}), progress=False)
    (case,) = report.cases
    assert case.assertions["urteil"].value is True and case.assertions["urteil"].reason == "klar und altersgerecht"
    text = "\n".join(prompts)
    assert "Quiz Optik Klasse 7" in text and "Licht ist schnell." in text and "operatoren" not in text
