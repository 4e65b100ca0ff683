"""The quality histogram of the active pool: scores per Fach in bins, every bin present, as one faceted
chart spec."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from core.curation.queue import agent_types
from core.curation.views import HistogramBar
from core.materials.faecher import FAECHER, fach_name
from db.repos import curation as repo

# One Fach at a time (the page's Fach filter), one readable chart across the page width. Fields are those of
# HistogramBar.
HISTOGRAM_SPEC: dict[str, Any] = {
    "mark": {"type": "bar", "tooltip": True}, "width": "container", "height": 260,
    "encoding": {
        "x": {"field": "bereich", "type": "ordinal", "title": "Qualität", "sort": None, "axis": {"labelAngle": 0}},
        "y": {"field": "anzahl", "type": "quantitative", "title": "Anzahl Einträge"},
        "tooltip": [{"field": "fach", "title": "Fach"}, {"field": "bereich", "title": "Qualität"},
                    {"field": "anzahl", "title": "Anzahl"}]},
}


def histogram_caption(bars: Sequence[HistogramBar]) -> str:
    totals: dict[str, int] = {}
    for bar in bars:
        totals[bar.fach] = totals.get(bar.fach, 0) + bar.anzahl
    return "Qualität der aktiven Good Practices, in Klassen zu 0,1 · " + " · ".join(
        f"{fach}: {n}" for fach, n in totals.items())


def default_fach(faecher: Sequence[str]) -> str:
    """The Fach the list opens with: the curator's first known subject."""
    return next((f for f in faecher if f in FAECHER), next(iter(FAECHER)))


def histogram(*, db: Session, agent_type: str | None = None, fach: str | None = None,
              bins: int = 10) -> list[HistogramBar]:
    """Quality scores of the active pool per Fach (or of one Fach) in bins of 1/bins (every bin present)."""
    counts = {(f, b): n for f, b, n in repo.quality_histogram(db=db, agent_types=agent_types(agent_type), bins=bins)
              if fach is None or f == fach}
    faecher = sorted({f for f, _ in counts}, key=lambda f: fach_name(f))

    def label(b: int) -> str:
        return f"{b / bins:.1f}–{(b + 1) / bins:.1f}".replace(".", ",")

    return [HistogramBar(fach=fach_name(f), bereich=label(b), anzahl=counts.get((f, b), 0))
            for f in faecher for b in range(bins)]
