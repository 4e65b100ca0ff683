"""Hybrid retrieval of good practices and curriculum excerpts: pgvector cosine + German full text, fused by RRF.

A teacher's query names topic areas ("Optik", "Kinematik") that tasks never mention; the subject vocabulary of the
seeded profiles (themenfeld -> terms) expands such words into the terms tasks do use, for both retrieval paths.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.knowledge.embeddings import embed_query, words
from core.language.text import fold_compatible
from core.materials.faecher import ALIASES, FAECHER, normalize_fach
from db.repos import knowledge as knowledge_repo
from db.repos import search as search_repo
from db.repos.search import Ranked
from db.session import Identity

MAX_QUERY_CHARS = 1000
RRF_K = 60
CANDIDATES = 100
# A small prior on top of relevance: the teacher's own (and class/school) tasks and well-rated ones first, when
# they are about as relevant. 0.0025 is worth a few ranks in RRF; it never lifts an unrelated task into the top.
SCOPE_PRIOR = {"teacher": 0.0025, "class": 0.0015, "school": 0.001, "global": 0.0}
QUALITY_PRIOR = 0.002

Kind = Literal["good_practice", "curriculum"]


@dataclass(frozen=True)
class SearchHit:
    id: uuid.UUID
    kind: Kind
    fach: str
    thema: str | None
    title: str
    text: str
    score: float
    external_id: str | None = None
    scope_type: str = "global"
    quality_score: float | None = None
    source: str | None = None
    content: dict[str, Any] = field(default_factory=dict)
    vector_rank: int | None = None
    text_rank: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "kind": self.kind, "fach": self.fach, "thema": self.thema, "title": self.title,
            "text": self.text, "score": round(self.score, 5), "external_id": self.external_id,
            "scope_type": self.scope_type, "quality_score": self.quality_score, "source": self.source,
            "vector_rank": self.vector_rank, "text_rank": self.text_rank,
        }


# --- subject vocabulary ------------------------------------------------------------------------------------------


class _Vocabulary:
    """fach -> themenfeld -> folded terms, cached per process for a minute (profiles change rarely)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data: dict[str, dict[str, list[str]]] = {}
        self._raw: dict[str, dict[str, list[str]]] = {}
        self._loaded = 0.0

    def get(self, db: Session) -> tuple[dict[str, dict[str, list[str]]], dict[str, dict[str, list[str]]]]:
        with self._lock:
            if time.monotonic() - self._loaded > 60 or not self._data:
                raw = knowledge_repo.subject_vocabulary(db=db)
                self._raw = raw
                self._data = {
                    fach: {field_: [w for t in [field_, *terms] for w in words(t)] for field_, terms in fields.items()}
                    for fach, fields in raw.items()
                }
                self._loaded = time.monotonic()
            return self._data, self._raw

    def clear(self) -> None:
        with self._lock:
            self._data = {}


VOCABULARY = _Vocabulary()

_SUBJECT_WORDS = {fold_compatible(k) for k in FAECHER} | set(ALIASES)


