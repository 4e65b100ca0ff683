"""Regenerating a material from an instruction too large for patch operations, as its next version.

"Aufgabe 3 leichter/schwerer" reworks just that task from the knowledge base (see `rework`); anything else reruns
the material's specialist with the previous material as JSON and adjusted parameters the offline rules act on:
'leichter'/'schwerer' shift the AFB target by 10 points, a duration or 'kürzer'/'länger' changes the minutes,
'mehr/weniger Rechenaufgaben' sets the calculation share. A rerun that yields the same content stores nothing.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from pydantic import ValidationError

from agents.deps import SpecialistDeps, TurnContext
from core.editing.bank_tasks import stems
from core.editing.errors import PatchError
from core.editing.items import from_end
from core.editing.loading import klausur_of, own_row, request_of, stored_target
from core.editing.patch import EditOutcome, store_version
from core.editing.rework import rework_task, swap_for_calculation
from core.editing.values import shorten
from core.generation.prepare import prepare_deps, subject_operators
from core.generation.run import MAX_RUECKFRAGEN, auftrag_prompt, run_specialist
from core.generation.store import NewVersion
from core.language.edits import EditUnclear, parse_edit_request, positions
from core.language.followups import wants_whole_topic
from core.language.lexicon import strings_in
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Klausur
from core.materials.patch_ops import RegenerateInstruction
from core.materials.request import MaterialRequest
from core.materials.stored import MATERIAL_MODELS, Material
from core.materials.summaries import version_summary
from db.models import GeneratedMaterial
from db.repos import materials as material_repo


def shift_afb(ziel: dict[str, int], richtung: str) -> dict[str, int]:
    """'leichter': 10 points from III (else II) to I; 'schwerer': 10 points from I (else II) to III."""
    ziel = {a: int(ziel.get(a, 0)) for a in AFB_STUFEN}
    nach, quellen = ("I", ("III", "II")) if richtung == "leichter" else ("III", ("I", "II"))
    rest = 10
    for quelle in quellen:
        teil = min(rest, ziel[quelle])
        ziel[quelle] -= teil
        ziel[nach] += teil
        rest -= teil
    return ziel


def plan_of(instruction: str | RegenerateInstruction) -> RegenerateInstruction:
    """The instruction with the parameters the rules act on (a plain instruction when nothing is recognised)."""
    if isinstance(instruction, RegenerateInstruction):
        return instruction
    text = " ".join((instruction or "").split())
    if not text:
        raise PatchError("Die Anweisung ist leer. Bitte sagen, was anders werden soll, z. B. „kürzer“ oder "
                         "„Aufgabe 3 leichter“.")
    try:
        parsed = parse_edit_request(text)
    except EditUnclear:
        parsed = None
    return parsed if isinstance(parsed, RegenerateInstruction) else RegenerateInstruction(anweisung=text)


def _dauer(plan: RegenerateInstruction, dauer: int | None) -> int | None:
    if plan.dauer_minuten:
        return plan.dauer_minuten
    if plan.laenge and dauer:
        neu = dauer * 2 / 3 if plan.laenge == "kuerzer" else dauer * 4 / 3
        return max(15, int(round(neu / 5) * 5))
    return dauer


def same_content(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def strip(c: dict[str, Any]) -> str:
        return json.dumps(c, sort_keys=True, ensure_ascii=False)
    return strip(a or {}) == strip(b or {})


def _stored_material(row: GeneratedMaterial) -> Material | None:
    model = MATERIAL_MODELS.get(row.material_type)
    try:
        return model.model_validate(row.content) if model else None
    except ValidationError:
        return None


def _adjusted_request(row: GeneratedMaterial, plan: RegenerateInstruction, base: MaterialRequest,
                      added: str | None = None) -> tuple[MaterialRequest, list[str]]:
    """The request for the rerun (instruction in `zusatz`, shifted AFB target, new duration, an `added` sub-topic)
    and the change notes."""
    changes = [f"neu erzeugt mit der Anweisung „{shorten(plan.anweisung, 120)}“"]
    if (row.request or {}).get("bearbeitung"):
        changes.append(f"bitte prüfen, ob Ihre Einzeländerungen aus Version {row.version} noch enthalten sind")
    update: dict[str, Any] = {"zusatz": f"{base.zusatz} Überarbeitung: {plan.anweisung}".strip()[:1000]}
    whole, named = wants_whole_topic(plan.anweisung)
    if whole:  # „Bitte das ganze Thema Expressionismus nehmen“: the topic without the earlier focus
        update.update(thema=named or base.thema, unterthemen=[])
        changes.append(f"ganzes Thema „{named or base.thema}“ statt der Schwerpunkte" if base.unterthemen
                       else f"ganzes Thema „{named or base.thema}“")
    if added:  # „Bitte auch das going-to-future aufnehmen“: one more named part of the request
        update["unterthemen"] = [*update.get("unterthemen", base.unterthemen), added]
    if row.material_type == "klausur":
        ziel = stored_target(row) or dict(base.afb_ziel or {})
        if plan.richtung and ziel:
            neu_ziel = shift_afb(ziel, plan.richtung)
            changes.append("AFB-Ziel " + "/".join(str(ziel.get(a, 0)) for a in AFB_STUFEN) + " → "
                           + "/".join(str(neu_ziel[a]) for a in AFB_STUFEN))
            ziel = neu_ziel
        if ziel and sum(ziel.values()) == 100:
            update["afb_ziel"] = ziel
        dauer = _dauer(plan, base.dauer_minuten)
        if dauer != base.dauer_minuten:
            changes.append(f"Dauer {base.dauer_minuten} → {dauer} Minuten")
            update["dauer_minuten"] = dauer
    return base.model_copy(update=update), changes


def _rework_prompt(row: GeneratedMaterial, plan: RegenerateInstruction, request: MaterialRequest,
                   old_material: Material | None) -> str:
    previous = row.content if not isinstance(old_material, Klausur) else old_material.model_dump(
        mode="json", exclude={"gesamtpunkte", "afb_punkte", "afb_anteile", "notenschluessel", "notenschema"})
    return (f"{auftrag_prompt(request)}\n\nÜberarbeitung von Version {row.version} („{row.titel}“). "
            f"Änderungswunsch der Lehrkraft: „{plan.anweisung}“.\nSetze genau diesen Wunsch um und übernimm aus der "
            f"bisherigen Fassung alles, was er nicht betrifft.\nBisherige Fassung:\n```json\n"
            f"{json.dumps(previous, ensure_ascii=False)}\n```")


async def _rerun(turn: TurnContext, row: GeneratedMaterial, plan: RegenerateInstruction, deps: SpecialistDeps,
                 prompt: str, changes: list[str], added: str | None = None) -> EditOutcome:
    """Run the specialist inside a savepoint; keep its material as the next version only if it differs (and, with
    an `added` sub-topic, only if the new version has more on it than the old one)."""
    bearbeitung = {"art": "regenerate", "von_version": row.version, "von_material": str(row.id),
                   "aenderungen": changes}
    n_outcomes = len(turn.outcomes)
    savepoint = turn.db.begin_nested()
    try:
        outcome = await run_specialist(turn, deps, prompt=prompt, history=None, session_id=None,
                                       version_of=NewVersion(parent=row, bearbeitung=bearbeitung))
    except BaseException:
        if savepoint.is_active:
            savepoint.rollback()
        raise
    new_row = material_repo.get_material(db=turn.db, material_id=outcome.material_id) if outcome.material_id else None
    if new_row is None or outcome.kind != "material":
        savepoint.rollback()
        del turn.outcomes[n_outcomes:]
        if added:  # the composer found nothing for the sheet with the sub-topic
            raise PatchError(not_added(added, row))
        raise PatchError(outcome.text.removeprefix("FEHLER: ") if outcome.kind == "error" else
                         "Die Überarbeitung hat kein Material ergeben. Bitte die Anweisung anders fassen.")
    if added and not _more_on(new_row.content, row.content, added):
        savepoint.rollback()
        del turn.outcomes[n_outcomes:]
        raise PatchError(not_added(added, row))
    if same_content(new_row.content, row.content):
        savepoint.rollback()
        del turn.outcomes[n_outcomes:]
        if plan.rechnen and row.material_type == "klausur":  # the rebuild could not act on it: swap tasks instead
            old = klausur_of(row)
            new, swapped = swap_for_calculation(turn, old, mehr=plan.rechnen == "mehr",
                                                operatoren=subject_operators(turn, row.fach))
            return store_version(turn, row, old, new, [f"{plan.rechnen} Rechenaufgaben", *swapped], force=True,
                                 art="regenerate")
        raise PatchError("Mit dieser Anweisung ergab die Neuerzeugung dieselbe Fassung – es wurde nichts gespeichert. "
                         "Für gezielte Änderungen sagen Sie z. B. „Gib 1b 6 Punkte“, „Streich Aufgabe 4“ oder "
                         "„Formulier 2a so: …“.")
    savepoint.commit()
    material = _stored_material(new_row)
    faults = [str(f) for f in new_row.validation or []]
    text = outcome.text if material is None else version_summary(
        material, material_id=new_row.id, version=new_row.version, afb_ziel=deps.afb_ziel
        if isinstance(material, Klausur) else None, files=outcome.files, changes=changes, faults=faults,
        parent_version=row.version)
    return EditOutcome(material_id=new_row.id, parent_id=row.id, version=new_row.version, titel=new_row.titel,
                       changes=changes, faults=faults, files=outcome.files, text=text)


def _more_on(new: dict[str, Any] | None, old: dict[str, Any] | None, thema: str) -> bool:
    """Has the new version more texts on `thema` (at least half its content words) than the old one — and no note
    of its own saying that the sub-topic is missing („Zu „Gradnetz“ gibt es keine geprüfte Aufgabe …“)?"""
    wanted = stems(thema)

    def on_topic(content: dict[str, Any] | None) -> list[str]:
        return [t for t in strings_in(content or {}) if wanted and 2 * len(wanted & stems(t)) >= len(wanted)]
    neu = on_topic(new)
    if any("keine geprüfte" in t or "dieser Teil fehlt" in t for t in neu):
        return False
    return len(neu) > len(on_topic(old))


def not_added(thema: str, row: GeneratedMaterial) -> str:
    """The refusal when the bank has nothing on a sub-topic the teacher wants added, with her options."""
    was = {"h5p": "Fragen", "differenzierung": "Aufgaben"}.get(row.material_type, "Aufgaben")
    klasse = f" für Klasse {row.klassenstufe}" if row.klassenstufe else ""
    return (f"Zu „{thema}“ hat die geprüfte Aufgabensammlung{klasse} keine weiteren {was}, "
            "die ich ergänzen könnte – es wurde nichts gespeichert. Sie können mir die Aufgabe im Chat vorgeben, "
            "das Material mit einem anderen oder weiter gefassten Thema neu erzeugen lassen oder unter „Meine "
            "Materialien“ selbst ergänzen.")


async def regenerate_from_previous(*, turn: TurnContext, material_id: uuid.UUID | str,
                                   instruction: str | RegenerateInstruction, added: str | None = None
                                   ) -> EditOutcome:
    """Make a new version of a material from an instruction too large for patch operations.

    The specialist never asks back here. Explicit instructions are stored even if the check then reports faults
    (they are listed).
    """
    row = own_row(turn, material_id)
    plan = plan_of(instruction)
    if plan.aufgabe is None and plan.richtung and row.material_type == "klausur" and (
            places := positions(plan.anweisung)):  # „Mach die letzte Aufgabe leichter“
        plan = plan.model_copy(update={"aufgabe": int(from_end(str(places[0]), len(klausur_of(row).aufgaben)))})
    if plan.aufgabe is not None and plan.richtung and row.material_type == "klausur":
        old = klausur_of(row)
        new, changes = rework_task(turn, old, plan, subject_operators(turn, row.fach))
        return store_version(turn, row, old, new, changes, force=True, art="regenerate")
    old_material = _stored_material(row)
    request, changes = _adjusted_request(row, plan, request_of(row, old_material), added)
    deps = prepare_deps(turn, request)
    deps.rueckfragen, deps.final = MAX_RUECKFRAGEN, True  # the instruction is the answer: no Rückfrage
    if plan.rechnen:
        deps.preferences["rechnung_theorie_ratio"] = "100:0" if plan.rechnen == "mehr" else "0:100"
        changes.append(f"{plan.rechnen} Rechenaufgaben")
    return await _rerun(turn, row, plan, deps, _rework_prompt(row, plan, request, old_material), changes, added)
