"""A case as stored in eval_runs.cases (checks, scores, tokens, cost, the course of the conversation) and
the totals of a run, also of a partial one."""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, ValidationError
from pydantic_evals.reporting import ReportCase, ReportCaseFailure

from core.evaluation.content import content_figures
from core.evaluation.player import CaseOutput, Turn
from core.evaluation.suites import TYP_NAMEN, CaseSpec
from core.materials.faecher import fach_name
from core.materials.klausur import Klausur

log = logging.getLogger(__name__)


class Check(BaseModel):
    ok: bool
    grund: str = ""


class CaseResult(BaseModel):
    """One case as stored in eval_runs.cases."""

    name: str
    anfrage: str
    typ: str
    fach: str
    status: Literal["ok", "fehler"] = "ok"
    fehler: str | None = None
    pruefungen: dict[str, Check] = Field(default_factory=dict)
    werte: dict[str, float] = Field(default_factory=dict)
    dauer_s: float = 0.0
    aufrufe: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokens_geschaetzt: bool = False
    kosten_usd: float = 0.0
    kosten_unbekannt: bool = False
    verlauf: list[Turn] = Field(default_factory=list)
    ausgabe: dict[str, Any] = Field(default_factory=dict)
    erwartung: dict[str, Any] = Field(default_factory=dict)

    @property
    def erwartung_text(self) -> str:
        """The expectation in one readable line."""
        e = self.erwartung
        parts = [TYP_NAMEN.get(self.typ, self.typ), fach_name(self.fach), f"Klasse {e.get('klassenstufe', '?')}"]
        if e.get("dauer"):
            parts.append(f"{e['dauer']} Min.")
        parts.append("Rückfrage erwartet" if e.get("rueckfrage") else "ohne Rückfrage")
        if "schaerfungsfrage" in e:
            parts.append("Schärfungsfrage erwartet" if e["schaerfungsfrage"] else "ohne Schärfungsfrage")
        if e.get("afb"):
            parts.append(f"AFB {e['afb']}")
        if e.get("themen"):
            parts.append("Themen: " + ", ".join(e["themen"]))
        if e.get("fragen"):
            parts.append(f"mind. {e['fragen']} Fragen")
        return " · ".join(parts)

    @property
    def checks(self) -> dict[str, Check]:
        """The assertions; a case that crashed counts as one failed check named 'lauf'."""
        if self.status == "fehler":
            return {"lauf": Check(ok=False, grund=self.fehler or "Fehler")}
        return self.pruefungen

    @property
    def passed(self) -> int:
        return sum(c.ok for c in self.checks.values())

    @property
    def total(self) -> int:
        return len(self.checks)

    @property
    def failed(self) -> dict[str, Check]:
        return {k: c for k, c in self.checks.items() if not c.ok}


def _material_summary(out: CaseOutput) -> dict[str, Any]:
    m = out.material
    if m is None:
        return {}
    summary: dict[str, Any] = {"titel": m.get("titel"), "typ": out.material_type, "fach": m.get("fach"),
                               "klassenstufe": m.get("klassenstufe"), "thema": m.get("thema"),
                               "befunde": out.validation}
    if out.material_type == "klausur":
        with contextlib.suppress(ValidationError):
            k = Klausur.model_validate(m)
            summary.update(dauer_minuten=k.dauer_minuten, gesamtpunkte=k.gesamtpunkte,
                           afb_anteile={a: round(v, 1) for a, v in k.afb_anteile.items()},
                           afb_ziel=out.afb_ziel_verwendet, aufgaben=[
                               f"{a.nummer}. {a.titel} ({a.punkte} P.): " + "; ".join(
                                   f"{a.nummer}{t.kennung}) {t.operator}, AFB {t.afb}, {t.punkte} P."
                                   for t in a.teilaufgaben) for a in k.aufgaben])
    elif out.material_type == "differenzierung":
        summary.update(lernziel=m.get("lernziel"), niveaus=[
            f"{n.get('name')}: {len(n.get('aufgaben', []))} Aufgaben, {len(n.get('hilfekarten', []))} Hilfekarten"
            for n in m.get("niveaus", [])])
    elif out.material_type == "h5p":
        summary.update(fragen=[f"{f.get('typ')}: {f.get('frage') or f.get('text')}" for f in m.get("fragen", [])])
    return summary


