"""The teacher's own example exams as a model of structure: when she asks for "so wie meine alte Klausur" (or one
matches the topic), the composer takes its number of tasks, AFB split, operators and length, and says so."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.checks.topics import term_matches, text_stems
from core.materials.wording import anzahl


@dataclass(frozen=True)
class ExampleStructure:
    """What an uploaded example says about how this teacher builds an exam."""

    ref: str
    titel: str
    aufgaben: int
    afb: dict[str, int] | None  # percent, when the example's tasks carry AFB (stated or from their operators)
    operatoren: tuple[str, ...]
    dauer: int | None
    gesamtpunkte: int | None

    def hinweis(self) -> str:
        parts = [anzahl(self.aufgaben, "Aufgabe")]
        if self.afb:
            parts.append("AFB " + "/".join(str(self.afb[k]) for k in ("I", "II", "III")))
        if self.gesamtpunkte and self.dauer:
            parts.append(f"{anzahl(self.gesamtpunkte, 'Punkt')} in {anzahl(self.dauer, 'Minute')}")
        return f"Aufbau nach Ihrer hochgeladenen Vorlage „{self.titel}“: {', '.join(parts)}."


def _tasks(content: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for a in content.get("aufgaben") or []:
        subs = a.get("teilaufgaben") or []
        yield from (subs or [a])


def structure(ref: str, titel: str, content: dict[str, Any]) -> ExampleStructure | None:
    tasks = list(_tasks(content))
    if not tasks:
        return None
    punkte: Counter[str] = Counter()
    for t in tasks:
        if t.get("afb") in ("I", "II", "III"):
            punkte[t["afb"]] += int(t.get("punkte") or 1)
    total = sum(punkte.values())
    afb = None
    if total and len(punkte) >= 2:
        afb = {k: round(100 * punkte[k] / total) for k in ("I", "II", "III")}
        afb["II"] += 100 - sum(afb.values())
    ops = tuple(dict.fromkeys(str(t["operator"]) for t in tasks if t.get("operator")))
    return ExampleStructure(ref=ref, titel=titel, aufgaben=len(content.get("aufgaben") or []), afb=afb,
                            operatoren=ops, dauer=content.get("dauer_minuten"),
                            gesamtpunkte=content.get("gesamtpunkte"))


def best_example(rows: Sequence[Any], thema: str, *, asked: bool) -> ExampleStructure | None:
    """The example the teacher means: asked for -> the best-matching (else newest) one; not asked -> only one
    that clearly is about this topic."""
    wanted = text_stems(thema)
    scored = []
    for i, r in enumerate(rows):
        content = r.content or {}
        text = " ".join([str(content.get("titel") or ""), *(str(t.get("text") or "") for t in _tasks(content))])
        tokens = text_stems(text)
        hits = sum(1 for w in wanted if any(term_matches(t, w) for t in tokens))
        scored.append((hits, -i, r))
    scored.sort(key=lambda x: (-x[0], -x[1]))
    for hits, _, r in scored:
        if asked or (wanted and hits >= max(1, len(wanted) // 2 + 1)):
            s = structure(str(r.id), r.description or "Vorlage", r.content or {})
            if s is not None:
                return s
    return None
