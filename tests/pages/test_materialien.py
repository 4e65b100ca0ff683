"""Meine Materialien: empty state, listing with preview and downloads, filters, paging, rating, visibility."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy as sa

from core.app.acting import acting
from core.app.errors import NotFoundError
from core.chat.turn import chat_turn
from core.materials.dates import SCHOOL_TZ
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.service import material_detail
from db import models as m
from db.session import Identity, unit_of_work
from tests.pages.conftest import app_as, fresh_person

PAGE = "views/materialien.py"
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def make_exam(person_id: uuid.UUID) -> uuid.UUID:
    with acting(person_id) as (db, teacher, identity):
        result = chat_turn(db=db, identity=identity, teacher=teacher, message=EXAM)
    assert result.material_id, result.reply
    return uuid.UUID(result.material_id)


def insert_materials(person_id: uuid.UUID, n: int, *, material_type: str = "klausur", titel: str = "Stapel",
                     content: dict | None = None) -> list[uuid.UUID]:
    """Cheap rows straight into generated_materials (system unit of work), newest = highest number."""
    start = datetime.now(UTC) - timedelta(days=1)
    with unit_of_work(Identity.system()) as db:
        rows = [m.GeneratedMaterial(teacher_id=person_id, material_type=material_type, fach="physik", klassenstufe=10,
                                    thema="Test", titel=f"{titel} {i:02d}", content=content or {},
                                    created_at=start + timedelta(minutes=i)) for i in range(1, n + 1)]
        db.add_all(rows)
        db.flush()
        return [r.id for r in rows]


def titles(at) -> list[str]:  # noqa: ANN001
    return [md.value for md in at.markdown if md.value.startswith("**")]


def test_empty_state_points_to_the_chat(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert any("Chat" in i.value and "Klausur Physik" in i.value for i in at.info)
    assert not at.get("download_button")


def test_an_exam_is_listed_with_its_preview_and_download_buttons(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert any("Stromkreise" in t for t in titles(at))
    assert any("Klausur · Physik · 10a" in c.value for c in at.caption)
    assert not at.get("download_button")  # closed: neither content nor file bytes are loaded

    at.session_state[f"open_{material_id}"] = True
    at.run()
    assert not at.exception
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Schülerfassung (DOCX)", "Schülerfassung (PDF)", "Lehrerfassung (DOCX)", "Lehrerfassung (PDF)"]
    texts = "\n".join(t.value for t in at.text)
    assert "Erwartungshorizont:" in texts and "✓" in texts
    assert any("AFB" in md.value and "Punkte" in md.value for md in at.markdown)  # "1a) Nennen · AFB I · 2 Punkte"
    notenschluessel = at.dataframe[0].value
    assert list(notenschluessel.columns) == ["Note", "Bezeichnung", "Punkte", "ab %"]
    assert notenschluessel["Note"].tolist()[0] == "1"
    assert at.get("vega_lite_chart")  # AFB shares vs target


def test_h5p_preview_shows_summary_lines_as_plain_text(teacher_id) -> None:  # noqa: ANN001
    h5p = H5PSet(titel="Quiz <b>fett</b>", fach="Physik", klassenstufe=8, thema="Optik", fragen=[
        {"typ": "truefalse", "frage": "Licht ist <script>schnell</script>.", "wahr": True}],
        hinweise_lehrkraft=["Nur 1 statt 8 Fragen: mehr geprüfte Fragen gibt es zu Optik in Klasse 8 nicht."])
    (material_id,) = insert_materials(teacher_id, 1, material_type="h5p", titel="Quiz",
                                      content=h5p.model_dump(mode="json"))
    at = app_as(teacher_id, PAGE)
    at.session_state[f"open_{material_id}"] = True
    at.run()
    assert not at.exception
    preview = "\n".join(t.value for t in at.text)
    assert "Licht ist <script>schnell</script>. → richtig" in preview
    assert "Richtig/Falsch" in preview
    notes = " ".join(i.value for i in at.info)  # the teacher note is on the page, beside the download
    assert "Hinweise für Sie" in notes and "Nur 1 statt 8 Fragen" in notes


def test_differentiated_worksheet_preview_shows_the_three_niveaus(teacher_id) -> None:  # noqa: ANN001
    niveaus = [{"name": n, "aufgaben": [f"Aufgabe {n}"], "hilfekarten": [f"Tipp {n}"], "loesungen": [f"Lösung {n}"]}
               for n in ("grundlegend", "mittel", "erweitert")]
    blatt = DifferenziertesMaterial(titel="Zellen", fach="Biologie", klassenstufe=7, thema="Zelle",
                                    lernziel="Die Lernenden beschreiben den Aufbau einer Zelle.", niveaus=niveaus)
    (material_id,) = insert_materials(teacher_id, 1, material_type="differenzierung", titel="Zellen",
                                      content=blatt.model_dump(mode="json"))
    at = app_as(teacher_id, PAGE)
    at.session_state[f"open_{material_id}"] = True
    at.run()
    assert not at.exception
    assert [t.label for t in at.tabs] == ["Grundlegend", "Mittel", "Erweitert"]
    texts = [t.value for t in at.tabs[2].text]
    assert texts == ["1. Aufgabe erweitert", "1. Tipp erweitert", "1. Lösung erweitert"]
    assert any("Lernziel" in c.value for c in at.caption)


def test_a_material_whose_content_no_longer_loads_still_opens(teacher_id) -> None:  # noqa: ANN001
    (material_id,) = insert_materials(teacher_id, 1, content={"titel": "altes Format"})
    at = app_as(teacher_id, PAGE)
    at.session_state[f"open_{material_id}"] = True
    at.run()
    assert not at.exception and not at.error
    assert any("keine Vorschau" in c.value for c in at.caption)


def test_type_filter_hides_other_types(teacher_id) -> None:  # noqa: ANN001
    insert_materials(teacher_id, 2, titel="Klausur-Entwurf")
    insert_materials(teacher_id, 1, material_type="h5p", titel="H5P-Quiz")
    at = app_as(teacher_id, PAGE)
    assert len(titles(at)) == 3
    at.selectbox(key="mat_typ").set_value("h5p").run()
    assert not at.exception
    assert titles(at) == ["**H5P\\-Quiz 01**"]
    assert any("1 Material · Seite 1 von 1" in c.value for c in at.caption)


def test_more_than_twenty_materials_are_paged_in_twenties(teacher_id) -> None:  # noqa: ANN001
    insert_materials(teacher_id, 23)
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert any("23 Materialien · Seite 1 von 2" in c.value for c in at.caption)
    assert len(titles(at)) == 20 and titles(at)[0] == "**Stapel 23**"
    at.session_state["mat_page"] = 2
    at.run()
    assert not at.exception
    assert titles(at) == ["**Stapel 03**", "**Stapel 02**", "**Stapel 01**"]
    assert any("Seite 2 von 2" in c.value for c in at.caption)
    at.selectbox(key="mat_fach").set_value("physik").run()  # a new filter starts on page 1 again
    assert not at.exception
    assert titles(at)[0] == "**Stapel 23**" and any("Seite 1 von 2" in c.value for c in at.caption)


def test_five_stars_store_the_rating_and_add_good_practices(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    at = app_as(teacher_id, PAGE)
    at.feedback(key=f"rate_{material_id}").set_value(4).run()
    assert not at.exception
    assert any("5 Sterne gespeichert" in t.value and "bewährten Aufgaben" in t.value for t in at.toast)
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.GeneratedMaterial, material_id).rating == 5
        assert db.scalar(sa.select(m.Rating.stars).where(m.Rating.material_id == material_id)) == 5
        good = db.scalar(sa.select(sa.func.count()).select_from(m.AgentKnowledge).where(
            m.AgentKnowledge.owner_id == teacher_id, m.AgentKnowledge.knowledge_type == "good_practice"))
    assert good >= 1


def test_the_date_filter_counts_school_days(teacher_id) -> None:  # noqa: ANN001
    insert_materials(teacher_id, 1)  # created yesterday
    today = datetime.now(SCHOOL_TZ).date()
    at = app_as(teacher_id, PAGE)
    at.date_input(key="mat_von").set_value(today).run()
    assert not at.exception and not titles(at)
    assert any("keine Materialien" in i.value for i in at.info)
    at.date_input(key="mat_von").set_value(today - timedelta(days=1))
    at.date_input(key="mat_bis").set_value(today - timedelta(days=1)).run()
    assert titles(at) == ["**Stapel 01**"]


def test_a_date_range_with_start_after_end_says_so(teacher_id) -> None:  # noqa: ANN001
    insert_materials(teacher_id, 1)
    at = app_as(teacher_id, PAGE)
    at.date_input(key="mat_von").set_value(date(2026, 5, 2))
    at.date_input(key="mat_bis").set_value(date(2026, 5, 1)).run()
    assert not at.exception
    assert any("liegt nach" in e.value and "02.05.2026" in e.value for e in at.error)


def test_a_teacher_sees_no_other_teachers_materials(teacher_id) -> None:  # noqa: ANN001
    other = fresh_person(name="Andere Lehrkraft")
    material_id = make_exam(other)
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert not titles(at) and any("Chat" in i.value for i in at.info)  # still the empty state

    at.query_params["material"] = str(material_id)  # a link to someone else's material
    at.run()
    assert not at.exception
    assert any("gibt es nicht" in e.value for e in at.error)
    with pytest.raises(NotFoundError):
        material_detail(teacher_id=teacher_id, material_id=material_id)


def test_the_quiz_can_be_played_as_a_pupil_with_feedback_and_score(teacher_id) -> None:  # noqa: ANN001
    h5p = H5PSet(titel="Quiz", fach="Physik", klassenstufe=8, thema="Optik", fragen=[
        {"typ": "truefalse", "frage": "Licht breitet sich geradlinig aus.", "wahr": True,
         "erklaerung": "Deshalb gibt es scharfe Schatten."},
        {"typ": "multichoice", "frage": "Welche Farbe hat das Licht mit der größten Wellenlänge?", "antworten": [
            {"text": "Rot", "korrekt": True}, {"text": "Blau", "korrekt": False}]},
        {"typ": "blanks", "text": "Der Einfallswinkel ist gleich dem *Reflexionswinkel/Ausfallswinkel*."}])
    (material_id,) = insert_materials(teacher_id, 1, material_type="h5p", titel="Quiz",
                                      content=h5p.model_dump(mode="json"))
    at = app_as(teacher_id, PAGE)
    at.session_state[f"open_{material_id}"] = True
    at.run()
    assert not at.exception
    at.radio(key=f"q_{material_id}_1").set_value("richtig")
    at.radio(key=f"q_{material_id}_2").set_value("Blau")
    at.text_input(key=f"q_{material_id}_3_0").input("ausfallswinkel")  # an alternative, any case
    at.button(key=f"quiz_go_{material_id}").click().run()
    assert not at.exception
    shown = [s.value.replace("\\", "") for s in at.success]  # literal text: markdown characters escaped
    assert shown == ["1. Richtig. Deshalb gibt es scharfe Schatten.", "3. Richtig."]
    assert "Lösung: Rot." in at.error[0].value.replace("\\", "")
    assert at.metric[0].value == "2 von 3 richtig"
