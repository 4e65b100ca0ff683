"""Choosing exam tasks under constraints: named sub-topics and AFB wishes first, then the time budget filled towards
the AFB targets with varied operators and sub-topics, never a near-duplicate, never more than the budget allows.

Scores are plain numbers so the choice is explainable; ties break by a hash of the request: the same request
always gives the same exam, different requests on one topic give different ones."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from core.checks.promises import covers
from core.checks.topicality import name_stems, says, sets_side_by_side
from core.checks.topics import text_stems
from core.composition.candidates import TaskCandidate
from core.composition.parts_lexicon import is_filing_of, treats
from core.composition.repeats import repeats, same_demand, view
from core.composition.shapes import does_form
from core.composition.shares import share_bonus, share_miss
from core.language.text import fold, fold_loose, words

READING_WORDS_PER_MINUTE = 120
OVERFILL = 1.08  # the exam may run this much over the budget rather than leave a gap
SEVERAL = re.compile(r",| und | and ")  # a topic title naming several things
FILL_BELOW = 0.9  # on-topic tasks filling less of the budget than this: filled up, or shorter (decision 043)


@dataclass(frozen=True)
class ExamSpec:
    klassenstufe: int
    budget_minuten: int
    afb_ziel: dict[str, int]
    unterthemen: tuple[str, ...] = ()
    wuensche: tuple[tuple[str, str], ...] = ()  # (thema, afb)
    thema: str = ""  # the exam's topic: a wish on it („mindestens eine Aufgabe auf AFB III“) is no topic of its own
    primary_topics: tuple[str, ...] = ()
    related_topics: tuple[str, ...] = ()
    notes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (the note, its key words)
    avoid: tuple[str, ...] = ()
    salt: str = ""
    max_aufgaben: int | None = None
    wish_only: frozenset[str] = frozenset()  # keys of tasks about a wished topic only
    prefer_generated: bool = False  # Gruppe A/B: tasks whose numbers can be re-drawn
    topic_titles: Mapping[str, str] = field(default_factory=dict)  # resolved topic id -> its title
    operatoren: tuple[str, ...] = ()  # operators of the teacher's example exam: preferred
    elsewhere: frozenset[str] = frozenset()  # keys of bank tasks filed under another topic than the requested one
    fill_ok: bool = False  # she chose to fill up with neighbour tasks (decision 043)
    whole_topic: bool = True  # the request's topic is the bank topic, not one part of it: its tasks all serve (043)
    other_words: frozenset[str] = frozenset()  # stems of the parts of the topic's title the request does not name
    seiten: tuple[str, ...] = ()  # the sides of a contrast she asked for („A vs. B“): one task sets them side by side


@dataclass
class Selection:
    chosen: list[TaskCandidate] = field(default_factory=list)
    minuten: int = 0
    missing_unterthemen: list[str] = field(default_factory=list)
    missing_wuensche: list[tuple[str, str]] = field(default_factory=list)
    note_hits: dict[str, list[str]] = field(default_factory=dict)  # note term -> keys of tasks that use it
    parts_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # task key -> the named parts it carries

    def punkte(self, afb: str | None = None) -> int:
        return sum(c.punkte for c in self.chosen if afb is None or c.afb == afb)


def carries(c: TaskCandidate, unterthema: str, spec: ExamSpec) -> bool:
    """The task is about a named sub-topic (`treats`, decision 045): its text or criteria cover it, or it is filed
    under a label that *is* it — its sub-topic, its topic's title or that title's head („Extremwertprobleme“ carries
    a box-volume task that never says the word); „Vulkanismus und Erdbeben“ carries neither. When the named parts
    share words („waagerechter und schiefer Wurf“), the task must say what sets this part apart — and a task filed
    under another named part is that part's task (a schiefer Wurf mentioning the „waagerechte Komponente“)."""
    own_part = fold(c.unterthema or "")
    if own_part != fold(unterthema) and any(own_part == fold(v) for v in spec.unterthemen):
        return False
    if not _treats(c, unterthema, spec):
        return False
    own = distinct_words(unterthema, spec.unterthemen)
    return not own or _treats(c, own, spec)


def contrasts(tasks: Sequence[TaskCandidate], spec: ExamSpec) -> bool:
    """A task says both sides of her contrast, or the sub-tasks on one material take a side each (by text or filing)."""
    return sets_side_by_side(" ".join(c.text for c in tasks), spec.seiten) or len(tasks) > 1 and all(
        any(says(f"{c.unterthema} {c.text}", s) for c in tasks) for s in spec.seiten)