def case_result(spec: CaseSpec, result: ReportCase[Any, Any, Any] | ReportCaseFailure[Any, Any, Any]) -> CaseResult:
    base = CaseResult(name=spec.name, anfrage=spec.anfrage, typ=spec.erwartet.typ, fach=spec.erwartet.fach,
                      erwartung=spec.erwartet.model_dump(mode="json", exclude_defaults=True))
    if isinstance(result, ReportCaseFailure):
        log.warning("evaluation case %s failed: %s\n%s", spec.name, result.error_message, result.error_stacktrace)
        base.status, base.fehler = "fehler", f"Der Fall brach mit einem Fehler ab: {result.error_message}"[:600]
        return base
    out: CaseOutput = result.output
    base.pruefungen = {k: Check(ok=bool(r.value), grund=r.reason or "") for k, r in result.assertions.items()}
    for failure in result.evaluator_failures:
        base.pruefungen[f"fehler:{failure.name}"] = Check(ok=False, grund=failure.error_message[:600])
    base.werte = {k: float(r.value) for k, r in result.scores.items()}
    base.dauer_s = round(result.task_duration, 3)
    base.aufrufe = len(out.calls)
    base.input_tokens = sum(c.input_tokens for c in out.calls)
    base.output_tokens = sum(c.output_tokens for c in out.calls)
    base.tokens_geschaetzt = any(c.tokens_estimated for c in out.calls)
    base.kosten_usd = round(sum(c.cost_usd or 0.0 for c in out.calls), 6)
    base.kosten_unbekannt = any(c.cost_usd is None for c in out.calls)
    base.verlauf, base.ausgabe = out.verlauf, _material_summary(out)
    return base


def summarize(cases: list[CaseResult], *, total: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Totals of a run (also of a partial one): pass rate over all checks, per-check rates, cost and tokens."""
    checks = [(name, c.ok) for case in cases for name, c in case.checks.items()]
    passed = sum(ok for _, ok in checks)
    rates: dict[str, list[int]] = {}
    for name, ok in checks:
        rates.setdefault(name, [0, 0])
        rates[name][0] += int(ok)
        rates[name][1] += 1
    scores: dict[str, list[float]] = {}
    for case in cases:
        for name, value in case.werte.items():
            scores.setdefault(name, []).append(value)
    durations = [c.dauer_s for c in cases if c.status == "ok"]
    return {
        **(extra or {}),
        "faelle_gesamt": total, "faelle_fertig": len(cases), "faelle_fehler": sum(c.status == "fehler" for c in cases),
        "pruefungen": len(checks), "bestanden": passed, "quote": round(passed / len(checks), 4) if checks else 0.0,
        "quoten": {k: round(v[0] / v[1], 4) for k, v in sorted(rates.items())},
        "werte": {k: round(sum(v) / len(v), 3) for k, v in sorted(scores.items())},
        "dauer_s_mittel": round(sum(durations) / len(durations), 3) if durations else 0.0,
        "dauer_s_summe": round(sum(c.dauer_s for c in cases), 3),
        "input_tokens": sum(c.input_tokens for c in cases), "output_tokens": sum(c.output_tokens for c in cases),
        "tokens_geschaetzt": any(c.tokens_geschaetzt for c in cases),
        "kosten_usd": round(sum(c.kosten_usd for c in cases), 6),
        "kosten_unbekannt": any(c.kosten_unbekannt for c in cases),
        "aktualisiert": datetime.now(UTC).isoformat(timespec="seconds"),
        **({"inhalt": inhalt} if (inhalt := content_figures(cases)) else {}),
    }


class HasCases(Protocol):
    """A run as stored (`runs.RunInfo`) or as just reported (`runner.RunReport`): both carry their cases."""

    @property
    def cases(self) -> list[CaseResult]: ...


def failures(run: HasCases) -> list[tuple[str, str, str]]:
    """Every failing check with its reason: (case, check, reason) — a report never hides a failure."""
    return [(c.name, k, v.grund) for c in run.cases for k, v in c.failed.items()]
