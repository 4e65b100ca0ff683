"""Curation services: the queue, validation, optimistic edits, ratings, promotion with anonymisation, retirement,
near-duplicates and merge, the histogram. Each test runs in a rolled-back transaction acting as a curator (RLS on)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session

from core.app.errors import ConflictError, NotFoundError, UserError
from core.curation.duplicates import DUPLICATE_SIMILARITY, duplicates, merge
from core.curation.editing import save
from core.curation.histogram import histogram
from core.curation.promotion import PersonalData, anonymise, promote
from core.curation.queue import entry_view, list_entries
from core.curation.review import mark_reviewed, rate, set_retired
from core.curation.rows import system_reads as as_system
from core.curation.service import queue_page
from core.curation.validation import validate_edit
from core.curation.views import EntryEdit, QueueFilter
from core.materials.faecher import fach_name
from db.models import AgentKnowledge, KnowledgeChange, School, SchoolClass, Teacher, TeacherClass
from db.repos import curation as repo
from tests.conftest import unique

OPERATORS = {"Nennen": "I", "Beschreiben": "I", "Erklären": "II", "Beurteilen": "III"}


def person(db: Session, *, role: str, name: str, school: School | None = None) -> Teacher:
    with as_system(db):
        if school is None:
            school = School(name=f"Schule {unique()}", bundesland="Sachsen")
            db.add(school)
            db.flush()
        t = Teacher(name=name, email=f"{unique()}@test.de", bundesland="Sachsen", faecher=["physik"], role=role,
                    school_id=school.id)
        db.add(t)
        db.flush()
        return t


@pytest.fixture
def curator(db: Session, as_teacher) -> Teacher:  # noqa: ANN001
    t = person(db, role="curator", name="Carla Kurator")
    as_teacher(t)
    return t


def task(tag: str, **overrides: Any) -> dict[str, Any]:
    content = {"themenfeld": "Elektrizitätslehre", "klassenstufe": 8, "operator": "Beschreiben", "afb": "I",
               "punkte": 3, "aufgabe": f"Beschreibe, wie man im Stromkreis {tag} die Stromstärke misst.",
               "erwartung": [{"kriterium": "Amperemeter in Reihe", "punkte": 2},
                             {"kriterium": "Einheit Ampere", "punkte": 1}],
               "kontext": "Erprobt in Klasse 8.", "material": None}
    content.update(overrides)
    return content


def entry(db: Session, tag: str, *, owner: Teacher | None = None, shared: bool = False, fach: str = "physik",
          agent_type: str = "klausur", quality: float = 0.5, rating_count: int = 0, times_used: int = 0,
          **content: Any) -> AgentKnowledge:
    """A good practice written as system (global, or a teacher's own row), embedded like the seeds."""
    from core.knowledge.embeddings import embed_documents
    from core.knowledge.entries import knowledge_text

    body = task(tag, **content)
    text = knowledge_text(content=body, thema=f"Thema {tag}", description=f"Beschreibung {tag}")
    with as_system(db):
        row = AgentKnowledge(
            agent_type=agent_type, scope_type="teacher" if owner else "global", scope_id=owner.id if owner else None,
            owner_id=owner.id if owner else None, fach=fach, thema=f"Thema {tag}", knowledge_type="good_practice",
            content=body, description=f"Beschreibung {tag}", quality_score=quality, rating_count=rating_count,
            times_used=times_used, source="generated" if owner else "curator", shared_for_curation=shared,
            search_text=text, embedding=embed_documents([text])[0], embedding_model="test")
        db.add(row)
        db.flush()
        return row


def edit_of(db: Session, row: AgentKnowledge, **changes: Any) -> EntryEdit:
    view = entry_view(db=db, knowledge_id=row.id)
    for key, value in changes.items():
        setattr(view.edit, key, value)
    return view.edit


def listed(db: Session, tag: str, view: str = "queue") -> list[uuid.UUID]:
    page, _ = list_entries(db=db, filters=QueueFilter(fach="physik", view=view, text=tag))
    return [e.id for e in page.entries]


# --- validation (no database) ------------------------------------------------------------------------------------


def valid_edit(**changes: Any) -> EntryEdit:
    t = task("x")
    edit = EntryEdit(thema="Strom messen", description="kurz", kontext=t["kontext"], aufgabe=t["aufgabe"],
                         operator=t["operator"], afb=t["afb"], punkte=t["punkte"], erwartung=t["erwartung"],
                         material="", themenfeld=t["themenfeld"], klassenstufe=8)
    for key, value in changes.items():
        setattr(edit, key, value)
    return edit


def test_a_consistent_edit_passes_and_the_operator_takes_the_lists_spelling() -> None:
    clean, faults = validate_edit(valid_edit(operator="beschreiben", punkte=3.0,
                                                 erwartung=[{"kriterium": " Amperemeter ", "punkte": 2.0},
                                                            {"kriterium": "Ampere", "punkte": 1},
                                                            {"kriterium": None, "punkte": float("nan")}]),
                                      fach="physik", operators=OPERATORS)
    assert faults == []
    assert clean.operator == "Beschreiben" and clean.punkte == 3
    assert clean.erwartung == [{"kriterium": "Amperemeter", "punkte": 2}, {"kriterium": "Ampere", "punkte": 1}]


@pytest.mark.parametrize(("changes", "fault"), [
    ({"erwartung": [{"kriterium": "A", "punkte": 1}, {"kriterium": "B", "punkte": 1}]},
     "Die Kriterien des Erwartungshorizonts ergeben 2 Punkte, die Aufgabe hat 3."),
    ({"operator": "Zaubern"}, "Der Operator „Zaubern“ steht nicht in der Operatorenliste für Physik. Bitte einen "
                              "dieser Operatoren wählen: Beschreiben, Beurteilen, Erklären, Nennen."),
    ({"operator": "Nennen", "afb": "III"}, "Der Operator „Nennen“ gehört üblicherweise zu AFB I und passt nicht zu "
                                           "AFB III. Bitte einen Operator für AFB III wählen (z. B. Beurteilen)"),
    ({"aufgabe": "  "}, "Der Aufgabentext ist leer – bitte die Aufgabenstellung eintragen."),
    ({"aufgabe": "x" * 10_000}, "Der Aufgabentext ist zu lang (10.000 Zeichen, höchstens 3.000). Bitte kürzen."),
    ({"punkte": 0}, "Die Punktzahl muss eine ganze Zahl von 1 bis 30 sein (eingetragen: 0)."),
    ({"punkte": 2.5}, "Die Punktzahl muss eine ganze Zahl von 1 bis 30 sein (eingetragen: 2.5)."),
    ({"erwartung": [{"kriterium": "A", "punkte": 3}, {"kriterium": "B", "punkte": 0}]},
     "Kriterium 2: Die Punkte müssen eine ganze Zahl ab 1 sein (eingetragen: 0)."),
    ({"erwartung": [{"kriterium": "", "punkte": 3}]}, "Kriterium 1: Der Text fehlt"),
    ({"erwartung": []}, "Der Erwartungshorizont braucht mindestens ein Kriterium mit Punkten."),
    ({"afb": None}, "Bitte einen Anforderungsbereich wählen: AFB I, II oder III."),
    ({"thema": ""}, "Das Thema ist leer – bitte ein Thema eintragen."),
    ({"klassenstufe": 3}, "Die Klassenstufe muss zwischen 5 und 13 liegen."),
    ({"kontext": "k" * 1001}, "Der Kontext ist zu lang (1.001 Zeichen, höchstens 1.000). Bitte kürzen."),
])
def test_each_fault_gets_a_german_message_saying_what_to_fix(changes: dict[str, Any], fault: str) -> None:
    _, faults = validate_edit(valid_edit(**changes), fach="physik", operators=OPERATORS)
    assert any(f.startswith(fault) for f in faults), faults


def test_anonymise_removes_mail_name_title_school_and_class() -> None:
    personal = PersonalData(names=("Heike Brunnerova",), emails=("h.b@schule.de",), classes=(("10a", 10),),
                                school="Goethe-Gymnasium Leipzig")
    text, n = anonymise("Frau Brunnerova (h.b@schule.de, sonst x@y.org) hat es in der Klasse 10a am "
                            "Goethe-Gymnasium Leipzig mit Herrn Dr. Maier erprobt; Heike Brunnerova empfiehlt es. "
                            "In 10a lief es gut.", personal)
    assert text == ("[Lehrkraft] ([E-Mail entfernt], sonst [E-Mail entfernt]) hat es in der Klassenstufe 10 am "
                    "[Schule] mit [Lehrkraft] erprobt; [Lehrkraft] empfiehlt es. In Klassenstufe 10 lief es gut.")
    assert n == 8


# --- queue -------------------------------------------------------------------------------------------------------


def test_queue_holds_new_and_shared_entries_not_private_rated_or_reviewed(db: Session, curator: Teacher) -> None:
    tag = unique("q")
    teacher = person(db, role="teacher", name="Tom Lehrer")
    new = entry(db, tag)
    rated = entry(db, tag, rating_count=2)
    shared = entry(db, tag, owner=teacher, shared=True, rating_count=1)
    private = entry(db, tag, owner=teacher)
    reviewed = entry(db, tag)
    mark_reviewed(db=db, curator=curator, knowledge_id=reviewed.id)
    queue = listed(db, tag)
    assert set(queue) == {new.id, shared.id}
    assert set(listed(db, tag, "active")) == {new.id, rated.id, shared.id, reviewed.id}
    assert private.id not in listed(db, tag, "active")
    with pytest.raises(NotFoundError):
        entry_view(db=db, knowledge_id=private.id)  # RLS and the pool filter: not shared, not visible
    rate(db=db, curator=curator, knowledge_id=new.id, stars=5)
    assert listed(db, tag) == [shared.id]


def test_queue_pages_in_sql_twenty_per_page(db: Session, curator: Teacher) -> None:
    tag = unique("p")
    for _ in range(25):
        entry(db, tag)
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # noqa: ANN001
        statements.append(statement)

    filters = QueueFilter(fach="physik", view="queue", text=tag)
    event.listen(db.connection().engine, "before_cursor_execute", count)
    try:
        first, _ = list_entries(db=db, filters=filters, page=1)
    finally:
        event.remove(db.connection().engine, "before_cursor_execute", count)
    assert (first.total, first.pages, len(first.entries)) == (25, 2, 20)
    assert len(statements) == 2 and "count(" in statements[0] and "LIMIT" in statements[1]
    last, _ = list_entries(db=db, filters=filters, page=9)  # beyond the end: the last page
    assert (last.page, len(last.entries)) == (2, 5)
    assert not set(e.id for e in first.entries) & set(e.id for e in last.entries)


def test_unknown_filters_are_refused_in_german(db: Session, curator: Teacher) -> None:
    with pytest.raises(UserError, match="Unbekanntes Fach"):
        list_entries(db=db, filters=QueueFilter(fach="alchemie"))
    with pytest.raises(UserError, match="Unbekannter Typ „quiz“"):
        list_entries(db=db, filters=QueueFilter(fach="physik", agent_type="quiz"))


# --- rating and editing ------------------------------------------------------------------------------------------


def test_ratings_are_a_running_mean_that_replaces_the_prior(db: Session, curator: Teacher) -> None:
    row = entry(db, unique("r"), quality=0.8)
    assert "0,75 aus 1 Bewertung" in rate(db=db, curator=curator, knowledge_id=row.id, stars=4)
    rate(db=db, curator=curator, knowledge_id=row.id, stars=2)
    db.flush()
    assert (row.quality_score, row.rating_count, row.revision) == (0.5, 2, 1)  # ratings do not bump the revision
    (first, second) = [c for c in repo.changes_of(db=db, knowledge_id=row.id)][::-1]
    assert first.before == {"quality_score": 0.8, "rating_count": 0} and first.after["stars"] == 4
    assert second.after == {"quality_score": 0.5, "rating_count": 2, "stars": 2}
    with pytest.raises(UserError, match="1 bis 5 Sterne"):
        rate(db=db, curator=curator, knowledge_id=row.id, stars=6)


def test_save_stores_reembeds_bumps_revision_and_records_only_changed_fields(db: Session, curator: Teacher) -> None:
    tag = unique("s")
    row = entry(db, tag)
    old_vector = list(row.embedding)
    new_text = f"Erkläre mit eigenen Worten, warum im Stromkreis {tag} das Amperemeter in Reihe liegt."
    saved = save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1,
                     edit=edit_of(db, row, aufgabe=new_text, operator="Erklären", afb="II"))
    assert saved.changed and saved.revision == 2 and "Aufgabe, Operator, AFB" in saved.message
    fresh = repo.get_entry(db=db, knowledge_id=row.id)
    assert fresh.content["aufgabe"] == new_text and fresh.content["operator"] == "Erklären"
    assert "eigenen Worten" in fresh.search_text and list(fresh.embedding) != old_vector
    change = repo.last_change(db=db, knowledge_id=row.id)
    assert change.action == "curate.edit" and change.actor_id == curator.id
    assert change.before == {"aufgabe": task(tag)["aufgabe"], "operator": "Beschreiben", "afb": "I"}
    assert change.after == {"aufgabe": new_text, "operator": "Erklären", "afb": "II"}
    again = save(db=db, curator=curator, knowledge_id=row.id, expected_revision=2, edit=edit_of(db, row))
    assert not again.changed and again.revision == 2


