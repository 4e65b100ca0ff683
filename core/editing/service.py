"""What edits are for pages, agents and the CLI: the Bearbeiten section of Meine Materialien (each call one unit
of work acting as the teacher), and the edit tools' entry points (patch, regenerate, read an edit request)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.orm import Session

from agents.deps import TurnContext
from core.app.acting import acting
from core.app.sync import run_sync
from core.editing.errors import PatchError
from core.editing.form import FORM_ACTIONS, form_operations
from core.editing.loading import klausur_of, own_row
from core.editing.patch import EditOutcome, patch_material
from core.editing.regenerate import regenerate_from_previous
from core.editing.restore import restore_version, version_lines
from core.editing.values import shorten
from core.editing.versions import VersionEntry, material_versions
from core.language.edits import EditUnclear, parse_edit_request
from core.materials.notenschluessel import format_punkte
from core.materials.patch_ops import RegenerateInstruction
from db.models import Teacher
from db.repos import knowledge as knowledge_repo
from db.session import Identity

__all__ = [
    "FORM_ACTIONS", "EditOutcome", "EditUnclear", "EditView", "PatchError", "RegenerateInstruction", "VersionEntry",
    "apply_form_edit", "edit_view", "material_versions", "parse_edit_request", "patch_material",
    "regenerate_from_previous", "regenerate_my_material", "restore_my_version", "version_diff",
]


@dataclass(frozen=True)
class EditView:
    version: int
    teile: dict[str, str]  # "2b" -> "2b) Berechnen · AFB I · 3 P."
    operatoren: list[str]
    frueher: list[VersionEntry]  # the versions this one was made from, newest first


def _turn(db: Session, teacher: Teacher, identity: Identity) -> TurnContext:
    return TurnContext(db=db, identity=identity, teacher=teacher)


def edit_view(*, teacher_id: uuid.UUID, material_id: uuid.UUID) -> EditView:
    """What the Bearbeiten section offers for one Klausur: its sub-tasks, the operators, earlier versions."""
    with acting(teacher_id) as (db, teacher, identity):
        row = own_row(_turn(db, teacher, identity), material_id)
        k = klausur_of(row)
        operatoren = [o["operator"] for o in knowledge_repo.operator_list(db=db, fach=row.fach)]
        versions = material_versions(db=db, teacher=teacher, material_id=row.id)
    teile = {f"{a.nummer}{t.kennung}": f"{a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · "
                                       f"{format_punkte(t.punkte)} · {shorten(t.text, 50)}"
             for a in k.aufgaben for t in a.teilaufgaben}
    return EditView(version=versions[0].version, teile=teile, operatoren=operatoren, frueher=versions[1:])


def apply_form_edit(*, teacher_id: uuid.UUID, material_id: uuid.UUID, aktion: str, ziel: str, wert: str = "",
                    force: bool = False) -> EditOutcome:
    """One change from the Bearbeiten form, stored as a new version (refused with reasons if it breaks the check,
    unless `force`)."""
    with acting(teacher_id) as (db, teacher, identity):
        turn = _turn(db, teacher, identity)
        row = own_row(turn, material_id)
        ops = form_operations(aktion, ziel, wert, klausur_of(row))
        return patch_material(turn=turn, material_id=row.id, operations=ops, force=force)


def regenerate_my_material(*, teacher_id: uuid.UUID, material_id: uuid.UUID, instruction: str) -> EditOutcome:
    """"Neu erzeugen mit Anweisung" from the page: a new version made from the instruction."""
    with acting(teacher_id) as (db, teacher, identity):
        turn = _turn(db, teacher, identity)
        return run_sync(regenerate_from_previous(turn=turn, material_id=material_id, instruction=instruction))


def restore_my_version(*, teacher_id: uuid.UUID, material_id: uuid.UUID, version: int) -> EditOutcome:
    """„Wiederherstellen“: version `version` of this material's line stored again as its newest version."""
    with acting(teacher_id) as (db, teacher, identity):
        return restore_version(turn=_turn(db, teacher, identity), material_id=material_id, version=version)


def version_diff(*, teacher_id: uuid.UUID, material_id: uuid.UUID, left: int, right: int) -> list[tuple[str, str, str]]:
    """Two versions side by side, line by line: (tag, left line, right line); tag is '=', '-', '+' or '~'."""
    with acting(teacher_id) as (db, teacher, identity):
        return version_lines(turn=_turn(db, teacher, identity), material_id=material_id, left=left, right=right)
