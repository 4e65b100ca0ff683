"""An exam cites the teacher's own Lehrplan, never another state's (teacher test: a Sachsen teacher's exam cited
„Einfache Stromkreise und Schaltungen (Bayern)“)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from core.composition import service as svc
from core.materials.request import MaterialRequest
from db.session import Identity

STATES = ("Sachsen", "Hessen", "Niedersachsen", "Nordrhein-Westfalen", "Bayern", "Baden-Württemberg", "Berlin")


@pytest.mark.parametrize("land", ["Sachsen", "Bayern"])
def test_curriculum_citations_come_from_the_teachers_state(db: Session, land: str) -> None:
    request = MaterialRequest(fach="physik", thema="Stromkreise", klassenstufe=10, material_type="klausur",
                              dauer_minuten=45)
    comp = svc.compose_exam(db=db, identity=Identity.system(), teacher_id=None, fach="physik", themenfelder={},
                            request=request, afb_ziel={"I": 30, "II": 40, "III": 30}, operators=[], bundesland=land)
    assert comp.material is not None
    cited = [q.titel for t in comp.material.teilaufgaben() for q in t.quellen if q.art == "curriculum"]
    assert cited or land != "Sachsen"  # the seeded Sachsen plan has Stromkreise: it is cited
    for titel in cited:
        assert titel.endswith(f"({land})"), titel
        assert not any(f"({other})" in titel for other in STATES if other != land)