def test_invalid_save_changes_nothing(db: Session, curator: Teacher) -> None:
    row = entry(db, unique("i"))
    with pytest.raises(UserError, match="Nicht gespeichert – bitte korrigieren:\n- Die Kriterien"):
        save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1,
                 edit=edit_of(db, row, punkte=4))
    fresh = repo.get_entry(db=db, knowledge_id=row.id)
    assert fresh.revision == 1 and fresh.content["punkte"] == 3 and repo.changes_of(db=db, knowledge_id=row.id) == []


def test_stale_revision_is_refused_naming_the_colleague_and_listing_my_values(db: Session, curator: Teacher,
                                                                              as_teacher) -> None:  # noqa: ANN001
    tag = unique("c")
    row = entry(db, tag)
    mine = edit_of(db, row, aufgabe=f"Meine Fassung {tag}: beschreibe die Messung.")
    colleague = person(db, role="curator", name="Dora Kollegin")
    as_teacher(colleague)
    save(db=db, curator=colleague, knowledge_id=row.id, expected_revision=1,
             edit=edit_of(db, row, aufgabe=f"Doras Fassung {tag}: beschreibe die Messung."))
    as_teacher(curator)
    with pytest.raises(ConflictError) as err:
        save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1, edit=mine)
    assert err.value.message == (f"Dieser Eintrag wurde inzwischen von Dora Kollegin geändert. Bitte neu laden — "
                                 f"Ihre Änderungen: Aufgabe: „Meine Fassung {tag}: beschreibe die Messung.“")
    assert repo.get_entry(db=db, knowledge_id=row.id).content["aufgabe"].startswith("Doras Fassung")
    # the write itself is guarded too: an UPDATE with a stale revision touches nothing
    assert repo.update_if_revision(db=db, knowledge_id=row.id, expected_revision=1, values={"thema": "x"}) is None


