"""The AFB split the teacher set, met by choice (issue #10, decision 053). After the exam is chosen, single swaps,
additions and left-out Teilaufgaben move its split inside the target ±10 points — only among the tasks that serve the
request, and never at the cost of the time it fills, a named part, a met wish, the points the minutes need or the
40 % rule. When the tasks cannot, the note names the level that falls short and why, in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.composition.candidates import TaskCandidate
from core.composition.oberstufe import FULL, heavy, minutes, singles
from core.composition.repeats import repeats
from core.composition.select import OVERFILL, ExamSpec, Selection, base_score, carries, meets_wish, reading_minutes
from core.materials.blocks import AFB_STUFEN

CHECK = 10.0  # percentage points: what the teacher's note and the evaluation allow
AIM = 8.0  # the fit aims inside the check, with a margin
RATE = 0.6  # points per exam minute the time needs (core.evaluation's TimeBudget)
ROUNDS, BEAM = 4, 24  # steps away from the chosen exam; exams kept per step
KIND = {"I": "Aufgaben zum Wiedergeben", "II": "Anwendungsaufgaben", "III": "Transferaufgaben"}


def shares(chosen: Sequence[TaskCandidate]) -> dict[str, float]:
    """Per AFB level its share of the points, in percent."""
    total = sum(c.punkte for c in chosen) or 1
    return {a: 100 * sum(c.punkte for c in chosen if c.afb == a) / total for a in AFB_STUFEN}


def excess(chosen: Sequence[TaskCandidate], ziel: Mapping[str, int], tolerance: float = AIM) -> float:
    """Percentage points outside target ± tolerance, summed over the levels (0: inside)."""
    have = shares(chosen)
    return sum(max(0.0, abs(have[a] - ziel.get(a, 0)) - tolerance) for a in AFB_STUFEN)


class _Rules:
    """What a changed exam must keep: the time it fills (or 90 % of the budget), its share of tasks on the topic,
    the named parts and wishes it carries, the points the minutes need, no repeat, no new heavy Aufgabe, and
    (Oberstufe) every material Aufgabe and no new one-level Aufgabe."""

    def __init__(self, sel: Selection, spec: ExamSpec, oberstufe: bool) -> None:
        self.spec, self.oberstufe, chosen = spec, oberstufe, sel.chosen
        self.floor = min(minutes(chosen), int(FULL * spec.budget_minuten + 0.999))
        self.limit = max(int(spec.budget_minuten * OVERFILL), minutes(chosen))
        need = RATE * spec.budget_minuten / 0.9  # the exam's minutes: the budget is 90 % of them
        self.points = min(sum(c.punkte for c in chosen), int(need + 0.999))
        self.parts = [u for u in spec.unterthemen if any(carries(c, u, spec) for c in chosen)]
        self.wishes = [w for w in spec.wuensche if any(meets_wish(c, w) for c in chosen)]
        self.singles = singles(chosen)
        self.heavy = heavy(chosen, oberstufe=oberstufe, max_aufgaben=spec.max_aufgaben)
        self._carries: dict[tuple[str, str], bool] = {}
        self.on_topic = self._on_topic(chosen)
        # an Oberstufe exam keeps its texts: a Teilaufgabe may go, never a whole material Aufgabe (the Macbeth scene)
        self.materials = {c.material_key for c in chosen if c.material_key} if oberstufe else set()

    def _carried(self, c: TaskCandidate, u: str) -> bool:
        key = (c.key, u)
        if key not in self._carries:
            self._carries[key] = carries(c, u, self.spec)
        return self._carries[key]

    def _on_topic(self, chosen: Sequence[TaskCandidate]) -> float:
        """The share of the tasks about the requested topic by content: the split never costs it."""
        return sum(1 for c in chosen if self._carried(c, self.spec.thema)) / max(len(chosen), 1)

    def keep(self, trial: Sequence[TaskCandidate]) -> bool:
        spec = self.spec
        if self._on_topic(trial) < self.on_topic - 1e-9 or not self.materials <= {c.material_key for c in trial}:
            return False
        if not self.floor <= minutes(trial) <= self.limit or sum(c.punkte for c in trial) < self.points:
            return False
        if not all(any(self._carried(c, u) for c in trial) for u in self.parts):
            return False
        if not all(any(meets_wish(c, w) for c in trial) for w in self.wishes):
            return False
        if self.oberstufe and singles(trial) > self.singles:
            return False
        return self.heavy or not heavy(trial, oberstufe=self.oberstufe, max_aufgaben=spec.max_aufgaben)


class _Index:
    """The tasks by number with what the search reads of them, computed once: points, level, minutes, the material
    each reads (once per exam), its score, and (when first asked) which pairs may not share an exam."""

    def __init__(self, items: Sequence[TaskCandidate], spec: ExamSpec) -> None:
        self.items, self.ziel = list(items), spec.afb_ziel
        self.score = [base_score(c, spec) for c in items]
        self.reading = {c.material_key: reading_minutes(c) for c in items if c.material_key}
        self._clash: dict[tuple[int, int], bool] = {}

    def excess(self, state: frozenset[int]) -> float:
        return excess([self.items[i] for i in state], self.ziel)

    def minutes(self, state: frozenset[int]) -> int:
        mats = {self.items[i].material_key for i in state} - {None}
        return sum(self.items[i].minuten for i in state) + sum(self.reading[m] for m in mats)

    def fits(self, i: int, state: frozenset[int]) -> bool:
        for j in state:
            pair = (min(i, j), max(i, j))
            if pair not in self._clash:
                self._clash[pair] = _clash(self.items[i], self.items[j])
            if self._clash[pair]:
                return False
        return True

    def steps(self, state: frozenset[int]) -> list[frozenset[int]]:
        """Every exam one step towards the split: a task on a level over its share left out, one on a level under
        it added, or the one swapped for the other."""
        have = shares([self.items[i] for i in state])
        under = {a for a in AFB_STUFEN if have[a] < self.ziel.get(a, 0)}
        adds = [i for i in range(len(self.items)) if i not in state and self.items[i].afb in under]
        drops = [i for i in state if self.items[i].afb not in under]
        out = [state | {i} for i in adds if self.fits(i, state)]
        for old in drops:
            rest = state - {old}
            out.append(rest)
            out += [rest | {i} for i in adds if self.fits(i, rest)]
        return [t for t in out if t]


def _clash(a: TaskCandidate, b: TaskCandidate) -> bool:
    return a.key == b.key or bool(a.generator and a.generator == b.generator) or repeats(a, b)


def fit(sel: Selection, pool: Sequence[TaskCandidate], spec: ExamSpec, *, oberstufe: bool) -> None:
    """Moves the chosen exam's AFB split inside target ±10 points where the tasks of `pool` allow it (see the module
    doc); an exam already inside, or one no such step brings inside, is left as chosen. A beam search over single
    steps: a step on the way may break a rule (an Oberstufe Aufgabe needs its second level in the next step), the
    exam chosen keeps them all."""
    if not sel.chosen or excess(sel.chosen, spec.afb_ziel, CHECK) == 0:
        return
    rules = _Rules(sel, spec, oberstufe)
    ix = _Index(list({c.key: c for c in [*sel.chosen, *pool]}.values()), spec)
    start = frozenset(range(len(sel.chosen)))  # the chosen come first in the index
    best, best_key = start, (ix.excess(start), 0, 0.0)
    beam, seen = [start], {start}
    for _ in range(ROUNDS):
        ranked = []
        for t in (t for state in beam for t in ix.steps(state)):
            if t not in seen and (m := ix.minutes(t)) <= rules.limit:
                seen.add(t)
                ranked.append(((ix.excess(t), -m, -sum(ix.score[i] for i in t)), sorted(t)))
        ranked.sort()
        beam = [frozenset(t) for _, t in ranked[:BEAM]]
        for key, t in ranked:
            if key < best_key and rules.keep([ix.items[i] for i in sorted(t)]):
                best, best_key = frozenset(t), key
                break
        if not beam or best_key[0] == 0:
            break
    chosen = [ix.items[i] for i in sorted(best)]
    if excess(chosen, spec.afb_ziel, CHECK) == 0:  # only a split inside the check is worth another exam
        sel.chosen, sel.minuten = chosen, minutes(chosen)


def afb_note(ist: Mapping[str, float], ziel: Mapping[str, int], verfuegbar: Mapping[str, int],
             gewaehlt: Mapping[str, int]) -> str | None:
    """The teacher's note when the split stays outside target ±10: the real split, the level that falls short
    („AFB III nur 8 %“) and why — the topic's reviewed tasks have (almost) none of that level, or no exam with the
    others reaches the split under the fit's rules — and what she can do."""
    if all(abs(ist[a] - ziel.get(a, 0)) <= CHECK for a in AFB_STUFEN):
        return None
    text = "/".join(f"{ist[a]:.0f}" for a in AFB_STUFEN)
    soll = "/".join(str(ziel.get(a, 0)) for a in AFB_STUFEN)
    short = [a for a in AFB_STUFEN if ziel.get(a, 0) - ist[a] > CHECK] or \
        [min(AFB_STUFEN, key=lambda a: ist[a] - ziel.get(a, 0))]
    why = []
    for a in short:
        unused = verfuegbar.get(a, 0) - gewaehlt.get(a, 0)
        grund = (f"zu diesem Thema gibt es keine geprüften {KIND[a]}" if not verfuegbar.get(a, 0) else
                 f"zu diesem Thema gibt es kaum {KIND[a]} (alle {verfuegbar[a]} Punkte davon sind verwendet)"
                 if unused <= 0 else
                 f"mit den übrigen {KIND[a]} zu diesem Thema ist sie nicht erreichbar, ohne Zeit, genannte Teile "
                 "oder den Themenbezug zu verlieren")
        why.append(f"AFB {a} nur {ist[a]:.0f} % (Ziel {ziel.get(a, 0)} %): {grund}")
    over = max(AFB_STUFEN, key=lambda a: ist[a] - ziel.get(a, 0))
    return (f"AFB-Verteilung {text} statt {soll} %. " + "; ".join(why) + ". Wenn Sie die Verteilung brauchen: "
            f"Ergänzen Sie eine eigene Aufgabe auf AFB {short[0]} oder streichen Sie eine Aufgabe auf AFB {over}.")