def _treats(c: TaskCandidate, part: str, spec: ExamSpec) -> bool:
    content = replace(view(c), titel="")
    return treats([content], part, spec.thema, c.unterthema or "") or _under_head(c, part, spec)


def serves(c: TaskCandidate, spec: ExamSpec, *, sibling: bool = False) -> bool:
    """The task serves what was asked (decision 043): filed under the requested topic — as a whole, or with no part
    named (the filters left the request's own tasks) — or about the request's topic or a named part by content;
    else it is a neighbour's (a `sibling` part, another topic), in the exam only with the teacher's consent."""
    home = c.key not in spec.elsewhere
    if home and (spec.whole_topic or not (spec.unterthemen or sibling)) or c.key in spec.wish_only:
        return True
    said = name_stems(f"{c.unterthema} {c.text}")  # a task of the request's own that names the title's other part
    if home and not sibling and not any(s.startswith(w) for s in said for w in spec.other_words):
        return True  # („Brüche“ of „Brüche und Dezimalzahlen“) is the neighbour's
    if any(_treats(c, p, spec) for p in (*spec.unterthemen, spec.thema)):
        return True
    # filed under a title naming several things („Brüche und Dezimalzahlen“): its filing says no more than that
    return not SEVERAL.search(spec.topic_titles.get(c.topic or "", "")) and any(
        carries(c, u, spec) for u in spec.unterthemen)


def meets_wish(c: TaskCandidate, wish: tuple[str, str]) -> bool:
    """The task fulfils a teacher's AFB wish („eine Aufgabe Induktion als AFB III“): that level, about that topic."""
    thema, afb = wish
    return c.afb == afb and covers([view(c)], thema)


def _under_head(c: TaskCandidate, unterthema: str, spec: ExamSpec) -> bool:
    """The topic title, or its head, is the part: „Halbleiter: Diode, LED und Sensoren“ is „Halbleiter“."""
    title = spec.topic_titles.get(c.topic or "", "")
    return any(is_filing_of(label, unterthema, spec.thema) for label in (title, title.rpartition(":")[0]) if label)


def distinct_words(unterthema: str, named: Sequence[str]) -> str:
    """The words of a named part that no other named part has („Schiefer“ of „Schiefer Wurf“ beside „Waagerechter
    Wurf“); empty when it shares none."""
    others = set().union(set(), *(text_stems(v) for v in named if fold(v) != fold(unterthema)))
    mine = text_stems(unterthema)
    if not mine & others:
        return ""
    return " ".join(w for w in words(unterthema) if text_stems(w) and not text_stems(w) & others)


def reading_minutes(c: TaskCandidate) -> int:
    words = sum(len((m.text or "").split()) for m in c.materialien)
    return max(1, round(words / READING_WORDS_PER_MINUTE)) if words else 0


def _noise(salt: str, key: str) -> float:
    return int(hashlib.sha256(f"{salt}|{key}".encode()).hexdigest()[:6], 16) / 0xFFFFFF * 0.08


def mentions(c: TaskCandidate, note: tuple[str, tuple[str, ...]]) -> bool:
    """A task meets a note when it contains a unit-like key word ('mA') or at least half of the note's key words."""
    text = " ".join([c.text, *(t for t, _ in c.erwartung)])
    folded = fold_loose(text)  # 'Potential' in a note meets 'Potenzial' in a task
    words = note[1]
    if any(len(w) <= 3 and any(ch.isupper() for ch in w[1:]) and w in text for w in words):
        return True
    hits = sum(1 for w in words if fold_loose(w) in folded)
    return bool(words) and hits * 2 >= len(words)


def base_score(c: TaskCandidate, spec: ExamSpec) -> float:
    s = 1.0 + 0.3 * c.quality + _noise(spec.salt, c.text)  # by content: the same on every installation
    if c.topic and c.topic in spec.primary_topics:
        s += 0.6
    elif c.topic and c.topic in spec.related_topics:
        s += 0.1
    s += {"eigene": 0.45, "kuratiert": 0.15, "bank": 0.1, "generator": 0.12}[c.herkunft]
    if spec.prefer_generated and c.herkunft == "generator":
        s += 0.35
    if spec.operatoren and fold(c.operator) in {fold(o) for o in spec.operatoren}:
        s += 0.15
    if c.klassenstufe is not None and spec.klassenstufe <= 10:
        s -= 0.25 * abs(c.klassenstufe - spec.klassenstufe)
    if any(mentions(c, n) for n in spec.notes):
        s += 0.4
    if any(carries(c, u, spec) for u in spec.unterthemen):
        s += 0.3
    return s


