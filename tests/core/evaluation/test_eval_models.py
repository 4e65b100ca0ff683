"""What an evaluation says about the model it ran with: offline runs are labelled as not saying anything about a
prompt (a destroyed prompt scores like the original), and a model that cannot be reached aborts the run (exit 3)
instead of scoring as a quality failure."""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

from pydantic_ai.models import override_allow_model_requests

from core.evaluation import prompts as pl
from core.evaluation.comparison import compare_runs
from core.evaluation.report import format_report
from core.evaluation.runner import run_suite
from core.evaluation.runs import OFFLINE_NOTE
from core.ops.cli.main import main
from db import models as m
from db.session import Identity, unit_of_work
from tests.core.evaluation.test_evaluation import RUN_ID, product, quick_cases, write_suite  # noqa: F401

DESTROYED = "Antworte nur mit HALLO. Erstelle niemals eine Klausur."


def test_a_destroyed_prompt_evaluated_offline_is_reported_as_not_meaningful(product, tmp_path: Path) -> None:  # noqa: ANN001, F811
    active = pl.resolve_version(agent_name="klausur", ref=None)
    destroyed = pl.save_version(teacher_id=product, agent_name="klausur", text=DESTROYED, note="zerstört")
    request = "Klausur Physik Klasse 9 zum Ohmschen Gesetz, 45 Minuten, AFB 40/40/20"
    path = write_suite(tmp_path, [("physik-ohm", request,
                                   "{typ: klausur, fach: physik, klassenstufe: 9, dauer: 45, afb: 40/40/20}")])
    a = run_suite(suite=path, agent="klausur", prompt_version=active.version, created_by=product)
    b = run_suite(suite=path, agent="klausur", prompt_version=destroyed.version, created_by=product)

    assert a.pass_rate == b.pass_rate > 0  # the offline model never reads the prompt: same score
    assert a.summary["aussagekraeftig"] is False
    assert OFFLINE_NOTE in format_report(b)
    assert "nicht aussagekräftig" in OFFLINE_NOTE and "prüft Code und Wissensbasis, nicht den Prompt" in OFFLINE_NOTE
    cmp = compare_runs(teacher_id=product, run_a=a.run_id, run_b=b.run_id)
    assert not cmp.meaningful and "B ist gleich" not in cmp.verdict
    assert cmp.verdict.startswith("Nicht aussagekräftig: Beide Läufe sind offline gelaufen – sie prüfen Code und "
                                  "Wissensbasis, nicht den Prompt.")
    assert "1 von 1 Fällen mit gleicher Ausgabe" in cmp.verdict and cmp.diffs == []


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_model_aborts_the_run_with_exit_3(tmp_path: Path, capsys, database) -> None:  # noqa: ANN001
    path = write_suite(tmp_path, quick_cases(3))
    model = f"openai-compatible:weg@http://127.0.0.1:{_closed_port()}/v1"
    with override_allow_model_requests(True):
        code = main(["eval", "--suite", str(path), "--model", model])

    out, err = capsys.readouterr()
    assert code == 3
    assert "abgebrochen" in err and "nicht erreichbar" in err and "kein Qualitätsergebnis" in err
    assert "ABGEBROCHEN – kein Qualitätsergebnis" in out
    run_id = uuid.UUID(RUN_ID.search(out)[1])
    with unit_of_work(Identity.system()) as db:
        run = db.get(m.EvalRun, run_id)
        assert run is not None and run.status == "aborted" and run.model == model
        assert run.cases == []  # no case was scored as a quality failure
