"""The AFB split a teacher chose for a Fach is remembered and said so; the next request in that Fach is not asked
again (teacher test r17 then r16), while another Fach still is."""

from __future__ import annotations

import uuid

from core.materials.service import material_view
from db.repos import knowledge as knowledge_repo
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER
from tests.core.chat.test_request_chat import chat


def test_an_answered_afb_split_becomes_the_preference_of_the_fach(db, as_teacher) -> None:  # noqa: ANN001
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    # the bank fills about 40 of the 180 minutes: the options come first (decision 057); she takes the short exam,
    # then the AFB split is asked
    first, _ = chat(db, as_teacher, "Biologie LK Q1 Klausur Genetik: Proteinbiosynthese und Genregulation "
                    "(lac-Operon), 180 Minuten", "1", "20/50/30 ist gut")
    assert first[1].session_id and "Anforderungsbereiche" in first[1].question["frage"]
    assert first[2].material_id, first[2].reply
    assert "Gemerkt: AFB 20/50/30 gilt ab jetzt für Ihre Klausuren in Biologie" in first[2].reply
    row = knowledge_repo.preference_row(db=db, teacher_id=teacher.id, agent_type="klausur", fach="biologie")
    assert row is not None and row.content["afb_ziel"] == {"I": 20, "II": 50, "III": 30}
    assert row.content["quellen"]["afb_ziel"].startswith("im Chat gewählt am")

    second, _ = chat(db, as_teacher, "Klassenarbeit Bio Wirbeltiere", "Klasse 5, 45 Minuten")  # a new conversation
    assert second[1].session_id is None and second[1].material_id, second[1].reply
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(second[1].material_id))
    assert view["request"]["afb_quelle"] == "preference" and view["request"]["afb_ziel_verwendet"] == {
        "I": 20, "II": 50, "III": 30}
    assert "Gemerkt" not in second[1].reply and "AFB-Ziel aus Ihren Präferenzen" in second[1].reply

    other, _ = chat(db, as_teacher, "Mathe 7 Klausur Terme 45 Minuten")
    assert other[0].session_id and "Anforderungsbereiche" in other[0].question["frage"]  # another Fach: asked