def test_a_quiz_entry_edits_only_thema_description_and_kontext(db: Session, curator: Teacher) -> None:
    tag = unique("h")
    with as_system(db):
        row = AgentKnowledge(agent_type="h5p", scope_type="global", fach="physik", thema=f"Quiz {tag}",
                             knowledge_type="good_practice", source="system", description="Frage",
                             content={"typ": "truefalse", "frage": "Strom fließt im Kreis.", "wahr": True})
        db.add(row)
        db.flush()
    view = entry_view(db=db, knowledge_id=row.id)
    assert not view.edit.is_task and view.edit.thema == f"Quiz {tag}"
    saved = save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1,
                     edit=EntryEdit(thema=f"Quiz {tag} neu", description="Frage", kontext="Kurztest"))
    fresh = repo.get_entry(db=db, knowledge_id=row.id)
    assert saved.revision == 2 and fresh.thema == f"Quiz {tag} neu"
    assert fresh.content == {"typ": "truefalse", "frage": "Strom fließt im Kreis.", "wahr": True, "kontext": "Kurztest"}
    assert fresh.embedding is not None and "Kurztest" in fresh.search_text


def test_a_retired_entry_is_not_edited(db: Session, curator: Teacher) -> None:
    row = entry(db, unique("x"))
    set_retired(db=db, curator=curator, knowledge_id=row.id, retired=True, reason="veraltet")
    with pytest.raises(UserError, match="ausgemustert. Bitte zuerst wieder aktivieren"):
        save(db=db, curator=curator, knowledge_id=row.id, expected_revision=2, edit=edit_of(db, row, thema="Neu"))