def _cost(c: TaskCandidate, chosen: Sequence[TaskCandidate]) -> int:
    shares_material = c.material_key is not None and any(x.material_key == c.material_key for x in chosen)
    return c.minuten + (0 if shares_material else reading_minutes(c))


def _add(sel: Selection, c: TaskCandidate) -> None:
    sel.minuten += _cost(c, sel.chosen)
    sel.chosen.append(c)


def _best(cands: Sequence[TaskCandidate], sel: Selection, spec: ExamSpec, limit: int,
          bonus: dict[str, float] | None = None) -> TaskCandidate | None:
    best, best_s = None, float("-inf")
    for c in cands:
        if sel.minuten + _cost(c, sel.chosen) > limit or not _compatible(c, sel.chosen):
            continue
        s = base_score(c, spec) + (bonus or {}).get(c.key, 0.0)
        if s > best_s:
            best, best_s = c, s
    return best


def _deficits(sel: Selection, spec: ExamSpec, planned: int) -> dict[str, float]:
    total = max(planned, sel.punkte(), 1)
    return {afb: spec.afb_ziel.get(afb, 0) / 100 * total - sel.punkte(afb) for afb in ("I", "II", "III")}


def select(cands: Sequence[TaskCandidate], spec: ExamSpec, fill: Sequence[TaskCandidate] = ()) -> Selection:
    """The tasks of the exam, in the order they were chosen (layout orders them). `fill` are the topic's tasks on
    parts the teacher did not name: when the named parts leave the time unfilled, those that carry a named part fill
    it around the named tasks, which all stay; the others only with her consent (decisions 027, 043)."""
    sel = Selection()
    if len(spec.unterthemen) >= 2:
        # the request's tasks count for the shares; a fill-up task only when it carries a named part
        sel.parts_of = {c.key: ps for c in [*cands, *fill]
                        if (ps := tuple(u for u in spec.unterthemen if carries(c, u, spec))) or c in cands}
    limit = int(spec.budget_minuten * OVERFILL)
    for u in spec.unterthemen:  # a named sub-topic gets a task first
        matching = [c for c in cands if carries(c, u, spec)]
        own = [c for c in matching if c.key not in spec.elsewhere]  # a Sachaufgabe on Gleichungen, not on an LGS
        pick = _best(does_form(own, u) or own, sel, spec, limit) or _best(matching, sel, spec, limit)  # 072
        if pick is None:
            if not any(carries(x, u, spec) for x in sel.chosen):
                sel.missing_unterthemen.append(u)
            continue
        if not any(carries(x, u, spec) for x in sel.chosen):
            _add(sel, pick)
    if spec.seiten and not any(contrasts([x], spec) for x in sel.chosen) and (  # „A vs. B“: first, like a part
            pick := _best([c for c in cands if contrasts([c], spec)], sel, spec, limit)) is not None:
        _add(sel, pick)
    for wish in spec.wuensche:
        matching = [c for c in cands if meets_wish(c, wish)]
        if any(meets_wish(x, wish) for x in sel.chosen):
            continue
        pick = _best(matching, sel, spec, limit)
        if pick is None:
            sel.missing_wuensche.append(wish)
        else:
            _add(sel, pick)
    # a wished topic gets its one task above; the rest of the exam is about the requested topic
    other = [t for t, _ in spec.wuensche if fold(t) != fold(spec.thema)]
    rest = [c for c in cands if c in sel.chosen or (c.key not in spec.wish_only and not any(
        covers([view(c)], t) for t in other))]
    foreign = _foreign(rest, sel, spec) if spec.unterthemen else []  # named parts: the requested topic's tasks first
    rest = [c for c in rest if c not in foreign]
    serving = [c for c in fill if serves(c, spec, sibling=True)]  # another topic's task: only with consent
    pools = [serving, *([c for c in p if c not in serving] for p in (fill, foreign) if spec.fill_ok)]
    _fill(rest, sel, spec, limit)
    if spec.fill_ok:  # the short exam she was offered first, then filled up around it (decision 043)
        _balance(rest, sel, spec, limit)
    if not _fill_up(sel, spec, limit, rest, pools):
        _balance(rest, sel, spec, limit)
        if (near := fill if spec.fill_ok else serving) and _afb_miss(sel.chosen, spec) > 0:  # named parts' tasks
            trial = Selection(chosen=list(sel.chosen), minuten=sel.minuten, parts_of=sel.parts_of)  # miss the AFB
            pool = [*rest, *(c for c in near if c.key not in spec.wish_only)]
            _fill(pool, trial, spec, limit)
            _balance(pool, trial, spec, limit, fixed=_protected(sel, spec), drop=False)
            if _objective(trial.chosen, spec, sel.parts_of) < _objective(sel.chosen, spec, sel.parts_of) - 0.05:
                sel.chosen, sel.minuten = trial.chosen, trial.minuten
    sel.note_hits = {n[0]: [c.key for c in sel.chosen if mentions(c, n)] for n in spec.notes}
    return sel


