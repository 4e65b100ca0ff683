"""What edits are for pages, agents and the CLI: the Bearbeiten section of Meine Materialien (each call one unit
of work acting as the teacher), and the edit tools' entry points (patch, regenerate, read an edit request)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from agents.deps import TurnContext
from core.app.acting import acting
from core.app.sync import run_sync
from core.editing.direct import (
    AufgabeEdit,
    bank_choices,
    bank_task_operation,
    exam_for_editing,
    new_task_operation,
    subtask_operations,
)
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
    "FORM_ACTIONS", "AufgabeEdit", "EditOutcome", "EditUnclear", "EditView", "PatchError", "RegenerateInstruction",
    "VersionEntry", "add_task", "apply_form_edit", "edit_view", "material_versions", "parse_edit_request",
    "patch_material", "regenerate_from_previous", "regenerate_my_material", "restore_my_version", "save_subtask",
    "version_diff",
]


@dataclass(frozen=True)
class EditView:
    version: int
    teile: dict[str, str]  # "2b" -> "2b) Berechnen · AFB I · 3 P."
    operatoren: list[str]
    frueher: list[VersionEntry]  # the versions this one was made from, newest first
    aufgaben: list[AufgabeEdit] = field(default_factory=list)  # the exam as the editor shows it
    operator_afb: dict[str, str] = field(default_factory=dict)  # the Fach's operators with their usual AFB
    bank: dict[str, str] = field(default_factory=dict)  # bank tasks that could be added: id -> label


def _turn(db: Session, teacher: Teacher, identity: Identity) -> TurnContext:
    return TurnContext(db=db, identity=identity, teacher=teacher)


def edit_view(*, teacher_id: uuid.UUID, material_id: uuid.UUID) -> EditView:
    """What the Bearbeiten section offers for one Klausur: its sub-tasks, the operators, earlier versions."""
    with acting(teacher_id) as (db, teacher, identity):
        row = own_row(_turn(db, teacher, identity), material_id)
        k = klausur_of(row)
        operator_afb = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=db, fach=row.fach)}
        versions = material_versions(db=db, teacher=teacher, material_id=row.id)
        bank = bank_choices(_turn(db, teacher, identity), k, operator_afb)
    teile = {f"{a.nummer}{t.kennung}": f"{a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · "
                                       f"{format_punkte(t.punkte)} · {shorten(t.text, 50)}"
             for a in k.aufgaben for t in a.teilaufgaben}
    return EditView(version=versions[0].version, teile=teile, operatoren=list(operator_afb), frueher=versions[1:],
                    aufgaben=exam_for_editing(k), operator_afb=operator_afb, bank=bank)


def save_subtask(*, teacher_id: uuid.UUID, material_id: uuid.UUID, ziel: str, operator: str, afb: str, text: str,
                 kriterien: Sequence[Mapping[str, object]], force: bool = False) -> EditOutcome:
    """„Teilaufgabe speichern“: operator, AFB (as set), text and Erwartungshorizont of one sub-task as a new version
    (checked; refused with the reasons if it breaks the check, unless `force`)."""
    with acting(teacher_id) as (db, teacher, identity):
        turn = _turn(db, teacher, identity)
        row = own_row(turn, material_id)
        ops = subtask_operations(klausur_of(row), ziel, operator=operator, afb=afb, text=text, kriterien=kriterien)
        return patch_material(turn=turn, material_id=row.id, operations=ops, force=force)


def add_task(*, teacher_id: uuid.UUID, material_id: uuid.UUID, bank_id: str | None = None, titel: str = "",
             operator: str = "", afb: str = "", text: str = "", kriterien: Sequence[Mapping[str, object]] = (),
             position: int | None = None, force: bool = False) -> EditOutcome:
    """„Aufgabe hinzufügen“: a bank task (`bank_id`) or one the teacher writes, as a new version (checked)."""
    with acting(teacher_id) as (db, teacher, identity):
        turn = _turn(db, teacher, identity)
        row = own_row(turn, material_id)
        op = bank_task_operation(turn, bank_id, position=position) if bank_id else new_task_operation(
            titel=titel, operator=operator, afb=afb, text=text, kriterien=kriterien, position=position)
        return patch_material(turn=turn, material_id=row.id, operations=[op], force=force)


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
