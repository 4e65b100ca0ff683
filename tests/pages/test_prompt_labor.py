"""Prompt-Labor: versions (refuse empty text, save, diff), a small evaluation run with progress, the stored runs
with case detail and cost, and two runs side by side."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo
from streamlit.testing.v1 import AppTest

from agents.models.registry import offline_rules, override_models, rules_model
from core.evaluation import prompts as pl
from core.evaluation import service as ev
from tests.pages.conftest import ROOT, app_as, fresh_person

PAGE = "views/prompt_labor.py"


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[ev.RunReport, ev.RunReport, uuid.UUID]:
    """A run of the active klausur prompt and one of a candidate version (two cases each), driven by a scripted
    FunctionModel that records the instructions it receives: the candidate's run got the candidate's text."""
    product = fresh_person(role="product", faecher=(), name="Test Produkt")
    active = pl.resolve_version(agent_name="klausur", ref=None)
    marker = f"Bitte besonders klare Operatoren ({uuid.uuid4().hex[:6]})."
    candidate = pl.save_version(
        teacher_id=product, agent_name="klausur", note="Kandidat", text=f"{active.text}\n{marker}"
    )
    path = Path(tmp_path_factory.mktemp("suite")) / "zwei.yaml"
    path.write_text(
        "name: zwei\nfaelle:\n"
        "  - name: physik-ohm\n    anfrage: Klausur Physik Klasse 9 zum Ohmschen Gesetz, 45 Minuten, AFB 40/40/20\n"
        "    erwartet: {typ: klausur, fach: physik, klassenstufe: 9, dauer: 45, afb: 40/40/20, themen: [Widerstand]}\n"
        "  - name: chemie-nachfrage\n    anfrage: Klausur Chemie 8\n"
        "    erwartet: {typ: klausur, fach: chemie, klassenstufe: 8, schaerfungsfrage: true}\n",
        encoding="utf-8",
    )
    seen: list[str] = []

    def recorder(messages: list[ModelMessage], info: AgentInfo):  # noqa: ANN202
        seen.append(info.instructions or "")
        return offline_rules("klausur")(messages, info)

    with override_models(klausur=rules_model(recorder)):
        a = ev.run_suite(suite=path, agent="klausur", prompt_version=active.version, created_by=product)
        assert seen and not any(marker in text for text in seen)
        seen.clear()
        b = ev.run_suite(suite=path, agent="klausur", prompt_version=candidate.version, created_by=product)
        assert seen and all(marker in text for text in seen)
    return a, b, product


def open_page(person: uuid.UUID) -> AppTest:
    at = app_as(person, PAGE, timeout=120)
    assert not at.exception
    return at


def test_a_teacher_cannot_open_the_prompt_labor(database) -> None:  # noqa: ANN001
    at = AppTest.from_file(str(ROOT / PAGE), default_timeout=60)  # not in a teacher's navigation: open it directly
    at.session_state["persona_id"] = str(fresh_person())
    at.run()
    assert not at.exception
    assert any("nicht freigegeben" in w.value for w in at.warning)


def test_versions_are_listed_and_an_empty_version_is_refused(database) -> None:  # noqa: ANN001
    product = fresh_person(role="product", faecher=(), name="Test Produkt")
    at = open_page(product)
    assert [t.label for t in at.tabs] == ["Prompt-Versionen", "Evaluation starten", "Läufe & Vergleich"]
    versions = at.dataframe[0].value
    assert "Version" in versions.columns and "✓" in versions["Aktiv"].tolist()
    count = len(versions)
    at.text_area(key="pl_text_main").input("   ")
    at.button(key="pl_save").click().run()
    assert not at.exception
    assert any("Prompt-Text ist leer" in e.value for e in at.error)
    assert len(pl.list_versions(teacher_id=product, agent_name="main")) == count


def test_a_saved_version_shows_up_with_its_diff(database) -> None:  # noqa: ANN001
    product = fresh_person(role="product", faecher=(), name="Test Produkt")
    at = open_page(product)
    at.selectbox(key="pl_agent").set_value("h5p").run()
    line = f"Verwende Alltagsbeispiele ({uuid.uuid4().hex[:6]})."
    at.text_area(key="pl_text_h5p").input(at.text_area(key="pl_text_h5p").value + "\n" + line)
    at.text_input(key="pl_note").input("Alltagsbezug")
    at.button(key="pl_save").click().run()
    assert not at.exception
    (msg,) = [s.value for s in at.success]
    newest = pl.list_versions(teacher_id=product, agent_name="h5p")[0]
    assert msg == f"Version {newest.version} gespeichert." and not newest.is_active  # saved, not activated
    assert at.dataframe[0].value["Version"].tolist()[0] == newest.version
    assert any(f"+{line}" in c.value for c in at.code)  # the new version against the active one, readably
    assert any("1 Zeilen neu, 0 Zeilen entfernt" in c.value for c in at.caption)

    at.selectbox(key="pl_target_h5p").set_value(str(newest.id)).run()
    at.button(key="pl_activate_btn").click().run()  # activate it, then roll back to the one before
    assert [s.value for s in at.success] == [
        f"Version {newest.version} ist jetzt aktiv – ab dem nächsten Lauf des Agenten."
    ]
    table = at.dataframe[0].value
    assert table[table["Aktiv"] == "✓"]["Version"].tolist() == [newest.version]
    previous = next(
        v
        for v in pl.list_versions(teacher_id=product, agent_name="h5p")
        if v.id != newest.id and v.note != "Alltagsbezug"
    )
    at.selectbox(key="pl_target_h5p").set_value(str(previous.id)).run()
    at.button(key="pl_activate_btn").click().run()
    assert not at.exception
    assert pl.resolve_version(agent_name="h5p", ref=None).id == previous.id


def test_a_small_run_from_the_page_shows_progress_and_its_result(database) -> None:  # noqa: ANN001
    product = fresh_person(role="product", faecher=(), name="Test Produkt")
    at = open_page(product)
    suite = at.selectbox(key="ev_suite")
    suite.set_value(next(o for o in suite.options if o.startswith("schnelltest"))).run()
    at.number_input(key="ev_limit").set_value(2).run()
    at.button(key="ev_start").click().run()
    assert not at.exception, at.exception
    progress = at.get("progress")
    assert progress and progress[0].proto.value == 100 and progress[0].proto.text == "Fertig"
    (msg,) = [s.value for s in at.success]
    assert msg.startswith("Lauf abgeschlossen:") and "Prüfungen bestanden" in msg
    run = ev.run_detail(teacher_id=product, run_id=ev.list_runs(teacher_id=product, limit=1)[0].id)
    assert run.suite == "schnelltest" and run.summary["faelle_fertig"] == 2
    assert at.selectbox(key="ev_run").value == str(run.id)
    cases = next(d.value for d in at.dataframe if "Nicht bestanden" in d.value.columns)
    assert cases["Fall"].tolist() == [c.name for c in run.cases]
    assert [mt.label for mt in at.metric][:2] == ["Bestanden", "Fälle (abgeschlossen)"]


def test_runs_side_by_side_and_a_case_in_full(two_runs) -> None:  # noqa: ANN001
    a, b, product = two_runs
    at = open_page(product)
    at.selectbox(key="ev_cmp_a").set_value(str(a.run_id))
    at.selectbox(key="ev_cmp_b").set_value(str(b.run_id))
    at.selectbox(key="ev_run").set_value(str(b.run_id)).run()
    assert not at.exception
    # both runs are offline: the page says the comparison does not measure the prompt, and shows outputs per case
    assert any(w.value.startswith("Nicht aussagekräftig: Beide Läufe sind offline gelaufen") for w in at.warning)
    assert any(w.value.startswith("Offline-Lauf: prüft Code und Wissensbasis, nicht den Prompt") for w in at.warning)
    assert any(md.value == "**Ausgaben je Fall** · 0 verschieden, 2 gleich" for md in at.markdown)
    frames = [d.value for d in at.dataframe]
    side = next(f for f in frames if "Umgeschlagen" in f.columns)
    assert side["Fall"].tolist() == ["physik-ohm", "chemie-nachfrage"]
    assert side["A"].tolist() == side["B"].tolist()
    totals = next(f for f in frames if "Kennzahl" in f.columns)
    assert {"Bestanden (Quote)", "Kosten (USD)", "Tokens ein"} <= set(totals["Kennzahl"])
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")  # pass rate per check, A vs. B

    at.selectbox(key="ev_case").set_value("chemie-nachfrage").run()
    assert not at.exception
    chat = [msg.markdown[0].value for msg in at.chat_message]
    assert chat[0] == "Klausur Chemie 8" and "?" in chat[1]  # the conversation as it went
    checks = next(d.value for d in at.dataframe if "Begründung" in d.value.columns and "Ergebnis" in d.value.columns)
    failed = checks[checks["Ergebnis"] == "✗"]
    assert "schema" in failed["Prüfung"].tolist() and all(failed["Begründung"].str.len() > 0)


def test_an_unusable_model_is_refused_in_german(database) -> None:  # noqa: ANN001
    at = open_page(fresh_person(role="product", faecher=(), name="Test Produkt"))
    at.text_input(key="ev_model_main").input("gpt-irgendwas")
    at.button(key="ev_start").click().run()
    assert not at.exception
    assert any("Der Modellname „gpt-irgendwas“ ist unbekannt" in e.value for e in at.error)
    assert not at.success and not at.get("progress")
