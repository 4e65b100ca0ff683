"""Pupils' personal data in a curator's edit of a good practice is refused like a teacher's chat redacts it: the save
fails with a German reason naming the field, and nothing of the data reaches any table (not the entry, not the
audit trail of changes, not the embedding's search text)."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import replace

import pytest
import sqlalchemy as sa

from core.app.errors import UserError
from core.curation.service import (
    entry_detail,
    merge_entries,
    save_entry,
    save_entry_content,
    save_subject_operators,
    subject_operators,
)
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.safety.service import personal_data_in_fields
from db.models import AgentKnowledge
from db.session import Identity, admin_engine, unit_of_work
from tests.pages.conftest import fresh_person


def _entry(agent_type: str, content: dict) -> uuid.UUID:
    """A committed global good practice, embedded like the seeds do it."""
    tag = secrets.token_hex(4)
    thema, description = f"Stromkreise {tag}", f"Stromstärke messen {tag}"
    text = knowledge_text(content=content, thema=thema, description=description)
    with unit_of_work(Identity.system()) as db:
        row = AgentKnowledge(agent_type=agent_type, scope_type="global", fach="physik", thema=thema,
                             knowledge_type="good_practice", content=content, description=description,
                             quality_score=0.8, source="curator", search_text=text,
                             embedding=embed_documents([text])[0], embedding_model=embedding_model_name())
        db.add(row)
        db.flush()
        return row.id


def _task() -> dict:
    return {"themenfeld": "Elektrizitätslehre", "klassenstufe": 8, "operator": "Beschreiben", "afb": "I", "punkte": 3,
            "aufgabe": "Beschreibe, wie man im Stromkreis die Stromstärke misst.",
            "erwartung": [{"kriterium": "Amperemeter in Reihe", "punkte": 2},
                          {"kriterium": "Einheit Ampere", "punkte": 1}],
            "kontext": "Erprobt in Klasse 8.", "material": None}


def _everywhere(needle: str) -> int:
    """Rows of every table whose text (all columns) contains `needle`."""
    with admin_engine().connect() as c:  # the owner: no row-level security hides a row from this search
        tables = c.scalars(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).all()
        return sum(c.scalar(sa.text(f'SELECT count(*) FROM "{t}" AS r WHERE r::text ILIKE :p'),
                            {"p": f"%{needle}%"}) for t in tables)


@pytest.fixture(scope="module")
def curator(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person(role="curator", name="Test Kuratorin")


def _phone() -> str:
    return f"0351 {secrets.randbelow(9_000_000) + 1_000_000}"


@pytest.mark.parametrize("field, text, label, kind, needle", [
    ("kontext", "Erprobt in der 8b, Max Mustermann (ADHS) brauchte doppelt so lange.", "Kontext", "Namen",
     "Mustermann"),
    ("kontext", "Rückfragen zur Aufgabe bitte an die Mutter: $PHONE", "Kontext", "Telefonnummern", "$PHONE"),
    ("aufgabe", "Beschreibe, wie FINN HOFFMANN HAT ADHS die Stromstärke misst.", "Aufgabe", "Namen", "HOFFMANN"),
    ("description", "für özlem yılmaz (Diabetes Typ 1) vereinfacht", "Kurzbeschreibung", "Namen", "yılmaz"),
])
def test_an_edit_with_pupils_data_is_refused_and_stored_nowhere(curator: uuid.UUID, field: str, text: str,
                                                                 label: str, kind: str, needle: str) -> None:
    phone = _phone()
    text, needle = text.replace("$PHONE", phone), needle.replace("$PHONE", phone)
    entry = _entry("klausur", _task())
    view = entry_detail(curator_id=curator, knowledge_id=entry)
    before = _everywhere(needle)

    with pytest.raises(UserError) as refused:
        save_entry(curator_id=curator, knowledge_id=entry, expected_revision=view.revision,
                   edit=replace(view.edit, **{field: text}))
    message = refused.value.message
    assert message.startswith("Nicht gespeichert – die Änderung enthält offenbar personenbezogene Angaben")
    assert f"„{label}“" in message and kind in message
    assert needle not in message  # the reason names the field, never repeats the data
    assert _everywhere(needle) == before
    assert entry_detail(curator_id=curator, knowledge_id=entry).revision == view.revision


def test_a_quiz_question_with_a_pupils_name_and_diagnosis_is_refused(curator: uuid.UUID) -> None:
    quiz = {"typ": "multichoice", "frage": "Welche Einheit hat die Stromstärke?", "erklaerung": "",
            "antworten": [{"text": "Ampere", "korrekt": True, "feedback": ""},
                          {"text": "Volt", "korrekt": False, "feedback": ""}]}
    entry = _entry("h5p", quiz)
    view = entry_detail(curator_id=curator, knowledge_id=entry)
    before = _everywhere("Nowak")
    answers = [*quiz["antworten"][:1], {"text": "Volt", "korrekt": False,
                                        "feedback": "Schülerin A. Nowak: Epilepsie, bitte Pause lassen"}]
    with pytest.raises(UserError) as refused:
        save_entry_content(curator_id=curator, knowledge_id=entry, expected_revision=view.revision,
                           content={**quiz, "antworten": answers})
    assert "„Antworten“" in refused.value.message and "Nowak" not in refused.value.message
    assert _everywhere("Nowak") == before


def test_word_problem_names_and_a_clean_edit_are_saved(curator: uuid.UUID) -> None:
    entry = _entry("klausur", _task())
    view = entry_detail(curator_id=curator, knowledge_id=entry)
    saved = save_entry(curator_id=curator, knowledge_id=entry, expected_revision=view.revision,
                       edit=replace(view.edit, aufgabe="Lisa misst im Stromkreis die Stromstärke. Beschreibe, wie sie "
                                    "das Amperemeter anschließt.", kontext="Erprobt in zwei 8. Klassen."))
    assert saved.changed and saved.message.startswith("Gespeichert (Version ")


def test_an_operator_description_with_a_pupils_data_is_refused_and_nothing_written(curator: uuid.UUID) -> None:
    ops = subject_operators(curator_id=curator, fach="physik")
    phone = _phone()
    rows = [dict(r) for r in ops.rows]
    rows[0]["beschreibung"] = f"Wie bei Jonas Weber (ADHS) üben; Rückfragen an {phone}"
    before = _everywhere(phone)
    with pytest.raises(UserError) as refused:
        save_subject_operators(curator_id=curator, fach="physik", rows=rows, expected_revision=ops.revision)
    message = refused.value.message
    assert message.startswith("Nicht gespeichert – die Änderung enthält offenbar personenbezogene Angaben")
    assert "„Zeile 1“" in message and "Weber" not in message and phone not in message
    assert _everywhere(phone) == before
    after = subject_operators(curator_id=curator, fach="physik")
    assert after.revision == ops.revision and after.rows == ops.rows


@pytest.mark.parametrize("fach", ["physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie",
                                  "englisch", "chemie"])
def test_no_seeded_operator_list_is_taken_for_pupils_data(curator: uuid.UUID, fach: str) -> None:
    """No false alarm: every Fach's operator list as seeded would be saved (checked without writing)."""
    rows = subject_operators(curator_id=curator, fach=fach).rows
    assert len(rows) >= 3
    assert personal_data_in_fields({f"Zeile {i}": [r["operator"], r["beschreibung"]]
                                    for i, r in enumerate(rows, start=1)}) == {}


def _changes(entry: uuid.UUID) -> int:
    with admin_engine().connect() as c:
        return c.scalar(sa.text("SELECT count(*) FROM knowledge_changes WHERE knowledge_id = :k"), {"k": entry})


def test_merging_duplicates_whose_kept_text_names_a_pupil_is_refused_and_nothing_changes(curator: uuid.UUID) -> None:
    task = _task()
    keep = _entry("klausur", {**task, "aufgabe": "Beschreibe, wie Max Mustermann (ADHS) die Stromstärke misst."})
    drop = _entry("klausur", task)
    with pytest.raises(UserError) as refused:
        merge_entries(curator_id=curator, keep_id=keep, drop_id=drop)
    message = refused.value.message
    assert message.startswith("Nicht zusammengeführt – der bleibende Eintrag enthält offenbar personenbezogene")
    assert "„Aufgabe“" in message and "Mustermann" not in message
    assert (_changes(keep), _changes(drop)) == (0, 0)
    assert not entry_detail(curator_id=curator, knowledge_id=drop).retired
    # the other way round the clean text stays: merged
    assert merge_entries(curator_id=curator, keep_id=drop, drop_id=keep).startswith("Zusammengeführt:")
