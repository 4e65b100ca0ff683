"""The one store for materials: a new material from a specialist, or the next version of a stored one.

Before storing, the Notenschlüssel scale comes from configuration (never from a model) and cited sources get
readable titles; a stored material is a row with its rendered files (DOCX, .h5p, Moodle XML).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_ai.messages import ModelResponse

from agents.deps import SpecialistDeps, TurnContext
from agents.klausur import klausur_faults, klausur_flags
from agents.specialist_checks import gate_faults
from core.checks.structure import validate_differenzierung, validate_h5p
from core.checks.verification import flags_for_teacher
from core.composition.report import options_text
from core.exports.files import RenderedFile, render
from core.generation.outcomes import GenerationOutcome, MaterialMade
from core.materials.blocks import Quelle
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.faecher import fach_name
from core.materials.klausur import Klausur
from core.materials.notenschluessel import NotenSchema, default_schema
from core.materials.stored import Material
from core.materials.summaries import material_summary
from db.models import GeneratedMaterial
from db.repos import knowledge as knowledge_repo
from db.repos import materials as material_repo
from db.repos import memory as memory_repo
from db.repos import teachers as teacher_repo

log = logging.getLogger(__name__)


def grading_scheme(turn: TurnContext, klausur: Klausur) -> NotenSchema:
    """The Notenschlüssel's scale: the teacher's or school's configured Sek I thresholds, else the standard.

    Whatever a model put into `notenschema` is replaced here — the key is computed from configuration, never invented.
    """
    if klausur.niveau == "Sek I":
        school = teacher_repo.school_of(db=turn.db, teacher=turn.teacher)
        for settings in (turn.teacher.settings or {}, (school.settings if school else None) or {}):
            custom = settings.get("notenschluessel_sek1")
            if isinstance(custom, dict) and len(custom) == 5:
                try:
                    return NotenSchema(art="sek1_6", schwellen_prozent=[float(custom[str(n)]) for n in range(1, 6)])
                except (KeyError, ValueError, ValidationError):
                    log.warning("ignoring invalid notenschluessel_sek1 setting: %s", custom)
    return default_schema(klausur.klassenstufe, klausur.niveau)


def cited_sources(material: Material) -> list[Quelle]:
    """Every source the material cites (an exam's per sub-task, in exam order)."""
    if isinstance(material, Klausur):
        return [q for t in material.teilaufgaben() for q in t.quellen]
    return list(material.quellen)


def fill_sources(turn: TurnContext, quellen: list[Quelle]) -> None:
    """Give every cited source a readable title from the database (models only name the refs)."""
    ids: dict[str, list[uuid.UUID]] = {"good_practice": [], "curriculum": []}
    for q in quellen:
        if q.art in ids and not q.titel:
            try:
                ids[q.art].append(uuid.UUID(q.ref))
            except ValueError:
                continue
    gps = knowledge_repo.knowledge_by_ids(db=turn.db, identity=turn.identity, ids=ids["good_practice"])
    chunks = knowledge_repo.curriculum_by_ids(db=turn.db, identity=turn.identity, ids=ids["curriculum"])
    for q in quellen:
        if q.titel:
            continue
        try:
            key = uuid.UUID(q.ref)
        except ValueError:
            q.titel = q.ref
            continue
        if q.art == "good_practice" and key in gps:
            q.titel = f"Bewährte Aufgabe: {gps[key].description or gps[key].thema or ''}".strip()
        elif q.art == "curriculum" and key in chunks:
            c = chunks[key]
            q.titel = f"Lehrplan {c.bundesland}, {c.abschnitt or c.thema} (Beispielauszug)"


def finish_material(turn: TurnContext, material: Material) -> Material:
    """The material as it is stored: computed grading scale, readable source titles."""
    if isinstance(material, Klausur):
        material = material.model_copy(update={"notenschema": grading_scheme(turn, material)})
    fill_sources(turn, cited_sources(material))
    return material


def material_faults(deps: SpecialistDeps, material: Material) -> list[str]:
    """What the checks still find in a finished material (stored with it and shown to the teacher)."""
    if isinstance(material, Klausur):
        return klausur_faults(deps, material) + flags_for_teacher(klausur_flags(deps, material))
    if isinstance(material, DifferenziertesMaterial):
        return validate_differenzierung(material) + gate_faults(deps, material)
    return validate_h5p(material) + gate_faults(deps, material)


def answering_model(messages: list[Any]) -> str | None:
    """The name of the model that gave the last answer of a run."""
    names = [m.model_name for m in messages if isinstance(m, ModelResponse) and m.model_name]
    return names[-1] if names else None


@dataclass(frozen=True)
class NewVersion:
    """A material stored as the next version of `parent`; `bearbeitung` records how it was made."""

    parent: GeneratedMaterial
    bearbeitung: dict[str, Any]


def store_material(turn: TurnContext, material: Material, *, material_type: str, fach: str, request: dict[str, Any],
                   faults: list[str], model_name: str | None, afb_ziel: dict[str, int] | None,
                   version_of: NewVersion | None = None) -> tuple[GeneratedMaterial, list[RenderedFile]]:
    """Write the material (new, or the next version of `version_of.parent`) and its rendered files."""
    lineage: dict[str, Any] = {}
    teacher_id, conversation_id = turn.teacher.id, turn.conversation_id
    if version_of is not None:
        parent = version_of.parent
        request = {**request, "bearbeitung": version_of.bearbeitung}
        lineage = {"version": parent.version + 1, "parent_id": parent.id}
        teacher_id, conversation_id = parent.teacher_id, parent.conversation_id
    row = material_repo.add_material(
        db=turn.db, teacher_id=teacher_id, conversation_id=conversation_id, material_type=material_type, fach=fach,
        klassenstufe=material.klassenstufe, thema=material.thema[:200], titel=material.titel[:300],
        content=material.model_dump(mode="json"), request=request, validation=faults, model_name=model_name, **lineage,
    )
    files = render(material, afb_ziel=afb_ziel)
    for f in files:
        material_repo.add_file(db=turn.db, material_id=row.id, teacher_id=row.teacher_id, kind=f.kind,
                               filename=f.filename, mime=f.mime, data=f.data)
    return row, files


def _mark_good_practices_used(turn: TurnContext, material: Material) -> None:
    used = []
    for q in cited_sources(material):
        if q.art == "good_practice":
            try:
                used.append(uuid.UUID(q.ref))
            except ValueError:
                continue
    knowledge_repo.mark_used(db=turn.db, ids=list(dict.fromkeys(used)))


def store_generated(turn: TurnContext, deps: SpecialistDeps, material: Material, messages: list[Any], *,
                    version_of: NewVersion | None = None) -> GenerationOutcome:
    """Store what a specialist made: checked, with files, counted as used, logged, reported as the turn's outcome."""
    material = finish_material(turn, material)
    faults = material_faults(deps, material)
    request = deps.request.model_dump(mode="json")
    request["afb_ziel_verwendet"] = deps.afb_ziel
    request["afb_quelle"] = deps.afb_quelle
    afb_ziel = deps.afb_ziel if isinstance(material, Klausur) else None
    row, files = store_material(turn, material, material_type=deps.agent_type, fach=deps.fach, request=request,
                                faults=faults, model_name=answering_model(messages), afb_ziel=afb_ziel,
                                version_of=version_of)
    _mark_good_practices_used(turn, material)
    memory_repo.add_session_log(db=turn.db, teacher_id=turn.teacher.id, conversation_id=turn.conversation_id,
                                summary=f"{material.titel} ({fach_name(deps.fach)}, {material.klassenstufe}) erstellt")
    labels = [f.label for f in files]
    text = material_summary(material, material_id=row.id, afb_ziel=afb_ziel, files=labels)
    if afb_ziel and deps.afb_quelle == "preference":  # not asked: say where the split came from
        text += "\nAFB-Ziel aus Ihren Präferenzen (änderbar auf der Seite „Präferenzen“)"
    if deps.optionen and set(deps.knapp) & set(material.hinweise_lehrkraft):  # still shortened as composed
        text += "\n" + options_text(deps.optionen)
    turn.outcomes.append(MaterialMade(material_id=row.id, titel=material.titel, material_type=deps.agent_type,
                                      files=[f.filename for f in files], validation=faults,
                                      version=row.version if version_of else None, parent_id=row.parent_id))
    turn.step(f"Router: {material.titel} gespeichert, {len(files)} Dateien")
    return GenerationOutcome(kind="material", text=text, material_id=row.id, files=labels)