def test_a_teachers_shared_task_stays_hers(db: Session, curator: Teacher) -> None:
    teacher = person(db, role="teacher", name="Tom Lehrer")
    row = entry(db, unique("o"), owner=teacher, shared=True)
    with pytest.raises(UserError, match="bleibt ihre eigene"):
        save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1, edit=edit_of(db, row))
    with pytest.raises(UserError, match="bleibt ihre eigene"):
        set_retired(db=db, curator=curator, knowledge_id=row.id, retired=True, reason="veraltet")
    assert "Eigentum der Lehrkraft" in entry_view(db=db, knowledge_id=row.id).hint


# --- promote, retire, merge, duplicates, histogram ---------------------------------------------------------------


def test_promote_makes_an_anonymised_global_copy(db: Session, curator: Teacher) -> None:
    teacher = person(db, role="teacher", name="Heike Brunnerova")
    with as_system(db):
        cl = SchoolClass(school_id=teacher.school_id, name="9c", klassenstufe=9, schuljahr="2026/27")
        db.add(cl)
        db.flush()
        db.add(TeacherClass(teacher_id=teacher.id, class_id=cl.id, fach="physik"))
        db.flush()
    kontext = f"Frau Brunnerova ({teacher.email}) hat das in der 9c erprobt."
    row = entry(db, unique("m"), owner=teacher, shared=True, kontext=kontext, material_id=str(uuid.uuid4()),
                quality=1.0, rating_count=1)  # the teacher's own five stars
    promoted = promote(db=db, curator=curator, knowledge_id=row.id)
    copy = repo.get_entry(db=db, knowledge_id=promoted.new_id)
    assert copy.content["kontext"] == "[Lehrkraft] ([E-Mail entfernt]) hat das in der Klassenstufe 9 erprobt."
    assert "material_id" not in copy.content
    assert (copy.scope_type, copy.owner_id, copy.source, copy.revision) == ("global", None, "curator", 1)
    assert (copy.quality_score, copy.rating_count) == (0.5, 0)  # starts unrated, not with her 5★ as quality 1.0
    assert repo.get_entry(db=db, knowledge_id=row.id).content["kontext"] == kontext
    assert entry_view(db=db, knowledge_id=row.id).promoted_to == copy.id
    assert repo.last_change(db=db, knowledge_id=copy.id).after == {"promoted_from": str(row.id),
                                                                    "anonymised_passages": 3}
    with pytest.raises(UserError, match="bereits befördert"):
        promote(db=db, curator=curator, knowledge_id=row.id)
    assert row.id not in listed(db, row.thema.split()[-1])  # promoted counts as reviewed


