"""Content evaluators: would a good teacher hand this out? Tasks on topic, no filler, no repeats, promises kept
or explained, the right level, calculations verified — per case, and summed up per suite and per Fach.

They read only the case output (material, hinweise, the last reply) and the case's expectations; they are active in
cases that name `themenwoerter` (the content suite).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from core.checks.duplicates import duplicates
from core.checks.filler import fillers, topic_stems
from core.checks.topics import term_matches, text_stems
from core.checks.verification import verify_klausur
from core.checks.views import TaskView, views
from core.evaluation.repeats import reader_repeats
from core.evaluation.titles import names_word, reader_title_faults
from core.evaluation.topic_match import on_topic, own_text, topic_views
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
SCORE_NAMES = ("aufgaben", "am_thema", "fuellaufgaben", "doppelungen", "versprechen", "niveau", "rechnungen", "titel",
               "wiederholungen", "thema_voll")


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


def template_filler(t: TaskView) -> bool:
    return any(p.search(t.text) for p in TEMPLATES)


@dataclass
class ContentQuality(Evaluator[Any, Any, Any]):
    """Tasks on topic (the case's topic words in a task's own text, material or expectation — not its title, not a
    quiz's wrong options), content-free tasks (gate or old template frames), repeats: the app's duplicate check and
    the repeats a reader sees (core.evaluation.repeats)."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        want = ctx.metadata
        m = _material(ctx.output)
        if not want.themenwoerter or m is None:
            return {}
        tasks = views(m)
        flags = on_topic(topic_views(m, tasks), want.themenwoerter)
        off = [t.ref for t, ok in zip(tasks, flags, strict=True) if not ok]
        gate = {f.ref for f in fillers(tasks, topic_stems(m.thema), check_criteria=isinstance(m, Klausur))}
        empty = sorted(gate | {t.ref for t in tasks if template_filler(t)})
        groups = [tasks] if not isinstance(m, DifferenziertesMaterial) else [
            [t for t in tasks if t.gruppe == n.name] for n in m.niveaus]
        pairs = [(d.first, d.second) for g in groups for d in duplicates(g)]
        seen = [p for g in groups for p in reader_repeats(g) if p not in pairs]
        rate = sum(flags) / len(flags) if flags else 0.0
        return {
            "aufgaben": float(len(tasks)), "am_thema": float(sum(flags)), "thema_voll": float(not off),
            "fuellaufgaben": float(len(empty)), "doppelungen": float(len(pairs)), "wiederholungen": float(len(seen)),
            "inhalt_am_thema": _ok(rate >= 0.95, f"{sum(flags)}/{len(flags)} am Thema"
                                   + (f"; nicht erkennbar: {', '.join(off[:6])}" if off else "")),
            "inhalt_keine_fuellaufgaben": _ok(not empty, "keine" if not empty else "Füllaufgaben: " + ", ".join(empty)),
            "inhalt_keine_doppelungen": _ok(not pairs and not seen, "; ".join(
                [f"{a}~{b}" for a, b in pairs] + [f"{a}~{b} (gleiche Aufgabe, andere Zahlen oder Worte)"
                                                  for a, b in seen]) or "keine"),
        }


# A note explains a missing part only when it says the part is missing, not when it merely names it („Zu
# „Proteinbiosynthese“ liegen nur 10 geprüfte Aufgaben vor“ does not say that no task treats it).
MISSING = ("fehlt", "fehlen", "keine geprueft", "kein geprueft", "nicht enthalten", "nicht abgedeckt",
           "nicht behandelt", "nicht beruecksichtigt", "keine aufgabe")
SHORTER = ("statt", "weniger", "fehlt", "fehlen")
_SENTENCE = re.compile(r"(?<=[.!?:])\s+(?=[A-ZÄÖÜ„])")


def _sentences(notes: Sequence[str]) -> list[str]:
    return [fold(s) for n in notes for s in _SENTENCE.split(n) if s.strip()]


def names_missing(notes: Sequence[str], part: str) -> bool:
    """Some sentence of the notes names `part` (half its content words, as treats() counts) and says it is missing."""
    wanted = text_stems(part)
    for s in _sentences(notes):
        if not any(m in s for m in MISSING):
            continue
        tokens = text_stems(s)
        if sum(1 for w in wanted if any(term_matches(tok, w) for tok in tokens)) >= max(1, (len(wanted) + 1) // 2):
            return True
    return False


def _names_shortfall(notes: Sequence[str], word: str) -> bool:
    """Some sentence says there are fewer Fragen / other Minuten than asked („8 statt 10 Fragen“)."""
    return any(word in s and any(m in s for m in SHORTER) for s in _sentences(notes))


_NUMBERS = re.compile(r"\d{2,}")


def treats(tasks: Sequence[TaskView], unterthema: str) -> bool:
    """A task treats the sub-topic in what it says itself (text, start of its material, expectation) — not in the
    title the composer gave it: half the sub-topic's content words and numbers („Krisenjahr 1923“ in „Hyperinflation
    von 1923“) — a word of the sub-topic inside a longer word counts („Genregulation“ in „Genregulationsnetz“), and a
    part of it that is at least half of it („Stammbaum“ for „Stammbaumanalyse“), a shorter part does not („Proteine“
    does not treat „Proteinbiosynthese“)."""
    wanted = {*text_stems(unterthema), *_NUMBERS.findall(unterthema)}
    if not wanted:
        return True
    for t in tasks:
        own = own_text(t)
        tokens = {*text_stems(own), *_NUMBERS.findall(own)}
        if sum(1 for w in wanted if any(names_word(tok, w) for tok in tokens)) >= max(1, (len(wanted) + 1) // 2):
            return True
    return False


def _declined(reply: str) -> bool:
    return "Möglichkeiten" in reply or "Optionen" in reply


PROMISE_KINDS = {"gehalten": "gehalten", "erklaert": "erklärt", "abgelehnt": "abgelehnt mit Möglichkeiten",
                 "gebrochen": "gebrochen"}


def _promise(kind: str, reason: str) -> dict[str, EvaluationReason | float]:
    scores: dict[str, EvaluationReason | float] = {f"versprechen_{k}": float(k == kind) for k in PROMISE_KINDS}
    scores["versprechen"] = float(kind in ("gehalten", "erklaert"))
    scores["inhalt_versprechen"] = _ok(kind in ("gehalten", "erklaert"), f"{PROMISE_KINDS[kind]}: {reason}")
    return scores


@dataclass
class PromisesKept(Evaluator[Any, Any, Any]):
    """What was asked for (number of questions, duration, named sub-topics): kept (delivered as asked), explained
    (less, with a note that names the missing part as missing), declined with options (no material), or broken.
    Only kept and explained pass."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        want, out = ctx.metadata, ctx.output
        if not want.themenwoerter:
            return {}
        m = _material(out)
        if m is None:
            reply = out.antwort_ohne_material or out.fehler or ""
            return _promise("abgelehnt", "kein Material, Grund und Möglichkeiten genannt") if _declined(reply) \
                else _promise("gebrochen", f"kein Material, ohne Möglichkeiten: {reply[:200]}")
        notes = [*m.hinweise_lehrkraft, *(t.antwort for t in out.verlauf[-1:])]
        short: list[tuple[str, bool]] = []
        if want.fragen and isinstance(m, H5PSet) and len(m.fragen) < want.fragen:
            short.append((f"{len(m.fragen)} statt {want.fragen} Fragen", _names_shortfall(notes, "frage")))
        if want.dauer and isinstance(m, Klausur) and m.dauer_minuten != want.dauer:
            short.append((f"{m.dauer_minuten} statt {want.dauer} Minuten", _names_shortfall(notes, "minute")))
        tasks = views(m)
        short += [(f"„{u}“ fehlt", names_missing(notes, u)) for u in want.unterthemen if not treats(tasks, u)]
        if not short:
            return _promise("gehalten", "wie gewünscht")
        silent = [what for what, said in short if not said]
        if silent:
            return _promise("gebrochen", "; ".join(f"{w} ohne Hinweis, der es als fehlend nennt" for w in silent))
        return _promise("erklaert", "; ".join(f"{w}, im Hinweis genannt" for w, _ in short))


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
    topic over one of several Aufgaben (core.materials.titles.title_faults); and what a reader sees beyond that
    (reader_title_faults)."""

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        m = _material(ctx.output)
        if not ctx.metadata.themenwoerter or m is None:
            return {}
        faults = [f for f in title_faults([m.titel]) if not f.startswith("Kette")]
        if isinstance(m, Klausur):
            texts = [" ".join([*(t.text for t in a.teilaufgaben), *(b.text or "" for b in a.materialien)])
                     for a in m.aufgaben]
            faults += title_faults([a.titel for a in m.aufgaben], m.thema, texts)
        faults += reader_title_faults(m, ctx.metadata.themenwoerter, getattr(ctx.inputs, "anfrage", ""))
        return {"titel": float(not faults), "inhalt_titel": _ok(not faults, "; ".join(faults) or "sauber")}


def content_evaluators() -> list[Evaluator[Any, Any, Any]]:
    return [ContentQuality(), PromisesKept(), LevelFit(), CalculationsVerified(), TitlesClean()]


def _sum(cases: Sequence[Any], name: str) -> float:
    return sum(c.werte.get(name, 0.0) for c in cases)


def _count(cases: Sequence[Any], name: str) -> tuple[int, int]:
    values = [c.werte[name] for c in cases if name in c.werte]
    return int(sum(values)), len(values)


def _measured(c: Any) -> bool:
    return bool(c.erwartung.get("themenwoerter")) or any(n in c.werte for n in SCORE_NAMES)


def _figures(group: Sequence[Any]) -> dict[str, Any]:
    """Every figure over all cases of the group: a case without material counts as not on topic, not fitting, not
    recomputed — a refusal must not drop out of the figures it would lower."""
    tasks, on = _sum(group, "aufgaben"), _sum(group, "am_thema")
    made = sum(1 for c in group if "aufgaben" in c.werte)
    klausuren = sum(1 for c in group if c.typ == "klausur")
    return {"faelle": len(group), "materialien": made, "klausuren": klausuren,
            "aufgaben": int(tasks), "am_thema": round(on / tasks, 3) if tasks else None,
            "thema_voll": int(_sum(group, "thema_voll")),
            "fuellaufgaben": int(_sum(group, "fuellaufgaben")), "doppelungen": int(_sum(group, "doppelungen")),
            "wiederholungen": int(_sum(group, "wiederholungen")),
            "versprechen": [int(_sum(group, "versprechen")), len(group)],
            "versprechen_arten": {k: int(_sum(group, f"versprechen_{k}")) for k in PROMISE_KINDS},
            "niveau": _count(group, "niveau"), "rechnungen": _count(group, "rechnungen"),
            "titel": _count(group, "titel")}


def content_figures(cases: Sequence[Any]) -> dict[str, Any] | None:
    """The suite's content figures, overall and per Fach; None when no case measured content."""
    measured = [c for c in cases if _measured(c)]
    if not measured:
        return None
    by_fach: dict[str, list[Any]] = {}
    for c in measured:
        by_fach.setdefault(c.fach, []).append(c)
    return {"gesamt": _figures(measured), "faecher": {f: _figures(g) for f, g in sorted(by_fach.items())}}


def _pct(ok: int, n: int) -> str:
    return f"{ok}/{n}" + (f" ({ok / n:.0%})" if n else "")


def _over(pair: Sequence[int], made: int, cases: int) -> str:
    """„30/37 Materialien, 30/48 Fällen“: a figure over the materials and over all cases."""
    return f"{pair[0]}/{made} Materialien, {_pct(pair[0], cases)} der Fälle"


def content_lines(fig: dict[str, Any]) -> list[str]:
    g = fig["gesamt"]
    n, made, arten = g["faelle"], g["materialien"], g.get("versprechen_arten", {})
    am = "–" if g["am_thema"] is None else f"{g['am_thema']:.1%}"
    lines = [
        f"Inhalt über alle {n} Fälle: Materialien {_pct(made, n)} · Versprechen gehalten oder erklärt "
        f"{_pct(*g['versprechen'])} (" + ", ".join(f"{name} {arten.get(k, 0)}" for k, name in PROMISE_KINDS.items())
        + ")",
        f"  am Thema {am} von {g['aufgaben']} Aufgaben · ganz am Thema {_over([g.get('thema_voll', 0)], made, n)}",
        f"  Niveau passend {_over(g['niveau'], made, n)} · Titel sauber {_over(g.get('titel', (0, 0)), made, n)} · "
        f"Rechnungen nachgerechnet {g['rechnungen'][0]}/{g['rechnungen'][1]} Klausuren, "
        f"{_pct(g['rechnungen'][0], g.get('klausuren', 0))} der Klausur-Fälle",
        f"  Füllaufgaben {g['fuellaufgaben']} · Doppelungen {g['doppelungen']} (App-Prüfung) · weitere "
        f"Wiederholungen beim Lesen {g.get('wiederholungen', 0)}",
    ]
    head = f"{'Fach':<12} {'Fälle':>5} {'Mat.':>5} {'Aufg.':>6} {'am Thema':>9} {'ganz':>5} {'Füll':>5} " \
           f"{'Dopp.':>6} {'Verspr.':>8} {'Niveau':>7} {'Rechn.':>7}"
    lines += [head, "-" * len(head)]
    for fach, f in fig["faecher"].items():
        am = "–" if f["am_thema"] is None else f"{f['am_thema']:.0%}"
        dopp = f["doppelungen"] + f.get("wiederholungen", 0)
        lines.append(f"{fach_name(fach):<12} {f['faelle']:>5} {f['materialien']:>5} {f['aufgaben']:>6} {am:>9} "
                     f"{f.get('thema_voll', 0):>5} {f['fuellaufgaben']:>5} {dopp:>6} "
                     f"{_ratio(f['versprechen']):>8} {_ratio(f['niveau']):>7} {_ratio(f['rechnungen']):>7}")
    return lines


def _ratio(pair: Sequence[int]) -> str:
    return f"{pair[0]}/{pair[1]}"
