"""A task that repeats another on one Niveau costs that task, not the sheet (#10, cause A3). Seen in stop 22's
held-out suite: „Arbeitsblatt Mathematik Klasse 8 in drei Niveaus: Kreis – Umfang und Flächeninhalt“ was refused with
„Der zusammengestellte Entwurf hat die Prüfung nicht bestanden: Niveau B, Aufgabe 2 – doppelt: wiederholt Niveau B,
Aufgabe 1 fast wörtlich“ — the bank's only Kreis item has two tasks on its middle Niveau that the gate takes for one."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from sqlalchemy.orm import Session

from core.checks.duplicates import duplicates
from core.checks.gate import check_material
from core.checks.views import TaskView
from core.composition.candidates import DiffCandidate, diff_from_row
from core.composition.differenzierung import DiffAuftrag, compose_differenzierung
from tests.core.composition.test_named_topics import _sheet

BANK = Path(__file__).parents[3] / "seeds/data/bank/mathematik/flaechen-kreis.json"
KREIS = "Arbeitsblatt Mathematik Klasse 8 in drei Niveaus: Kreis – Umfang und Flächeninhalt"


def _repeats_in_a_level(m) -> list[str]:
    return [f.line() for f in check_material(m) if f.kind == "duplicate"]


def test_a_sheet_whose_item_repeats_a_task_on_one_niveau_is_made_without_that_task(db: Session) -> None:
    comp = _sheet(db, KREIS)
    m = comp.material
    assert m is not None, comp.befund.hinweise()
    assert "Kreis" in m.lernziel
    assert _repeats_in_a_level(m) == []
    levels = {n.name: n for n in m.niveaus}
    # the repeating task went with its help card and solution; the other levels keep all of theirs
    assert len(levels["mittel"].aufgaben) == len(levels["mittel"].hilfekarten) == len(levels["mittel"].loesungen) == 2
    assert len(levels["grundlegend"].aufgaben) == len(levels["erweitert"].aufgaben) == 3
    assert any("Niveau „mittel“" in h and "weggelassen" in h for h in m.hinweise_lehrkraft), m.hinweise_lehrkraft


def _bank_items() -> list[DiffCandidate]:
    data = json.loads(BANK.read_text(encoding="utf-8"))
    out = [diff_from_row(ref=f"flaechen-kreis:{i}", titel=str(d.get("unterthema")), content=d, scope_type="global",
                         source="seed", quality=0.8) for i, d in enumerate(data["differenzierung"])]
    return [c for c in out if c is not None]


def test_an_item_that_repeats_another_items_task_is_replaced_not_the_sheet_refused() -> None:
    items = _bank_items()
    kreis = next(c for c in items if "Kreis" in c.lernziel)
    # a teacher's own copy of the bank item beside it: its tasks repeat the bank's on every Niveau
    copy = replace(kreis, key=kreis.key + "-kopie", herkunft="eigene")
    texts = [*kreis.niveaus["grundlegend"]["aufgaben"], *copy.niveaus["grundlegend"]["aufgaben"]]
    assert duplicates([TaskView(ref=str(i), text=t, gruppe="grundlegend") for i, t in enumerate(texts)])
    comp = compose_differenzierung(DiffAuftrag(
        thema="Flächeninhalt", fach="mathematik", fach_name="Mathematik", klassenstufe=8, unterthemen=[],
        anzahl=6, candidates=[copy, *items], salt="fest"))
    m = comp.material
    assert m is not None, comp.befund.hinweise()
    assert _repeats_in_a_level(m) == []
    refs = [q.ref for q in m.quellen]
    assert len(refs) >= 2 and not {kreis.key, copy.key} <= set(refs), refs