def _fill_up(sel: Selection, spec: ExamSpec, limit: int, rest: list[TaskCandidate],
             pools: Sequence[Sequence[TaskCandidate]]) -> bool:
    """Fills the time the named parts leave empty, pool by pool (tasks carrying a named part; with consent the
    topic's other parts, then other topics), around the tasks already chosen; False when no pool was needed."""
    used, own = False, {c.key for c in rest}
    for more in pools:
        if not more or sel.minuten >= FILL_BELOW * spec.budget_minuten:
            continue
        used, named = True, {c.key for c in sel.chosen}
        rest += [c for c in more if c.key not in spec.wish_only]
        _fill(rest, sel, spec, limit)
        # the chosen stay in number; one may give way to a task on the named parts, never a fill-up (decision 040)
        _balance(rest, sel, spec, limit, fixed=named, drop=False, swap_in=own)
    if used:  # a named part the topic's other tasks carry is in the exam after all
        sel.missing_unterthemen = [u for u in sel.missing_unterthemen
                                   if not any(carries(x, u, spec) for x in sel.chosen)]
    return used


def _foreign(cands: Sequence[TaskCandidate], sel: Selection, spec: ExamSpec) -> list[TaskCandidate]:
    """Tasks the bank files under another topic than the requested one (a Sachaufgabe on an LGS for „Terme und
    Gleichungen: …, Textaufgaben“): they fill the exam only when the requested topic's tasks cannot — unless they
    carry a named part the requested topic has no task on („Stammbaumanalyse“ for „Genetik: Mendel + …“)."""
    home = [c for c in cands if c.key not in spec.elsewhere]
    lacking = [u for u in spec.unterthemen if not any(carries(c, u, spec) for c in home)]
    return [c for c in cands if c.key in spec.elsewhere and c not in sel.chosen
            and not any(carries(c, u, spec) for u in lacking)]


def _fill(cands: Sequence[TaskCandidate], sel: Selection, spec: ExamSpec, limit: int) -> None:
    while sel.minuten < spec.budget_minuten:
        if spec.max_aufgaben and len(sel.chosen) >= spec.max_aufgaben * 3:
            break
        deficits = _deficits(sel, spec, spec.budget_minuten)
        used_ops = {fold(c.operator) for c in sel.chosen}
        used_sub = {fold(c.unterthema) for c in sel.chosen}
        bonus = {}
        for c in cands:
            b = 0.9 * max(min(deficits[c.afb] / max(c.punkte, 1), 1.0), -1.0)
            if any(same_demand(c, x) for x in sel.chosen):
                b -= 0.6  # the same kind of task again, with other numbers: allowed, but the last resort
            b += 0.15 if fold(c.operator) not in used_ops else -0.1
            b += 0.2 if fold(c.unterthema) not in used_sub else 0.0
            if c.material_key and any(x.material_key == c.material_key for x in sel.chosen):
                b += 0.35  # the material is already read: its further tasks are cheap and coherent
            bonus[c.key] = b + share_bonus(c, sel.chosen, sel.parts_of)
        pick = _best(cands, sel, spec, limit, bonus)
        if pick is None:
            return
        _add(sel, pick)


AFB_TOLERANCE = 0.08  # aim inside the ±10-point check, with a margin
AFB_CHECK = 0.10  # beyond this the teacher gets a note that the split was not met (core.composition.klausur)
AFB_STEP = 0.5  # what crossing that line costs: a split inside the check beats a slightly closer one outside
RATE_FLOOR, RATE_WEIGHT = 0.7, 2.0  # points per working minute (0.6 per exam minute); per share of those missing
TIME_WEIGHT = 8.0  # per share of the budget left empty below 85 %
SHARE_WEIGHT = 6.0  # per share of the points a named part lacks of its fair share (beyond a fifth of it)


def _afb_miss(chosen: Sequence[TaskCandidate], spec: ExamSpec) -> float:
    total = sum(c.punkte for c in chosen) or 1
    return sum(max(0.0, abs(sum(c.punkte for c in chosen if c.afb == a) / total - spec.afb_ziel.get(a, 0) / 100)
                   - AFB_TOLERANCE) for a in ("I", "II", "III"))


