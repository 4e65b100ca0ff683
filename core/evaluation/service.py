"""What the Prompt-Labor page and the CLI call: prompt versions (list, save, activate, diff), suites, runs started
and read back, their comparison and report; the request-understanding suite of the offline model."""

from __future__ import annotations

from core.evaluation.comparison import Comparison, compare_runs
from core.evaluation.formats import fmt_pct
from core.evaluation.model_choice import default_model
from core.evaluation.prompts import (
    VersionInfo,
    activate_version,
    agent_label,
    agent_names,
    diff_versions,
    get_version,
    list_versions,
    resolve_version,
    save_version,
)
from core.evaluation.report import format_report, report_json
from core.evaluation.requests import SECTIONS as REQUEST_SECTIONS
from core.evaluation.requests import format_results as format_request_results
from core.evaluation.requests import is_request_suite
from core.evaluation.requests import passed as request_suite_passed
from core.evaluation.requests import run as run_request_suite
from core.evaluation.results import CaseResult, failures
from core.evaluation.runner import EvalInterrupted, RunReport, run_suite, start_run
from core.evaluation.runs import (
    OFFLINE_NOTE,
    RunCosts,
    RunInfo,
    case_detail,
    case_table,
    check_rows,
    list_runs,
    run_costs,
    run_detail,
    stored_run,
)
from core.evaluation.suites import SuiteInfo, list_suites

__all__ = [
    "OFFLINE_NOTE", "REQUEST_SECTIONS", "CaseResult", "Comparison", "EvalInterrupted", "RunCosts", "RunInfo",
    "RunReport",
    "SuiteInfo", "VersionInfo", "activate_version", "agent_label", "agent_names", "case_detail", "case_table",
    "check_rows", "compare_runs", "default_model", "diff_versions", "failures", "fmt_pct", "format_report",
    "format_request_results", "get_version", "is_request_suite", "list_runs", "list_suites", "list_versions",
    "report_json", "request_suite_passed", "resolve_version", "run_costs", "run_detail", "run_request_suite",
    "run_suite", "save_version", "start_run", "stored_run",
]