def test_retire_and_restore_are_recorded(db: Session, curator: Teacher) -> None:
    tag = unique("t")
    row = entry(db, tag)
    message = set_retired(db=db, curator=curator, knowledge_id=row.id, retired=True, reason="veraltet")
    assert "Ausgemustert" in message
    assert listed(db, tag, "retired") == [row.id] and listed(db, tag, "active") == []
    again = set_retired(db=db, curator=curator, knowledge_id=row.id, retired=True, reason="veraltet")
    assert "bereits ausgemustert" in again
    set_retired(db=db, curator=curator, knowledge_id=row.id, retired=False)
    actions = [c.action for c in repo.changes_of(db=db, knowledge_id=row.id)]
    assert actions == ["curate.restore", "curate.retire"] and repo.get_entry(db=db, knowledge_id=row.id).revision == 3


def test_near_duplicates_pair_only_within_fach_and_agent(db: Session, curator: Teacher) -> None:
    tag = unique("d")
    a = entry(db, tag)
    # A lightly edited copy: cosine similarity 0.958–0.972 over 6 000 random tags. „…, leicht gekürzt.“ measured
    # 0.917–0.95: the random tag's n-grams collide with the edit's words about once in 6 000 runs (a CI failure).
    b = entry(db, tag, kontext="Erprobt in Klasse 8, gekürzt.")
    other_fach = entry(db, tag, fach="chemie")
    other_agent = entry(db, tag, agent_type="h5p")
    unrelated = entry(db, unique("d"), aufgabe="Nenne drei Beispiele für Wärmeleitung im Alltag.")
    pairs = duplicates(db=db, filters=QueueFilter(fach="physik", text=tag)).pairs
    assert [{p.a.id, p.b.id} for p in pairs] == [{a.id, b.id}]
    assert pairs[0].similarity >= DUPLICATE_SIMILARITY and pairs[0].mergeable
    assert {other_fach.id, other_agent.id, unrelated.id}.isdisjoint({pairs[0].a.id, pairs[0].b.id})


