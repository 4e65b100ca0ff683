"""Precision and recall of the content gate on a labelled set (seeds/eval/gate.yaml plus every seeded bank item)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.checks.coverage import build_index
from core.checks.duplicates import similar
from core.checks.filler import filler_reason, topic_stems
from core.checks.topicality import context, level_reason, off_topic_reason
from core.checks.topics import TopicIndex
from core.checks.views import TaskView

ROOT = Path(__file__).resolve().parents[2]
GATE_SET = ROOT / "seeds" / "eval" / "gate.yaml"
SEEDS = ROOT / "seeds" / "data"


@dataclass
class ClassScore:
    name: str
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, predicted: bool, actual: bool, label: str) -> None:
        if predicted and actual:
            self.tp += 1
        elif predicted:
            self.fp += 1
            self.misses.append(f"falscher Alarm: {label}")
        elif actual:
            self.fn += 1
            self.misses.append(f"übersehen: {label}")
        else:
            self.tn += 1

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def line(self) -> str:
        n = self.tp + self.fp + self.fn + self.tn
        return (f"{self.name:<12} Fälle {n:>5}  Precision {self.precision:.3f}  Recall {self.recall:.3f}  "
                f"(TP {self.tp}, FP {self.fp}, FN {self.fn}, TN {self.tn})")


def _profile(fach: str) -> tuple[dict[str, list[str]], list[str]]:
    data = json.loads((SEEDS / f"{fach}.json").read_text(encoding="utf-8"))
    return data["profile"]["themenfelder"], [o["operator"] for o in data["operatoren"]]


def _coverage(fach: str) -> list[dict[str, Any]]:
    path = SEEDS / "coverage" / f"{fach}.json"
    return json.loads(path.read_text(encoding="utf-8"))["topics"] if path.exists() else []


def seed_index(fach: str) -> TopicIndex:
    felder, _ = _profile(fach)
    return build_index(_coverage(fach), felder)


def _material_words(m: dict[str, Any]) -> str:
    return m.get("text") or " ".join(" ".join(r) for r in (m.get("tabelle") or {}).get("zeilen", []))


def bank_tasks() -> Iterable[tuple[str, str, TaskView, bool]]:
    """(fach, thema, task, is_exam_task) for every seeded bank item: good tasks, the negatives of the set."""
    for cov in sorted((SEEDS / "coverage").glob("*.json")):
        fach = cov.stem
        for topic in _coverage(fach):
            path = SEEDS / "bank" / fach / f"{topic['id']}.json"
            if not path.exists():
                continue
            bank = json.loads(path.read_text(encoding="utf-8"))
            mats = {m["id"]: m for m in bank.get("materialien", [])}
            for a in bank.get("aufgaben", []):
                ids = a.get("material") or []
                ms = [mats.get(i, {}) for i in ([ids] if isinstance(ids, str) else ids)]
                mtext = " ".join(_material_words(m) for m in ms)
                yield fach, topic["thema"], TaskView(ref=f"{fach}/{topic['id']}/{a['id']}", text=a["aufgabe"],
                                                     kriterien=tuple(c["kriterium"] for c in a["erwartung"]),
                                                     material=mtext), True
            for q in bank.get("quiz", []):
                text = " ".join([q["frage"], *(o["text"] for o in q.get("antworten", []))])
                yield fach, topic["thema"], TaskView(ref=f"{fach}/{topic['id']}/{q['id']}", text=text), False


def evaluate(path: Path = GATE_SET, *, with_bank: bool = True) -> list[ClassScore]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    scores = [_filler(data["filler"], with_bank), _duplicates(data["duplicates"]),
              _topic(data["off_topic"], "Thema", off_topic_reason, "off_topic"),
              _topic(data["level"], "Niveau", level_reason, "misfit")]
    if with_bank:
        scores.append(_bank_topics())
    return scores


def _bank_topics(step: int = 3) -> ClassScore:
    """Every third bank exam task against its own topic (on topic) and against a topic of another Themenfeld of
    the same Fach (off topic) — the authors' topic assignment is the label."""
    score = ClassScore("Thema (Bank)")
    indexes: dict[str, TopicIndex] = {}
    for i, (fach, _, task, exam) in enumerate(bank_tasks()):
        if not exam or i % step:
            continue
        index = indexes.setdefault(fach, seed_index(fach))
        topic_id = task.ref.split("/")[1]
        own = index.topics.get(topic_id)
        if own is None:
            continue
        others = sorted((t for t in index.topics.values() if t.themenfeld != own.themenfeld), key=lambda t: t.id)
        if not others:
            continue
        other = others[i % len(others)]
        stufe = min(own.klassenstufen) if own.klassenstufen else None
        for target, off in ((own, False), (other, True)):
            ctx = context(index, target.thema, (), stufe if not off else (min(target.klassenstufen)
                                                                          if target.klassenstufen else None))
            score.add(off_topic_reason(task, ctx) is not None, off, f"{task.ref} gegen „{target.thema}“")
    return score


def _filler(cases: list[dict[str, Any]], with_bank: bool) -> ClassScore:
    score = ClassScore("Füllaufgabe")
    for c in cases:
        _, ops = _profile(c["fach"])
        t = TaskView("x", c["text"], tuple(c.get("kriterien") or ()), material=c.get("material") or "")
        exam = c.get("art", "klausur") == "klausur"
        predicted = filler_reason(t, topic_stems(c["thema"]), ops, check_criteria=exam) is not None
        score.add(predicted, c["label"] == "filler", c["text"][:90])
    if with_bank:
        for fach, thema, t, exam in bank_tasks():
            _, ops = _profile(fach)
            predicted = filler_reason(t, topic_stems(thema), ops, check_criteria=exam) is not None
            score.add(predicted, False, f"{t.ref}: {t.text[:80]}")
    return score


def _duplicates(cases: list[dict[str, Any]]) -> ClassScore:
    score = ClassScore("Doppelung")
    for c in cases:
        g = "1" if c.get("same_aufgabe") else ""
        a, b = TaskView("a", c["a"], gruppe=g or "1"), TaskView("b", c["b"], gruppe=g or "2")
        score.add(similar(a, b) is not None, c["label"] == "dup", f"{c['a'][:50]} | {c['b'][:50]}")
    return score


def _topic(cases: list[dict[str, Any]], name: str, judge: Callable[..., str | None], positive: str) -> ClassScore:
    score = ClassScore(name)
    for c in cases:
        ctx = context(seed_index(c["fach"]), c["thema"], c.get("unterthemen") or (), c.get("klassenstufe"))
        t = TaskView("x", c["text"], tuple(c.get("kriterien") or ()))
        score.add(judge(t, ctx) is not None, c["label"] == positive, f"{c['fach']}/{c['thema']}: {c['text'][:70]}")
    return score


def gate_set(name: str) -> Path:
    """The labelled file of a gate suite: 'gate' (the development set), 'gate_heldout…' or a path."""
    path = Path(name) if name.endswith((".yaml", ".yml")) else ROOT / "seeds" / "eval" / f"{name}.yaml"
    if not path.is_file():
        raise FileNotFoundError(path)
    return path


def report(scores: list[ClassScore], *, details: bool = True, path: Path = GATE_SET, with_bank: bool = True) -> str:
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    lines = [f"Inhaltsprüfung (Gate) auf dem beschrifteten Satz {where}{' + Aufgabenbank' if with_bank else ''}:"]
    lines += [s.line() for s in scores]
    if details:
        for s in scores:
            lines += [f"  {s.name}: {m}" for m in s.misses[:40]]
    return "\n".join(lines)
