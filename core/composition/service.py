"""Composing a material for a request: gather the pool (bank rows of the resolved topics, the teacher's own good
practices, search hits, parametric generators), the topic context and the notes, then run the composer."""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.checks.coverage import build_index
from core.checks.topicality import TopicContext, context
from core.checks.topics import TopicIndex, text_stems
from core.composition import work_items
from core.composition.candidates import (
    DiffCandidate,
    QuizCandidate,
    TaskCandidate,
    diff_from_row,
    quiz_from_row,
    task_from_generator,
    task_from_row,
)
from core.composition.differenzierung import DiffAuftrag, DiffComposition, compose_differenzierung
from core.composition.examples import best_example
from core.composition.fill_up import without_choice
from core.composition.generators.base import Generator
from core.composition.generators.registry import for_fach
from core.composition.grade_band import say_other_grades
from core.composition.h5p import QuizAuftrag, QuizComposition, compose_h5p
from core.composition.klausur import Composition, KlausurAuftrag, compose_klausur
from core.composition.notes import note_keywords
from core.composition.report import Befund, Nachbar, agree_with_paper
from core.composition.wishes import count_in, excluded_quiz_types, own_wishes
from core.composition.work_exam import compose as compose_work_exam
from core.composition.works import LITERARY_FAECHER
from core.knowledge.retrieval import search
from core.language.request.example_wish import wants_example
from core.materials.blocks import Quelle
from core.materials.faecher import fach_name
from core.materials.request import MaterialRequest
from db.repos import knowledge as knowledge_repo
from db.session import Identity

log = logging.getLogger(__name__)
SEARCH_HITS = 30
MIN_GENERATOR_MATCH = 3.0


@dataclass
class Pool:
    """What the composer may choose from for one request, and the topics it resolved to."""

    topic: TopicContext
    primary: tuple[str, ...]
    related: tuple[str, ...]
    nachbarn: list[Nachbar] = field(default_factory=list)
    curriculum: list[Quelle] = field(default_factory=list)


@lru_cache(maxsize=32)
def _index(coverage_json: str, felder_json: str) -> TopicIndex:
    return build_index(json.loads(coverage_json).get("topics", []), json.loads(felder_json))


def topic_index(*, db: Session, fach: str, themenfelder: dict[str, list[str]]) -> TopicIndex:
    coverage = knowledge_repo.coverage_for(db=db, fach=fach) or {}
    return _index(json.dumps(coverage, sort_keys=True), json.dumps(themenfelder, sort_keys=True))


def topic_context_for(*, db: Session, fach: str, themenfelder: dict[str, list[str]], request: MaterialRequest
                      ) -> TopicContext:
    """The checks' view of a request: its topic, the coverage topics it resolves to, the Fach's other topics."""
    index = topic_index(db=db, fach=fach, themenfelder=themenfelder)
    return context(index, request.thema, request.unterthemen, request.klassenstufe,
                   wishes=[w.thema for w in request.afb_wuensche])


def _pool(db: Session, identity: Identity, fach: str, themenfelder: dict[str, list[str]],
          request: MaterialRequest, agent_type: str, bundesland: str | None = None) -> Pool:
    ctx = topic_context_for(db=db, fach=fach, themenfelder=themenfelder, request=request)
    primary = tuple(t.id for t in ctx.resolved)
    fields = {t.themenfeld for t in ctx.resolved}
    related = tuple(t.id for t in ctx.index.topics.values() if t.themenfeld in fields and t.id not in primary)
    stufe = request.klassenstufe  # a neighbour is offered with what it holds for this class (filters.level_ok)
    counts = knowledge_repo.topic_counts(db=db, identity=identity, fach=fach,
                                         stufen=None if stufe is None else (11, 13) if stufe >= 11 else
                                         (stufe - 2, min(stufe + 1, 10)))
    nachbarn = sorted((Nachbar(ctx.index.topics[t].thema, counts.get((t, agent_type), 0)) for t in related),
                      key=lambda n: -n.anzahl)
    chunks: list[Quelle] = []
    try:
        hits = search(db=db, identity=identity, query=" ".join([request.thema, *request.unterthemen])[:300],
                      fach=fach, kind="curriculum", limit=10)
        # only the teacher's own Lehrplan is cited: another state's plan under her exam misleads
        chunks = [Quelle(art="curriculum", ref=str(h.id), titel=h.title) for h in hits
                  if bundesland is None or h.content.get("bundesland") == bundesland][:2]
    except UserError:
        pass
    return Pool(topic=ctx, primary=primary, related=related, nachbarn=nachbarn, curriculum=chunks)