def _afb_off(chosen: Sequence[TaskCandidate], spec: ExamSpec) -> bool:
    total = sum(c.punkte for c in chosen) or 1
    return max(abs(sum(c.punkte for c in chosen if c.afb == a) / total - spec.afb_ziel.get(a, 0) / 100)
               for a in ("I", "II", "III")) > AFB_CHECK + 1e-9


def _thin(chosen: Sequence[TaskCandidate], spec: ExamSpec) -> float:
    """How far the points fall short of the time (a 90-minute exam with 40 points reads thin)."""
    floor = RATE_FLOOR * spec.budget_minuten
    return max(0.0, floor - sum(c.punkte for c in chosen)) / floor


def _objective(chosen: Sequence[TaskCandidate], spec: ExamSpec,
               parts_of: Mapping[str, tuple[str, ...]] | None = None) -> float:
    """Lower is better: AFB off target, minutes off budget, points thin for the time, (a little) the tasks' scores."""
    afb = _afb_miss(chosen, spec)
    minutes = sum(c.minuten for c in chosen) + sum(reading_minutes(c) for c in {x.material_key: x for x in chosen
                                                                                 if x.material_key}.values())
    time = max(0.0, spec.budget_minuten * 0.85 - minutes) / spec.budget_minuten
    over = max(0.0, minutes - spec.budget_minuten * OVERFILL) / spec.budget_minuten
    same = sum(1 for i, a in enumerate(chosen) for b in chosen[i + 1:] if same_demand(a, b))
    # time before AFB: an exam cut below the requested time breaks the request (a 42-minute Genetik exam was cut
    # to 16 minutes for a better AFB split); an AFB deviation is reported to the teacher instead
    share = SHARE_WEIGHT * share_miss(chosen, parts_of) if parts_of else 0.0
    step = AFB_STEP if time or _afb_off(chosen, spec) else 0.0  # the split inside the check counts in a full exam
    return 4 * afb + step + TIME_WEIGHT * time + 6 * over + 0.3 * same + share + RATE_WEIGHT * _thin(chosen, spec) \
        - 0.02 * sum(base_score(c, spec) for c in chosen)


def _protected(sel: Selection, spec: ExamSpec) -> set[str]:
    """Tasks that alone carry a named sub-topic or an AFB wish: never swapped out."""
    keep = set()
    for u in spec.unterthemen:
        carriers = [c.key for c in does_form(sel.chosen, u) or sel.chosen if carries(c, u, spec)]  # 072
        if len(carriers) == 1:
            keep.add(carriers[0])
    for thema, afb in spec.wuensche:
        carriers = [c.key for c in sel.chosen if c.afb == afb and covers([view(c)], thema)]
        if len(carriers) == 1:
            keep.add(carriers[0])
    sides = [c.key for c in sel.chosen if contrasts([c], spec)]  # the one task that sets „A vs. B“ side by side
    return keep | set(sides) if len(sides) == 1 else keep


def _compatible(c: TaskCandidate, others: Sequence[TaskCandidate]) -> bool:
    if any(x.key == c.key or (x.generator and x.generator == c.generator) for x in others):
        return False
    return not any(repeats(x, c) for x in others)


def _balance(cands: Sequence[TaskCandidate], sel: Selection, spec: ExamSpec, limit: int, rounds: int = 12,
             fixed: frozenset[str] | set[str] = frozenset(), drop: bool = True,
             swap_in: frozenset[str] | set[str] = frozenset()) -> None:
    """Local search: swap, add or drop single tasks towards the target; tasks in `fixed` stay (with `swap_in`: give
    way only to one of those), and without `drop` a task is only swapped (filling up is for the time)."""
    fixed = fixed | swap_in  # a task on the named parts swapped in stays like the one it replaced
    for _ in range(rounds):
        current = _objective(sel.chosen, spec, sel.parts_of)
        keep = _protected(sel, spec) | (set() if swap_in else fixed)
        best, best_val = None, current - 1e-6
        pool = [c for c in cands if all(c.key != x.key for x in sel.chosen)]
        for out in [None, *sel.chosen]:
            if out is not None and out.key in keep:
                continue
            rest = [x for x in sel.chosen if x is not out]
            options: list[TaskCandidate | None] = [None] if out is not None and drop and out.key not in fixed else []
            options += [c for c in pool if _compatible(c, rest) and (out is None or out.key not in fixed
                                                                     or c.key in swap_in)]
            for inn in options:
                trial = rest + ([inn] if inn else [])
                if not trial:
                    continue
                val = _objective(trial, spec, sel.parts_of)
                if val < best_val:
                    best, best_val = trial, val
        if best is None:
            return
        sel.chosen = best
        sel.minuten = sum(_cost(c, sel.chosen[:i]) for i, c in enumerate(sel.chosen))
