"""A differentiated worksheet is on what the teacher named (issue #10): a sheet titled „Hebelgesetz“ held only Hooke's
law tasks (blind review, stop 25). On the real bank."""

from __future__ import annotations

from sqlalchemy.orm import Session

from core.composition import service as svc
from core.composition.filters import _named_siblings
from core.materials.request import MaterialRequest
from db.session import Identity


def _sheet(db: Session, fach: str, thema: str, klassenstufe: int, parts: list[str]):  # noqa: ANN202
    request = MaterialRequest(fach=fach, thema=thema, klassenstufe=klassenstufe, material_type="differenzierung",
                              unterthemen=parts)
    return svc.compose_worksheet(db=db, identity=Identity.system(), fach=fach, themenfelder={}, request=request)


def test_hebelgesetz_names_the_lever_not_every_law(db: Session) -> None:
    """„Hebelgesetz“ ends like „Hookesches Gesetz“ but names the Hebel: the springs are a sibling left out."""
    request = MaterialRequest(fach="physik", thema="Hebelgesetz", klassenstufe=8, material_type="differenzierung")
    ctx = svc.topic_context_for(db=db, fach="physik", themenfelder={}, request=request)
    assert [t.id for t in ctx.resolved] == ["kraefte"]
    assert _named_siblings(ctx.resolved[0], "Hebelgesetz", [], single=True) == [
        u for u in ctx.resolved[0].unterthemen if u != "Hebel"]


def test_a_hebelgesetz_sheet_is_on_levers_not_on_springs(db: Session) -> None:
    sheet = _sheet(db, "physik", "Hebelgesetz", 8, []).material
    assert sheet is not None
    tasks = " ".join(t for n in sheet.niveaus for t in n.aufgaben)
    assert "Hebel" in tasks or "Drehpunkt" in tasks, tasks
    assert "Feder" not in tasks and "Hooke" not in sheet.lernziel, (sheet.lernziel, tasks)
