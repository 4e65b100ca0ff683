"""Decision 064 through the real chat: a quiz on Nahrungsbeziehungen whose parts share the word „Energie“ with
Physik is a Biologie quiz; an exam whose part is dated („Volksaufstand 17. Juni 1953“) keeps the date, and no note
speaks of „Volksaufstand 17“."""

from __future__ import annotations

import json
import re
import uuid

from sqlalchemy.orm import Session

from db.repos.materials import get_material
from tests.core.chat.test_material_followups import _conversation


def test_the_nahrungsbeziehungen_quiz_is_a_biologie_quiz(db: Session, as_teacher) -> None:  # noqa: ANN001
    made, _ = _conversation(
        db, as_teacher, "Quiz Nahrungsbeziehungen Klasse 6: Nahrungspyramide und Energiefluss, 8 Fragen", short_ok=True
    )
    row = get_material(db=db, material_id=uuid.UUID(made.material_id))
    assert row.fach == "biologie", (row.fach, row.titel)
    assert "Nahrungsbeziehungen" in row.titel
    text = json.dumps(row.content, ensure_ascii=False)
    assert not re.search(r"Solarzelle|Dynamo|Generator", text), text[:500]


def test_the_ddr_exam_keeps_the_date_of_its_part(db: Session, as_teacher) -> None:  # noqa: ANN001
    made, _ = _conversation(
        db,
        as_teacher,
        "Klausur Geschichte Klasse 10 DDR: Volksaufstand 17. Juni 1953 und Mauerbau 1961, 45 min, mit Quellenarbeit",
    )
    row = get_material(db=db, material_id=uuid.UUID(made.material_id))
    assert row.fach == "geschichte" and row.klassenstufe == 10
    said = "\n".join([made.reply, json.dumps(row.content, ensure_ascii=False)])
    assert not re.search(r"Volksaufstand 17(?!\. Juni)", said), said
    assert "Volksaufstand 17. Juni 1953" in said
