"""The CLI's report of a run: one line per case, the totals, content figures and every failing check with
its reason; the same run as JSON."""

from __future__ import annotations

from typing import Any

from agents.models.names import OFFLINE
from core.evaluation.content import content_lines
from core.evaluation.formats import fmt_num, fmt_pct, fmt_usd
from core.evaluation.prompts import agent_label
from core.evaluation.results import failures
from core.evaluation.runner import RunReport
from core.evaluation.runs import OFFLINE_NOTE, RunInfo
from core.evaluation.suites import TYP_NAMEN
from core.materials.faecher import fach_name


def format_report(report: RunReport | RunInfo, *, min_pass: float | None = None) -> str:
    """The CLI's compact table: one line per case, the totals, and every failing check with its reason."""
    s = report.summary
    agent = report.agent
    version = report.prompt_version
    took = f"{float(s.get('dauer_s_lauf', 0)):.1f} s".replace(".", ",")
    lines = [f"Suite „{report.suite}“ · {agent_label(agent)} · Prompt v{version} · Modell {report.model} · "
             f"{s.get('faelle_fertig', 0)}/{s.get('faelle_gesamt', 0)} Fälle · {took}"]
    if report.model == OFFLINE:
        lines.append(OFFLINE_NOTE)
    if report.status == "aborted":
        lines.append(f"ABGEBROCHEN – kein Qualitätsergebnis: {s.get('abbruch', '')}")
    header = f"{'Fall':<44} {'Typ':<15} {'Fach':<11} {'Prüf.':>6} {'Dauer':>7} {'Tokens':>8} {'Kosten USD':>11}"
    lines += [header, "-" * len(header)]
    for c in report.cases:
        cost = "?" if c.kosten_unbekannt else fmt_usd(c.kosten_usd)
        lines.append(f"{c.name[:44]:<44} {TYP_NAMEN.get(c.typ, c.typ):<15} {fach_name(c.fach)[:11]:<11} "
                     f"{f'{c.passed}/{c.total}':>6} {f'{c.dauer_s:.2f} s'.replace('.', ','):>7} "
                     f"{fmt_num(c.input_tokens + c.output_tokens):>8} {cost:>11}")
    lines.append("-" * len(header))
    quote = float(s.get("quote", 0.0))
    verdict = ""
    if min_pass is not None:
        verdict = (" · Mindestquote " + fmt_pct(min_pass) + (" erreicht" if quote >= min_pass else " NICHT erreicht"))
    lines.append(f"Bestanden: {s.get('bestanden', 0)}/{s.get('pruefungen', 0)} Prüfungen ({fmt_pct(quote)}){verdict}")
    rates = s.get("quoten") or {}
    if rates:
        lines.append("Je Prüfung: " + " · ".join(f"{k} {fmt_pct(float(v))}" for k, v in sorted(rates.items())))
    if s.get("inhalt"):
        lines += content_lines(s["inhalt"])
    failed = failures(report)
    if failed:
        lines.append(f"Nicht bestanden ({len(failed)}):")
        lines += [f"  ✗ {case} · {check}: {reason}" for case, check, reason in failed]
    estimated = " (geschätzt)" if s.get("tokens_geschaetzt") else ""
    unknown = " + unbekannt" if s.get("kosten_unbekannt") else ""
    lines.append(f"Tokens: {fmt_num(s.get('input_tokens', 0))} ein / {fmt_num(s.get('output_tokens', 0))} aus"
                 f"{estimated} · Kosten: {fmt_usd(float(s.get('kosten_usd', 0)))} USD{unknown} (aus llm_calls)")
    if s.get("richter"):
        lines.append(f"LLM-Richter: {s['richter']}")
    if s.get("abbruch") and report.status != "aborted":
        lines.append(f"Abbruch: {s['abbruch']}")
    run_id = report.run_id if isinstance(report, RunReport) else report.id
    lines.append(f"Lauf {run_id} gespeichert (eval_runs).")
    return "\n".join(lines)


def report_json(report: RunReport) -> dict[str, Any]:
    return {"run_id": str(report.run_id), "suite": report.suite, "agent": report.agent,
            "prompt_version": report.prompt_version, "model": report.model, "status": report.status,
            "summary": report.summary, "cases": [c.model_dump(mode="json") for c in report.cases]}
