"""Good Practices (curator): queue, rating, validated edits with an audit trail, concurrent edits, promotion,
retirement, near-duplicates with merge, histogram. Real database; every test creates its own entries with a unique
tag and filters the list by it, so other data in the shared database does not interfere."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from streamlit import dataframe_util
from streamlit.testing.v1 import AppTest

from core.curation.service import share_for_curation
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.knowledge.retrieval import search
from db.models import AgentKnowledge, KnowledgeChange, Teacher
from db.session import Identity, unit_of_work
from tests.pages.conftest import app_as, fresh_person

PAGE = "views/good_practices.py"


def _tag() -> str:
    return "gp" + uuid.uuid4().hex[:10]


def _content(tag: str, **overrides: Any) -> dict[str, Any]:
    content = {
        "themenfeld": "Elektrizitätslehre", "klassenstufe": 8, "operator": "Beschreiben", "afb": "I", "punkte": 3,
        "aufgabe": f"Beschreibe, wie man im Stromkreis {tag} die Stromstärke mit einem Amperemeter misst.",
        "erwartung": [{"kriterium": "Amperemeter in Reihe schalten", "punkte": 2},
                      {"kriterium": "Einheit Ampere angeben", "punkte": 1}],
        "kontext": "Erprobt in Klasse 8.", "material": None,
    }
    content.update(overrides)
    return content


def make_entry(tag: str, *, owner: uuid.UUID | None = None, shared: bool = False, quality: float = 0.5,
               rating_count: int = 0, times_used: int = 0, **overrides: Any) -> uuid.UUID:
    """A committed good practice: global (owner None) or a teacher's own row, embedded like the seeds do it."""
    content = _content(tag, **overrides)
    thema, description = f"Stromstärke messen {tag}", f"Messung im Stromkreis {tag}"
    text = knowledge_text(content=content, thema=thema, description=description)
    with unit_of_work(Identity.system()) as db:
        row = AgentKnowledge(
            agent_type="klausur", scope_type="teacher" if owner else "global", scope_id=owner, owner_id=owner,
            fach="physik", thema=thema, knowledge_type="good_practice", content=content, description=description,
            quality_score=quality, rating_count=rating_count, times_used=times_used,
            source="generated" if owner else "curator", shared_for_curation=shared, search_text=text,
            embedding=embed_documents([text])[0], embedding_model=embedding_model_name())
        db.add(row)
        db.flush()
        return row.id


def load(entry_id: uuid.UUID) -> AgentKnowledge:
    with unit_of_work(Identity.system()) as db:
        return db.get(AgentKnowledge, entry_id)


def changes(entry_id: uuid.UUID) -> list[KnowledgeChange]:
    with unit_of_work(Identity.system()) as db:
        return list(db.scalars(sa.select(KnowledgeChange).where(KnowledgeChange.knowledge_id == entry_id)
                               .order_by(KnowledgeChange.id)))


def open_entry(curator: uuid.UUID, tag: str, entry_id: uuid.UUID, *, view: str = "queue") -> AppTest:
    at = app_as(curator, PAGE)
    at.selectbox(key="gp_fach").set_value("physik")
    at.selectbox(key="gp_view").set_value(view)
    at.text_input(key="gp_text").set_value(tag).run()
    at.selectbox(key="gp_entry").set_value(str(entry_id)).run()
    assert not at.exception
    return at


def widget(at: AppTest, kind: str, label: str) -> Any:
    return next(w for w in getattr(at, kind) if w.label == label)


def save(at: AppTest) -> AppTest:
    return next(b for b in at.button if b.label == "Speichern").click().run()


def click(at: AppTest, label: str) -> AppTest:
    return next(b for b in at.button if b.label == label).click().run()


def edit_criteria(at: AppTest, edited_rows: dict[str, dict[str, Any]]) -> None:
    key = at.data_editor[0].key
    at.session_state[key] = {"edited_rows": edited_rows, "added_rows": [], "deleted_rows": []}


def errors(at: AppTest) -> str:
    return "\n".join(e.value for e in at.error)


# --- queue and rating --------------------------------------------------------------------------------------------


