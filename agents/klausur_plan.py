"""The Klausur specialist's compact output (decision 015): which tasks of the composed draft it keeps, plus only the
text it writes or changes. The server expands the plan into the full Klausur — references resolved against the draft
kept in the deps, sources and materials carried over, points summed — and the usual checks judge that Klausur.

A model that keeps the draft sends `{}` (a few tokens) instead of the whole exam (about 3 000 tokens).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_ai import ModelRetry

from core.materials.blocks import AFB
from core.materials.klausur import Aufgabe, Klausur, Teilaufgabe

_AUS = re.compile(r"^\s*(\d+)\s*([a-z]\d*)\s*\)?\s*$")


def _lean(schema: dict[str, Any]) -> None:
    """A smaller schema for the model: optional fields read as their type (null is still accepted), no titles."""
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
        if prop.get("default", ...) is None:
            del prop["default"]
            kinds = [k for k in prop.pop("anyOf", []) if k != {"type": "null"}]
            prop.update(kinds[0] if len(kinds) == 1 else {"anyOf": kinds})


class _Plan(BaseModel):
    model_config = ConfigDict(json_schema_extra=_lean)


class KriteriumPlan(_Plan):
    """Eine Zeile des Erwartungshorizonts."""

    text: str = Field(description="konkret prüfbare Schülerleistung")
    punkte: int = Field(ge=1)


class QuellePlan(_Plan):
    """Worauf eine neue Teilaufgabe aufbaut."""

    art: Literal["curriculum", "good_practice", "generator", "eigene"]
    ref: str = Field(description="ref wie vom Werkzeug geliefert")


class TeilPlan(_Plan):
    """Eine Teilaufgabe: mit 'aus' aus dem Entwurf übernommen (angegebene Felder ersetzen die des Entwurfs), ohne
    'aus' neu geschrieben (dann operator, text, afb, erwartung nötig)."""

    aus: str | None = Field(None, description="'2b' = Teilaufgabe b der Aufgabe 2 des Entwurfs")
    operator: str | None = None
    text: str | None = Field(None, description="Aufgabenstellung ohne Punktangabe")
    afb: AFB | None = None
    erwartung: list[KriteriumPlan] | None = Field(None, description="Punkte der Teilaufgabe = Summe der Kriterien")
    quellen: list[QuellePlan] | None = None


class AufgabePlan(_Plan):
    """Eine Aufgabe: 'aus' ohne 'teile' übernimmt die Aufgabe des Entwurfs ganz."""

    aus: int | None = Field(None, description="Nummer der Aufgabe im Entwurf")
    titel: str | None = None
    material: str | None = Field(None, description="nur für neues Material (Text)")
    teile: list[TeilPlan] | None = Field(None, description="die Teilaufgaben in Reihenfolge")


# The exam as a plan to the draft. No docstring: the output tool's description (agents/klausur.py) says how to fill
# it, and a docstring would be sent to the model a second time.
class KlausurPlan(_Plan):
    aufgaben: list[AufgabePlan] | None = None
    titel: str | None = None
    hinweise_lehrkraft: list[str] | None = Field(None, description="ersetzt die Hinweise des Entwurfs")


def shell_of(request: Any) -> dict[str, Any]:  # noqa: ANN401 - a MaterialRequest
    """An exam without tasks from the request: the base when no draft could be composed."""
    stufe = int(request.klassenstufe or 10)
    return {"titel": f"Klausur {request.fach}: {request.thema}", "fach": request.fach, "klassenstufe": stufe,
            "klasse": request.klasse, "thema": request.thema, "dauer_minuten": request.dauer_minuten or 45,
            "niveau": "Sek I" if stufe <= 10 else "gA", "aufgaben": []}


def _teil(entwurf: Klausur, plan: TeilPlan, faults: list[str], where: str) -> Teilaufgabe | None:
    src: Teilaufgabe | None = None
    if plan.aus is not None:
        m = _AUS.match(plan.aus.lower())
        found = [t for a in entwurf.aufgaben if m and a.nummer == int(m.group(1))
                 for t in a.teilaufgaben if t.kennung == m.group(2)]
        if not found:
            faults.append(f"{where}: Teilaufgabe „{plan.aus}“ gibt es im Entwurf nicht.")
            return None
        src = found[0]
    data = src.model_dump() if src else {"quellen": []}
    data.update({k: v for k, v in plan.model_dump(exclude={"aus"}).items() if v is not None})
    if plan.erwartung is not None:
        data["punkte"] = sum(k.punkte for k in plan.erwartung)
    if missing := [k for k in ("operator", "text", "afb", "erwartung") if not data.get(k)]:
        faults.append(f"{where}: neue Teilaufgabe ohne {', '.join(missing)}.")
        return None
    return Teilaufgabe.model_validate({**data, "label": "?"})


def _aufgabe(entwurf: Klausur, plan: AufgabePlan, nummer: int, faults: list[str]) -> Aufgabe | None:
    src = next((a for a in entwurf.aufgaben if a.nummer == plan.aus), None)
    if plan.aus is not None and src is None:
        faults.append(f"Aufgabe {plan.aus} gibt es im Entwurf nicht (er hat {len(entwurf.aufgaben)} Aufgaben).")
    if plan.teile is None:
        if src is None and plan.aus is None:
            faults.append(f"Aufgabe {nummer}: ohne 'aus' braucht sie 'teile'.")
        if src is None:
            return None
        return src.model_copy(update={"nummer": nummer, "titel": plan.titel or src.titel,
                                      "material": plan.material or src.material}, deep=True)
    teile = [_teil(entwurf, t, faults, f"Aufgabe {nummer}") for t in plan.teile]
    titel = plan.titel or (src.titel if src else None)
    if not teile or not titel:
        faults.append(f"Aufgabe {nummer}: " + ("ohne Titel." if teile else "ohne Teilaufgaben."))
        return None
    if None in teile or (plan.aus is not None and src is None):
        return None
    labelled = [t.model_copy(update={"label": chr(ord("a") + i)}) for i, t in enumerate(teile) if t]
    return Aufgabe(nummer=nummer, titel=titel, material=plan.material or (src.material if src else None),
                   materialien=list(src.materialien) if src else [], teilaufgaben=labelled)


def expand_plan(plan: KlausurPlan, entwurf: dict[str, Any], hinweise: list[str]) -> Klausur:
    """The full Klausur the plan describes, from the draft `entwurf` (the composer's Klausur as JSON) and its notes
    to the teacher. Raises ModelRetry naming every reference that does not resolve."""
    base = Klausur.model_validate(entwurf)
    if plan.aufgaben is None:
        if not base.aufgaben:
            raise ModelRetry("Es gibt keinen Entwurf mit Aufgaben: schreibe die Aufgaben in 'aufgaben' (mit 'teile') "
                             "oder sage ab (Absage).")
        data = {**entwurf, "titel": plan.titel or base.titel}
        data["hinweise_lehrkraft"] = hinweise if plan.hinweise_lehrkraft is None else plan.hinweise_lehrkraft
        return Klausur.model_validate(data)
    faults: list[str] = []
    aufgaben = [_aufgabe(base, a, i, faults) for i, a in enumerate(plan.aufgaben, start=1)]
    if not plan.aufgaben:
        faults.append("'aufgaben' ist leer: nenne die Aufgaben oder lass das Feld weg, um den Entwurf zu übernehmen.")
    if faults:
        raise ModelRetry("Der Plan passt nicht zum Entwurf. Behebe genau das und gib den ganzen Plan erneut aus:\n- "
                         + "\n- ".join(faults))
    neu = [a for a in aufgaben if a is not None]
    old_total, new_total = base.gesamtpunkte, sum(a.punkte for a in neu)
    # "insgesamt sind 39 Punkte erreichbar" follows the new total
    schueler = [re.sub(rf"\b{old_total}(\s+Punkte)", rf"{new_total}\1", h) for h in base.hinweise]
    same = [a.model_dump() for a in neu] == [a.model_dump() for a in base.aufgaben]
    notes = list(hinweise if plan.hinweise_lehrkraft is None else plan.hinweise_lehrkraft)
    if base.gruppe_b and not same:
        notes.append("Gruppe B entfällt: die Aufgaben wurden gegenüber dem Entwurf geändert.")
    return base.model_copy(update={"titel": plan.titel or base.titel, "aufgaben": neu, "hinweise": schueler,
                                   "gruppe_b": base.gruppe_b if same else None, "hinweise_lehrkraft": notes})
