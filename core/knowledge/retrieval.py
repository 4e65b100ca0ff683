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

import numpy as np
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
CANDIDATES = 200
# A small prior on top of relevance: the teacher's own (and class/school) tasks and well-rated ones first, when
# they are about as relevant. 0.0025 is worth a few ranks in RRF; it never lifts an unrelated task into the top.
SCOPE_PRIOR = {"teacher": 0.0025, "class": 0.0015, "school": 0.001, "global": 0.0}
QUALITY_PRIOR = 0.002
# The Themenfeld's expansion terms, embedded together, count half as much as the words the teacher typed.
EXPANSION_WEIGHT = 0.5
# A query word counts as specific when at most this many times as many global tasks carry it as the rarest word.
SPECIFIC_SPAN = 4.0
MAX_COUNTED_WORDS = 12
# Compound words of the query cut into two parts (each at least MIN_PART letters), for at most this many words.
MIN_PART = 4
# A query word this long also matches words it begins (German compounds and derivations: „polar“ → „Polarität“);
# the stems of shorter ones begin too many unrelated words (decision 022: 5 lost a dev query, 6 to 8 the same).
PREFIX_MIN = 6
MAX_SPLIT_WORDS = 4

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


@dataclass(frozen=True)
class Themenfeld:
    """One Themenfeld of a subject profile: its name's words and each term's words (folded)."""

    fach: str
    name: str
    name_words: tuple[str, ...]
    terms: tuple[tuple[str, ...], ...]

    @property
    def term_words(self) -> list[str]:
        return [w for t in self.terms for w in t]


class _Vocabulary:
    """The Themenfelder of every Fach (folded), cached per process for a minute (profiles change rarely)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fields: list[Themenfeld] = []
        self._raw: dict[str, dict[str, list[str]]] = {}
        self._loaded = 0.0

    def get(self, db: Session) -> tuple[list[Themenfeld], dict[str, dict[str, list[str]]]]:
        with self._lock:
            if time.monotonic() - self._loaded > 60 or not self._fields:
                raw = knowledge_repo.subject_vocabulary(db=db)
                self._raw = raw
                self._fields = [
                    Themenfeld(fach=fach, name=name, name_words=tuple(words(name)),
                          terms=tuple(tuple(words(t)) for t in terms if words(t)))
                    for fach, fields in raw.items() for name, terms in fields.items()
                ]
                self._loaded = time.monotonic()
            return self._fields, self._raw

    def clear(self) -> None:
        with self._lock:
            self._fields = []


VOCABULARY = _Vocabulary()

_SUBJECT_WORDS = {fold_compatible(k) for k in FAECHER} | set(ALIASES)
# A query word found in a Themenfeld's name says more than one found among its terms.
NAME_WEIGHT = 1.5


def word_match(a: str, b: str) -> float:
    """How two folded words meet: 1.0 the same word (equal, or inflected: a ≥5-letter stem plus a short ending);
    0.5 one is a part of the other's compound ("energie" / "energieformen", "atmung" / "zellatmung"); else 0."""
    if a == b:
        return 1.0
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 5 and long_.startswith(short[: max(5, len(short) - 2)]):
        return 1.0 if len(long_) - len(short) <= 3 else 0.5
    # German compounds: "koerperberechnung" contains "koerper", "klimadiagramm" contains "klima"
    return 0.5 if len(short) >= 6 and short in long_ else 0.0


def _field_scores(fields: list[Themenfeld], qwords: list[str]) -> list[tuple[float, Themenfeld, bool]]:
    """How well each Themenfeld matches the query, and whether a query word points to it alone. A word many
    Themenfelder share ("schreiben", "revolution") is worth less in each than a word only one carries
    ("stellungnahme"); a term the query spells out whole ("industrielle revolution") counts once more."""
    per_word: dict[str, list[float]] = {}
    for w in qwords:
        per_word[w] = [
            max(NAME_WEIGHT * max((word_match(w, n) for n in f.name_words), default=0.0),
                max((word_match(w, t) for t in f.term_words), default=0.0))
            for f in fields
        ]
    spread = {w: sum(1 for s in scores if s > 0) for w, scores in per_word.items()}
    # the Themenfelder that are some word's clear best match („zellatmung“: Fotosynthese und Zellatmung, not Atmung)
    sole_best = {scores.index(top) for scores in per_word.values()
                 if (top := max(scores, default=0.0)) > 0 and scores.count(top) == 1}
    qset = set(qwords)
    out = []
    for i, f in enumerate(fields):
        score = sum(scores[i] / spread[w] for w, scores in per_word.items() if scores[i] > 0)
        score += sum(1.0 for t in f.terms if len(t) >= 2 and set(t) <= qset)
        if score > 0:
            out.append((score, f, i in sole_best))
    out.sort(key=lambda x: (-x[0], x[1].fach, x[1].name))
    return out


def expand_query(db: Session, query: str, fach: str | None, *, max_fields: int = 2) -> tuple[list[str], list[str]]:
    """(query words without the subject name, expansion terms from the best-matching Themenfelder)."""
    qwords = [w for w in words(query) if w not in _SUBJECT_WORDS]
    fields, _ = VOCABULARY.get(db)
    scored = _field_scores([f for f in fields if not fach or f.fach == fach], qwords)
    expansion: list[str] = []
    # A further field needs a query word that points to it alone: in „Stellungnahme schreiben“ the word
    # „schreiben“ names several writing Themenfelder and must not add informative writing to argumentation; a field
    # that matches much weaker than the best one is noise ("Republik" also names the Roman one).
    chosen = scored[:1] + [x for x in scored[1:max_fields] if x[2] and x[0] >= 0.5 * scored[0][0]]
    for _, f, _ in chosen:
        for t in [*f.name_words, *f.term_words]:
            if t not in qwords and t not in expansion:
                expansion.append(t)
    return qwords, expansion[:40]