def _rows(db: Session, identity: Identity, fach: str, agent_type: str, request: MaterialRequest,
          primary: Sequence[str]) -> list[Any]:
    """Rows of the resolved topics, plus search hits for the topic, each named sub-topic and each AFB wish."""
    queries = [" ".join([request.thema, *request.unterthemen])[:300], *request.unterthemen,
               *(w.thema for w in request.afb_wuensche)]
    ids: list[uuid.UUID] = []
    for i, q in enumerate(dict.fromkeys(q for q in queries if q.strip())):
        try:
            hits = search(db=db, identity=identity, query=q, fach=fach, agent_type=agent_type,
                          limit=SEARCH_HITS if i == 0 else 10)
        except UserError:
            continue
        ids += [h.id for h in hits if h.id not in ids]
    return knowledge_repo.composer_rows(db=db, identity=identity, fach=fach, agent_type=agent_type,
                                        topics=list(primary), ids=ids)


def _wish_topics(pool: Pool) -> tuple[str, ...]:
    """The coverage topics of the teacher's wishes ("eine Aufgabe Induktion als AFB III"): all their rows are
    candidates for the wish's slot, not only the few a search for the wish's words returns."""
    return tuple(t.id for w in pool.topic.wishes for t in w.resolved if t.id not in pool.primary)


def _row_args(r: Any) -> dict[str, Any]:
    return dict(ref=str(r.id), titel=r.description or r.thema or "", content=r.content or {},
                scope_type=r.scope_type, source=r.source, quality=float(r.quality_score or 0.5), thema=r.thema)


def _generators(fach: str, ctx: TopicContext, klassenstufe: int, kurs: str | None) -> list[Generator]:
    """Generators of the Fach for this grade that serve the request: linked from a resolved coverage topic, or whose
    own topic words resolve to one of the request's topics or clearly match the request's words."""
    gens = [g for g in for_fach(fach) if g.fits(klassenstufe)]
    if klassenstufe >= 11 and kurs is not None:
        gens = [g for g in gens if ("eA" if kurs == "erhoeht" else "gA") in g.niveaus]
    resolved = {t.id for t in ctx.resolved}
    linked = {k for t in ctx.resolved for k in t.generatoren}
    wanted = ctx.index.pseudo(ctx.request)
    out = []
    for g in gens:
        words = " ".join([g.thema, g.unterthema, *g.schlagworte])
        ranked = ctx.index.ranked(words)
        if g.key in linked or (ranked and ranked[0][0] in resolved) or \
                ctx.index.score_terms(text_stems(words), wanted) >= MIN_GENERATOR_MATCH:
            out.append(g)
    return out


def _seed(request: MaterialRequest, teacher_id: uuid.UUID | None, offset: int = 0) -> int:
    wishes = without_choice(own_wishes(request.zusatz))  # choosing to fill up keeps the drawn numbers (043)
    text = f"{teacher_id}|{request.fach}|{request.thema}|{request.klassenstufe}|{wishes}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) + offset


def task_candidates(*, db: Session, identity: Identity, fach: str, request: MaterialRequest, pool: Pool,
                    seed: int) -> list[TaskCandidate]:
    rows = _rows(db, identity, fach, "klausur", request, (*pool.primary, *_wish_topics(pool)))
    cands = [c for r in rows if (c := task_from_row(**_row_args(r))) is not None]
    k = request.klassenstufe or 9
    for i, g in enumerate(_generators(fach, pool.topic, k, request.niveau)):
        home = next((t.id for t in pool.topic.resolved if g.key in t.generatoren), None)
        try:
            cands.append(task_from_generator(g, seed=seed + i, klassenstufe=k, topic=home))
        except Exception:  # a generator bug must not cost the teacher the exam
            log.exception("generator %s failed", g.key)
    return cands


def compose_exam(*, db: Session, identity: Identity, teacher_id: uuid.UUID | None, fach: str,
                 themenfelder: dict[str, list[str]], request: MaterialRequest, afb_ziel: dict[str, int],
                 operators: list[str], avoid: Sequence[str] = (), afb_fest: bool = True,
                 bundesland: str | None = None) -> Composition:
    pool = _pool(db, identity, fach, themenfelder, request, "klausur", bundesland)
    seed = _seed(request, teacher_id)
    cands = task_candidates(db=db, identity=identity, fach=fach, request=request, pool=pool, seed=seed)
    extra = {c.key: pool.curriculum[:1] for c in cands if c.herkunft == "generator"}
    notes = note_keywords(knowledge_repo.notes_for(db=db, identity=identity, fach=fach, klasse=request.klasse,
                                                   klassenstufe=request.klassenstufe))
    vorlage = best_example(knowledge_repo.teacher_examples(db=db, identity=identity, fach=fach, limit=10),
                           " ".join([request.thema, *request.unterthemen]), asked=wants_example(request.zusatz))
    auftrag = KlausurAuftrag(
        request=request, fach=fach, fach_name=fach_name(fach), klassenstufe=request.klassenstufe or 9,
        afb_ziel=afb_ziel, candidates=cands, topic=pool.topic, operators=operators, primary_topics=pool.primary,
        related_topics=pool.related, nachbarn=pool.nachbarn, notes=notes, avoid=tuple(avoid), extra_quellen=extra,
        vorlage=vorlage, afb_fest=afb_fest)
    comp = compose_work_exam(auftrag) or compose_klausur(auftrag)  # a named literary work first (decision 056)
    _as_handed_out(comp.material, comp.befund, cands, pool, request)
    return comp


