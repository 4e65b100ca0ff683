"""One case played as the evaluation teacher: the request and the answers to Schärfungsfragen and
Rückfragen through the chat, in a transaction that is always rolled back; the result as a snapshot."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from agents.models.calls import CallRecord
from agents.models.errors import ModelFailure
from core.app.errors import NotFoundError, UserError
from core.chat.turn import chat_turn
from core.materials.faecher import FAECHER
from db.models import Teacher
from db.repos import evals as eval_repo
from db.repos import knowledge as knowledge_repo
from db.repos import materials as material_repo
from db.repos import memory as memory_repo
from db.repos.teachers import find_teacher, identity_for
from db.session import Identity, get_engine, unit_of_work

EVAL_EMAIL = "evaluation@werkbank.intern"
EVAL_SCHOOL = "Werkbank-Evaluation"
EVAL_NAME = "Evaluation (automatisch)"
MAX_TURNS = 6


class CaseInputs(BaseModel):
    anfrage: str
    nachrichten: list[str] = Field(default_factory=list)
    rueckfrage_antwort: str | None = None  # None: the first suggestion of the Rückfrage


class Turn(BaseModel):
    lehrkraft: str
    antwort: str
    art: Literal["material", "rueckfrage", "schaerfungsfrage", "text", "fehler"]
    frage: str | None = None
    vorschlaege: list[str] = Field(default_factory=list)


class CaseOutput(BaseModel):
    """What a case produced; the evaluators read only this (the transaction is gone by then)."""

    verlauf: list[Turn] = Field(default_factory=list)
    rueckfragen: int = 0
    schaerfungsfragen: int = 0
    material_type: str | None = None
    material: dict[str, Any] | None = None
    validation: list[str] = Field(default_factory=list)
    afb_ziel_verwendet: dict[str, int] | None = None
    operatoren: dict[str, str] = Field(default_factory=dict)
    quellen_gefunden: dict[str, bool] = Field(default_factory=dict)
    quellen_stufen: dict[str, int] = Field(default_factory=dict)  # good-practice ref -> its Klassenstufe
    antwort_ohne_material: str | None = None  # the last reply when no material was made
    calls: list[CallRecord] = Field(default_factory=list)  # cost_usd None: unknown
    fehler: str | None = None


def _schuljahr(today: date | None = None) -> str:
    today = today or date.today()
    start = today.year if today.month >= 8 else today.year - 1
    return f"{start}/{(start + 1) % 100:02d}"


def ensure_eval_teacher() -> uuid.UUID:
    """The evaluation teacher (created on first use): Sachsen, school „Werkbank-Evaluation“, classes 5a..13a, all
    subjects. Their cases are always rolled back, so the account stays empty."""
    with unit_of_work(Identity.system()) as db:
        found = find_teacher(db=db, ref=EVAL_EMAIL)
        if found is not None:
            return found.id
    try:
        with unit_of_work(Identity.system()) as db:
            teacher = eval_repo.create_school_teacher(
                db=db, school_name=EVAL_SCHOOL, bundesland="Sachsen", teacher_name=EVAL_NAME, email=EVAL_EMAIL,
                faecher=list(FAECHER), classes=[(f"{n}a", n) for n in range(5, 14)], schuljahr=_schuljahr())
            return teacher.id
    except IntegrityError:  # a concurrent run created it first (unique e-mail)
        with unit_of_work(Identity.system()) as db:
            found = find_teacher(db=db, ref=EVAL_EMAIL)
            if found is None:
                raise
            return found.id


@contextlib.contextmanager
def rolled_back(identity: Identity) -> Iterator[Session]:
    """A session acting as `identity` inside a transaction that is always rolled back (commits become savepoints)."""
    conn = get_engine().connect()
    outer = conn.begin()
    db = Session(bind=conn, join_transaction_mode="create_savepoint", info={"identity": identity},
                 expire_on_commit=False)
    try:
        yield db
    finally:
        db.close()
        outer.rollback()
        conn.close()


def _refs(material_type: str, content: dict[str, Any]) -> list[tuple[str, str]]:
    if material_type == "klausur":
        quellen = [q for a in content.get("aufgaben", []) for t in a.get("teilaufgaben", [])
                   for q in t.get("quellen", [])]
    else:
        quellen = list(content.get("quellen", []))
    return [(q.get("art", ""), str(q.get("ref", ""))) for q in quellen]


def _found_refs(db: Session, identity: Identity, refs: list[tuple[str, str]]) -> dict[str, bool]:
    """Which cited refs exist and are visible to the teacher (checked in the DB before the rollback)."""
    ids: dict[str, list[uuid.UUID]] = {"good_practice": [], "curriculum": []}
    out: dict[str, bool] = {}
    for art, ref in refs:
        if art not in ids:
            continue
        try:
            ids[art].append(uuid.UUID(ref))
        except ValueError:
            out[ref] = False
    found = {str(k) for k in knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=ids["good_practice"])}
    found |= {str(k) for k in knowledge_repo.curriculum_by_ids(db=db, identity=identity, ids=ids["curriculum"])}
    for key in ids["good_practice"] + ids["curriculum"]:
        out[str(key)] = str(key) in found
    return out


def _ref_grades(db: Session, identity: Identity, refs: list[tuple[str, str]]) -> dict[str, int]:
    """The Klassenstufe each cited good practice was written for (to judge the level fit)."""
    ids = []
    for art, ref in refs:
        with contextlib.suppress(ValueError):
            if art == "good_practice":
                ids.append(uuid.UUID(ref))
    rows = knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=ids)
    return {str(k): int(r.content["klassenstufe"]) for k, r in rows.items()
            if isinstance((r.content or {}).get("klassenstufe"), int)}


def play_case(inputs: CaseInputs, *, teacher_id: uuid.UUID) -> CaseOutput:
    """Play the request (and the answers to Schärfungsfragen/Rückfragen) through the chat, snapshot the result."""
    with unit_of_work(Identity.system()) as sysdb:
        teacher_row = sysdb.get(Teacher, teacher_id)
        if teacher_row is None:
            raise NotFoundError("Die Evaluations-Lehrkraft fehlt. Bitte den Lauf neu starten.")
        identity = identity_for(db=sysdb, teacher=teacher_row)
    out = CaseOutput()
    with rolled_back(identity) as db:
        teacher = db.get(Teacher, teacher_id)
        assert teacher is not None
        pending = list(inputs.nachrichten)
        message, conversation_id, material_id = inputs.anfrage, None, None
        for _ in range(MAX_TURNS):
            try:
                r = chat_turn(db=db, identity=identity, teacher=teacher, message=message,
                              conversation_id=conversation_id)
            except ModelFailure as exc:
                if exc.unreachable:
                    raise  # no answer to score: the run is aborted (core.evaluation.runner), not failed
                out.verlauf.append(Turn(lehrkraft=message, antwort=exc.message, art="fehler"))
                out.fehler = exc.message
                break
            except UserError as exc:
                out.verlauf.append(Turn(lehrkraft=message, antwort=exc.message, art="fehler"))
                out.fehler = exc.message
                break
            conversation_id = r.conversation_id
            if r.material_id:
                out.verlauf.append(Turn(lehrkraft=message, antwort=r.reply, art="material"))
                material_id = uuid.UUID(r.material_id)
                break
            if r.question:
                vorschlaege = list(r.question.get("vorschlaege") or [])
                out.verlauf.append(Turn(lehrkraft=message, antwort=r.reply, art="rueckfrage",
                                        frage=r.question.get("frage"), vorschlaege=vorschlaege))
                out.rueckfragen += 1
                message = inputs.rueckfrage_antwort or (vorschlaege[0] if vorschlaege else "Wie vorgeschlagen.")
                continue
            asks = "?" in r.reply
            out.verlauf.append(Turn(lehrkraft=message, antwort=r.reply, art="schaerfungsfrage" if asks else "text"))
            if asks and pending:
                out.schaerfungsfragen += 1
                message = pending.pop(0)
                continue
            out.schaerfungsfragen += int(asks)
            break
        if material_id is not None:
            row = material_repo.get_material(db=db, material_id=material_id)
            if row is not None:
                out.material_type, out.material = row.material_type, dict(row.content or {})
                out.validation = [str(v) for v in row.validation or []]
                used = (row.request or {}).get("afb_ziel_verwendet")
                out.afb_ziel_verwendet = {k: int(v) for k, v in used.items()} if isinstance(used, dict) else None
                out.operatoren = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=db, fach=row.fach)}
                out.quellen_gefunden = _found_refs(db, identity, _refs(row.material_type, out.material))
                out.quellen_stufen = _ref_grades(db, identity, _refs(row.material_type, out.material))
        elif out.verlauf:
            out.antwort_ohne_material = out.verlauf[-1].antwort
        if conversation_id is not None:
            out.calls = [CallRecord(role=c.role, model=c.model, input_tokens=c.input_tokens,
                                    output_tokens=c.output_tokens, tokens_estimated=c.tokens_estimated,
                                    latency_ms=c.latency_ms, outcome=c.outcome,
                                    cost_usd=float(c.cost_usd) if (c.detail or {}).get("cost_known", True) else None)
                         for c in memory_repo.calls_of_conversation(db=db, conversation_id=conversation_id)]
    return out
