"""Operator tasks: database facts for `db-info`, and re-embedding after an embedder switch."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.knowledge.retrieval import VOCABULARY
from db.models import AgentKnowledge
from db.repos import knowledge as knowledge_repo
from db.session import Identity, current_revision, head_revision, unit_of_work


def db_info(*, db: Session) -> dict[str, Any]:
    facts = knowledge_repo.server_facts(db=db)
    facts["migration"] = current_revision(db.connection())
    facts["migration_head"] = head_revision()
    facts["rows"] = knowledge_repo.count_rows(db=db)
    facts["embedder"] = embedding_model_name()
    return facts


def reembed(*, db: Session, batch: int = 500) -> int:
    """Re-embed every row whose `embedding_model` differs from the configured embedder. Returns the count."""
    model_name = embedding_model_name()
    done = 0
    while rows := knowledge_repo.stale_embeddings(db=db, model_name=model_name, limit=batch):
        texts = []
        for r in rows:
            if isinstance(r, AgentKnowledge):
                r.search_text = r.search_text or knowledge_text(content=r.content, thema=r.thema,
                                                                description=r.description)
                texts.append(r.search_text)
            else:
                texts.append(" ".join([r.themenfeld or "", r.thema, r.kompetenz]))
        for r, vec in zip(rows, embed_documents(texts), strict=True):
            r.embedding = vec
            r.embedding_model = model_name
        db.flush()
        done += len(rows)
    VOCABULARY.clear()
    return done


def system_status() -> dict[str, Any]:
    """Database facts for the start page and operators (own unit of work, as the system identity)."""
    with unit_of_work(Identity.system()) as db:
        return db_info(db=db)