_TS_WORD = re.compile(r"\w+", re.UNICODE)


def _tsquery(text_words: list[str]) -> str | None:
    """An OR-query of plain words (letters/digits only, so nothing can break the tsquery syntax); a word of at least
    PREFIX_MIN letters also matches as the start of a longer one („Argument“ → „Argumentationsstruktur“)."""
    ws = [w for w in dict.fromkeys(text_words) if w.isalnum() and len(w) > 1]
    return " | ".join(w + (":*" if len(w) >= PREFIX_MIN else "") for w in ws[:60]) or None


def _raw_words(text: str) -> list[str]:
    # Full text keeps Umlaute: the German stemmer needs "körper", not "koerper".
    return [w.lower() for w in _TS_WORD.findall(text[:MAX_QUERY_CHARS])
            if fold_compatible(w) not in _SUBJECT_WORDS]


class _WordCounts:
    """How many global tasks of a Fach/agent carry a word, cached per process for a minute (the global rows change
    by curation and seeding, slowly; a teacher's repeated or refined query costs no extra round trip)."""

    def __init__(self, max_entries: int = 50_000) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str | None, str | None, str], tuple[int, float]] = {}
        self._max = max_entries

    def get(self, db: Session, fach: str | None, agent_type: str | None, ws: list[str]) -> list[int]:
        now = time.monotonic()
        with self._lock:
            known = {w: c for w in ws if (c := self._counts.get((fach, agent_type, w))) and now - c[1] < 60}
        missing = [w for w in ws if w not in known]
        if missing:
            _, counts = search_repo.word_frequencies(db=db, fach=fach, agent_type=agent_type,
                                                     knowledge_type="good_practice", tsqueries=missing)
            with self._lock:
                if len(self._counts) > self._max:
                    self._counts.clear()
                for w, n in zip(missing, counts, strict=True):
                    self._counts[(fach, agent_type, w)] = (n, now)
                    known[w] = (n, now)
        return [known[w][0] for w in ws]

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


WORD_COUNTS = _WordCounts()


def specific_words(db: Session, raw: list[str], fach: str | None, agent_type: str | None) -> list[str]:
    """The query's words that few tasks of the Fach carry: at most SPECIFIC_SPAN times as many as the rarest one.
    In „Stellungnahme schreiben“ a task that names the Stellungnahme is the one asked for, not any writing task;
    a word no global task carries (the teacher's own term, a typo, a stop word) is kept — it cannot mislead."""
    ws = [w for w in dict.fromkeys(raw) if w.isalnum() and len(w) > 1][:MAX_COUNTED_WORDS]
    if len(ws) < 2:
        return ws
    counts = WORD_COUNTS.get(db, fach, agent_type, ws)
    rarest = max(min(counts), 1)
    return [w for w, n in zip(ws, counts, strict=True) if n <= SPECIFIC_SPAN * rarest]


def _splits(word: str) -> list[tuple[str, str]]:
    """Every way to cut a long word into two parts of at least MIN_PART letters („nachweis|reaktionen“, …)."""
    if len(word) < 2 * MIN_PART + 1 or not word.isalpha():
        return []
    return [(word[:i], word[i:]) for i in range(MIN_PART, len(word) - MIN_PART + 1)]


def compound_parts(db: Session, raw: list[str], fach: str | None, agent_type: str | None) -> list[str]:
    """The parts of the query's compound words, as the Fach's global tasks spell them: a task about the
    „Nachweis von Kohlenstoffdioxid“ answers „Nachweisreaktionen“, and the full-text stemmer sees no relation.
    A cut counts when the Fach's tasks carry both parts as words; of several, the most even one („nachweis |
    reaktionen“, not „nachweisre | aktionen“). One count query for all candidates, cached like the word counts."""
    ws = [w for w in dict.fromkeys(raw) if _splits(w)][:MAX_SPLIT_WORDS]
    cuts = {w: _splits(w) for w in ws}
    cand = list(dict.fromkeys(p for c in cuts.values() for cut in c for p in cut))
    if not cand:
        return []
    counts = dict(zip(cand, WORD_COUNTS.get(db, fach, agent_type, cand), strict=True))
    out: list[str] = []
    for c in cuts.values():
        found = [cut for cut in c if all(counts[p] > 0 for p in cut)]
        if found:
            out += max(found, key=lambda cut: (min(len(p) for p in cut), -len(cut[0])))
    return list(dict.fromkeys(out))


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


def query_vector(qwords: list[str], expansion: list[str], query: str) -> list[float]:
    """The teacher's words and the Themenfeld's terms embedded apart and added, hers weighted more: embedded as one
    text, her two words were drowned by forty expansion terms."""
    own = embed_query(" ".join(qwords) or query)
    if not expansion:
        return own
    vec = np.asarray(own) + EXPANSION_WEIGHT * np.asarray(embed_query(" ".join(expansion)))
    return (vec / (float(np.linalg.norm(vec)) or 1.0)).tolist()


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
    qvec = query_vector(qwords, expansion, q)
    raw = _raw_words(q)
    parts = compound_parts(db, raw, fach_key, agent_type)
    tsq = _tsquery(raw + parts + _vocab_terms_raw(db, fach_key, expansion))
    literal = _tsquery(raw)  # the teacher's own words outrank the Themenfeld's expansion terms
    if kind == "good_practice":  # and of those (and their parts), the specific ones outrank the topic's common ones
        literal = _tsquery(specific_words(db, raw + parts, fach_key, agent_type)) or literal
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
