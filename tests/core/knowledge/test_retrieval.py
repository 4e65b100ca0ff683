"""Hybrid retrieval: quality on the shared dev set, Fach/agent filters, and hostile or empty queries."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.evaluation.retrieval import import_set_tasks, load_set, recall_at_k
from core.knowledge.retrieval import search
from db.session import Identity, act_as
from tests.conftest import DEMO_TEACHER

DEV_SET = Path(__file__).resolve().parents[4] / "shared" / "eval" / "retrieval_dev.json"


@pytest.mark.skipif(not DEV_SET.exists(), reason="shared/eval/retrieval_dev.json not beside the checkout")
def test_recall_at_3_on_the_dev_set_is_at_least_090(db: Session, as_teacher) -> None:
    data = load_set(DEV_SET)
    import_set_tasks(db=db, data=data)
    report = recall_at_k(db=db, identity=Identity.system(), data=data, k=3)
    print(f"\nrecall@3 on {DEV_SET.name}: {report.recall:.3f} ({len(report.per_query)} queries)")
    for miss in report.misses():
        print(f"  miss: {miss['q']!r} relevant={miss['relevant']} top3={miss['top']}")
    whole = {}
    for k in (3, 10):
        whole[k] = mixed = recall_at_k(db=db, identity=Identity.system(), data=data, k=k, own_corpus=False)
        print(f"recall@{k} among the whole knowledge base (bank included): {mixed.recall:.3f} with the unlabelled "
              f"bank rows left out of the ranking, {mixed.strict:.3f} counting them as misses")
    teacher = as_teacher(DEMO_TEACHER)
    act_as(db, Identity.system())
    import_set_tasks(db=db, data=data, prefix="evalown:", owner=teacher.teacher_id)
    act_as(db, teacher)
    for k in (3, 10):
        hers = recall_at_k(db=db, identity=teacher, data=data, k=k, prefix="evalown:", own_corpus=False)
        print(f"recall@{k} as the teacher's own uploads among the bank: {hers.recall:.3f} condensed, "
              f"{hers.strict:.3f} strict")
    assert report.recall >= 0.90


@pytest.mark.skipif(not DEV_SET.exists(), reason="shared/eval/retrieval_dev.json not beside the checkout")
def test_the_sets_tasks_are_found_with_the_whole_bank_as_distractors(db: Session, as_teacher) -> None:
    """#16's acceptance (decision 022): the set's tasks still found with the whole bank as distractors."""
    data = load_set(DEV_SET)
    import_set_tasks(db=db, data=data)
    whole = recall_at_k(db=db, identity=Identity.system(), data=data, k=3, own_corpus=False)
    assert whole.recall >= 0.90, [(m["q"], m["relevant"], m["top"]) for m in whole.misses()]


def test_search_finds_a_topic_area_through_the_subject_vocabulary(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query="Optik", fach="physik", limit=5)
    assert hits
    top = " ".join(h.text for h in hits[:3]).lower()
    assert any(w in top for w in ("licht", "brech", "linse", "spiegel", "reflex"))


def test_results_respect_fach_and_agent_type(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query="Stromkreis Widerstand", fach="physik", limit=20)
    assert hits and all(h.fach == "physik" for h in hits)
    quiz = search(db=db, identity=ident, query="Stromkreis", fach="physik", agent_type="h5p", limit=20)
    ids = {h.id for h in hits}
    assert quiz and not ids & {h.id for h in quiz}


def test_personal_good_practice_of_the_teacher_is_found(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query="Reihenschaltung Teilspannungen", fach="physik", limit=5)
    assert "demo:keller:gp:1" in [h.external_id for h in hits]
    other = as_teacher("anna.berger@demo-gymnasium.de")
    hits = search(db=db, identity=other, query="Reihenschaltung Teilspannungen", fach="physik", limit=50)
    assert "demo:keller:gp:1" not in [h.external_id for h in hits]


def test_curriculum_search_returns_labelled_excerpts(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query="elektrische Stromstärke Spannung", fach="physik", kind="curriculum")
    assert hits and all(h.kind == "curriculum" for h in hits)
    assert all("eigene Formulierung" in (h.source or "") for h in hits)


