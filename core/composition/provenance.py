"""Which quiz questions the final gate trusts by their filing (decision 055), as the composer does: a question that
shows a bank question unchanged, whose item its authors filed under a requested topic — and under a named part, when
the request names parts — at a level that fits the class. A ref alone vouches for nothing: a question of a model's
own beside a real item's ref, or a bank question reworded, is judged by its words like any other."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy.orm import Session

from core.composition.candidates import QuizCandidate, quiz_from_row
from core.composition.filters import filed_under_parts, level_ok
from core.materials.h5p import H5PFrage, H5PSet
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
    ids = {}
    for ref in citing:
        try:
            ids[uuid.UUID(ref)] = ref
        except ValueError:
            continue  # no bank item has such a ref
    rows = knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=list(ids))
    out = set()
    for i, row in rows.items():
        c = quiz_from_row(
            ref=str(row.id),
            titel=row.description or row.thema or "",
            content=row.content or {},
            scope_type=row.scope_type,
            source=row.source,
            quality=0.5,
            thema=row.thema,
        )
        if c is None or c.topic not in wanted or not filed_under_parts(c.unterthema, thema, unterthemen):
            continue
        if klassenstufe is not None and not level_ok(c.klassenstufe, None, wanted=klassenstufe, kurs=kurs):
            continue
        if all(same_question(f, c) for f in citing[ids[i]]):
            out.add(ids[i])
    return out
