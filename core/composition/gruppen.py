"""Gruppe A/B: the same exam a second time with other tasks of the same demand — every generated task re-drawn with
another seed (same generator, so the same structure, operator, AFB and points), every curated task without a material
replaced by a parallel one (same sub-topic, AFB and points, another checked task). What has no parallel stays the same
in both groups, and the teacher is told which."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.composition.candidates import TaskCandidate
from core.composition.generators.registry import all_generators
from core.composition.layout import teilaufgabe
from core.materials.blocks import MaterialBlock
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe

WANTS_GROUPS = re.compile(r"gruppe\s*a\s*(und|/|&|\+)\s*(gruppe\s*)?b|a-\s*und\s*b-gruppe|a/b-gruppe|zwei\s+gruppen|"
                          r"gruppen\s*a\s*(und|/)\s*b|parallel(arbeit|gruppe)", re.I)
MAX_TRIES = 40


def wants_groups(zusatz: str, flag: bool = False) -> bool:
    return flag or bool(WANTS_GROUPS.search(zusatz or ""))


def _redraw(teil: Teilaufgabe, klassenstufe: int) -> tuple[Teilaufgabe, MaterialBlock | None] | None:
    """The sub-task with other numbers and the same points (and its new material); None if it is not generated."""
    q = next((q for q in teil.quellen if q.art == "generator"), None)
    if q is None or "#" not in q.ref:
        return None
    key, _, seed = q.ref.partition("#")
    gen = all_generators().get(key)
    if gen is None or not seed.isdigit():
        return None
    for offset in range(1, MAX_TRIES):
        t = gen.generate(int(seed) + 7919 * offset, klassenstufe)
        if t.punkte == teil.punkte and t.text != teil.text:
            quellen = [q.model_copy(update={"ref": f"{key}#{int(seed) + 7919 * offset}"}) if x is q else x
                       for x in teil.quellen]
            return teil.model_copy(update={"text": t.text, "erwartung": [Kriterium(text=s.text, punkte=s.punkte)
                                                                           for s in t.erwartung], "quellen": quellen}
                                   ), t.material
    return None


def with_group_b(k: Klausur, parallels: dict[str, Teilaufgabe] | None = None) -> tuple[Klausur, int]:
    """(the exam with gruppe_b filled, number of sub-tasks that differ). `parallels`: Gruppe B's sub-task for a
    curated sub-task, by the text of Gruppe A's. With nothing to change, gruppe_b stays None."""
    changed = 0
    aufgaben_b: list[Aufgabe] = []
    for a in k.aufgaben:
        teile, materialien = [], list(a.materialien)
        for t in a.teilaufgaben:
            neu = _redraw(t, k.klassenstufe)
            if neu is None and parallels and t.text in parallels:
                neu = parallels[t.text].model_copy(update={"label": t.label}), None
            changed += neu is not None
            teile.append(neu[0] if neu else t)
            if neu and neu[1] is not None:
                materialien = [neu[1]]  # a generated task with a table is an Aufgabe of its own
        aufgaben_b.append(a.model_copy(update={"teilaufgaben": teile, "materialien": materialien}))
    if not changed:
        return k, 0
    return k.model_copy(update={"gruppe_b": aufgaben_b}), changed


def _parallel_to(c: TaskCandidate, p: TaskCandidate) -> bool:
    """Another task of the same demand: same sub-topic, AFB and points, no material of its own."""
    return (p.key != c.key and p.text != c.text and not p.materialien and p.generator is None
            and p.afb == c.afb and p.punkte == c.punkte and p.unterthema.casefold() == c.unterthema.casefold())


def parallels(chosen: Sequence[TaskCandidate], pool: Sequence[TaskCandidate]) -> dict[str, Teilaufgabe]:
    """Gruppe B's sub-task for each curated sub-task of Gruppe A without a material, where the pool holds one (never
    a task of Gruppe A itself, never one task for two)."""
    used = {c.key for c in chosen}
    out: dict[str, Teilaufgabe] = {}
    for c in chosen:
        if c.generator is not None or c.materialien:
            continue
        p = next((p for p in pool if p.key not in used and _parallel_to(c, p)), None)
        if p is not None:
            used.add(p.key)
            out[c.text] = teilaufgabe(p, "a")
    return out
