"""Several named parts each get a fair share of the exam's points (issue #10): points per part, the preference while
filling and the miss the balancing weighs (moved out of core.composition.select)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.composition.candidates import TaskCandidate

SHARE_BONUS = 0.0  # while filling: preference for a task on a part below its share


def part_points(chosen: Sequence[TaskCandidate], parts_of: Mapping[str, tuple[str, ...]]) -> dict[str, float]:
    """Points per named part; a task on two parts counts half for each."""
    out: dict[str, float] = {u: 0.0 for ps in parts_of.values() for u in ps}
    for c in chosen:
        ps = parts_of.get(c.key, ())
        for u in ps:
            out[u] += c.punkte / len(ps)
    return out


def share_bonus(c: TaskCandidate, chosen: Sequence[TaskCandidate], parts_of: Mapping[str, tuple[str, ...]]) -> float:
    """Several named parts each get a fair share of the points (issue #10): a task on a part below its share is
    preferred, one on a part above it is the last resort."""
    ps = parts_of.get(c.key, ())
    if not ps:
        return 0.0
    have = part_points(chosen, parts_of)
    fair = sum(have.values()) / max(len(have), 1)
    return SHARE_BONUS * max(min((fair - min(have[u] for u in ps)) / max(c.punkte, 1), 1.0), -1.0)


def share_miss(chosen: Sequence[TaskCandidate], parts_of: Mapping[str, tuple[str, ...]]) -> float:
    """How far the named parts' shares of their points are from equal, beyond a tolerance of a fifth of a share."""
    have = part_points(chosen, parts_of)
    # a task of the request on no named part counts in the whole; a fill-up task does not (decision 027)
    total = sum(c.punkte for c in chosen if c.key in parts_of) or 1
    if len(have) < 2:
        return 0.0
    fair = 1 / len(have)
    return sum(max(0.0, fair - p / total - fair / 5) for p in have.values())
