"""Applying patch operations to a stored exam's copy: the new exam and a German line per change, or a refusal.

A patch without effect is refused; so is anything invalid (unknown address, empty text, points below 1, …).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.editing.errors import PatchError
from core.editing.work import PatchWork
from core.materials.klausur import Klausur
from core.materials.patch_ops import PatchOp


def apply_operations(klausur: Klausur, operations: Sequence[PatchOp], *, operatoren: Mapping[str, str]
                     ) -> tuple[Klausur, list[str]]:
    """Apply patch operations to a copy of `klausur`: the new exam and a German line per change.

    Raises PatchError (German) for anything invalid: unknown address, empty text, points below 1, AFB other than
    I–III, unknown operator, removing the last (sub-)task, a patch without effect.
    """
    if not operations:
        raise PatchError("Es ist keine Änderung angegeben.")
    work = PatchWork(klausur, operatoren)
    for op in operations:
        getattr(work, op.op)(op)
    neu = work.result()
    if _inhalt(neu) == _inhalt(klausur):
        raise PatchError("Die Änderung ergibt keinen Unterschied zur bisherigen Fassung – es wurde nichts gespeichert.")
    return neu, work.changes


def _inhalt(k: Klausur) -> dict[str, Any]:
    return k.model_dump(mode="json", exclude={"notenschema", "notenschluessel"})
