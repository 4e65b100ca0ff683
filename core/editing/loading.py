"""The stored material an edit starts from: the teacher's own row, read as a Klausur or a request again, and the
targets the generation used for it (stored AFB target, the subject's operators, preferences)."""

from __future__ import annotations

import uuid

from pydantic import ValidationError

from agents.deps import SpecialistDeps, TurnContext
from core.app.errors import NotFoundError
from core.editing.errors import PatchError
from core.generation.prepare import prepare_deps
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest
from core.materials.stored import Material
from db.models import GeneratedMaterial
from db.repos import materials as material_repo


def own_row(turn: TurnContext, material_id: uuid.UUID | str) -> GeneratedMaterial:
    """The teacher's own stored material; a German NotFoundError for a bad id or someone else's material."""
    try:
        mid = material_id if isinstance(material_id, uuid.UUID) else uuid.UUID(str(material_id).strip())
    except ValueError:
        raise NotFoundError("Dieses Material gibt es nicht (ungültige ID). Bitte die ID aus [material:ID] "
                            "nehmen.") from None
    row = material_repo.get_material(db=turn.db, material_id=mid)
    if row is None or row.teacher_id != turn.teacher.id:
        raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
    return row


def klausur_of(row: GeneratedMaterial) -> Klausur:
    """The stored exam; other materials and old formats cannot be patched (German PatchError)."""
    if row.material_type != "klausur":
        raise PatchError("Gezielte Änderungen (Punkte, AFB, Operator, Aufgaben) gibt es nur für Klausuren. Dieses "
                         "Material lässt sich mit einer Anweisung neu erzeugen (z. B. „kürzer“ oder „5 Fragen“).")
    try:
        return Klausur.model_validate(row.content)
    except ValidationError as exc:
        raise PatchError("Diese Klausur ist in einem älteren Format gespeichert und lässt sich nicht mehr gezielt "
                         "bearbeiten. Bitte neu erzeugen lassen.") from exc


def request_of(row: GeneratedMaterial, material: Material | None) -> MaterialRequest:
    """The request the material was made from (rebuilt from the material when none is stored)."""
    try:
        return MaterialRequest.model_validate(row.request or {})
    except ValidationError:
        if material is None:
            raise PatchError("Zu diesem Material ist kein Auftrag gespeichert; es lässt sich nicht neu erzeugen. "
                             "Bitte im Chat neu anfragen.") from None
        return MaterialRequest(fach=row.fach, thema=material.thema, material_type=row.material_type,
                               klassenstufe=material.klassenstufe, klasse=getattr(material, "klasse", None),
                               dauer_minuten=getattr(material, "dauer_minuten", None))


def stored_target(row: GeneratedMaterial) -> dict[str, int] | None:
    """The AFB target the material was generated for, if it was stored."""
    ziel = (row.request or {}).get("afb_ziel_verwendet")
    if isinstance(ziel, dict) and set(ziel) <= set(AFB_STUFEN):
        try:
            return {k: int(v) for k, v in ziel.items()}
        except (TypeError, ValueError):
            return None
    return None


def deps_for(turn: TurnContext, row: GeneratedMaterial, k: Klausur) -> SpecialistDeps:
    """The generation's targets for this material: its stored AFB target, the subject's operators, the preferences."""
    deps = prepare_deps(turn, request_of(row, k))
    if (ziel := stored_target(row)) is not None:
        deps.afb_ziel = ziel
        deps.afb_quelle = str((row.request or {}).get("afb_quelle") or deps.afb_quelle)
    return deps
