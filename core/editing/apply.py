"""Applying patch operations to a stored exam's copy: the new exam and a German line per change, or a refusal.

A patch without effect is refused; so is anything invalid (unknown address, empty text, points below 1, …).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agents.deps import TurnContext
from core.editing.afb_change import AfbChange
from core.editing.balance import rebalance
from core.editing.bank_tasks import TaskBank
from core.editing.errors import PatchError
from core.editing.work import PatchWork
from core.materials.klausur import Klausur
from core.materials.patch_ops import PatchOp, SetAfb


def apply_operations(klausur: Klausur, operations: Sequence[PatchOp], *, operatoren: Mapping[str, str],
                     turn: TurnContext | None = None, afb_ziel: Mapping[str, int] | None = None
                     ) -> tuple[Klausur, list[str]]:
    """Apply patch operations to a copy of `klausur`: the new exam and a German line per change.

    With `turn` (the task bank), an AFB change rewrites the sub-task for the new level and the exam is brought back
    within `afb_ziel`; without, it only relabels (tests of the bare operations).
    Raises PatchError (German) for anything invalid: unknown address, empty text, points below 1, AFB other than
    I–III, unknown operator, removing the last (sub-)task, a patch without effect — and asks how to rebalance when
    an AFB change cannot be balanced.
    """
    if not operations:
        raise PatchError("Es ist keine Änderung angegeben.")
    work = PatchWork(klausur, operatoren)
    if turn is not None:
        work.afb_change = AfbChange(bank=TaskBank(turn=turn, k=work.k, operatoren=operatoren), operatoren=operatoren)
    for op in operations:
        getattr(work, op.op)(op)
    if work.afb_change is not None:
        ziele = [op.ziel for op in operations if isinstance(op, SetAfb)]
        ziel_text = ", ".join(f"Aufgabe {z}" if z.strip().isdigit() else z for z in ziele)
        rebalance(work.k, klausur, work.afb_change, afb_ziel, ziel_text, work.changes)
    neu = work.result()
    if _inhalt(neu) == _inhalt(klausur):
        raise PatchError("Die Änderung ergibt keinen Unterschied zur bisherigen Fassung – es wurde nichts gespeichert.")
    return neu, work.changes


def _inhalt(k: Klausur) -> dict[str, Any]:
    return k.model_dump(mode="json", exclude={"notenschema", "notenschluessel"})
