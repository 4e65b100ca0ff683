"""Retrieval quality on a labelled set (`shared/eval/retrieval_dev.json` shape): recall@k of the hybrid search.

The set's tasks are imported as global klausur good practices (inside the caller's transaction), then each query
is searched with its Fach; recall@k = |relevant ∩ top k| / min(k, |relevant|), averaged over queries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from core.knowledge.retrieval import search
from core.uploads.json_import import ImportItem, import_knowledge
from db.session import Identity


@dataclass(frozen=True)
class RecallReport:
    k: int
    recall: float
    per_query: list[dict[str, Any]]

    def misses(self) -> list[dict[str, Any]]:
        return [q for q in self.per_query if q["recall"] < 1.0]


def load_set(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def import_set_tasks(*, db: Session, data: dict[str, Any], prefix: str = "eval:") -> None:
    items = [
        ImportItem(fach=t["fach"], content={"aufgabe": t["text"]}, external_id=prefix + t["id"],
                   description=None, thema=None)
        for t in data["tasks"]
    ]
    import_knowledge(db=db, items=items)


def recall_at_k(*, db: Session, identity: Identity, data: dict[str, Any], k: int = 3,
                prefix: str = "eval:", own_corpus: bool = True) -> RecallReport:
    """Recall@k of the set's queries. `own_corpus`: ranked among the set's tasks; otherwise among everything in
    the knowledge base (the set's tasks must then beat the bank's for the first 100 places)."""
    rows = []
    for q in data["queries"]:
        # Ranked among the set's own tasks (the set's corpus): the seeded bank holds thousands of tasks that may
        # legitimately answer the same query, and the set's relevance labels know nothing of them.
        hits = search(db=db, identity=identity, query=q["q"], fach=q.get("fach"), limit=k if own_corpus else 100,
                      external_prefix=prefix if own_corpus else None)
        top = [h.external_id[len(prefix):] for h in hits if h.external_id and h.external_id.startswith(prefix)][:k]
        relevant = set(q["relevant"])
        r = len(relevant & set(top)) / min(k, len(relevant))
        rows.append({"q": q["q"], "fach": q.get("fach"), "relevant": sorted(relevant), "top": top, "recall": r})
    return RecallReport(k=k, recall=sum(r["recall"] for r in rows) / len(rows), per_query=rows)