def test_queue_shows_a_task_a_teacher_shared(curator_id) -> None:  # noqa: ANN001
    tag, teacher = _tag(), fresh_person()
    entry = make_entry(tag, owner=teacher)
    share_for_curation(teacher_id=teacher, knowledge_id=entry)
    at = app_as(curator_id, PAGE)
    at.selectbox(key="gp_fach").set_value("physik")
    at.text_input(key="gp_text").set_value(tag).run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Thema"]) == [f"Stromstärke messen {tag}"]
    assert list(table["Herkunft"]) == ["geteilt von einer Lehrkraft"]
    assert any(c.value.startswith("1 Eintrag · Seite 1 von 1") for c in at.caption)


def test_queue_pages_twenty_entries_at_a_time(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    for _ in range(21):
        make_entry(tag)
    at = app_as(curator_id, PAGE)
    at.selectbox(key="gp_fach").set_value("physik")
    at.text_input(key="gp_text").set_value(tag).run()
    assert any("21 Einträge · Seite 1 von 2" in c.value for c in at.caption)
    assert len(at.dataframe[0].value) == 20
    at.pagination[0].select(2).run()
    assert not at.exception
    assert any("21 Einträge · Seite 2 von 2" in c.value for c in at.caption)
    assert len(at.dataframe[0].value) == 1


def test_star_rating_sets_quality_and_the_entry_leaves_the_queue(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag, quality=0.8)
    at = open_entry(curator_id, tag, entry)
    at.feedback[0].set_value(3).run()  # index 3 = four stars
    click(at, "Bewertung speichern")
    assert not at.exception
    assert any("4 Sterne" in s.value and "0,75" in s.value for s in at.success)
    row = load(entry)
    assert (row.quality_score, row.rating_count) == (0.75, 1)
    assert [c.action for c in changes(entry)] == ["curate.rate"]
    assert any(c.value.startswith("0 Einträge") for c in at.caption)  # rated: no longer in the queue
    assert at.subheader[0].value == f"Stromstärke messen {tag}"  # … but it stays open, so the next click is on it
    click(at, "Als geprüft markieren")
    assert not at.exception and [c.action for c in changes(entry)] == ["curate.rate", "curate.review"]


# --- editing -----------------------------------------------------------------------------------------------------


def test_curator_edit_is_persisted_with_before_and_after(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag)
    at = open_entry(curator_id, tag, entry)
    new_text = f"Beschreibe Schritt für Schritt, wie man im Stromkreis {tag} die Stromstärke misst."
    widget(at, "text_area", "Aufgabe").set_value(new_text)
    edit_criteria(at, {"0": {"kriterium": "Amperemeter in Reihe zur Lampe schalten"}})
    save(at)
    assert not at.exception, errors(at)
    assert any("Gespeichert (Version 2)" in s.value and "Aufgabe" in s.value and "Erwartung" in s.value
               for s in at.success)

    fresh = open_entry(curator_id, tag, entry)  # a new session: the page reads the stored values
    assert widget(fresh, "text_area", "Aufgabe").value == new_text
    assert fresh.data_editor[0].value["kriterium"][0] == "Amperemeter in Reihe zur Lampe schalten"
    row = load(entry)
    assert row.revision == 2 and row.content["aufgabe"] == new_text and "Schritt" in row.search_text
    (change,) = changes(entry)
    assert change.action == "curate.edit" and change.actor_id == curator_id
    assert change.before["aufgabe"].startswith("Beschreibe, wie man") and change.after["aufgabe"] == new_text
    assert change.before["erwartung"][0]["kriterium"] == "Amperemeter in Reihe schalten"
    assert change.after["erwartung"][0]["kriterium"] == "Amperemeter in Reihe zur Lampe schalten"
    history = fresh.expander[0]
    assert "Änderungsverlauf (1)" in history.label
    shown = [md.value for md in history.markdown]
    assert shown[0].endswith("· bearbeitet**") and "*Aufgabe*" in shown and f"Nachher: {new_text}" in shown


LONG_TEXT = ("Beschreibe die Messung genau. " * 400)[:9_999] + "!"
INVALID = [
    ("criteria_not_summing", {}, lambda at: edit_criteria(at, {"1": {"punkte": 3}}),
     "Die Kriterien des Erwartungshorizonts ergeben 5 Punkte, die Aufgabe hat 3"),
    ("unknown_operator", {"operator": "Zaubern"}, lambda at: None,
     "Der Operator „Zaubern“ steht nicht in der Operatorenliste für Physik"),
    ("afb_three_with_afb_one_operator", {"operator": "Nennen"},
     lambda at: widget(at, "selectbox", "AFB").set_value("III"), "„Nennen“ gehört üblicherweise zu AFB I"),
    ("empty_aufgabe", {}, lambda at: widget(at, "text_area", "Aufgabe").set_value("   "),
     "Der Aufgabentext ist leer"),
    ("ten_thousand_chars", {}, lambda at: widget(at, "text_area", "Aufgabe").set_value(LONG_TEXT),
     "Der Aufgabentext ist zu lang (10.000 Zeichen, höchstens 3.000)"),
    ("points_zero", {}, lambda at: widget(at, "number_input", "Punkte").set_value(0),
     "Die Punktzahl muss eine ganze Zahl von 1 bis 30 sein (eingetragen: 0)"),
]


@pytest.mark.parametrize(("case", "stored", "change", "message"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_edit_is_refused_with_a_german_message(curator_id, case, stored, change, message) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag, **stored)
    before = load(entry)
    at = open_entry(curator_id, tag, entry)
    change(at)
    save(at)
    assert not at.exception
    assert "Nicht gespeichert – bitte korrigieren" in errors(at) and message in errors(at), errors(at)
    after = load(entry)
    assert (after.revision, after.content, after.thema) == (before.revision, before.content, before.thema)
    assert changes(entry) == []


def test_second_save_of_a_stale_revision_is_refused_and_keeps_the_values(database) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag)
    anna = fresh_person(role="curator", name="Anna Kurator")
    ben = fresh_person(role="curator", name="Ben Kurator")
    at_anna, at_ben = open_entry(anna, tag, entry), open_entry(ben, tag, entry)

    widget(at_anna, "text_area", "Aufgabe").set_value(f"Annas Fassung {tag}: Beschreibe die Strommessung genau.")
    save(at_anna)
    assert not at_anna.exception and any("Gespeichert" in s.value for s in at_anna.success)

    bens_text = f"Bens Fassung {tag}: Beschreibe die Messung mit dem Amperemeter."
    widget(at_ben, "text_area", "Aufgabe").set_value(bens_text)
    widget(at_ben, "text_area", "Kontext").set_value("Bens Notiz: in Klasse 8 erprobt.")
    save(at_ben)
    assert not at_ben.exception
    with unit_of_work(Identity.system()) as db:
        anna_name = db.get(Teacher, anna).name
    assert f"Dieser Eintrag wurde inzwischen von {anna_name} geändert (Version 2)" in errors(at_ben)
    assert f"Aufgabe: jetzt „Annas Fassung {tag}: Beschreibe die Strommessung genau.“, Ihre Fassung „{bens_text}“" \
        in errors(at_ben)
    assert "Kontext" not in errors(at_ben)  # only Ben changed it: no conflict there
    assert widget(at_ben, "text_area", "Aufgabe").value == bens_text  # the form still holds Ben's text
    assert load(entry).content["aufgabe"].startswith("Annas Fassung") and load(entry).revision == 2

    click(at_ben, "Mit der aktuellen Version zusammenführen")
    assert not at_ben.exception, errors(at_ben)
    shown = [md.value for md in at_ben.markdown]
    assert "**Aufgabe**" in shown and "**Kontext**" not in shown  # only the field both changed, three versions
    assert f"Annas Fassung {tag}: Beschreibe die Strommessung genau." in shown and bens_text in shown
    assert "Ihre Fassung (steht im Formular)" in [c.value for c in at_ben.caption]
    assert widget(at_ben, "text_area", "Aufgabe").value == bens_text
    widget(at_ben, "text_area", "Aufgabe").set_value(f"Gemeinsame Fassung {tag}: Beschreibe die Strommessung.")
    save(at_ben)
    assert not at_ben.exception, errors(at_ben)
    row = load(entry)
    assert row.revision == 3 and row.content["aufgabe"].startswith("Gemeinsame Fassung")
    assert row.content["kontext"] == "Bens Notiz: in Klasse 8 erprobt."


def test_a_stale_form_that_changed_other_fields_is_merged_on_save(database) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag)
    anna = fresh_person(role="curator", name="Anna Kurator")
    ben = fresh_person(role="curator", name="Ben Kurator")
    at_anna, at_ben = open_entry(anna, tag, entry), open_entry(ben, tag, entry)
    widget(at_anna, "text_area", "Aufgabe").set_value(f"Annas Fassung {tag}: Beschreibe die Strommessung genau.")
    save(at_anna)
    widget(at_ben, "text_area", "Kontext").set_value("Bens Notiz.")
    save(at_ben)
    assert not at_ben.exception, errors(at_ben)
    assert any("Gespeichert (Version 3): Kontext." in s.value and "Zusammengeführt" in s.value for s in at_ben.success)
    row = load(entry)
    assert row.content["aufgabe"].startswith("Annas Fassung") and row.content["kontext"] == "Bens Notiz."


