"""The planner agent (real models): splits one teacher message asking for several materials into a Plan of checked
sub-requests with dependencies; `plan_faults` checks it in code and every fault goes back as a retry."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field
from pydantic_ai import Agent, ModelRetry, RunContext

from core.app.errors import UserError
from core.language.klasse import KLASSENSTUFE_MAX, KLASSENSTUFE_MIN
from core.materials.faecher import fach_name, normalize_fach
from core.materials.request import AfbWunsch, MaterialRequest

MAX_PARTS = 5
MATERIAL_TYPES = ("klausur", "differenzierung", "h5p")
TYPE_LABELS = {"klausur": "Klausur", "differenzierung": "Differenziertes Arbeitsblatt", "h5p": "H5P-Übung"}


class PlanPart(BaseModel):
    """One material of a combined request. Loose types on purpose: the checks in `plan_faults` answer in German."""

    key: str = Field(description="Eindeutige Kurzkennung dieses Teils, z. B. 'klausur', 'blatt', 'quiz'.")
    wording: str = Field(default="", description="Die Worte der Lehrkraft zu diesem Teil (Ausschnitt der Anfrage).")
    material_type: str = Field(
        description="'klausur' (Klausur/Klassenarbeit/Test), 'differenzierung' (Arbeitsblatt auf drei Niveaus) "
                    "oder 'h5p' (interaktive Übung, Quiz, Lückentext)."
    )
    fach: str | None = Field(default=None, description="Unterrichtsfach, z. B. 'Physik'; null, wenn nicht erkennbar.")
    klassenstufe: int | None = Field(default=None, description="Klassenstufe 5 bis 13; null, wenn nicht genannt.")
    klasse: str | None = Field(default=None, description="Konkrete Klasse wie '10a', falls genannt.")
    thema: str | None = Field(
        default=None,
        description="Thema dieses Teils. Hat der Teil kein eigenes Thema, das Thema des Teils aus 'topic_from'.",
    )
    dauer_minuten: int | None = Field(default=None, description="Dauer in Minuten, falls für diesen Teil genannt.")
    zusatz: str = Field(default="", description="Weitere Wünsche zu diesem Teil (z. B. '10 Fragen'), knapp.")
    afb_ziel: dict[str, int] | None = Field(
        default=None, description="AFB-Verteilung in Prozent für eine Klausur, z. B. {'I': 30, 'II': 40, 'III': 30}."
    )
    afb_wuensche: list[AfbWunsch] = Field(default_factory=list, description="Wünsche wie 'Induktion als AFB III'.")
    depends_on: list[str] = Field(
        default_factory=list,
        description="Kennungen der Teile, die vorher fertig sein müssen (z. B. das Übungsblatt zur Vorbereitung "
                    "hängt von der Klausur ab). Keine Kreise.",
    )
    topic_from: str | None = Field(
        default=None, description="Kennung des Teils, dessen Thema (und Aufgaben) dieser Teil übernimmt, sonst null."
    )
    confidence: float = Field(default=1.0, ge=0, le=1, description="Wie sicher die Materialart ist (0 bis 1).")
    reason: str = Field(default="", description="Woran die Materialart erkannt wurde, kurz.")

    def to_request(self) -> MaterialRequest:
        """The router's request for this part (call only on a plan without faults)."""
        return MaterialRequest(
            fach=fach_name(normalize_fach(self.fach) or ""), klassenstufe=self.klassenstufe, klasse=self.klasse,
            thema=self.thema or "", material_type=self.material_type,  # type: ignore[arg-type]
            dauer_minuten=self.dauer_minuten, zusatz=self.zusatz[:500], afb_ziel=self.afb_ziel,
            afb_wuensche=self.afb_wuensche,
        )