@pytest.mark.parametrize("query, message", [
    ("", "Bitte einen Suchbegriff"),
    ("   \n\t ", "Bitte einen Suchbegriff"),
    ("x" * 100_000, r"zu lang \(100\.000 Zeichen\)"),
    ("!!! ??? ---", "keine Wörter"),
])
def test_bad_queries_get_a_german_message(db: Session, as_teacher, query: str, message: str) -> None:
    ident = as_teacher(DEMO_TEACHER)
    with pytest.raises(UserError, match=message):
        search(db=db, identity=ident, query=query, fach="physik")


def test_unknown_fach_is_refused(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    with pytest.raises(UserError, match="Unbekanntes Fach"):
        search(db=db, identity=ident, query="Strom", fach="Alchemie")


@pytest.mark.parametrize("query", [
    "'; DROP TABLE agent_knowledge; --",
    "Strom & | ! ( ) : * <-> 'a'",
    "Widerstand\\' OR 1=1 --",
    "😀 Stromkreis 🔌",
])
def test_sql_and_tsquery_metacharacters_are_harmless(db: Session, as_teacher, query: str) -> None:
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query=query, fach="physik")
    assert isinstance(hits, list)
    assert db.scalar(sa.text("SELECT count(*) FROM agent_knowledge")) > 0


def _made_up_word() -> str:
    """A word no other row can carry: letters drawn from a fresh uuid (the full-text parser must see one word)."""
    return "Zauber" + "".join(chr(ord("a") + int(c, 16) % 26) for c in uuid.uuid4().hex[:10])


def test_a_rare_word_the_teacher_typed_outranks_many_tasks_sharing_only_the_topic(db: Session, as_teacher) -> None:
    """Forty ordinary Stromkreis tasks (global, as curators add them) must not push the few tasks that name the rare
    word of the query out of the hits: the query's specific word weighs more than its common topic word and the
    Themenfeld's expansion terms. The rare word is made up for this run, so whatever other tests left in the
    database, only this test's two rows carry it — and they must come first."""
    from core.knowledge.embeddings import embed_documents, embedding_model_name
    from db.models import AgentKnowledge

    rare_word = _made_up_word()
    ident = as_teacher(DEMO_TEACHER)
    act_as(db, Identity.system())  # global rows are written by curators and seeds, not by the teacher
    common = [f"Beschreibe, wie man im Stromkreis {i} die Stromstärke mit einem Amperemeter misst und die Spannung "
              f"am Widerstand bestimmt." for i in range(40)]
    rare = {"own": ("teacher", ident.teacher_id), "global": ("global", None)}
    rare_texts = [f"{rare_word}: Berechnen Sie den Strom im {rare_word}-Stromkreis ({label})." for label in rare]
    texts = common + rare_texts
    tag = uuid.uuid4().hex[:8]
    labels = [f"common:{i}" for i in range(40)] + [f"rare:{label}" for label in rare]
    scopes = [("global", None)] * 40 + list(rare.values())
    for text, vec, label, (scope_type, scope_id) in zip(texts, embed_documents(texts), labels, scopes, strict=True):
        db.add(AgentKnowledge(
            agent_type="klausur", scope_type=scope_type, scope_id=scope_id, owner_id=scope_id, fach="physik",
            thema="Stromkreis", knowledge_type="good_practice", content={"aufgabe": text}, description=text[:60],
            source="system", external_id=f"rarity:{tag}:{label}", search_text=text, embedding=vec,
            embedding_model=embedding_model_name()))
    db.flush()
    act_as(db, ident)
    hits = search(db=db, identity=ident, query=f"{rare_word} Stromkreis", fach="physik", limit=50)
    found = [h.external_id for h in hits]
    shown = [(h.external_id, h.vector_rank, h.text_rank, round(h.score, 4)) for h in hits[:6]]
    assert set(found[:2]) == {f"rarity:{tag}:rare:own", f"rarity:{tag}:rare:global"}, shown
    assert sum(1 for f in found if f and f.startswith(f"rarity:{tag}:common:")) >= 10, shown  # the topic still counts