def _on_work(db: Session, identity: Identity, fach: str, request: MaterialRequest, pool: Pool,
             items: Sequence[QuizCandidate] | Sequence[DiffCandidate]) -> work_items.OnWork | None:
    """The items on the literary work a quiz or worksheet request names; the bank's exam tasks tell which works it
    prints (only read for the Fächer that have works)."""
    if fach not in LITERARY_FAECHER:
        return None
    rows = _rows(db, identity, fach, "klausur", request, pool.primary)
    tasks = [c for r in rows if (c := task_from_row(**_row_args(r))) is not None]
    return work_items.narrowed(request, fach, items, tasks, pool.topic)


def compose_quiz(*, db: Session, identity: Identity, fach: str, themenfelder: dict[str, list[str]],
                 request: MaterialRequest, avoid: Sequence[str] = (), bundesland: str | None = None
                 ) -> QuizComposition:
    pool = _pool(db, identity, fach, themenfelder, request, "h5p", bundesland)
    rows = _rows(db, identity, fach, "h5p", request, pool.primary)
    cands: list[QuizCandidate] = [c for r in rows if (c := quiz_from_row(**_row_args(r))) is not None]
    on = _on_work(db, identity, fach, request, pool, cands)  # a named work: its items only (decision 070)
    if on is not None and not on.items:
        return QuizComposition(material=None, befund=on.refusal(
            was="Übung", einheit="Fragen", klassenstufe=request.klassenstufe or 9, anzahl=request.anzahl))
    # on a named work, the work chose the items: not the topic's parts, and no other topic is offered in
    thema, topic, nachbarn = (on.thema(request.thema), None, []) if on else (request.thema, pool.topic, pool.nachbarn)
    comp = compose_h5p(QuizAuftrag(
        thema=thema, fach=fach, fach_name=fach_name(fach), klassenstufe=request.klassenstufe or 9,
        anzahl=request.anzahl or count_in(request.zusatz), unterthemen=list(request.unterthemen),
        candidates=on.items if on else cands, topic=topic,
        kurs=request.niveau, primary_topics=pool.primary, nachbarn=nachbarn, avoid=tuple(avoid),
        salt=f"{request.thema}|{without_choice(request.zusatz)}", zusatz=request.zusatz,
        ausgeschlossen=frozenset(excluded_quiz_types(request.zusatz))))
    _as_handed_out(comp.material, comp.befund, cands, pool, request)
    return comp


def compose_worksheet(*, db: Session, identity: Identity, fach: str, themenfelder: dict[str, list[str]],
                      request: MaterialRequest, avoid: Sequence[str] = (), bundesland: str | None = None
                      ) -> DiffComposition:
    pool = _pool(db, identity, fach, themenfelder, request, "differenzierung", bundesland)
    rows = _rows(db, identity, fach, "differenzierung", request, pool.primary)
    cands: list[DiffCandidate] = [c for r in rows if (c := diff_from_row(**_row_args(r))) is not None]
    on = _on_work(db, identity, fach, request, pool, cands)  # a named work: its items only (decision 070)
    if on is not None and not on.items:
        return DiffComposition(material=None, befund=on.refusal(
            was="Arbeitsblatt", einheit="Aufgaben je Niveau", klassenstufe=request.klassenstufe or 9,
            anzahl=request.anzahl))
    # on a named work, the work chose the items: not the topic's parts, and no other topic is offered in
    thema, topic, nachbarn = (on.thema(request.thema), None, []) if on else (request.thema, pool.topic, pool.nachbarn)
    comp = compose_differenzierung(DiffAuftrag(
        thema=thema, fach=fach, fach_name=fach_name(fach), klassenstufe=request.klassenstufe or 9,
        unterthemen=list(request.unterthemen), anzahl=request.anzahl, candidates=on.items if on else cands,
        topic=topic,
        kurs=request.niveau, primary_topics=pool.primary, nachbarn=nachbarn, avoid=tuple(avoid),
        salt=f"{request.thema}|{without_choice(request.zusatz)}", zusatz=request.zusatz or ""))
    _as_handed_out(comp.material, comp.befund, cands, pool, request)
    return comp


def _as_handed_out(material: Any, befund: Befund, cands: Sequence[Any], pool: Pool, request: MaterialRequest) -> None:
    """The account said from the material as printed; without material, whether other grades hold the topic."""
    agree_with_paper(material, befund, request.unterthemen)
    if material is None:
        say_other_grades(befund, cands, primary=pool.primary, names=[t.thema for t in pool.topic.resolved],
                         thema=request.thema, klassenstufe=request.klassenstufe, kurs=request.niveau)