def test_an_old_version_is_restored_from_the_history(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag)
    original = load(entry).content["aufgabe"]
    at = open_entry(curator_id, tag, entry)
    widget(at, "text_area", "Aufgabe").set_value(f"Überarbeitet {tag}: Beschreibe die Messung mit Skizze.")
    save(at)
    history = next(e for e in at.expander if e.label.startswith("Änderungsverlauf"))
    shown = [md.value for md in history.markdown]
    assert [v for v in shown if v.startswith("*") and not v.startswith("**")] == ["*Aufgabe*"]
    assert f"Vorher: {original}" in shown
    click(at, "Wiederherstellen")
    assert not at.exception, errors(at)
    assert any(s.value.startswith("Ältere Fassung wiederhergestellt (Version 3)") for s in at.success)
    assert load(entry).content["aufgabe"] == original
    assert at.subheader[0].value == f"Stromstärke messen {tag}"


# --- promote, retire, merge, histogram ---------------------------------------------------------------------------


def test_promote_makes_an_anonymised_global_copy_and_the_teacher_keeps_hers(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    teacher = fresh_person(name="Heike Brunnerova", classes=("10a",))
    with unit_of_work(Identity.system()) as db:
        t = db.get(Teacher, teacher)
        name, email = t.name, t.email
    kontext = f"Von Frau Brunnerova ({email}) in der Klasse 10a erprobt; Rückfragen an {name}."
    entry = make_entry(tag, owner=teacher, shared=True, kontext=kontext)
    at = open_entry(curator_id, tag, entry)
    click(at, "Befördern (anonymisierte allgemeine Kopie)")
    assert not at.exception, errors(at)
    assert any("Befördert" in s.value and "personenbezogene Angabe" in s.value for s in at.success)

    with unit_of_work(Identity.system()) as db:
        copy = db.scalar(sa.select(AgentKnowledge).where(AgentKnowledge.external_id == f"curation:{entry}"))
    assert copy.scope_type == "global" and copy.scope_id is None and copy.owner_id is None
    assert copy.source == "curator" and copy.embedding is not None
    for gone in ("Brunnerova", "Heike", email, "10a"):
        assert gone not in copy.content["kontext"] and gone not in (copy.description or "")
    assert "[Lehrkraft]" in copy.content["kontext"] and "Klassenstufe 10" in copy.content["kontext"]
    original = load(entry)
    assert original.scope_type == "teacher" and original.content["kontext"] == kontext
    assert [c.action for c in changes(entry)] == ["curate.promote"]
    assert at.subheader[0].value == copy.thema  # the page opened the new copy


def test_retired_entry_is_no_longer_found_by_search(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    entry = make_entry(tag)

    def found() -> bool:
        with unit_of_work(Identity.system()) as db:
            hits = search(db=db, identity=Identity.system(), query=f"Stromstärke Amperemeter {tag}", fach="physik",
                          limit=100)  # the shared test DB holds many tasks on this topic
        return entry in [h.id for h in hits]

    assert found()
    at = open_entry(curator_id, tag, entry)
    click(at, "Ausmustern bestätigen")
    assert "Bitte einen Grund für das Ausmustern angeben" in errors(at) and load(entry).status == "active"
    widget(at, "text_input", "Grund (Pflicht)").set_value("veraltet")
    click(at, "Ausmustern bestätigen")
    assert not at.exception and any("Ausgemustert („veraltet“)" in s.value for s in at.success)
    assert any("Grund: veraltet." in i.value for i in at.info)  # the entry stays open and says why
    assert load(entry).status == "retired" and not found()

    at = open_entry(curator_id, tag, entry, view="retired")
    click(at, "Wieder aktivieren")
    assert not at.exception and load(entry).status == "active" and found()
    assert [c.action for c in changes(entry)] == ["curate.retire", "curate.restore"]
    assert changes(entry)[0].after == {"status": "retired", "reason": "veraltet"}


def twins_on_two_pages(tag: str) -> tuple[uuid.UUID, uuid.UUID]:
    """Two near-identical tasks (the weaker one, the better rated one) with 20 unrelated ones made between them: newest
    first, the twin ends up on page 2 of the list. Returns (drop, keep)."""
    drop = make_entry(tag, quality=0.5, rating_count=1, times_used=2, kontext="Erprobt in Klasse 8, leicht gekürzt.")
    for i in range(20):  # unrelated tasks between them: newest first, the twin ends up on page 2 of the list
        words = " ".join(uuid.uuid4().hex for _ in range(6))
        make_entry(tag, aufgabe=f"Aufgabe {i}: {words}", kontext=words[::-1],
                   erwartung=[{"kriterium": words[:20], "punkte": 3}])
    keep = make_entry(tag, quality=0.9, rating_count=3, times_used=4)
    return drop, keep


def test_near_duplicates_are_found_across_pages_shown_side_by_side_and_merged(curator_id) -> None:  # noqa: ANN001
    tag = _tag()
    drop, keep = twins_on_two_pages(tag)
    at = app_as(curator_id, PAGE)
    at.selectbox(key="gp_fach").set_value("physik")
    at.selectbox(key="gp_view").set_value("active")
    at.selectbox(key="gp_order").set_value("newest")
    at.text_input(key="gp_text").set_value(tag).run()
    listed = list(at.dataframe[0].value["Thema"])
    assert len(listed) == 20 and any("Seite 1 von 2" in c.value for c in at.caption)  # not both on one page
    at.session_state["gp_tab"] = "Dubletten"
    at.run()
    assert not at.exception
    assert any(c.value.startswith("1 Paar im ganzen Fach") for c in at.caption), [c.value for c in at.caption]
    (compare,) = [d.value for d in at.dataframe if "Feld" in d.value.columns]
    fields = dict(zip(compare["Feld"], compare[""], strict=True))
    assert fields["Operator"] == "" and fields["Punkte"] == "" and fields["Kontext"] == "≠"
    (radio,) = at.radio
    radio.set_value(keep).run()
    click(at, "Zusammenführen")
    assert not at.exception, errors(at)
    assert any("Zusammengeführt" in s.value for s in at.success)
    kept, dropped = load(keep), load(drop)
    assert kept.quality_score == pytest.approx(0.8) and kept.rating_count == 4 and kept.times_used == 6
    assert dropped.status == "retired" and dropped.content["zusammengefuehrt_in"] == str(keep)
    assert changes(drop)[-1].after == {"status": "retired", "merged_into": str(keep)}

    at = open_entry(curator_id, tag, drop, view="retired")
    assert any(f"Zusammengeführt in Eintrag {str(keep)[:8]}" in i.value for i in at.info)
    click(at, f"Zum Eintrag {str(keep)[:8]} (zusammengeführt)")
    assert not at.exception and at.subheader[0].value == f"Stromstärke messen {tag}"


def test_quality_histogram_shows_the_chosen_fach(curator_id) -> None:  # noqa: ANN001
    at = app_as(curator_id, PAGE)
    at.selectbox(key="gp_fach").set_value("chemie")
    at.session_state["gp_tab"] = "Qualität"
    at.run()
    assert not at.exception
    (caption,) = [c.value for c in at.caption if c.value.startswith("Qualität der aktiven Good Practices")]
    assert "Chemie: " in caption and "Physik" not in caption
    (chart,) = [n for n in at.main if getattr(n, "type", "") == "vega_lite_chart"]
    assert "facet" not in json.loads(chart.proto.spec)
    data = dataframe_util.convert_arrow_bytes_to_pandas_df(chart.proto.data.data)
    assert set(data["fach"]) == {"Chemie"}
    assert list(data["bereich"]) == [f"0,{i}–{'1,0' if i == 9 else f'0,{i + 1}'}" for i in range(10)]
    assert data["anzahl"].sum() == int(caption.split("Chemie: ")[1].split(" ")[0])


def test_curator_edits_the_physik_operator_list_and_the_next_wissenskarte_shows_it(curator_id) -> None:  # noqa: ANN001
    from core.knowledge.inspector import entry_detail, inspect_wissenskarte
    from tests.pages.conftest import fresh_person as person

    with unit_of_work(Identity.system()) as db:
        row = db.scalar(sa.select(AgentKnowledge).where(AgentKnowledge.external_id == "seed:physik:operatoren"))
        original, revision = dict(row.content), row.revision
    try:
        at = app_as(curator_id, PAGE)
        at.selectbox(key="gp_fach").set_value("physik")
        at.session_state["gp_tab"] = "Operatoren"
        at.run()
        assert not at.exception
        key = at.data_editor[0].key
        n = len(original["operatoren"])
        at.session_state[key] = {"edited_rows": {}, "deleted_rows": [], "added_rows": [
            {"operator": "Abschätzen", "afb": "II", "beschreibung": "Größenordnungen begründet überschlagen."}]}
        click(at, "Operatorenliste speichern")
        assert not at.exception, errors(at)
        assert any(f"Version {revision + 1}, {n + 1} Operatoren; neu: Abschätzen" in s.value for s in at.success), [
            s.value for s in at.success]
        assert [c.action for c in changes(row.id)][-1] == "curate.operators"

        teacher = person(faecher=("physik",))
        ins = inspect_wissenskarte(viewer_id=teacher, target_id=teacher, agent_type="klausur", fach="physik")
        (ops,) = [t for t in ins.tables if t.knowledge_type == "operator_list"]
        detail = entry_detail(viewer_id=teacher, target_id=teacher, knowledge_id=ops.ids[0])
        assert "Abschätzen (AFB II)" in dict(detail.fields)["Operatoren"]
    finally:
        with unit_of_work(Identity.system()) as db:
            db.get(AgentKnowledge, row.id).content = original


def _global(agent_type: str, content: dict[str, Any]) -> uuid.UUID:
    tag = _tag()
    with unit_of_work(Identity.system()) as db:
        row = AgentKnowledge(agent_type=agent_type, scope_type="global", fach="physik", thema=f"Quiz {tag}",
                             knowledge_type="good_practice", source="system", description=f"Eintrag {tag}",
                             content=content, quality_score=0.5)
        db.add(row)
        db.flush()
        return row.id


def test_curator_edits_a_quiz_question_and_a_three_level_task(curator_id) -> None:  # noqa: ANN001
    quiz = _global("h5p", {"typ": "multichoice", "frage": "Wann leuchtet die Lampe?", "erklaerung": "",
                           "antworten": [{"text": "Kreis geschlossen", "korrekt": True, "feedback": ""},
                                         {"text": "Schalter offen", "korrekt": False, "feedback": ""}]})
    at = open_entry(curator_id, load(quiz).thema.split()[-1], quiz, view="active")
    widget(at, "text_area", "Frage").set_value("Wann leuchtet eine Glühlampe im Stromkreis?")
    editor = next(d for d in at.data_editor if "antworten" in d.key)
    at.session_state[editor.key] = {"edited_rows": {"1": {"feedback": "Ein offener Schalter unterbricht."}},
                                    "added_rows": [{"text": "Kabel aus Kunststoff", "korrekt": False}],
                                    "deleted_rows": []}
    next(b for b in at.button if b.label == "Inhalt speichern").click().run()
    assert not at.exception, errors(at)
    assert any(s.value == "Gespeichert (Version 2): Frage, Antworten." for s in at.success), errors(at)
    content = load(quiz).content
    assert content["frage"] == "Wann leuchtet eine Glühlampe im Stromkreis?" and len(content["antworten"]) == 3
    assert content["antworten"][1]["feedback"] == "Ein offener Schalter unterbricht."

    levels = {lvl: {"aufgaben": ["Berechne die Dichte."], "hilfekarten": ["ρ = m/V"], "loesungen": ["0,5 g/cm³"]}
              for lvl in ("grundlegend", "mittel", "erweitert")}
    task = _global("differenzierung", {"lernziel": "Dichte berechnen", **levels})
    at = open_entry(curator_id, load(task).thema.split()[-1], task, view="active")
    widget(at, "text_area", "Aufgaben (erweitert)").set_value("Berechne die Dichte.\nBegründe, ob Holz schwimmt.")
    next(b for b in at.button if b.label == "Inhalt speichern").click().run()
    assert "Niveau erweitert: 2 Aufgaben, aber 1 Lösung –" in errors(at)
    widget(at, "text_area", "Lösungen (erweitert)").set_value("0,5 g/cm³\nJa: 0,5 g/cm³ < 1 g/cm³.")
    next(b for b in at.button if b.label == "Inhalt speichern").click().run()
    assert not at.exception and any(s.value == "Gespeichert (Version 2): Niveau erweitert." for s in at.success)
    assert load(task).content["erweitert"]["loesungen"][1] == "Ja: 0,5 g/cm³ < 1 g/cm³."
