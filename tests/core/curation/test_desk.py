"""The curation desk on a large pool: priority order, duplicates across the whole Fach with the fields side by side,
three-way merge of concurrent edits, history as field diff with restore, retirement with a reason, histogram per
Fach. Rolled-back transactions acting as a curator (RLS on), on the seeded bank."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from core.app.errors import ConflictError, UserError
from core.curation.duplicates import DUPLICATE_SIMILARITY, duplicates, similar_pairs
from core.curation.editing import save
from core.curation.histogram import histogram
from core.curation.history import restore_version
from core.curation.queue import entry_view, list_entries
from core.curation.review import mark_reviewed, set_retired
from core.curation.views import QueueFilter
from db.models import AgentKnowledge, Teacher
from db.repos import curation as repo
from tests.conftest import unique
from tests.core.curation.test_curation import curator, edit_of, entry, person  # noqa: F401  (fixture)


def test_priority_puts_shared_then_unreviewed_then_most_used_then_low_rated_first(db: Session,
                                                                                    curator: Teacher) -> None:  # noqa: F811
    tag = unique("p")
    teacher = person(db, role="teacher", name="Tom Lehrer")
    reviewed_often_used = entry(db, tag, times_used=50)
    mark_reviewed(db=db, curator=curator, knowledge_id=reviewed_often_used.id)
    good = entry(db, tag, quality=0.9, rating_count=4, times_used=3)
    poor = entry(db, tag, quality=0.1, rating_count=4, times_used=3)
    busy = entry(db, tag, times_used=9)
    shared = entry(db, tag, owner=teacher, shared=True)
    page, _ = list_entries(db=db, filters=QueueFilter(fach="physik", view="active", text=tag, order="priority"))
    assert [e.id for e in page.entries] == [shared.id, busy.id, poor.id, good.id, reviewed_often_used.id]
    newest, _ = list_entries(db=db, filters=QueueFilter(fach="physik", view="active", text=tag, order="newest"))
    assert {e.id for e in newest.entries} == {shared.id, busy.id, poor.id, good.id, reviewed_often_used.id}
    with pytest.raises(UserError, match="Unbekannte Sortierung"):
        list_entries(db=db, filters=QueueFilter(fach="physik", order="zufall"))


def test_duplicates_are_found_across_the_whole_fach_with_fields_side_by_side(db: Session,
                                                                             curator: Teacher) -> None:  # noqa: F811
    tag = unique("d")
    a = entry(db, tag)
    # the twin does not carry the tag, so a text search or a list page holding `a` does not list it. Similarity
    # 0.958–0.972 over 6 000 tags; with „…, leicht gekürzt.“ it was 0.915–0.95 (below 0.92 for one tag in 3 000).
    twin = entry(db, "x" + tag[1:], kontext="Erprobt in Klasse 8, gekürzt.", punkte=3)
    result = duplicates(db=db, filters=QueueFilter(fach="physik", text=tag))
    (pair,) = [p for p in result.pairs if {p.a.id, p.b.id} == {a.id, twin.id}]
    assert pair.similarity >= DUPLICATE_SIMILARITY and pair.mergeable
    fields = {f: (left, right) for f, left, right in pair.compare}
    assert fields["Operator"] == ("Beschreiben", "Beschreiben") and fields["Punkte"] == ("3", "3")
    assert fields["Erwartungshorizont"][0] == "Amperemeter in Reihe (2 P.); Einheit Ampere (1 P.)"
    assert sorted(fields["Kontext"]) == ["Erprobt in Klasse 8, gekürzt.", "Erprobt in Klasse 8."]
    assert result.caption.startswith(f"{result.total} Paar") and "im ganzen Fach" in result.caption


def test_the_whole_seeded_fach_is_searched_not_one_page(db: Session, curator: Teacher) -> None:  # noqa: F811
    vectors = repo.pool_vectors(db=db, fach="physik", agent_types=["klausur", "h5p", "differenzierung"])
    assert len(vectors) > 200  # the seeded bank: far more than one page of 20
    page = duplicates(db=db, filters=QueueFilter(fach="physik", view="active"))
    assert page.total == len(similar_pairs(vectors, DUPLICATE_SIMILARITY))
    assert all(p.a.typ == p.b.typ for p in page.pairs) and len(page.pairs) <= 10


def test_a_stale_save_of_other_fields_is_merged(db: Session, curator: Teacher, as_teacher) -> None:  # noqa: ANN001,F811
    tag = unique("m")
    row = entry(db, tag)
    base = edit_of(db, row)
    colleague = person(db, role="curator", name="Dora Kollegin")
    as_teacher(colleague)
    save(db=db, curator=colleague, knowledge_id=row.id, expected_revision=1, edit=edit_of(db, row, thema="Doras Thema"))
    as_teacher(curator)
    mine = edit_of(db, row, kontext="Meine Notiz zur Erprobung.")
    mine.thema = base.thema  # my form still shows the old Thema: not my change
    saved = save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1, edit=mine, base=base)
    assert "Zusammengeführt mit der Änderung von Dora Kollegin (Version 2)" in saved.message
    fresh = repo.get_entry(db=db, knowledge_id=row.id)
    assert (fresh.thema, fresh.content["kontext"], fresh.revision) == ("Doras Thema", "Meine Notiz zur Erprobung.", 3)
    assert repo.last_change(db=db, knowledge_id=row.id).before == {"kontext": "Erprobt in Klasse 8."}


def test_a_clash_lists_only_the_fields_both_changed(db: Session, curator: Teacher, as_teacher) -> None:  # noqa: ANN001,F811
    tag = unique("m")
    row = entry(db, tag)
    base = edit_of(db, row)
    colleague = person(db, role="curator", name="Dora Kollegin")
    as_teacher(colleague)
    save(db=db, curator=colleague, knowledge_id=row.id, expected_revision=1,
         edit=edit_of(db, row, thema="Doras Thema", kontext="Doras Kontext"))
    as_teacher(curator)
    mine = edit_of(db, row, thema=base.thema, kontext="Mein Kontext", aufgabe=base.aufgabe + " Begründe.")
    with pytest.raises(ConflictError) as err:
        save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1, edit=mine, base=base)
    assert "von Dora Kollegin geändert (Version 2)" in err.value.message
    assert "Kontext: jetzt „Doras Kontext“, Ihre Fassung „Mein Kontext“" in err.value.message
    assert "Thema" not in err.value.message and "Aufgabe:" not in err.value.message


def test_history_is_a_field_diff_and_an_old_version_can_be_restored(db: Session, curator: Teacher) -> None:  # noqa: F811
    tag = unique("r")
    row = entry(db, tag)
    original = row.content["aufgabe"]
    save(db=db, curator=curator, knowledge_id=row.id, expected_revision=1,
         edit=edit_of(db, row, aufgabe=f"Erste Überarbeitung {tag}: beschreibe die Messung."))
    save(db=db, curator=curator, knowledge_id=row.id, expected_revision=2,
         edit=edit_of(db, row, thema="Neues Thema", aufgabe=f"Zweite Überarbeitung {tag}: beschreibe sie."))
    view = entry_view(db=db, knowledge_id=row.id)
    newest, first = view.history[0], view.history[-1]
    second = f"Zweite Überarbeitung {tag}: beschreibe sie."
    assert [(f.feld, f.nachher) for f in newest.felder] == [("Thema", "Neues Thema"), ("Aufgabe", second)]
    assert first.felder[0].vorher == original and first.restorable  # full text, no JSON, nothing cut off
    saved = restore_version(db=db, curator=curator, knowledge_id=row.id, change_id=first.id, expected_revision=3)
    assert saved.message.startswith("Ältere Fassung wiederhergestellt (Version 4)")
    fresh = repo.get_entry(db=db, knowledge_id=row.id)
    assert (fresh.content["aufgabe"], fresh.thema) == (original, f"Thema {tag}")
    assert repo.last_change(db=db, knowledge_id=row.id).action == "curate.restore_version"
    with pytest.raises(ConflictError):  # an old page cannot restore over a newer version unseen
        restore_version(db=db, curator=curator, knowledge_id=row.id, change_id=first.id, expected_revision=3)


def test_retiring_needs_a_reason_that_the_entry_then_shows(db: Session, curator: Teacher) -> None:  # noqa: F811
    row = entry(db, unique("x"))
    with pytest.raises(UserError, match="Bitte einen Grund für das Ausmustern angeben"):
        set_retired(db=db, curator=curator, knowledge_id=row.id, retired=True, reason="  ")
    assert repo.get_entry(db=db, knowledge_id=row.id).status == "active"
    message = set_retired(db=db, curator=curator, knowledge_id=row.id, retired=True, reason="fachlich falsch")
    assert message.startswith("Ausgemustert („fachlich falsch“)")
    view = entry_view(db=db, knowledge_id=row.id)
    assert view.retired_reason == "fachlich falsch" and "Grund: fachlich falsch." in view.hint
    assert ("Grund", "", "fachlich falsch") in [(f.feld, f.vorher, f.nachher) for f in view.history[0].felder]


def test_histogram_of_one_fach(db: Session, curator: Teacher) -> None:  # noqa: F811
    bars = histogram(db=db, fach="chemie")
    assert {b.fach for b in bars} == {"Chemie"} and len(bars) == 10 and sum(b.anzahl for b in bars) > 0


def test_an_operator_list_is_validated_before_it_is_saved(db: Session, curator: Teacher) -> None:  # noqa: F811
    from core.curation.subjects import operator_list, save_operators, validate_operators

    ops = operator_list(db=db, fach="physik")
    _, faults = validate_operators([*ops.rows, {"operator": "nennen", "afb": "IV"}, {"operator": "", "afb": "I"}])
    assert f"Zeile {len(ops.rows) + 1}: „nennen“ steht doppelt in der Liste." in faults
    assert any("als I, II oder III angeben (eingetragen: „IV“)" in f for f in faults)
    assert f"Zeile {len(ops.rows) + 2}: Der Operator fehlt." in faults
    only_one = [r for r in ops.rows if r["afb"] == "I"]
    with pytest.raises(UserError, match="Für AFB II, III steht kein Operator"):
        save_operators(db=db, curator=curator, fach="physik", rows=only_one, expected_revision=ops.revision)
    assert operator_list(db=db, fach="physik").rows == ops.rows  # nothing written
    with pytest.raises(ConflictError):
        save_operators(db=db, curator=curator, fach="physik", rows=ops.rows, expected_revision=ops.revision - 1)


def _quiz(db: Session, content: dict, agent_type: str = "h5p") -> AgentKnowledge:
    from core.curation.rows import system_reads

    with system_reads(db):
        row = AgentKnowledge(agent_type=agent_type, scope_type="global", fach="physik", thema=unique("q"),
                             knowledge_type="good_practice", source="system", description="Quiz", content=content)
        db.add(row)
        db.flush()
    return row


def test_a_quiz_question_is_edited_with_its_answers_and_checked(db: Session, curator: Teacher) -> None:  # noqa: F811
    from core.curation.content_edit import save_content

    row = _quiz(db, {"typ": "multichoice", "frage": "Wann leuchtet die Lampe?", "erklaerung": "",
                     "antworten": [{"text": "Kreis geschlossen", "korrekt": True, "feedback": ""},
                                   {"text": "Schalter offen", "korrekt": False, "feedback": ""}]})
    bad = {"frage": "Wann leuchtet die Lampe?", "antworten": [{"text": "A", "korrekt": False},
                                                               {"text": "a", "korrekt": False}]}
    with pytest.raises(UserError) as err:
        save_content(db=db, curator=curator, knowledge_id=row.id, expected_revision=1, content=bad)
    assert "Mindestens eine Antwort muss als richtig markiert sein." in err.value.message
    assert "Zwei Antworten sind gleich" in err.value.message
    good = {"frage": "Wann leuchtet eine Glühlampe?", "erklaerung": "Nur im geschlossenen Kreis.",
            "antworten": [{"text": "Kreis geschlossen", "korrekt": True, "feedback": "Richtig."},
                          {"text": "Schalter offen", "korrekt": False, "feedback": "Unterbrochen."},
                          {"text": "Kabel aus Kunststoff", "korrekt": False, "feedback": None}]}
    saved = save_content(db=db, curator=curator, knowledge_id=row.id, expected_revision=1, content=good)
    assert saved.message == "Gespeichert (Version 2): Frage, Erklärung, Antworten."
    fresh = repo.get_entry(db=db, knowledge_id=row.id)
    assert fresh.content["typ"] == "multichoice" and len(fresh.content["antworten"]) == 3
    assert fresh.embedding is not None and "Glühlampe" in fresh.search_text
    assert repo.last_change(db=db, knowledge_id=row.id).before["frage"] == "Wann leuchtet die Lampe?"


def test_a_gap_text_needs_a_gap_and_a_three_level_task_a_solution_per_task(db: Session,
                                                                           curator: Teacher) -> None:  # noqa: F811
    from core.curation.content_edit import save_content

    gaps = _quiz(db, {"typ": "blanks", "frage": "Die Dichte ist *Masse* durch Volumen.", "erklaerung": ""})
    with pytest.raises(UserError, match=r"mindestens eine Lücke"):
        save_content(db=db, curator=curator, knowledge_id=gaps.id, expected_revision=1,
                     content={"frage": "Die Dichte ist Masse durch Volumen."})
    levels = {lvl: {"aufgaben": ["Berechne die Dichte."], "hilfekarten": ["ρ = m/V"], "loesungen": ["0,5 g/cm³"]}
              for lvl in ("grundlegend", "mittel", "erweitert")}
    task = _quiz(db, {"lernziel": "Dichte berechnen", "material": None, **levels}, agent_type="differenzierung")
    changed = {**levels, "mittel": {"aufgaben": ["Berechne die Dichte.", "Vergleiche mit Wasser."],
                                    "hilfekarten": [], "loesungen": ["0,5 g/cm³"]}}
    with pytest.raises(UserError, match="Niveau mittel: 2 Aufgaben, aber 1 Lösung –"):
        save_content(db=db, curator=curator, knowledge_id=task.id, expected_revision=1,
                     content={"lernziel": "Dichte berechnen", **changed})
    changed["mittel"]["loesungen"].append("Holz schwimmt: 0,5 < 1 g/cm³.")
    saved = save_content(db=db, curator=curator, knowledge_id=task.id, expected_revision=1,
                         content={"lernziel": "Dichte berechnen", **changed})
    assert saved.message == "Gespeichert (Version 2): Niveau mittel."
    assert repo.get_entry(db=db, knowledge_id=task.id).content["mittel"]["aufgaben"][1] == "Vergleiche mit Wasser."


def test_usage_view_lists_what_reached_materials_most_with_its_rating(db: Session, curator: Teacher) -> None:  # noqa: F811
    tag = unique("u")
    rare, often = entry(db, tag, times_used=1), entry(db, tag, times_used=12, quality=0.25, rating_count=3)
    page, _ = list_entries(db=db, filters=QueueFilter(fach="physik", view="active", text=tag, order="used"))
    assert [e.id for e in page.entries] == [often.id, rare.id]
    assert (page.entries[0].genutzt, page.entries[0].qualitaet, page.entries[0].bewertungen) == (12, 0.25, 3)


def test_a_quiz_edit_is_restored_from_the_history(db: Session, curator: Teacher) -> None:  # noqa: F811
    from core.curation.content_edit import save_content

    row = _quiz(db, {"typ": "truefalse", "frage": "Strom fließt nur im geschlossenen Kreis.", "wahr": True,
                     "erklaerung": ""})
    save_content(db=db, curator=curator, knowledge_id=row.id, expected_revision=1,
                 content={"frage": "Strom fließt auch im offenen Kreis.", "wahr": False, "erklaerung": "Nein."})
    change = entry_view(db=db, knowledge_id=row.id).history[0]
    assert change.restorable and {f.feld for f in change.felder} == {"Frage", "Richtig/Falsch", "Erklärung"}
    saved = restore_version(db=db, curator=curator, knowledge_id=row.id, change_id=change.id, expected_revision=2)
    assert saved.message == "Ältere Fassung wiederhergestellt (Version 3): Frage, Erklärung, Richtig/Falsch."
    content = repo.get_entry(db=db, knowledge_id=row.id).content
    assert (content["frage"], content["wahr"], content["erklaerung"]) == (
        "Strom fließt nur im geschlossenen Kreis.", True, "")