def _related(a: str, b: str) -> bool:
    """Two folded words name the same thing: equal, or one is a ≥5-letter prefix/stem of the other."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 5 and long_.startswith(short[: max(5, len(short) - 2)]):
        return True
    # German compounds: "koerperberechnung" contains "koerper", "klimadiagramm" contains "klima"
    return len(short) >= 6 and short in long_


def expand_query(db: Session, query: str, fach: str | None, *, max_fields: int = 2) -> tuple[list[str], list[str]]:
    """(query words without the subject name, expansion terms from the best-matching Themenfelder)."""
    qwords = [w for w in words(query) if w not in _SUBJECT_WORDS]
    vocab, _ = VOCABULARY.get(db)
    scored: list[tuple[float, str, list[str]]] = []
    for f, fields in vocab.items():
        if fach and f != fach:
            continue
        for name, terms in fields.items():
            name_words = set(words(name))
            hits = 0.0
            for w in qwords:
                if any(_related(w, n) for n in name_words):
                    hits += 2.0  # the query names the topic area itself
                elif any(_related(w, t) for t in terms):
                    hits += 1.0
            if hits:
                scored.append((hits, name, terms))
    scored.sort(key=lambda s: (-s[0], s[1]))
    expansion: list[str] = []
    # a field that matches much weaker than the best one is noise ("Republik" also names the Roman one)
    for _, _, terms in [x for x in scored[:max_fields] if x[0] >= 0.5 * scored[0][0]]:
        for t in terms:
            if t not in qwords and t not in expansion:
                expansion.append(t)
    return qwords, expansion[:40]


_TS_WORD = re.compile(r"\w+", re.UNICODE)


def _tsquery(text_words: list[str]) -> str | None:
    """An OR-query of plain words (letters/digits only, so nothing can break the tsquery syntax)."""
    ws = [w for w in dict.fromkeys(text_words) if w.isalnum() and len(w) > 1]
    return " | ".join(ws[:60]) or None


def _raw_words(text: str) -> list[str]:
    # Full text keeps Umlaute: the German stemmer needs "körper", not "koerper".
    return [w.lower() for w in _TS_WORD.findall(text[:MAX_QUERY_CHARS])
            if fold_compatible(w) not in _SUBJECT_WORDS]


def _check_query(query: str) -> str:
    q = (query or "").strip()
    if not q:
        raise UserError("Bitte einen Suchbegriff eingeben, z. B. „Brechung Lichtleiter“.")
    if len(q) > MAX_QUERY_CHARS:
        raise UserError(
            f"Die Suchanfrage ist zu lang ({len(q):,} Zeichen). Bitte höchstens {MAX_QUERY_CHARS:,} Zeichen verwenden."
            .replace(",", ".")
        )
    if not words(q) and not _raw_words(q):
        raise UserError("Die Suchanfrage enthält keine Wörter. Bitte Fachbegriffe eingeben, z. B. „Stromkreis“.")
    return q


def _vocab_terms_raw(db: Session, fach: str | None, expansion: list[str]) -> list[str]:
    """The original spelling (with Umlaute) of expansion terms, for the German full-text stemmer."""
    _, raw = VOCABULARY.get(db)
    wanted = set(expansion)
    out: list[str] = []
    for f, fields in raw.items():
        if fach and f != fach:
            continue
        for name, terms in fields.items():
            for t in [name, *terms]:
                for w in _TS_WORD.findall(t):
                    if fold_compatible(w) in wanted and w.lower() not in out:
                        out.append(w.lower())
    return out


def _fuse(ranked: list[Ranked]) -> list[tuple[float, Ranked]]:
    scored = []
    for r in ranked:
        s = 0.0
        if r.vector_rank is not None:
            s += 1.0 / (RRF_K + r.vector_rank)
        if r.text_rank is not None:
            s += 1.0 / (RRF_K + r.text_rank)
        s += SCOPE_PRIOR.get(r.scope_type, 0.0) + QUALITY_PRIOR * (r.quality_score - 0.5)
        scored.append((s, r))
    scored.sort(key=lambda x: (-x[0], str(x[1].id)))
    return scored


def search(
    *,
    db: Session,
    identity: Identity,
    query: str,
    fach: str | None = None,
    kind: Kind = "good_practice",
    agent_type: str | None = "klausur",
    limit: int = 10,
    external_prefix: str | None = None,
) -> list[SearchHit]:
    """Hybrid search, always filtered by visibility and Fach (and agent type for good practices); with
    `external_prefix`, among the items of one imported collection only."""
    q = _check_query(query)
    if not 1 <= limit <= 100:
        raise UserError("Die Anzahl der Treffer muss zwischen 1 und 100 liegen.")
    fach_key = normalize_fach(fach, required=False) if fach else None
    qwords, expansion = expand_query(db, q, fach_key)
    qvec = embed_query(" ".join(qwords + expansion) or q)
    tsq = _tsquery(_raw_words(q) + _vocab_terms_raw(db, fach_key, expansion))
    literal = _tsquery(_raw_words(q))  # the teacher's own words outrank the Themenfeld's expansion terms
    if kind == "curriculum":
        ranked = search_repo.rank_curriculum(db=db, identity=identity, qvec=qvec, tsquery=tsq, fach=fach_key,
                                                k=CANDIDATES, literal=literal)
        fused = _fuse(ranked)[:limit]
        rows = knowledge_repo.curriculum_by_ids(db=db, identity=identity, ids=[r.id for _, r in fused])
        return [
            SearchHit(
                id=r.id, kind="curriculum", fach=row.fach, thema=row.thema, title=f"{row.thema} ({row.bundesland})",
                text=row.kompetenz, score=s, external_id=row.external_id, scope_type=row.scope_type,
                source=row.quelle, content={"abschnitt": row.abschnitt, "klassenstufen": row.klassenstufen,
                                            "bundesland": row.bundesland,
                                            "themenfeld": row.themenfeld, "schulform": row.schulform},
                vector_rank=r.vector_rank, text_rank=r.text_rank,
            )
            for s, r in fused
            if (row := rows.get(r.id)) is not None
        ]
    ranked = search_repo.rank_knowledge(
        db=db, identity=identity, qvec=qvec, tsquery=tsq, fach=fach_key, agent_type=agent_type,
        knowledge_type="good_practice", k=CANDIDATES, external_prefix=external_prefix, literal=literal,
    )
    fused = _fuse(ranked)[:limit]
    rows = knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=[r.id for _, r in fused])
    hits = []
    for s, r in fused:
        row = rows.get(r.id)
        if row is None:
            continue
        c = row.content or {}
        text = c.get("aufgabe") or c.get("frage") or c.get("lernziel") or row.search_text or ""
        hits.append(
            SearchHit(
                id=row.id, kind="good_practice", fach=row.fach, thema=row.thema,
                title=row.description or row.thema or "Aufgabe", text=text, score=s, external_id=row.external_id,
                scope_type=row.scope_type, quality_score=row.quality_score, source=row.source, content=c,
                vector_rank=r.vector_rank, text_rank=r.text_rank,
            )
        )
    return hits