def test_merge_weights_quality_by_ratings_and_retires_the_other(db: Session, curator: Teacher) -> None:
    keep = entry(db, unique("k"), quality=0.9, rating_count=3, times_used=5)
    drop = entry(db, unique("k"), quality=0.3, rating_count=1, times_used=2)
    message = merge(db=db, curator=curator, keep_id=keep.id, drop_id=drop.id)
    assert "Zusammengeführt" in message
    db.flush()
    assert (keep.quality_score, keep.rating_count, keep.times_used) == (0.75, 4, 7)
    assert drop.status == "retired" and drop.content["zusammengefuehrt_in"] == str(keep.id)
    assert repo.last_change(db=db, knowledge_id=keep.id).after["merged_from"] == str(drop.id)
    with pytest.raises(UserError, match="ausgemustert"):
        merge(db=db, curator=curator, keep_id=keep.id, drop_id=drop.id)


def test_merge_never_retires_a_teachers_task(db: Session, curator: Teacher) -> None:
    teacher = person(db, role="teacher", name="Tom Lehrer")
    keep = entry(db, unique("k"))
    drop = entry(db, unique("k"), owner=teacher, shared=True)
    with pytest.raises(UserError, match="bleibt ihre eigene"):
        merge(db=db, curator=curator, keep_id=keep.id, drop_id=drop.id)
    assert repo.get_entry(db=db, knowledge_id=drop.id).status == "active"


def test_histogram_bins_of_a_tenth_with_one_in_the_last_bin(db: Session, curator: Teacher) -> None:
    fach = unique("fach")[:20]
    for quality in (0.0, 0.05, 0.55, 1.0, 1.0):
        entry(db, unique("h"), fach=fach, quality=quality)
    bars = [b for b in histogram(db=db) if b.fach == fach_name(fach)]
    assert [b.anzahl for b in bars] == [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert bars[0].bereich == "0,0–0,1" and bars[-1].bereich == "0,9–1,0"


def test_the_page_functions_are_for_curators_only(database) -> None:  # noqa: ANN001
    from tests.pages.conftest import fresh_person

    teacher = fresh_person()
    with pytest.raises(UserError, match="nur Kuratorinnen und Kuratoren"):
        queue_page(curator_id=teacher, filters=QueueFilter(fach="physik"))


def test_curation_changes_are_visible_to_curators_only(db: Session, curator: Teacher, as_teacher) -> None:  # noqa: ANN001
    row = entry(db, unique("v"))
    rate(db=db, curator=curator, knowledge_id=row.id, stars=3)
    teacher = person(db, role="teacher", name="Tom Lehrer")
    as_teacher(teacher)
    assert db.scalars(sa.select(KnowledgeChange).where(KnowledgeChange.knowledge_id == row.id)).all() == []
