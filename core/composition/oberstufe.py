"""Oberstufe exams as the Abitur writes them (issue #10): two or three Aufgaben, each around one material (a poem, a
source, a text, a data set), with Teilaufgaben rising from AFB I to III, that together fill the time — short tasks
only to complete. And, at every level, no single Aufgabe carrying 40 % of the points or more in an exam of three or
more Aufgaben, except the one large material Aufgabe of an Oberstufe exam.

A material unit is what the layout prints as one Aufgabe: the tasks on one material (or on overlapping ones).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.composition.candidates import TaskCandidate
from core.composition.layout import groups
from core.composition.select import (
    OVERFILL,
    ExamSpec,
    Selection,
    base_score,
    carries,
    meets_wish,
    mentions,
    reading_minutes,
    repeats,
)
from core.composition.shares import share_miss
from core.language.text import fold

OBERSTUFE = 11  # Klasse 11 (EF/Q1/Q2, GK and LK) and above
HEAVY = 0.4  # share of the points no single Aufgabe may reach in an exam of three or more (decision 032)
MAX_TEILE = 4  # Teilaufgaben of a unit as chosen; completing the time may add a fifth
FULL = 0.9
AFB_SLACK = 0.1  # how much further from the AFB target (sum over the levels) the 40 % rule may move an exam
SHARE_SLACK = 0.05  # how much further from a fair share of the points (shares.share_miss) it may move named parts
QUALITY_SLACK = 0.3  # below the weakest chosen task by at most this (a task of a related topic scores ~0.5 less)
MAX_TRIALS = 40  # the best-scored other tasks tried as additions or swaps
SHORT = 0.75  # below this share of the time, single tasks on a material of their own complete the exam
_RANK = {"I": 1, "II": 2, "III": 3}
# what a request names as the kind of exam -> a word the large task's text carries
_KINDS = (("vergleich", "vergleich"), ("textanalyse", "analys"), ("analyse", "analys"), ("interpret", "interpret"),
          ("quelle", "quelle"), ("kommentar", "comment"), ("comment", "comment"), ("erörter", "erörter"),
          ("karikatur", "karikatur"), ("rede", "rede"))


def minutes(chosen: Sequence[TaskCandidate]) -> int:
    """Working time of a set of tasks: each material is read once."""
    mats = {c.material_key: c for c in chosen if c.material_key}
    return sum(c.minuten for c in chosen) + sum(reading_minutes(c) for c in mats.values())


def _repeats(c: TaskCandidate, chosen: Sequence[TaskCandidate]) -> bool:
    return any(x.key == c.key or (x.generator and x.generator == c.generator) or repeats(x, c)
               for x in chosen)


def _kinds(text: str) -> list[str]:
    folded = fold(text)
    return [stem for word, stem in _KINDS if word in folded]


def _parts(c: TaskCandidate) -> frozenset[str]:
    """The materials a bank task works on: 'topic/m2+m4' -> {'topic/m2', 'topic/m4'}; other keys stand alone."""
    key = c.material_key or ""
    if "/" not in key or key.startswith(("gen:", "mat:")):
        return frozenset({key}) if key else frozenset()
    topic, labels = key.split("/", 1)
    return frozenset(f"{topic}/{label}" for label in labels.split("+"))


def _units(cands: Sequence[TaskCandidate], kinds: Sequence[str] = ()
           ) -> list[tuple[list[TaskCandidate], list[TaskCandidate]]]:
    """Per material set (a poem, two poems to compare, a source): the tasks on exactly that set (the anchors) and
    every task on a part of it — only sets whose tasks span two AFB levels. A set of several materials whose every
    material is a unit of its own is no unit unless a comparison is asked for: it would join those Aufgaben into
    one (the Abitur writes one Aufgabe per text, with comprehension, analysis and evaluation)."""
    out = []
    for key in dict.fromkeys(c.material_key for c in cands if c.material_key):
        anchors = [c for c in cands if c.material_key == key]
        members = [c for c in cands if c.material_key and _parts(c) <= _parts(anchors[0])]
        if len({c.afb for c in members}) >= 2:
            out.append((anchors, members))
    singles = {next(iter(_parts(a[0]))) for a, _ in out if len(_parts(a[0])) == 1}
    if "vergleich" in kinds:
        return out
    return [u for u in out if len(_parts(u[0][0])) == 1 or not _parts(u[0][0]) <= singles]


def _bridges(c: TaskCandidate, chosen: Sequence[TaskCandidate]) -> bool:
    """Would the task join two Aufgaben of the exam into one (it works on materials of both)?"""
    parts = _parts(c)
    return len(parts) > 1 and sum(1 for g in groups(chosen) if parts & frozenset().union(*(_parts(x) for x in g))) > 1


def _unit_part(unit: tuple[list[TaskCandidate], list[TaskCandidate]], spec: ExamSpec, cap: float,
               chosen: Sequence[TaskCandidate]) -> list[TaskCandidate]:
    """The Teilaufgaben taken from one material unit within `cap` minutes: the anchor (the largest AFB II/III task on
    the whole material set), then the other AFB levels, lowest first, then more while time allows; never a repeat."""
    anchors, members = unit
    ranked = sorted((c for c in members if not _repeats(c, chosen)), key=lambda c: -base_score(c, spec))
    fits = [c for c in anchors if c.afb != "I" and minutes([c]) <= cap and c in ranked]
    if not fits:
        return []
    part = [max(fits, key=lambda c: (c.punkte, base_score(c, spec)))]
    for afb in ("I", "II", "III"):
        if any(c.afb == afb for c in part):
            continue
        pick = next((c for c in ranked if c.afb == afb and minutes([*part, c]) <= cap and not _repeats(c, part)),
                    None)
        if pick is not None:
            part.append(pick)
    for c in ranked:
        if len(part) >= MAX_TEILE:
            break
        if c not in part and minutes([*part, c]) <= cap and not _repeats(c, part):
            part.append(c)
    return part if len({c.afb for c in part}) >= 2 else []


def _unit_score(part: Sequence[TaskCandidate], spec: ExamSpec, share: float, kinds: Sequence[str],
                chosen: Sequence[TaskCandidate]) -> float:
    text = fold(" ".join(c.text for c in part))
    s = sum(base_score(c, spec) for c in part) / len(part) + 0.4 * len({c.afb for c in part})
    s -= 0.8 * abs(minutes(part) - share) / max(share, 1)
    s -= 0.15 * (len({c.material_key for c in part}) - 1)  # Teilaufgaben on the very same material read as one
    s += 0.8 * sum(1 for k in kinds if k in text)
    s += 1.5 * sum(1 for u in spec.unterthemen if any(carries(c, u, spec) for c in part)
                   and not any(carries(c, u, spec) for c in chosen))
    return s


def _take_units(pool: Sequence[TaskCandidate], spec: ExamSpec, sel: Selection, kinds: Sequence[str],
                carrying: str | None = None) -> None:
    """Material units, best first, until the time is filled or the exam has its 2–3 Aufgaben; with `carrying` one
    unit on that named part (a named part has its own Aufgabe, and the others leave it room)."""
    limit = int(spec.budget_minuten * OVERFILL)
    wanted = spec.max_aufgaben or max(2 if spec.budget_minuten <= 100 else 3, min(len(spec.unterthemen), 4))
    taken = frozenset().union(*(_parts(c) for c in sel.chosen))  # a material already printed is not a new unit
    units = [u for u in _units([c for c in pool if c not in sel.chosen], kinds) if not _parts(u[0][0]) & taken]
    if carrying is not None:
        if any(carries(c, carrying, spec) for c in sel.chosen):
            return
        units = [u for u in units if any(carries(c, carrying, spec) for c in u[1])]
    while units and sel.minuten < FULL * spec.budget_minuten and len(groups(sel.chosen)) < max(wanted, 2):
        left = limit - sel.minuten
        share = left / max(wanted - len(groups(sel.chosen)), 1)
        cap = left if wanted - len(groups(sel.chosen)) <= 1 else min(left, (1.0 if carrying else 1.5) * share)
        options = [(p, _unit_score(p, spec, share, kinds, sel.chosen)) for u in units
                   if (p := _unit_part(u, spec, cap, sel.chosen))
                   and (carrying is None or any(carries(c, carrying, spec) for c in p))]
        if not options:
            return
        part = max(options, key=lambda o: o[1])[0]
        sel.chosen.extend(part)
        sel.minuten = minutes(sel.chosen)
        used = frozenset().union(*(_parts(c) for c in part))
        units = [u for u in units if not _parts(u[0][0]) & used]
        if carrying is not None:
            return


def _take_named(pool: Sequence[TaskCandidate], spec: ExamSpec, sel: Selection) -> None:
    """A named part no chosen Aufgabe carries gets a task of its own when one fits (a single one, if need be)."""
    limit = int(spec.budget_minuten * OVERFILL)
    for u in spec.unterthemen:
        if any(carries(c, u, spec) for c in sel.chosen):
            continue
        options = [c for c in pool if c not in sel.chosen and carries(c, u, spec)
                   and minutes([*sel.chosen, c]) <= limit and not _repeats(c, sel.chosen)]
        if options:
            sel.chosen.append(max(options, key=lambda c: base_score(c, spec)))
            sel.minuten = minutes(sel.chosen)


def singles(chosen: Sequence[TaskCandidate]) -> int:
    """Aufgaben whose Teilaufgaben stay on one AFB level."""
    return sum(1 for g in groups(chosen) if len({c.afb for c in g}) < 2)


def _complete(pool: Sequence[TaskCandidate], spec: ExamSpec, sel: Selection, *, standalone: bool = False) -> None:
    """Short tasks only to complete: first those on a material already printed, then loose tasks (the layout joins
    them into one Aufgabe — taken only with a partner on another AFB level, so that Aufgabe rises too), named parts
    and AFB levels the exam lacks first; with `standalone` also a task on a material of its own and loose tasks
    without a partner."""
    limit = int(spec.budget_minuten * OVERFILL)
    while sel.minuten < FULL * spec.budget_minuten:
        full = frozenset().union(*(_parts(c) for g in groups(sel.chosen) if len(g) > MAX_TEILE for c in g))
        printed = {c.material_key for c in sel.chosen if c.material_key and not _parts(c) & full}
        missing = [u for u in spec.unterthemen if not any(carries(c, u, spec) for c in sel.chosen)]
        total = max(sum(c.punkte for c in sel.chosen), 1)
        need = {a: spec.afb_ziel.get(a, 0) / 100 - sum(c.punkte for c in sel.chosen if c.afb == a) / total
                for a in _RANK}
        options = sorted((c for c in pool if c not in sel.chosen and minutes([*sel.chosen, c]) <= limit
                          and not _repeats(c, sel.chosen) and not _parts(c) & full and not _bridges(c, sel.chosen)
                          and (standalone or not c.material_key or c.material_key in printed)),
                         key=lambda c: -(base_score(c, spec) + 2 * need[c.afb] + 0.5 * (c.material_key in printed)
                                         + 1.5 * any(carries(c, u, spec) for u in missing)))
        step = _step(options, sel.chosen, limit, standalone=standalone)
        if not step:
            return
        sel.chosen.extend(step)
        sel.minuten = minutes(sel.chosen)


def _step(options: Sequence[TaskCandidate], chosen: Sequence[TaskCandidate], limit: int, *,
          standalone: bool) -> list[TaskCandidate]:
    """The best option that leaves no new one-level Aufgabe — alone or with the best partner that makes its
    Aufgabe rise over two levels; with `standalone` simply the best option."""
    if standalone:
        return list(options[:1])
    before = singles(chosen)
    for c in options[:MAX_TRIALS]:
        if singles([*chosen, c]) <= before:
            return [c]
        partner = next((d for d in options[:MAX_TRIALS] if d is not c and d.afb != c.afb
                        and minutes([*chosen, c, d]) <= limit and not _repeats(d, [c])
                        and singles([*chosen, c, d]) <= before), None)
        if partner is not None:
            return [c, partner]
    return []


def select_oberstufe(cands: Sequence[TaskCandidate], spec: ExamSpec, fill: Sequence[TaskCandidate] = (), *,
                     request: str = "") -> Selection | None:
    """The exam as few large material Aufgaben, or None when the topic has no material unit over two AFB levels
    (then the general choice applies). `fill` (the topic's unnamed parts, decision 027) is used only when the named
    parts do not fill the time (decision 043: the caller passes only what serves the request, or what she
    consented to)."""
    if spec.wuensche or not _units(cands) and not _units(fill):
        return None
    sel = Selection()
    kinds = _kinds(request)
    for u in spec.unterthemen:
        _take_units(cands, spec, sel, kinds, carrying=u)
    _take_units(cands, spec, sel, kinds)
    if sel.minuten < FULL * spec.budget_minuten and fill:
        _take_units([*cands, *fill], spec, sel, kinds)
    if not sel.chosen:
        return None
    _take_named(cands, spec, sel)
    pool = [*cands, *fill] if fill and sel.minuten < FULL * spec.budget_minuten else list(cands)
    _complete(pool, spec, sel)
    if sel.minuten < SHORT * spec.budget_minuten:  # a full exam beats a short one of only connected Aufgaben
        _complete(pool, spec, sel, standalone=True)
    sel.missing_unterthemen = [u for u in spec.unterthemen if not any(carries(c, u, spec) for c in sel.chosen)]
    sel.note_hits = {n[0]: [c.key for c in sel.chosen if mentions(c, n)] for n in spec.notes}
    return sel


def heavy(chosen: Sequence[TaskCandidate], *, oberstufe: bool, max_aufgaben: int | None) -> bool:
    """An Aufgabe carries 40 % of the points or more in an exam of three or more Aufgaben — allowed only for the one
    large material Aufgabe (Teilaufgaben over two AFB levels or more) of an Oberstufe exam."""
    gs = groups(chosen, max_aufgaben)
    total = sum(c.punkte for c in chosen)
    if len(gs) < 3 or not total:
        return False
    heavy = [g for g in gs if sum(c.punkte for c in g) >= HEAVY * total]
    unit = len(heavy) == 1 and heavy[0][0].material_key and len({c.afb for c in heavy[0]}) >= 2
    return bool(heavy) and not (oberstufe and unit)


def _afb_miss(chosen: Sequence[TaskCandidate], spec: ExamSpec) -> float:
    total = max(sum(c.punkte for c in chosen), 1)
    return sum(abs(sum(c.punkte for c in chosen if c.afb == a) / total - spec.afb_ziel.get(a, 0) / 100) for a in _RANK)


def spread(sel: Selection, pool: Sequence[TaskCandidate], spec: ExamSpec, *, oberstufe: bool) -> None:
    """No Aufgabe carries 40 % of the points (see `heavy`): drop, swap or add one task at a time, keeping the time
    as filled as it was (at least 90 % of it) and the AFB split as close as possible; named parts and met AFB wishes
    stay (a swapped-out wish task made the check refuse the whole exam)."""
    limit = int(spec.budget_minuten * OVERFILL)
    for _ in range(4):
        if not heavy(sel.chosen, oberstufe=oberstufe, max_aufgaben=spec.max_aufgaben):
            return
        floor = min(sel.minuten, FULL * spec.budget_minuten)
        named = {u for u in spec.unterthemen if any(carries(c, u, spec) for c in sel.chosen)}
        wished = [w for w in spec.wuensche if any(meets_wish(c, w) for c in sel.chosen)]
        extra = sorted((c for c in pool if c not in sel.chosen and minutes([*sel.chosen, c]) <= limit + 60),
                       key=lambda c: -base_score(c, spec))
        # no extra task repeats one of the exam, so none repeats one of a subset (`rest`) either
        extra = [c for c in extra[:MAX_TRIALS] if not _repeats(c, sel.chosen)]
        trials = [[*sel.chosen, c] for c in extra]
        for out in sel.chosen:
            rest = [x for x in sel.chosen if x is not out]
            trials += [rest, *([*rest, c] for c in extra)]
        trials = [t for t in trials if floor <= minutes(t) <= limit
                  and all(any(carries(c, u, spec) for c in t) for u in named)
                  and all(any(meets_wish(c, w) for c in t) for w in wished)]
        # the rule must not cost the AFB split or bring in weaker tasks than the exam already has
        worst = min(base_score(c, spec) for c in sel.chosen)
        # … nor the named parts' fair shares (issue #10): after decision 066 narrowed what carries „Blutkreislauf“,
        # the one Aufgabe on it was cut from 15 to 10 of 37 points beside „Atmung“
        fair = share_miss(sel.chosen, sel.parts_of) + SHARE_SLACK
        trials = [t for t in trials if _afb_miss(t, spec) <= _afb_miss(sel.chosen, spec) + AFB_SLACK
                  and share_miss(t, sel.parts_of) <= fair
                  and all(base_score(c, spec) >= worst - QUALITY_SLACK for c in t if c not in sel.chosen)]
        ok = [t for t in trials if not heavy(t, oberstufe=oberstufe, max_aufgaben=spec.max_aufgaben)]
        ok = ok or [t for t in trials if _most(t) < _most(sel.chosen)]
        if not ok:
            return
        sel.chosen = min(ok, key=lambda t: (_afb_miss(t, spec), -sum(base_score(c, spec) for c in t)))
        sel.minuten = minutes(sel.chosen)


def _most(chosen: Sequence[TaskCandidate]) -> float:
    total = max(sum(c.punkte for c in chosen), 1)
    return max((sum(c.punkte for c in g) / total for g in groups(chosen)), default=0.0)


def oberstufe_notes(sel: Selection, spec: ExamSpec) -> list[str]:
    """The honest word when an Oberstufe exam is not the 2–3 connected Aufgaben it should be (more than four, or
    Aufgaben on a single AFB level: the topic's reviewed tasks are too few material units), and when its tasks leave
    a tenth or more of the working time free (below three quarters the exam is declared shorter anyway)."""
    out = []
    aufgaben = groups(sel.chosen, spec.max_aufgaben)  # as the layout prints them
    single = singles(sel.chosen)
    budget_minuten, minuten = spec.budget_minuten, sel.minuten
    if len(aufgaben) > 4 or single:
        out.append(f"Für eine Oberstufenklausur sind es {len(aufgaben)} Aufgaben, davon {single} ohne "
                   "Teilaufgaben über mehrere Anforderungsbereiche: Zu diesem Thema gibt es nicht genug geprüfte "
                   "Materialaufgaben mit Teilaufgaben von AFB I bis III. Sie können einzelne Aufgaben streichen oder "
                   "„kürzer“ wünschen.")
    if SHORT * budget_minuten <= minuten < FULL * budget_minuten:
        out.append(f"Knapp bemessen: Die Aufgaben sind auf etwa {minuten} der {budget_minuten} Minuten reiner "
                   "Arbeitszeit angelegt; mehr zusammenhängende geprüfte Materialaufgaben gibt es zu diesem Thema "
                   "nicht. Wenn die Klausur voller sein soll, bitten Sie um eine weitere Aufgabe.")
    return out
