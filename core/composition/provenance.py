"""Which bank items the final gate trusts by their filing (decisions 055, 065), as the composer does: a quiz question
that shows a bank question unchanged, whose item its authors filed under a requested topic — and under a named part,
when the request names parts — at a level that fits the class; an exam task or a worksheet's tasks that show their
bank items' text and key unchanged, filed under a requested topic. A ref alone vouches for nothing: a task of a
model's own beside a real item's ref, or a bank task reworded, is judged by its words like any other."""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy.orm import Session

from core.composition.anrede import siezen
from core.composition.candidates import QuizCandidate, TaskCandidate, diff_from_row, quiz_from_row, task_from_row
from core.composition.filters import filed_under_parts, level_ok
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PFrage, H5PSet
from core.materials.klausur import Klausur, Teilaufgabe
from db.repos import knowledge as knowledge_repo
from db.session import Identity

_FRAGE: TypeAdapter[Any] = TypeAdapter(H5PFrage)


def _plain(value: Any) -> Any:
    """A question's data with runs of white space made one blank (a copy may wrap lines differently)."""
    if isinstance(value, str):
        return " ".join(value.split())
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _shown(frage: Any) -> Any:
    return _plain(frage.model_dump(mode="json", exclude={"quelle"}))


def same_question(frage: Any, c: QuizCandidate) -> bool:
    """The quiz shows the bank question `c` as it is: question, options, solution and explanation."""
    try:
        bank = _FRAGE.validate_python(c.frage)
    except ValidationError:
        return False
    return _shown(frage) == _shown(bank)


def _rows(db: Session, identity: Identity, refs: Collection[str]) -> dict[str, Any]:
    ids = {}
    for ref in refs:
        try:
            ids[uuid.UUID(ref)] = ref
        except ValueError:
            continue  # a generator's ref, or none a bank item has
    return {ids[i]: row for i, row in knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=list(ids)).items()}


def _candidate(row: Any, build: Any) -> Any:
    return build(
        ref=str(row.id),
        titel=row.description or row.thema or "",
        content=row.content or {},
        scope_type=row.scope_type,
        source=row.source,
        quality=0.5,
        thema=row.thema,
    )


def vouched_questions(
    *,
    db: Session,
    identity: Identity,
    quiz: H5PSet,
    wanted: Collection[str],
    thema: str,
    unterthemen: Sequence[str],
    klassenstufe: int | None,
    kurs: str | None,
) -> set[str]:
    """The refs of bank questions the quiz shows unchanged — every question citing the ref — whose items are filed
    under one of the `wanted` topics (and named parts) at a fitting level."""
    citing: dict[str, list[Any]] = {}
    for f in quiz.fragen:
        if f.quelle:
            citing.setdefault(f.quelle, []).append(f)
    out = set()
    for ref, row in _rows(db, identity, citing).items():
        c = _candidate(row, quiz_from_row)
        if c is None or c.topic not in wanted or not filed_under_parts(c.unterthema, thema, unterthemen):
            continue
        if klassenstufe is not None and not level_ok(c.klassenstufe, None, wanted=klassenstufe, kurs=kurs):
            continue
        if all(same_question(f, c) for f in citing[ref]):
            out.add(ref)
    return out


_M_NUMBER = re.compile(r"\bM\s?\d+\b")


def _said(text: str) -> str:
    """A task's words as compared: runs of white space one blank, material numbers left out (the exam prints the
    bank's „M2“ as its „M1“: core.composition.layout.renumber)."""
    return " ".join(_M_NUMBER.sub("M", text).split())


def _forms(text: str) -> set[str]:
    """The bank's text as a material may show it: as written, or in the Oberstufe's Sie-form (anrede)."""
    return {_said(text), _said(siezen(text))}


def same_task(teil: Teilaufgabe, c: TaskCandidate) -> bool:
    """The exam shows the bank task `c` as it is: its text and its key, criterion by criterion with its points."""
    return _said(teil.text) in _forms(c.text) and [(_said(k.text), k.punkte) for k in teil.erwartung] == [
        (_said(t), p) for t, p in c.erwartung
    ]


def vouched_tasks(*, db: Session, identity: Identity, klausur: Klausur, wanted: Collection[str]) -> set[str]:
    """The refs of bank tasks the exam shows unchanged — every sub-task citing the ref — whose items are filed under
    one of the `wanted` topics."""
    citing: dict[str, list[Teilaufgabe]] = {}
    for a in klausur.aufgaben:
        for t in a.teilaufgaben:
            for q in t.quellen:
                if q.art == "good_practice":
                    citing.setdefault(q.ref, []).append(t)
    out = set()
    for ref, row in _rows(db, identity, citing).items():
        c = _candidate(row, task_from_row)
        if c is not None and c.topic in wanted and all(same_task(t, c) for t in citing[ref]):
            out.add(ref)
    return out


def vouched_sheet(
    *, db: Session, identity: Identity, sheet: DifferenziertesMaterial, wanted: Collection[str]
) -> set[str]:
    """The cited three-level items filed under one of the `wanted` topics, when every task of the sheet and every
    solution is one of the cited items' own on its Niveau (the sheet cites its items as a whole: one task of a
    model's own, and none of them vouches for the sheet)."""
    refs = {q.ref for q in sheet.quellen if q.art == "good_practice"}
    items = {
        ref: c for ref, row in _rows(db, identity, refs).items() if (c := _candidate(row, diff_from_row)) is not None
    }
    for n in sheet.niveaus:
        own = [items[r].niveaus.get(n.name, {}) for r in items]
        tasks = {f for o in own for t in o.get("aufgaben", []) for f in _forms(t)}
        keys = {_said(x) for o in own for x in o.get("loesungen", [])}
        if not all(_said(t) in tasks for t in n.aufgaben) or not all(_said(x) in keys for x in n.loesungen):
            return set()
    return {ref for ref, c in items.items() if c.topic in wanted}
