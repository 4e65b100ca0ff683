"""Search at scale: a teacher's search ranks her personal rows and the Fach's global slice (through its own
indexes, migration 0006) separately and merges them — the result must be exactly what ranking every visible row
at once gives, including a global row added in this transaction and nothing another teacher owns."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from core.knowledge.embeddings import embed_documents, embed_query
from db.models import AgentKnowledge
from db.repos.search import exact_vector_ids, rank_knowledge
from db.session import Identity, act_as
from tests.conftest import DEMO_TEACHER, unique
from tests.core.curation.test_curation import person

QUERIES = [("Stromkreis Widerstand Reihenschaltung", "physik", "stromkreis | widerstand | reihenschaltung"),
           ("Brechung Licht Linse", "physik", "brechung | licht | linse"),
           ("Fotosynthese Licht Chlorophyll", "biologie", "fotosynthese | licht | chlorophyll"),
           ("Gedicht Metrum Reim", "deutsch", "gedicht | metrum | reim")]


def _row(db: Session, text: str, *, scope: str = "global", owner: object = None) -> AgentKnowledge:
    act = db.info["identity"]
    act_as(db, Identity.system())
    row = AgentKnowledge(agent_type="klausur", scope_type=scope, scope_id=owner, owner_id=owner, fach="physik",
                         thema="Reihenschaltung", knowledge_type="good_practice", content={"aufgabe": text},
                         source="curator", search_text=text, embedding=embed_documents([text])[0],
                         embedding_model="test")
    db.add(row)
    db.flush()
    act_as(db, act)
    return row


@pytest.mark.parametrize(("query", "fach", "tsq"), QUERIES)
def test_the_split_path_ranks_exactly_like_all_visible_rows_at_once(db: Session, as_teacher, query: str, fach: str,
                                                                   tsq: str) -> None:  # noqa: ANN001
    ident = as_teacher(DEMO_TEACHER)
    qvec = embed_query(query)
    args = {"db": db, "identity": ident, "qvec": qvec, "fach": fach, "agent_type": "klausur",
            "knowledge_type": "good_practice"}
    split = rank_knowledge(tsquery=tsq, k=10, **args)
    exact = exact_vector_ids(limit=10, **{k: v for k, v in args.items() if k != "identity"}, identity=ident)
    assert {r.id for r in split if r.vector_rank} == set(exact)
    assert sorted(r.vector_rank for r in split if r.vector_rank) == list(range(1, len(exact) + 1))
    old = rank_knowledge(tsquery=tsq, k=10, path="exact", **args)
    assert {r.id for r in split if r.vector_rank} == {r.id for r in old if r.vector_rank}
    assert any(r.text_rank for r in split) and {r.scope_type for r in split} <= {"global", "teacher", "class",
                                                                                 "school"}


def test_new_global_rows_count_and_other_teachers_rows_never_do(db: Session, as_teacher) -> None:  # noqa: ANN001
    tag = unique("s")
    text = f"Reihenschaltung {tag}: Berechne die Teilspannungen an zwei Widerständen im Stromkreis."
    stranger = person(db, role="teacher", name="Tom Fremd")
    ident = as_teacher(DEMO_TEACHER)
    mine = _row(db, text)
    foreign = _row(db, text + " Fremde Fassung.", scope="teacher", owner=stranger.id)
    ranked = rank_knowledge(db=db, identity=ident, qvec=embed_query(text), tsquery=tag.split("-")[1],
                            fach="physik", agent_type="klausur", knowledge_type="good_practice", k=10)
    by_id = {r.id: r for r in ranked}
    assert (by_id[mine.id].vector_rank, by_id[mine.id].text_rank, by_id[mine.id].scope_type) == (1, 1, "global")
    assert foreign.id not in by_id


def test_the_text_top_k_of_the_global_slice_skips_retired_rows_and_other_subjects(db: Session, as_teacher) -> None:  # noqa: ANN001
    """The global slice's text top-k runs as the owner (migration 0009, so its GIN index applies under RLS): it must
    still return only what every teacher may read — active global rows of the Fach and agent asked for."""
    tag = unique("r")
    ident = as_teacher(DEMO_TEACHER)
    active = _row(db, f"Reihenschaltung {tag}: aktive Aufgabe.")
    retired = _row(db, f"Reihenschaltung {tag}: ausgemusterte Aufgabe.")
    act_as(db, Identity.system())
    retired.status = "retired"
    other = _row(db, f"Reihenschaltung {tag}: eine Chemie-Aufgabe.")
    other.fach = "chemie"
    db.flush()
    act_as(db, ident)
    ranked = rank_knowledge(db=db, identity=ident, qvec=embed_query("Mondphasen"), tsquery=tag.split("-")[1],
                            fach="physik", agent_type="klausur", knowledge_type="good_practice", k=10)
    assert [r.id for r in ranked if r.text_rank] == [active.id]
