"""Retrieval quality on a labelled set (`shared/eval/retrieval_dev.json` shape): recall@k of the hybrid search.

The set's tasks are imported as global klausur good practices (inside the caller's transaction), then each query
is searched with its Fach; recall@k = |relevant ∩ top k| / min(k, |relevant|), averaged over queries.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from core.knowledge.retrieval import search
from core.uploads.json_import import ImportItem, import_knowledge
from db.session import Identity


@dataclass(frozen=True)
class RecallReport:
    """`recall`: the set's items ranked among themselves (own corpus) or, among the whole base, with the unlabelled
    rows left out of the ranking (a condensed list: the bank's tasks are unjudged, not wrong — „Stromkreis“ has
    dozens of good ones); `strict`: the plain top k of the whole ranking, every unlabelled row counted as a miss."""

    k: int
    recall: float
    per_query: list[dict[str, Any]]
    strict: float | None = None

    def misses(self) -> list[dict[str, Any]]:
        return [q for q in self.per_query if q["recall"] < 1.0]


def load_set(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def import_set_tasks(*, db: Session, data: dict[str, Any], prefix: str = "eval:",
                     owner: uuid.UUID | None = None) -> None:
    """The set's tasks as global good practices (the set's protocol), or with `owner` as that teacher's own
    uploads (her old tasks among the bank: what she finds of her own material)."""
    scope: dict[str, Any] = {"scope_type": "teacher", "scope_id": owner} if owner else {}
    items = [
        ImportItem(fach=t["fach"], content={"aufgabe": t["text"]}, external_id=prefix + t["id"],
                   description=None, thema=None, **scope)
        for t in data["tasks"]
    ]
    import_knowledge(db=db, items=items)


def recall_at_k(*, db: Session, identity: Identity, data: dict[str, Any], k: int = 3,
                prefix: str = "eval:", own_corpus: bool = True) -> RecallReport:
    """Recall@k of the set's queries. `own_corpus`: ranked among the set's tasks; otherwise among everything in
    the knowledge base: a relevant task must then come among the first 100 hits and before the set's other tasks
    (`recall`), or among the first k hits at all (`strict`)."""
    rows = []
    for q in data["queries"]:
        # Ranked among the set's own tasks (the set's corpus): the seeded bank holds thousands of tasks that may
        # legitimately answer the same query, and the set's relevance labels know nothing of them.
        hits = search(db=db, identity=identity, query=q["q"], fach=q.get("fach"), limit=k if own_corpus else 100,
                      external_prefix=prefix if own_corpus else None)
        ids = [h.external_id[len(prefix):] if h.external_id and h.external_id.startswith(prefix) else None
               for h in hits]
        top = [i for i in ids if i is not None][:k]
        relevant = set(q["relevant"])
        r = len(relevant & set(top)) / min(k, len(relevant))
        strict = len(relevant & set(ids[:k])) / min(k, len(relevant))
        rows.append({"q": q["q"], "fach": q.get("fach"), "relevant": sorted(relevant), "top": top, "recall": r,
                     "strict": strict, "first": [h.external_id for h in hits[:k]]})
    return RecallReport(k=k, recall=sum(r["recall"] for r in rows) / len(rows), per_query=rows,
                        strict=sum(r["strict"] for r in rows) / len(rows))
