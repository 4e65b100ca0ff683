"""Conflicts of a material set, in German: topics the exam does not cover, durations that do not fit into the
shared lesson, Klassenstufen or Fächer that differ. Named in the answer, never silently "fixed"."""

from __future__ import annotations

import re
from collections.abc import Mapping

from agents.planner import TYPE_LABELS, Plan
from core.language.stopwords import FILLER_WORDS
from core.language.text import fold_loose
from core.material_sets.records import SHORT, PartResult, part_name
from core.materials.faecher import fach_name

_FILLER = frozenset(fold_loose(w) for w in FILLER_WORDS) | {"thema", "themen", "aufgabe", "aufgaben"}


def _stems(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[^\W\d_]+", fold_loose(text or "")):
        if len(w) < 4 or w in _FILLER:
            continue
        for suffix in ("ern", "en", "em", "er", "es", "e", "n", "s"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 4:
                w = w[: -len(suffix)]
                break
        out.add(w)
    return out


def _covered(topic: str, coverage: str) -> bool:
    """Does the exam's text touch the topic? Stems meet, also inside compounds ("Märchenmerkmale" ~ "Märchen")."""
    mine, theirs = _stems(topic), _stems(coverage)
    if not mine:
        return True
    return any(a == b or (min(len(a), len(b)) >= 5 and (a in b or b in a)) for a in mine for b in theirs)


def _exam_coverage(result: PartResult) -> tuple[str, list[str]]:
    """The exam's topic text (thema, titles, task texts) and its Aufgaben titles."""
    if result.material is not None:
        content = result.material.content or {}
        titles = [a.get("titel", "") for a in content.get("aufgaben", [])]
        texts = [t.get("text", "") for a in content.get("aufgaben", []) for t in a.get("teilaufgaben", [])]
        return " ".join([result.material.thema or "", result.material.titel or "", *titles, *texts]), titles
    return result.part.thema or "", []



def plan_conflicts(p: Plan, results: Mapping[str, PartResult] | None = None) -> list[str]:
    """What does not fit together, in German: topics the exam does not cover, durations that do not fit into the
    shared lesson, Klassenstufen or Fächer that differ."""
    results = results or {}
    parts = {x.key: x for x in p.parts}
    conflicts: list[str] = []
    stufen = {x.klassenstufe for x in p.parts if x.klassenstufe}
    if len(stufen) > 1:
        each = ", ".join(f"{SHORT[x.material_type]} Klasse {x.klasse or x.klassenstufe}" for x in p.parts)
        conflicts.append(f"Die Materialien sind für unterschiedliche Klassenstufen gedacht ({each}). Wenn sie "
                         "zusammengehören sollen, nennen Sie bitte eine gemeinsame Klasse.")
    for x in p.parts:
        for d in x.depends_on:
            src = parts.get(d)
            if src is None:
                continue
            if src.fach and x.fach and src.fach != x.fach:
                conflicts.append(f"{part_name(x)} ist für {fach_name(x.fach)}, soll aber zur "
                                 f"{SHORT[src.material_type]} in {fach_name(src.fach)} passen — die Fächer "
                                 "unterscheiden sich.")
            if src.material_type == "klausur" and x.topic_from != d and x.thema:
                coverage, titles = _exam_coverage(results.get(d) or PartResult(part=src))
                if not _covered(x.thema, coverage):
                    listed = f" (Aufgaben: {'; '.join(titles)})" if titles else f" (Thema „{src.thema}“)"
                    conflicts.append(f"{TYPE_LABELS[x.material_type]} zur Vorbereitung behandelt „{x.thema}“ — die "
                                     f"Klausur prüft das nicht ab{listed}. Soll es trotzdem dieses Thema sein?")
    if p.lesson_minutes:
        timed = [x for x in p.parts if x.dauer_minuten]
        total = sum(x.dauer_minuten or 0 for x in timed)
        if len(timed) > 1 and total > p.lesson_minutes:
            each = " + ".join(f"{SHORT[x.material_type]} {x.dauer_minuten} Min." for x in timed)
            conflicts.append(f"Die Zeit passt nicht: {each} = {total} Minuten sollen in dieselbe Stunde "
                             f"({p.lesson_minutes} Minuten).")
    return conflicts
