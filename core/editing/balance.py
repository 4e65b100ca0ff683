"""Keeping an exam within its AFB target after an AFB change: another sub-task moves the other way (a bank task of
its topic at a level that is short, points kept) or points move between sub-tasks the teacher did not address.
When no such move reaches the target, the teacher is asked how to rebalance, in plain German; nothing is stored."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from core.editing.afb_change import AfbChange
from core.editing.errors import PatchError
from core.editing.values import scale_points, shorten
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from core.materials.notenschluessel import format_punkte, format_zahl

TOLERANZ = 10.0  # the check's tolerance for AFB shares (agents.klausur.klausur_faults)
_MAX_MOVES, _BEAM = 5, 60


def _punkte(k: Klausur) -> dict[str, int]:
    out = dict.fromkeys(AFB_STUFEN, 0)
    for t in k.teilaufgaben():
        out[t.afb] += t.punkte
    return out


def deviation(punkte: Mapping[str, int], ziel: Mapping[str, int], toleranz: float = TOLERANZ) -> float:
    """How far the AFB shares lie outside target ± tolerance, in percentage points summed over the levels."""
    total = sum(punkte.values())
    if not total:
        return 0.0
    return sum(max(0.0, abs(punkte[afb] * 100 / total - ziel[afb]) - toleranz) for afb in ziel)


def shares(k: Klausur) -> str:
    return " · ".join(f"{afb} {format_zahl(v, 0)} %" for afb, v in k.afb_anteile.items())


@dataclass
class _Move:
    aufgabe: Aufgabe
    teil: Teilaufgabe
    ref: str
    afb: str
    punkte: int
    neu: Teilaufgabe | None = None  # a bank task at `afb` (else: the same sub-task with other points)


class Rebalance:
    """The moves for one exam after an AFB change: per free sub-task a bank task at another AFB (points kept) or
    other points. `plan` finds few moves (on different sub-tasks) that reach the target with a small change of the
    total; `apply` makes them and names each."""

    def __init__(self, k: Klausur, change: AfbChange, ziel: Mapping[str, int], total0: int) -> None:
        self.k, self.change, self.ziel, self.total0 = k, change, ziel, total0

    def _options(self) -> list[list[_Move]]:
        options = []
        for a in self.k.aufgaben:
            for t in a.teilaufgaben:
                if any(t is f for f in self.change.fixed):
                    continue
                ref = f"{a.nummer}{t.kennung}"
                moves = [_Move(a, t, ref, afb, t.punkte, neu) for afb in self.ziel if afb != t.afb
                         if (neu := self._bank(a, t, afb)) is not None]
                spanne = max(2, t.punkte // 2)
                moves += [_Move(a, t, ref, t.afb, p) for p in range(max(len(t.erwartung), t.punkte - spanne),
                                                                   t.punkte + spanne + 1) if p != t.punkte]
                options.append(moves)
        return options

    def _bank(self, a: Aufgabe, t: Teilaufgabe, afb: str) -> Teilaufgabe | None:
        """A bank task of the same sub-topic at `afb` that works with the task's material (or, without material,
        needs none) and fits into the sub-task's points."""
        titles = {m.titel for m in a.materialien}
        home = self.change.bank.home(a, t)
        for task in self.change.bank.candidates(home, afb, material_titles=titles, punkte=t.punkte):
            if home.unterthema and task.unterthema != home.unterthema:
                continue
            if bool(task.materialien) != bool(titles) or len(task.teil.erwartung) > t.punkte:
                continue
            punkte = scale_points([e.punkte for e in task.teil.erwartung], t.punkte)
            erwartung = [Kriterium(text=e.text, punkte=p) for e, p in zip(task.teil.erwartung, punkte, strict=True)]
            return task.teil.model_copy(update={"label": t.label, "punkte": t.punkte, "erwartung": erwartung})
        return None

    def plan(self) -> list[_Move] | None:
        """A beam search over the moves (one per sub-task, at most five): the fewest moves that reach the target,
        among them the smallest change of the exam's total and of points."""
        start = _punkte(self.k)
        if deviation(start, self.ziel) == 0:
            return []
        options = self._options()
        beam: list[tuple[tuple[float, int, int], dict[str, int], frozenset[int], tuple[_Move, ...]]] = [
            ((deviation(start, self.ziel), 0, 0), start, frozenset(), ())]
        for _ in range(_MAX_MOVES):
            grown = []
            for _, punkte, done, moves in beam:
                for i, opts in enumerate(options):
                    if i in done or (done and i < max(done)):  # each set of sub-tasks once
                        continue
                    for m in opts:
                        after = dict(punkte)
                        after[m.teil.afb] -= m.teil.punkte
                        after[m.afb] += m.punkte
                        key = (round(deviation(after, self.ziel), 3), abs(sum(after.values()) - self.total0),
                               sum(abs(x.punkte - x.teil.punkte) for x in (*moves, m)))
                        grown.append((key, after, done | {i}, (*moves, m)))
            if not grown:
                return None
            grown.sort(key=lambda g: g[0])
            if grown[0][0][0] == 0:
                return list(grown[0][3])
            beam = grown[:_BEAM]
        return None

    def apply(self, moves: list[_Move], changes: list[str]) -> None:
        for m in moves:
            i = next(i for i, x in enumerate(m.aufgabe.teilaufgaben) if x is m.teil)
            if m.neu is not None:
                m.aufgabe.teilaufgaben[i] = m.neu
                changes.append(f"{m.ref}: zum Ausgleich der AFB-Anteile AFB {m.teil.afb} → {m.afb} – ersetzt durch "
                               f"eine geprüfte Aufgabe zum selben Unterthema ({format_punkte(m.punkte)} wie bisher): "
                               f"„{shorten(m.neu.text, 80)}“")
                continue
            vorher = [e.punkte for e in m.teil.erwartung]
            neu = scale_points(vorher, m.punkte)
            m.teil.erwartung = [Kriterium(text=e.text, punkte=p) for e, p in zip(m.teil.erwartung, neu, strict=True)]
            changes.append(f"{m.ref}: zum Ausgleich der AFB-Anteile {format_punkte(m.teil.punkte)} → "
                           f"{format_punkte(m.punkte)} (Erwartungshorizont anteilig: {'/'.join(map(str, vorher))} → "
                           f"{'/'.join(map(str, neu))})")
            m.teil.punkte = m.punkte


