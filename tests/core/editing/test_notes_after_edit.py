"""Teacher notes that describe the material are recomputed for an edited version (teacher review, stop 22: after
„Streiche Aufgabe 6“ the notes still said „AFB-Verteilung 26/53/21“ and „etwa 108 der 128 Minuten“ of the old one)."""

from __future__ import annotations

from core.editing import notes
from core.editing.patch import patch_material
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Klausur
from core.materials.patch_ops import RemoveTask
from db.repos.materials import get_material
from tests.core.editing.conftest import Exam

ZIEL = {"I": 60, "II": 30, "III": 10}  # far from any Physik exam: the note is due before and after the edit


def _shares(k: Klausur) -> str:
    return "/".join(f"{k.afb_anteile[s]:.0f}" for s in AFB_STUFEN)


def _with_old_notes(k: Klausur) -> Klausur:
    return k.model_copy(update={"hinweise_lehrkraft": [
        "AFB-Verteilung 26/53/21 statt 60/30/10 %: In der Wissensbasis gibt es zu diesem Thema nicht genug geprüfte "
        "Aufgaben für die gewünschte Verteilung.",
        f"Knapp bemessen: Die Aufgaben sind auf etwa {k.gesamtpunkte} der {k.gesamtpunkte + 4} Minuten reiner "
        "Arbeitszeit angelegt; mehr zusammenhängende geprüfte Materialaufgaben gibt es zu diesem Thema nicht.",
        "Eine Notiz, die nichts über Punkte oder Zeit sagt."]})


def test_after_a_strike_the_afb_and_time_notes_describe_the_new_version(exam: Exam) -> None:
    old = _with_old_notes(exam.klausur)
    assert len(old.aufgaben) >= 2
    new = old.model_copy(update={"aufgaben": old.aufgaben[:-1]})
    fresh = notes.refreshed(old, new, ZIEL).hinweise_lehrkraft
    assert fresh[0].startswith(f"AFB-Verteilung {_shares(new)} statt 60/30/10 %"), fresh
    minuten = new.gesamtpunkte  # the old note put the tasks at one minute per point
    assert any(n.startswith(f"Knapp bemessen: Die Aufgaben sind auf etwa {minuten} der {old.gesamtpunkte + 4} ")
               for n in fresh), fresh
    assert fresh[-1] == "Eine Notiz, die nichts über Punkte oder Zeit sagt."
    assert not any("26/53/21" in n for n in fresh), fresh


def test_a_note_that_is_no_longer_true_is_dropped(exam: Exam) -> None:
    old = _with_old_notes(exam.klausur)
    target = {s: round(old.afb_anteile[s]) for s in AFB_STUFEN}
    fresh = notes.refreshed(old, old, target).hinweise_lehrkraft  # the shares now meet the target
    assert not any(n.startswith("AFB-Verteilung") for n in fresh), fresh


def test_a_stored_strike_carries_the_recomputed_note(exam: Exam) -> None:
    row = exam.row
    row.content = _with_old_notes(exam.klausur).model_dump(mode="json")
    exam.turn.db.flush()
    outcome = patch_material(turn=exam.turn, material_id=row.id, operations=[RemoveTask(ziel="1")], force=True)
    v2 = Klausur.model_validate(get_material(db=exam.turn.db, material_id=outcome.material_id).content)
    assert not any("26/53/21" in n for n in v2.hinweise_lehrkraft), v2.hinweise_lehrkraft
    assert all(n.startswith(f"AFB-Verteilung {_shares(v2)} ") for n in v2.hinweise_lehrkraft
               if n.startswith("AFB-Verteilung")), v2.hinweise_lehrkraft


def test_task_count_and_point_share_notes_follow_the_edit(exam: Exam) -> None:
    old = exam.klausur.model_copy(update={"hinweise_lehrkraft": [
        f"Für eine Oberstufenklausur sind es {len(exam.klausur.aufgaben) + 3} Aufgaben, davon 9 ohne Teilaufgaben über "
        "mehrere Anforderungsbereiche: Zu diesem Thema gibt es nicht genug geprüfte Materialaufgaben.",
        f"Ergänzt um Aufgaben zu „Reihenschaltung“ (7 von {exam.klausur.gesamtpunkte} Punkten), damit die Zeit gefüllt "
        "ist."]})
    new = old.model_copy(update={"aufgaben": old.aufgaben[:-1]})
    fresh = notes.refreshed(old, new, None).hinweise_lehrkraft
    single = sum(len({t.afb for t in a.teilaufgaben}) == 1 for a in new.aufgaben)
    if len(new.aufgaben) > 4 or single:
        assert fresh[0].startswith(f"Für eine Oberstufenklausur sind es {len(new.aufgaben)} Aufgaben, davon {single} "
                                   "ohne"), fresh
    else:
        assert not any(n.startswith("Für eine Oberstufenklausur") for n in fresh), fresh
    assert "Ergänzt um Aufgaben zu „Reihenschaltung“, damit die Zeit gefüllt ist." in fresh, fresh


def test_a_note_on_an_added_sub_topic_goes_with_its_last_task(exam: Exam) -> None:
    last = exam.klausur.aufgaben[-1].titel
    old = exam.klausur.model_copy(update={"hinweise_lehrkraft": [
        f"Ergänzt um Aufgaben zu „{last}“, um die Bearbeitungszeit so weit wie möglich zu füllen."]})
    kept = notes.refreshed(old, old, None).hinweise_lehrkraft
    assert kept == old.hinweise_lehrkraft
    rest = [a for a in old.aufgaben if a.titel != last]
    assert rest, [a.titel for a in old.aufgaben]
    assert notes.refreshed(old, old.model_copy(update={"aufgaben": rest}), None).hinweise_lehrkraft == []
