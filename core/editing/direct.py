"""Direct editing on Meine Materialien: what the editor shows of an exam (tasks, sub-tasks with operator, AFB, text
and criteria; bank tasks that could be added) and the patch one save stands for — the same operations a chat edit
makes, so each save is a new version checked like any other."""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.deps import TurnContext
from core.composition.layout import renumber
from core.editing.bank_material import numbered, numbers_in
from core.editing.bank_tasks import Home, TaskBank
from core.editing.errors import PatchError
from core.editing.values import shorten
from core.materials import patch_ops as ops
from core.materials.blocks import AFB_STUFEN, MaterialBlock, Quelle
from core.materials.klausur import Aufgabe, Klausur
from core.materials.notenschluessel import format_punkte
from db.repos import knowledge as knowledge_repo


@dataclass(frozen=True)
class TeilEdit:
    ref: str  # "2b"
    operator: str
    afb: str
    punkte: int
    text: str
    kriterien: list[tuple[str, int]]


@dataclass(frozen=True)
class AufgabeEdit:
    nummer: int
    titel: str
    punkte: int
    teile: list[TeilEdit]


def exam_for_editing(k: Klausur) -> list[AufgabeEdit]:
    return [AufgabeEdit(nummer=a.nummer, titel=a.titel, punkte=a.punkte, teile=[
        TeilEdit(ref=f"{a.nummer}{t.kennung}", operator=t.operator, afb=t.afb, punkte=t.punkte, text=t.text,
                 kriterien=[(e.text, e.punkte) for e in t.erwartung]) for t in a.teilaufgaben]) for a in k.aufgaben]


def _cell(value: object) -> str:
    """A table cell as text; an empty cell (None, NaN of a new row) is ''."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def criteria_from(rows: Sequence[Mapping[str, object]], ref: str) -> list[ops.KriteriumNeu]:
    """The criteria table as the editor returns it (rows of 'kriterium', 'punkte'); empty rows are dropped."""
    out = []
    for i, row in enumerate(rows, start=1):
        text, raw = _cell(row.get("kriterium")), _cell(row.get("punkte"))
        if not text and raw in ("", "0", "0.0"):
            continue
        try:
            punkte = int(float(raw))
        except ValueError:
            raise PatchError(f"{ref}: In Zeile {i} des Erwartungshorizonts fehlen die Punkte (ganze Zahl ≥ 1).") \
                from None
        out.append(ops.KriteriumNeu(text=text, punkte=punkte))
    return out


def subtask_operations(k: Klausur, ref: str, *, operator: str, afb: str, text: str,
                       kriterien: Sequence[Mapping[str, object]]) -> list[ops.PatchOp]:
    """One save of a sub-task in the editor: AFB as set by hand (no rewrite), operator, text, Erwartungshorizont —
    only what changed."""
    teil = next((t for e in exam_for_editing(k) for t in e.teile if t.ref == ref), None)
    if teil is None:
        raise PatchError(f"Teilaufgabe {ref} gibt es nicht (mehr). Bitte die Seite neu laden.")
    neu_kriterien = criteria_from(kriterien, ref)
    out: list[ops.PatchOp] = []
    if afb != teil.afb:
        out.append(ops.SetAfb(ziel=ref, afb=afb, operator=operator if operator != teil.operator else None,
                              neu_fassen=False, ausgleichen=False))
    elif operator != teil.operator:
        out.append(ops.SetOperator(ziel=ref, operator=operator))
    if " ".join(text.split()) != " ".join(teil.text.split()):
        out.append(ops.ReplaceText(ziel=ref, text=text))
    if [(c.text.strip(), c.punkte) for c in neu_kriterien] != teil.kriterien:
        out.append(ops.RewriteErwartung(ziel=ref, erwartung=neu_kriterien))
    if not out:
        raise PatchError(f"An {ref} hat sich nichts geändert – es wurde nichts gespeichert.")
    return out


def new_task_operation(*, titel: str, operator: str, afb: str, text: str, kriterien: Sequence[Mapping[str, object]],
                       position: int | None) -> ops.AddTask:
    """A task the teacher writes in the editor (one sub-task)."""
    teil = ops.TeilaufgabeNeu(operator=operator, afb=afb, text=text, erwartung=criteria_from(kriterien, "Neue Aufgabe"))
    return ops.AddTask(aufgabe=ops.AufgabeNeu(titel=titel, teilaufgaben=[teil]), position=position)


def bank_choices(turn: TurnContext, k: Klausur, operatoren: Mapping[str, str]) -> dict[str, str]:
    """Bank tasks of the exam's topics that could be added (no material, not in the exam), id -> label, by AFB."""
    bank = TaskBank(turn=turn, k=k, operatoren=operatoren)
    topics = dict.fromkeys(h.topic for a in k.aufgaben for t in a.teilaufgaben if (h := bank.home(a, t)).topic)
    found = []
    for topic in topics:
        for afb in AFB_STUFEN:
            for task in bank.candidates(Home(topic, None), afb, material_titles=set()):
                found.append((AFB_STUFEN.index(afb), task.unterthema, task.ref,
                              f"AFB {afb} · {task.teil.operator} · {format_punkte(task.teil.punkte)} · "
                              f"{task.unterthema}: {shorten(task.teil.text, 70)}"))
    return {ref: label for _, _, ref, label in sorted(found)}


