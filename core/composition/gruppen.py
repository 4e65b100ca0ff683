"""Gruppe A/B: the same exam a second time with other numbers — every generated task re-drawn with another seed
(same generator, so the same structure, operator, AFB and points); curated tasks stay the same in both groups."""

from __future__ import annotations

import re

from core.composition.generators.registry import all_generators
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


def with_group_b(k: Klausur) -> tuple[Klausur, int]:
    """(the exam with gruppe_b filled, number of re-drawn sub-tasks). With no generated task, gruppe_b stays None."""
    changed = 0
    aufgaben_b: list[Aufgabe] = []
    for a in k.aufgaben:
        teile, materialien = [], list(a.materialien)
        for t in a.teilaufgaben:
            neu = _redraw(t, k.klassenstufe)
            changed += neu is not None
            teile.append(neu[0] if neu else t)
            if neu and neu[1] is not None:
                materialien = [neu[1]]  # a generated task with a table is an Aufgabe of its own
        aufgaben_b.append(a.model_copy(update={"teilaufgaben": teile, "materialien": materialien}))
    if not changed:
        return k, 0
    return k.model_copy(update={"gruppe_b": aufgaben_b}), changed