def test_a_word_that_names_several_themenfelder_does_not_drag_in_a_neighbour_topic(db: Session, as_teacher) -> None:
    """„Stellungnahme schreiben“ asks for argumentative writing; „schreiben“ also names informative and creative
    writing, and a Unfallbericht used to come first. The first hits must all be argumentation tasks."""
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query="Stellungnahme schreiben", fach="deutsch", limit=5)
    shown = [(h.thema, h.title) for h in hits]
    assert len(hits) == 5, shown
    assert all(h.thema and "Bericht" not in h.thema and "Beschreib" not in h.thema for h in hits), shown
    assert sum(1 for h in hits if "Argument" in (h.thema or "") or "Erörter" in (h.thema or "")) >= 4, shown


def _add_global(db: Session, fach: str, texts: dict[str, str], thema: str | None = None) -> str:
    """Global good practices of the Fach (as a curator or an import would add them); returns their id prefix."""
    from core.knowledge.embeddings import embed_documents, embedding_model_name
    from db.models import AgentKnowledge

    act_as(db, Identity.system())
    tag = f"t{uuid.uuid4().hex[:8]}"
    for (label, text), vec in zip(texts.items(), embed_documents(list(texts.values())), strict=True):
        db.add(AgentKnowledge(
            agent_type="klausur", scope_type="global", scope_id=None, owner_id=None, fach=fach, thema=thema,
            knowledge_type="good_practice", content={"aufgabe": text}, description=None, source="import",
            external_id=f"{tag}:{label}", search_text=text, embedding=vec, embedding_model=embedding_model_name()))
    db.flush()
    return tag


def test_the_parts_of_a_compound_in_the_query_find_a_task_that_uses_them_apart(db: Session, as_teacher) -> None:
    """A teacher's „<Wort>reaktionen“ finds the task about the „Nachweis mit <Wort>“: the German stemmer sees no
    relation between the compound and its parts, the search cuts it where the Fach's tasks carry both parts."""
    word = _made_up_word().lower()
    tag = _add_global(db, "chemie", {"task": f"Beschreiben Sie den Nachweis mit {word} und deuten Sie das Ergebnis."})
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query=f"{word}reaktionen", fach="chemie", limit=100)
    mine = [h for h in hits if h.external_id == f"{tag}:task"]
    # the only row carrying the specific part leads the text ranking (its vector rank varies with the random word)
    assert mine and mine[0].text_rank == 1, [(h.external_id, h.text_rank) for h in hits[:10]]


def test_a_short_task_about_the_word_outranks_a_long_one_naming_it_in_passing(db: Session, as_teacher) -> None:
    """Text rank is divided by the log of the row's length: a long task that names the teacher's word twice among a
    hundred others must not rank before a short task that is about it."""
    word = _made_up_word()
    filler = " ".join(f"Messreihe{i} Tabelle Diagramm Auswertung" for i in range(40))
    tag = _add_global(db, "physik", {
        "short": f"Erklären Sie das {word}-Experiment.",
        "long": f"{word}: {filler}. Vergleichen Sie mit dem {word}-Modell.",
    })
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query=word, fach="physik", limit=10)
    ranks = {h.external_id: h.text_rank for h in hits if h.external_id and h.external_id.startswith(tag)}
    assert ranks.get(f"{tag}:short") == 1 and ranks.get(f"{tag}:long") == 2, ranks


def test_a_long_query_word_also_matches_words_it_begins(db: Session, as_teacher) -> None:
    """„<Wort>“ finds „<Wort>struktur“ through the full text (German compounds and derivations)."""
    word = _made_up_word()
    tag = _add_global(db, "deutsch", {"task": f"Analysieren Sie die {word}struktur des Kommentars."})
    ident = as_teacher(DEMO_TEACHER)
    hits = search(db=db, identity=ident, query=word, fach="deutsch", limit=10)
    mine = [h for h in hits if h.external_id == f"{tag}:task"]
    assert mine and mine[0].text_rank is not None, [(h.external_id, h.text_rank) for h in hits]