class Plan(BaseModel):
    """The decomposition of a combined request: sub-requests with dependencies (a DAG)."""

    parts: list[PlanPart] = Field(description=f"Die einzelnen Materialien in Reihenfolge, höchstens {MAX_PARTS}.")
    notes: list[str] = Field(
        default_factory=list, description="Hinweise für die Lehrkraft (z. B. eine unsichere Zuordnung), deutsch."
    )
    lesson_minutes: int | None = Field(
        default=None,
        description="Nur wenn die Teile laut Anfrage in dieselbe Stunde sollen: deren Länge in Minuten (45/90).",
    )
    problems: list[str] = Field(
        default_factory=list,
        description="Unmögliche Angaben der Lehrkraft (z. B. Klassenstufe 4 oder eine AFB-Summe von 110 %), "
                    "deutsch; sonst leer.",
    )
    flat: bool = Field(default=False, description="Immer false; das System setzt es bei aufgelösten Kreisen.")

    def part(self, key: str) -> PlanPart:
        return next(p for p in self.parts if p.key == key)


def topological_levels(parts: list[PlanPart]) -> list[list[str]] | None:
    """Kahn's algorithm: the keys in levels (a level only needs earlier levels); None when the graph has a cycle."""
    keys = [p.key for p in parts]
    needs = {p.key: {d for d in p.depends_on if d in keys} for p in parts}
    levels: list[list[str]] = []
    done: set[str] = set()
    while len(done) < len(keys):
        ready = [k for k in keys if k not in done and needs[k] <= done]
        if not ready:
            return None
        levels.append(ready)
        done.update(ready)
    return levels


def plan_faults(plan: Plan) -> list[str]:
    """What makes a plan unusable, in German (for the model's retry and for the teacher). A cycle is no fault: it is
    resolved by `normalized` into a flat list."""
    faults: list[str] = []
    if not plan.parts:
        return ["Der Plan enthält kein Material. Jede Anfrage braucht mindestens einen Teil."]
    if len(plan.parts) > MAX_PARTS:
        faults.append(f"Der Plan enthält {len(plan.parts)} Materialien — höchstens {MAX_PARTS} pro Anfrage sind "
                      "möglich. Bitte fassen Sie Teile zusammen oder stellen Sie eine zweite Anfrage.")
    keys = [p.key for p in plan.parts]
    for key in sorted({k for k in keys if keys.count(k) > 1}):
        faults.append(f"Die Kennung „{key}“ kommt mehrfach vor; jede Kennung darf nur einmal vorkommen.")
    for p in plan.parts:
        name = f"Teil „{p.key}“"
        if p.material_type not in MATERIAL_TYPES:
            faults.append(f"{name}: Die Materialart „{p.material_type}“ gibt es nicht — möglich sind klausur, "
                          "differenzierung und h5p.")
        if p.klassenstufe is not None and not KLASSENSTUFE_MIN <= p.klassenstufe <= KLASSENSTUFE_MAX:
            faults.append(f"{name}: Klassenstufe {p.klassenstufe} ist nicht möglich — erlaubt sind die "
                          f"Klassenstufen {KLASSENSTUFE_MIN} bis {KLASSENSTUFE_MAX}.")
        if p.fach:
            try:
                normalize_fach(p.fach)
            except UserError as exc:
                faults.append(f"{name}: {exc.message}")
        if p.dauer_minuten is not None and not 1 <= p.dauer_minuten <= 600:
            faults.append(f"{name}: Eine Dauer von {p.dauer_minuten} Minuten ist nicht möglich (1 bis 600).")
        if p.afb_ziel is not None and (set(p.afb_ziel) - {"I", "II", "III"} or sum(p.afb_ziel.values()) != 100
                                       or any(v < 0 for v in p.afb_ziel.values())):
            faults.append(f"{name}: Die AFB-Verteilung muss die Schlüssel I, II, III haben und 100 % ergeben.")
        for d in [*p.depends_on, *([p.topic_from] if p.topic_from else [])]:
            if d not in keys:
                faults.append(f"{name}: hängt von „{d}“ ab, diesen Teil gibt es im Plan nicht.")
    return faults


