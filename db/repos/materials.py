"""Generated materials with their files and ratings."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import GeneratedMaterial, MaterialFile, Rating


def add_material(*, db: Session, **fields: Any) -> GeneratedMaterial:
    row = GeneratedMaterial(**fields)
    db.add(row)
    db.flush()
    return row


def add_file(*, db: Session, material_id: uuid.UUID, teacher_id: uuid.UUID, kind: str, filename: str, mime: str,
             data: bytes) -> MaterialFile:
    row = MaterialFile(material_id=material_id, teacher_id=teacher_id, kind=kind, filename=filename, mime=mime,
                       data=data)
    db.add(row)
    db.flush()
    return row


def get_material(*, db: Session, material_id: uuid.UUID) -> GeneratedMaterial | None:
    return db.get(GeneratedMaterial, material_id)


def files_of(*, db: Session, material_id: uuid.UUID) -> list[MaterialFile]:
    return list(db.scalars(sa.select(MaterialFile).where(MaterialFile.material_id == material_id)
                           .order_by(MaterialFile.kind)))


def list_materials(*, db: Session, teacher_id: uuid.UUID, fach: str | None = None, material_type: str | None = None,
                   limit: int = 200) -> list[GeneratedMaterial]:
    stmt = (sa.select(GeneratedMaterial).where(GeneratedMaterial.teacher_id == teacher_id)
            .order_by(GeneratedMaterial.created_at.desc()).limit(limit))
    if fach:
        stmt = stmt.where(GeneratedMaterial.fach == fach)
    if material_type:
        stmt = stmt.where(GeneratedMaterial.material_type == material_type)
    return list(db.scalars(stmt))


def add_rating(*, db: Session, teacher_id: uuid.UUID, material_id: uuid.UUID, stars: int, task_ref: str | None = None,
               comment: str | None = None) -> Rating:
    row = Rating(teacher_id=teacher_id, material_id=material_id, stars=stars, task_ref=task_ref, comment=comment)
    db.add(row)
    db.flush()
    return row


def get_file(*, db: Session, file_id: uuid.UUID) -> MaterialFile | None:
    return db.get(MaterialFile, file_id)
