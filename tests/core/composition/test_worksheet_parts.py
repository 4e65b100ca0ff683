"""A worksheet's named sub-topics are judged on what the sheet prints, as the check judges them: a bank item filed
under „Temperatur- und pH-Abhängigkeit“ whose tasks are about pH only does not cover „Temperatur“ — the sheet says
so instead of being refused by the check (content suite case bi-diff-enzyme-11)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.checks.promises import broken_promises
from core.checks.views import views
from core.composition import service as svc
from core.materials.request import MaterialRequest
from db.session import Identity


def test_named_parts_a_worksheet_lacks_are_said_and_the_check_passes(db: Session) -> None:
    request = MaterialRequest(fach="biologie", thema="Enzyme", klassenstufe=11, material_type="differenzierung",
                              unterthemen=["Schlüssel-Schloss", "Temperatur"])
    comp = svc.compose_worksheet(db=db, identity=Identity.system(), fach="biologie", themenfelder={},
                                 request=request)
    assert comp.material is not None
    assert broken_promises(comp.material, request, views(comp.material)) == []
    printed = " ".join(t for n in comp.material.niveaus for t in [*n.aufgaben, *n.loesungen]).lower()
    for part in ("Schlüssel-Schloss", "Temperatur"):
        if part.lower() not in printed:
            assert any(f"„{part}“" in h for h in comp.material.hinweise_lehrkraft), comp.material.hinweise_lehrkraft