def normalized(plan: Plan) -> Plan:
    """Subject keys, `topic_from` as a dependency, topics filled from their source; a cycle becomes a flat list."""
    parts = []
    for p in plan.parts:
        fach = normalize_fach(p.fach, required=False) if p.fach else None
        deps = list(dict.fromkeys([*p.depends_on, *([p.topic_from] if p.topic_from else [])]))
        parts.append(p.model_copy(update={"fach": fach, "depends_on": deps}))
    by_key = {p.key: p for p in parts}
    for i, p in enumerate(parts):  # a part without its own topic takes its source's (following a chain)
        seen: set[str] = set()
        src = p
        while not src.thema and src.topic_from and src.topic_from in by_key and src.key not in seen:
            seen.add(src.key)
            src = by_key[src.topic_from]
        if not p.thema and src.thema:
            parts[i] = p.model_copy(update={"thema": src.thema})
    notes = list(plan.notes)
    flat = plan.flat
    if topological_levels(parts) is None:
        cycle = ", ".join(p.key for p in parts if p.depends_on)
        notes.append(f"Die Abhängigkeiten im Plan bilden einen Kreis ({cycle}); ich erstelle die Teile deshalb "
                     "unabhängig voneinander.")
        parts = [p.model_copy(update={"depends_on": [], "topic_from": None}) for p in parts]
        flat = True
    return plan.model_copy(update={"parts": parts, "notes": notes, "flat": flat})


DEFAULT_INSTRUCTIONS = f"""\
Du zerlegst die Anfrage einer Lehrkraft, die mehrere Unterrichtsmaterialien auf einmal möchte, in einzelne Teile.
- Jeder Teil ist genau ein Material: 'klausur' (Klausur, Klassenarbeit, Test, Lernkontrolle), 'differenzierung'
  (Arbeitsblatt/Übungsblatt auf drei Niveaus) oder 'h5p' (Quiz, Lückentext, Zuordnungsübung, interaktive Übung).
  Ist die Art unklar, nimm 'klausur' mit confidence unter 0.5 und begründe es in 'reason'.
- Höchstens {MAX_PARTS} Teile. Gemeinsame Angaben („Für die 10a:“, „Physik“) gelten für alle Teile.
- Klassenstufe 5 bis 13; was nicht genannt ist, bleibt null (nicht raten).
- Abhängigkeiten: Ein Teil ohne eigenes Thema übernimmt das Thema des Teils, auf den er sich bezieht (topic_from,
  auch in depends_on). Ein Teil „zur Vorbereitung“ hängt von der Klausur ab. Keine Kreise.
- lesson_minutes nur, wenn die Teile ausdrücklich in dieselbe Stunde sollen.
- Erfinde nichts hinzu: übernimm Thema, Dauer, AFB-Verteilung und Wünsche (z. B. „10 Fragen“ in zusatz) wörtlich."""


@dataclass
class PlannerDeps:
    """What the planner run sees: instructions resolved beforehand (no database work inside the run)."""

    instructions: str = DEFAULT_INSTRUCTIONS
    faults: list[str] = field(default_factory=list)


planner_agent: Agent[PlannerDeps, Plan] = Agent(
    output_type=Plan, deps_type=PlannerDeps, name="supervisor", retries={"output": 2}, defer_model_check=True,
)


@planner_agent.instructions
async def _instructions(ctx: RunContext[PlannerDeps]) -> str:
    return ctx.deps.instructions if ctx.deps is not None else DEFAULT_INSTRUCTIONS


@planner_agent.output_validator
async def _check(ctx: RunContext[PlannerDeps], output: Plan) -> Plan:
    faults = plan_faults(output)
    if ctx.deps is not None:
        ctx.deps.faults = faults
    if faults:
        raise ModelRetry("Der Plan ist ungültig. Behebe genau diese Fehler:\n- " + "\n- ".join(faults))
    return output


def planner_prompt(text: str, context: Mapping[str, Any] | None) -> str:
    """The planner's user prompt: the teacher's words and the known context as JSON (the rules read it back)."""
    known = {k: v for k, v in (context or {}).items() if v is not None}
    return f"Anfrage der Lehrkraft:\n<<<\n{text}\n>>>\n\nBekannter Kontext:\n```json\n{json.dumps(known)}\n```"