def _bank_rows(turn: TurnContext, bank_ids: Sequence[str], *, with_material: bool) -> list[tuple[Any, dict]]:
    try:
        ids = [uuid.UUID(str(i)) for i in bank_ids]
    except ValueError:
        raise PatchError("Bitte eine Aufgabe aus der Liste wählen.") from None
    rows = knowledge_repo.knowledge_by_ids(db=turn.db, identity=turn.identity, ids=ids)
    contents = [(rows[i], rows[i].content or {}) for i in ids if i in rows]
    if not ids or len(contents) < len(ids) or any(not c.get("aufgabe") for _, c in contents) or (
            not with_material and any(c.get("materialien") for _, c in contents)):
        raise PatchError("Diese Aufgabe gibt es in der Aufgabensammlung nicht (mehr). Bitte eine andere wählen.")
    return contents


def _teil(row: Any, c: dict, mapping: Mapping[str, str]) -> ops.TeilaufgabeNeu:
    """A bank task as a new sub-task, its references to the bank's material numbers turned into the exam's."""
    return ops.TeilaufgabeNeu(
        operator=str(c.get("operator") or ""), afb=str(c.get("afb") or ""), text=renumber(str(c["aufgabe"]), mapping),
        erwartung=[ops.KriteriumNeu(text=renumber(str(x.get("kriterium") or ""), mapping),
                                    punkte=int(x.get("punkte") or 0)) for x in c.get("erwartung") or []],
        quellen=[Quelle(art="good_practice", ref=str(row.id))])


def bank_task_operation(turn: TurnContext, bank_id: str | Sequence[str], *, position: int | None,
                        first_m: int | None = None) -> ops.AddTask:
    """Bank tasks as one new task, each a sub-task (its operator, text, Erwartungshorizont and points). Tasks on one
    material bring it along once, numbered from M`first_m` on, their references renumbered (None: no material)."""
    contents = _bank_rows(turn, [bank_id] if isinstance(bank_id, str) else bank_id, with_material=first_m is not None)
    first_row, first = contents[0]
    blocks = [MaterialBlock.model_validate(m) for m in first.get("materialien") or []]
    blocks, mapping = numbered(blocks, first.get("material_id"), [str(c["aufgabe"]) for _, c in contents],
                               first_m or 1)
    titel = str(first.get("unterthema") or first_row.thema or "Aufgabe aus der Aufgabensammlung")
    return ops.AddTask(aufgabe=ops.AufgabeNeu(titel=titel, materialien=blocks,
                                              teilaufgaben=[_teil(row, c, mapping) for row, c in contents]),
                       position=position)


def bank_subtask_operation(turn: TurnContext, bank_id: str, *, aufgabe: Aufgabe) -> ops.AddSubtask:
    """A bank task on a material `aufgabe` prints already, as its next sub-task (by AFB) referring to that M."""
    ((row, c),) = _bank_rows(turn, [bank_id], with_material=True)
    blocks = [MaterialBlock.model_validate(m) for m in c.get("materialien") or []]
    mapping = numbers_in(aufgabe, blocks, c.get("material_id"), [str(c["aufgabe"])])
    rank = AFB_STUFEN.index(str(c.get("afb")))
    position = 1 + sum(1 for t in aufgabe.teilaufgaben if AFB_STUFEN.index(t.afb) <= rank)
    return ops.AddSubtask(ziel=str(aufgabe.nummer), teilaufgabe=_teil(row, c, mapping), position=position)