def rebalance(k: Klausur, original: Klausur, change: AfbChange, ziel: Mapping[str, int] | None, ziel_text: str,
              changes: list[str]) -> None:
    """Bring the edited exam `k` (in place) back within its AFB target; ask the teacher (PatchError) when that is
    impossible and the change made the shares worse than before."""
    if not ziel or not change.fixed or not change.ausgleichen or set(ziel) - set(AFB_STUFEN):
        return
    vorher = deviation(_punkte(original), ziel)
    nach_aenderung = shares(k)
    balance = Rebalance(k, change, ziel, original.gesamtpunkte)
    moves = balance.plan()
    if moves is not None:
        balance.apply(moves, changes)
        return
    if deviation(_punkte(k), ziel) <= vorher:  # it was off target before and is no worse now
        return
    afb = change.fixed[0].afb
    beispiel = next((f"{a.nummer}{t.kennung}" for a in k.aufgaben for t in a.teilaufgaben
                     if any(t is f for f in change.fixed)), "2a")
    ziel_str = "/".join(str(ziel.get(x, 0)) for x in AFB_STUFEN)
    raise PatchError(
        f"„{ziel_text} als AFB {afb}“ habe ich vorbereitet, aber nicht gespeichert: Danach lägen die AFB-Anteile bei "
        f"{nach_aenderung} (Ziel {ziel_str}, je ± {format_zahl(TOLERANZ, 0)} Prozentpunkte), und auch mit "
        f"anderen Punkten oder Teilaufgaben komme ich nicht in den Zielbereich. Wie soll ich ausgleichen?\n"
        f"- nur eine Teilaufgabe ändern, z. B. „{beispiel} bitte als AFB {afb}“,\n"
        f"- selbst ausgleichen: unter „Meine Materialien“ Punkte, AFB oder Aufgaben anderer Teile ändern,\n"
        f"- oder so übernehmen, obwohl die Anteile abweichen: „{ziel_text} als AFB {afb} ohne Ausgleich“.")
