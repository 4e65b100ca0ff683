"""Content evaluators: would a good teacher hand this out? Tasks on topic, no filler, no repeats, promises kept
or explained, the right level, calculations verified — per case, and summed up per suite and per Fach.

They read only the case output (material, hinweise, the last reply) and the case's expectations; they are active in
cases that name `themenwoerter` (the content suite).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from core.checks.duplicates import duplicates
from core.checks.filler import fillers, topic_stems
from core.checks.promises import covers
from core.checks.verification import verify_klausur
from core.checks.views import TaskView, views
from core.language.text import fold
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.faecher import fach_name
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.titles import title_faults

MODELS: dict[str, type] = {"klausur": Klausur, "differenzierung": DifferenziertesMaterial, "h5p": H5PSet}

# The frames of the old template filler, independent of the gate's word lists: a second, simpler witness.
TEMPLATES = [re.compile(p, re.I) for p in (
    r"was man unter .{1,60} versteht", r"wesentliche merkmale zum thema", r"an einem selbst gewählten beispiel",
    r"die bedeutung von .{1,60} für", r"importance of .{1,60} for young people", r"aspects of the topic",
    r"welche rolle .{1,60} im zusammenhang mit dem thema", r"den zusammenhang zwischen „[^“]+“ und „",
)]
SCORE_NAMES = ("aufgaben", "am_thema", "fuellaufgaben", "doppelungen", "versprechen", "niveau", "rechnungen", "titel")


def _material(output: Any) -> Klausur | DifferenziertesMaterial | H5PSet | None:
    cls = MODELS.get(output.material_type or "")
    if cls is None or output.material is None:
        return None
    try:
        return cls.model_validate(output.material)
    except ValidationError:
        return None


def _ok(value: bool, reason: str) -> EvaluationReason:
    return EvaluationReason(value=bool(value), reason=reason[:600])


def _haystack(t: TaskView) -> str:
    return fold(" ".join([t.titel, t.text, t.material[:400], *t.kriterien]))


def on_topic(tasks: Sequence[TaskView], woerter: Iterable[str]) -> list[bool]:
    keys = [fold(w) for w in woerter if w.strip()]
    return [any(k in _haystack(t) for k in keys) for t in tasks]


def template_filler(t: TaskView) -> bool:
    return any(p.search(t.text) for p in TEMPLATES)


@dataclass
class ContentQuality(Evaluator[Any, Any, Any]):
    """Tasks on topic (the case's topic words), content-free tasks (gate or old template frames), repeat pairs."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        want = ctx.metadata
        m = _material(ctx.output)
        if not want.themenwoerter or m is None:
            return {}
        tasks = views(m)
        flags = on_topic(tasks, want.themenwoerter)
        off = [t.ref for t, ok in zip(tasks, flags, strict=True) if not ok]
        gate = {f.ref for f in fillers(tasks, topic_stems(m.thema), check_criteria=isinstance(m, Klausur))}
        empty = sorted(gate | {t.ref for t in tasks if template_filler(t)})
        groups = [tasks] if not isinstance(m, DifferenziertesMaterial) else [
            [t for t in tasks if t.gruppe == n.name] for n in m.niveaus]
        pairs = [d for g in groups for d in duplicates(g)]
        rate = sum(flags) / len(flags) if flags else 0.0
        return {
            "aufgaben": float(len(tasks)), "am_thema": float(sum(flags)), "fuellaufgaben": float(len(empty)),
            "doppelungen": float(len(pairs)),
            "inhalt_am_thema": _ok(rate >= 0.95, f"{sum(flags)}/{len(flags)} am Thema"
                                   + (f"; nicht erkennbar: {', '.join(off[:6])}" if off else "")),
            "inhalt_keine_fuellaufgaben": _ok(not empty, "keine" if not empty else "Füllaufgaben: " + ", ".join(empty)),
            "inhalt_keine_doppelungen": _ok(not pairs, "keine" if not pairs else "; ".join(
                f"{d.first}~{d.second}" for d in pairs)),
        }


def _explained(hinweise: Sequence[str], *words: str) -> bool:
    text = fold(" ".join(hinweise))
    return bool(text) and any(fold(w) in text for w in words if w)


@dataclass
class PromisesKept(Evaluator[Any, Any, Any]):
    """What was asked for (number of questions, duration, named sub-topics) is delivered or explained; no material
    at all is acceptable only with a plain reason and options."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        want, out = ctx.metadata, ctx.output
        if not want.themenwoerter:
            return {}
        m = _material(out)
        if m is None:
            reply = out.antwort_ohne_material or out.fehler or ""
            ok = "Möglichkeiten" in reply or "Optionen" in reply
            return {"versprechen": float(ok), "inhalt_versprechen": _ok(ok, "kein Material; " + (
                "Grund und Möglichkeiten genannt" if ok else f"ohne Erklärung: {reply[:200]}"))}
        broken = []
        if want.fragen and isinstance(m, H5PSet) and len(m.fragen) < want.fragen \
                and not _explained(m.hinweise_lehrkraft, "Fragen"):
            broken.append(f"{len(m.fragen)} statt {want.fragen} Fragen, ohne Hinweis")
        if want.dauer and isinstance(m, Klausur) and m.dauer_minuten != want.dauer \
                and not _explained(m.hinweise_lehrkraft, "Minuten"):
            broken.append(f"{m.dauer_minuten} statt {want.dauer} Minuten, ohne Hinweis")
        tasks = views(m)
        for u in want.unterthemen:
            if not covers(tasks, u) and not _explained(m.hinweise_lehrkraft, u):
                broken.append(f"„{u}“ fehlt ohne Hinweis")
        return {"versprechen": float(not broken),
                "inhalt_versprechen": _ok(not broken, "; ".join(broken) or "gehalten oder erklärt")}


@dataclass
class LevelFit(Evaluator[Any, Any, Any]):
    """The material is for the requested grade and course level, and every cited task was written for it."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        want, out = ctx.metadata, ctx.output
        m = _material(out)
        if not want.themenwoerter or m is None:
            return {}
        faults = []
        if m.klassenstufe != want.klassenstufe:
            faults.append(f"Klassenstufe {m.klassenstufe} statt {want.klassenstufe}")
        if isinstance(m, Klausur) and (m.niveau == "Sek I") != (want.klassenstufe <= 10):
            faults.append(f"Niveau {m.niveau} für Klasse {want.klassenstufe}")
        k = want.klassenstufe
        for ref, stufe in out.quellen_stufen.items():
            fits = stufe >= 11 if k >= 11 else (k - 2 <= stufe <= k + 1)
            if not fits:
                faults.append(f"Aufgabe aus Klasse {stufe} ({ref[:8]}…)")
        return {"niveau": float(not faults), "inhalt_niveau": _ok(not faults, "; ".join(faults[:5]) or "passt")}


@dataclass
class CalculationsVerified(Evaluator[Any, Any, Any]):
    """Every calculation in the Erwartungshorizont recomputes (arithmetic and units)."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        m = _material(ctx.output)
        if not ctx.metadata.themenwoerter or not isinstance(m, Klausur):
            return {}
        flags = [f for f in verify_klausur(m) if f.kind in ("arithmetic", "units")]
        return {"rechnungen": float(not flags), "inhalt_rechnungen": _ok(not flags, "; ".join(
            f"{f.task_ref}: {f.message}" for f in flags)[:500] or "alle nachgerechnet")}


@dataclass
class TitlesClean(Evaluator[Any, Any, Any]):
    """Headings a teacher need not fix: none cut off, no colon chains, no two Aufgaben with one title, not the whole
    topic over one of several Aufgaben (core.materials.titles.title_faults)."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        m = _material(ctx.output)
        if not ctx.metadata.themenwoerter or m is None:
            return {}
        faults = [f for f in title_faults([m.titel]) if not f.startswith("Kette")]
        if isinstance(m, Klausur):
            texts = [" ".join([*(t.text for t in a.teilaufgaben), *(b.text or "" for b in a.materialien)])
                     for a in m.aufgaben]
            faults += title_faults([a.titel for a in m.aufgaben], m.thema, texts)
        return {"titel": float(not faults), "inhalt_titel": _ok(not faults, "; ".join(faults) or "sauber")}


def content_evaluators() -> list[Evaluator[Any, Any, Any]]:
    return [ContentQuality(), PromisesKept(), LevelFit(), CalculationsVerified(), TitlesClean()]


def _sum(cases: Sequence[Any], name: str) -> float:
    return sum(c.werte.get(name, 0.0) for c in cases)


def _count(cases: Sequence[Any], name: str) -> tuple[int, int]:
    values = [c.werte[name] for c in cases if name in c.werte]
    return int(sum(values)), len(values)


def content_figures(cases: Sequence[Any]) -> dict[str, Any] | None:
    """The suite's content figures, overall and per Fach; None when no case measured content."""
    measured = [c for c in cases if any(n in c.werte for n in SCORE_NAMES)]
    if not measured:
        return None

    def figures(group: Sequence[Any]) -> dict[str, Any]:
        tasks, on = _sum(group, "aufgaben"), _sum(group, "am_thema")
        return {"faelle": len(group), "materialien": sum(1 for c in group if "aufgaben" in c.werte),
                "aufgaben": int(tasks), "am_thema": round(on / tasks, 3) if tasks else None,
                "fuellaufgaben": int(_sum(group, "fuellaufgaben")), "doppelungen": int(_sum(group, "doppelungen")),
                "versprechen": _count(group, "versprechen"), "niveau": _count(group, "niveau"),
                "rechnungen": _count(group, "rechnungen"), "titel": _count(group, "titel")}

    by_fach: dict[str, list[Any]] = {}
    for c in measured:
        by_fach.setdefault(c.fach, []).append(c)
    return {"gesamt": figures(measured), "faecher": {f: figures(g) for f, g in sorted(by_fach.items())}}


def _pct(pair: tuple[int, int] | list[int]) -> str:
    ok, n = pair
    return f"{ok}/{n}" + (f" ({ok / n:.0%})" if n else "")


def _ratio(pair: tuple[int, int] | list[int]) -> str:
    return f"{pair[0]}/{pair[1]}"


def content_lines(fig: dict[str, Any]) -> list[str]:
    g = fig["gesamt"]
    am = "–" if g["am_thema"] is None else f"{g['am_thema']:.1%}"
    lines = [f"Inhalt: Füllaufgaben {g['fuellaufgaben']} · Doppelungen {g['doppelungen']} · am Thema {am} von "
             f"{g['aufgaben']} Aufgaben · Versprechen gehalten/erklärt {_pct(g['versprechen'])} · Niveau passend "
             f"{_pct(g['niveau'])} · Rechnungen nachgerechnet {_pct(g['rechnungen'])} · Titel sauber "
             f"{_pct(g.get('titel', (0, 0)))} · Materialien "
             f"{g['materialien']}/{g['faelle']}"]
    head = f"{'Fach':<12} {'Fälle':>5} {'Mat.':>5} {'Aufg.':>6} {'am Thema':>9} {'Füll':>5} {'Dopp.':>6} " \
           f"{'Verspr.':>8} {'Niveau':>7} {'Rechn.':>7}"
    lines += [head, "-" * len(head)]
    for fach, f in fig["faecher"].items():
        am = "–" if f["am_thema"] is None else f"{f['am_thema']:.0%}"
        lines.append(f"{fach_name(fach):<12} {f['faelle']:>5} {f['materialien']:>5} {f['aufgaben']:>6} {am:>9} "
                     f"{f['fuellaufgaben']:>5} {f['doppelungen']:>6} {_ratio(f['versprechen']):>8} "
                     f"{_ratio(f['niveau']):>7} {_ratio(f['rechnungen']):>7}")
    return lines
