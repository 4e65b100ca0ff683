"""The values an edit sets, read and made exact: AFB levels, criterion points scaled to a total, new criteria,
sub-task letters and shortened quotes for the change notes."""

from __future__ import annotations

from collections.abc import Sequence

from core.editing.errors import PatchError
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Kriterium
from core.materials.patch_ops import KriteriumNeu

MAX_PUNKTE_TEILAUFGABE = 100


def afb_value(value: str) -> str:
    raw = " ".join(str(value).split()).upper().removeprefix("AFB").strip()
    raw = {"1": "I", "2": "II", "3": "III"}.get(raw, raw)
    if raw not in AFB_STUFEN:
        raise PatchError(f"„{value}“ ist kein Anforderungsbereich. Möglich sind AFB I, II und III.")
    return raw


def scale_points(points: Sequence[int], total: int) -> list[int]:
    """Criterion points scaled to `total`: proportional, each ≥ 1, exact sum (largest remainder)."""
    n = len(points)
    if total < n:
        raise ValueError("fewer points than criteria")
    weights = [max(1, p) for p in points]
    raw = [w * total / sum(weights) for w in weights]
    out = [max(1, int(r)) for r in raw]
    while sum(out) < total:
        i = max(range(n), key=lambda j: (raw[j] - out[j], -j))
        out[i] += 1
    while sum(out) > total:
        i = max((j for j in range(n) if out[j] > 1), key=lambda j: (out[j] - raw[j], j))
        out[i] -= 1
    return out


def criteria(ref: str, eingabe: Sequence[KriteriumNeu]) -> list[Kriterium]:
    if not eingabe:
        raise PatchError(f"{ref}: Der Erwartungshorizont braucht mindestens ein Kriterium mit Punkten.")
    out = []
    for i, k in enumerate(eingabe, start=1):
        if not k.text.strip():
            raise PatchError(f"{ref}: Kriterium {i} ist leer. Bitte die erwartete Leistung ausformulieren.")
        if k.punkte < 1:
            raise PatchError(f"{ref}: Kriterium {i} hat {k.punkte} Punkte; jedes Kriterium braucht mindestens 1 Punkt.")
        out.append(Kriterium(text=k.text.strip(), punkte=k.punkte))
    return out


def sub_label(i: int) -> str:
    return chr(ord("a") + i) if i < 26 else f"a{i}"



def shorten(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
