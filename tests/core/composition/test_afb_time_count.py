"""What the teacher set is what she gets (issue #10): the AFB split within the ±10 points the evaluation and the
teacher's note use, points that fit the minutes (0.6–1.6 per minute, the Klausur specialist's budget), a note with
the real split when the bank cannot meet it, and a quiz short of its count that says so without contradicting
itself. The requests were written for these tests before their output was seen (none is a content-suite case);
they are read by the chat's own reader and composed from the real seeded bank and generators with the AFB target
30/40/30."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from core.checks.promises import covers
from core.checks.views import views
from core.composition import service as svc
from core.composition.klausur import AFB_TOLERANZ
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.materials.blocks import AFB_STUFEN
from core.materials.request import MaterialRequest
from db.session import Identity
from tests.core.composition.exam_requests import exam_for

ZIEL = {"I": 30, "II": 40, "III": 30}


def _quiz(db: Session, text: str):
    e = extract(text, topic_terms=seeded_lexicon().terms)
    assert e.fach and e.thema and e.klassenstufe, e
    r = MaterialRequest(fach=e.fach, thema=e.thema, klassenstufe=e.klassenstufe, material_type="h5p",
                        unterthemen=list(e.unterthemen), zusatz=text, niveau=e.niveau)
    return svc.compose_quiz(db=db, identity=Identity.system(), fach=r.fach, themenfelder={}, request=r)


def _deviation(k) -> float:
    return max(abs(k.afb_anteile[a] - ZIEL[a]) for a in AFB_STUFEN)


@pytest.mark.parametrize(("text", "dauer", "parts"), [
    # the named part alone leaves the time unfilled: its tasks are chosen for the split, not only for the time
    # (was 13/48/38 — AFB I tasks on the Scheitelpunkt stayed unused while fill-up tasks were swapped around them)
    ("Klassenarbeit Mathe Klasse 10 quadratische Funktionen (Scheitelpunkt), 90 Minuten", 90, ["Scheitelpunkt"]),
    # 90 minutes of Geschichte tasks: the exam takes the tasks that give the minutes their points (was 50 P.)
    ("Klassenarbeit Geschichte Klasse 9 Weimarer Republik, 90 Minuten", 90, []),
    # since decision 066 an answer's „Scheitel“ is no Scheitelpunktform: the tasks on her parts fill 80 minutes, and
    # the „Quadratische Gleichungen lösen“ tasks that fill 90 come with her consent (043) — she gives it
    ("Klassenarbeit Mathe Klasse 10 Parabeln: Scheitelpunktform und Nullstellen, 90 Minuten, gern auffüllen", 90,
     ["Scheitelpunktform", "Nullstellen"]),
    ("Klassenarbeit Physik Klasse 8 Stromkreise (Reihenschaltung, Parallelschaltung), 45 Minuten", 45,
     ["Reihenschaltung", "Parallelschaltung"]),
])
def test_an_exam_meets_the_afb_split_and_its_points_fit_the_time(db: Session, text: str, dauer: int,
                                                                  parts: list[str]) -> None:
    comp = exam_for(db, text)
    k = comp.material
    assert k is not None and k.dauer_minuten == dauer
    shares = "/".join(f"{k.afb_anteile[a]:.0f}" for a in AFB_STUFEN)
    assert _deviation(k) <= AFB_TOLERANZ, shares
    assert not any("AFB-Verteilung" in h for h in k.hinweise_lehrkraft)
    assert 0.6 <= k.gesamtpunkte / k.dauer_minuten <= 1.6, f"{k.gesamtpunkte} Punkte in {k.dauer_minuten} Minuten"
    tasks = views(k)
    for part in parts:  # the split is never bought with a named part
        assert covers(tasks, part), part


def test_an_exam_the_bank_cannot_split_says_how_it_is_split_and_why(db: Session) -> None:
    """Elektrizität Kl. 9 has three AFB I tasks on the named parts (10 points): a full 90 minutes cannot reach 30 %;
    the note gives the real split. Since decision 043 tasks filed under other topics fill the 90 minutes only with
    the teacher's consent: the exam is full, or shorter with that offer."""
    comp = exam_for(db, "Klassenarbeit Physik Klasse 9 Elektrizität (Ohmsches Gesetz, elektrische Leistung), "
                        "90 Minuten")
    k = comp.material
    assert k is not None and (k.dauer_minuten == 90 or any(o.endswith("auffüllen") for o in comp.befund.optionen()))
    assert _deviation(k) > AFB_TOLERANZ  # the bank's limit, measured: if this fails, the bank grew — good news
    ist = "/".join(f"{k.afb_anteile[a]:.0f}" for a in AFB_STUFEN)
    note = next((h for h in k.hinweise_lehrkraft if h.startswith(f"AFB-Verteilung {ist} statt 30/40/30 %.")), "")
    assert f"AFB I nur {k.afb_anteile['I']:.0f} % (Ziel 30 %): " in note, k.hinweise_lehrkraft
    assert "Ergänzen Sie eine eigene Aufgabe auf AFB I oder streichen Sie eine Aufgabe auf AFB" in note


def test_a_quiz_still_short_after_filling_up_says_so_without_promising_the_count(db: Session) -> None:
    """Klasse 5 has one reviewed question on Nomen and none on Verben: filled up with one Pronomen question (she
    agreed to fill up, decision 043) it has 2 of 8; the notes say 2 of 8 and neither „damit es 8 Fragen sind“ nor
    „aufgefüllt wird nicht“."""
    s = _quiz(db, "H5P Deutsch Klasse 5 Nomen und Verben, 8 Fragen, gern auffüllen").material
    assert s is not None and len(s.fragen) < 8
    notes = " ".join(s.hinweise_lehrkraft)
    assert f"Nur {len(s.fragen)} statt 8 Fragen" in notes
    assert "Ergänzt um" in notes
    assert "damit es 8 Fragen sind" not in notes and "aufgefüllt wird nicht" not in notes
    assert "„Verben“" in notes  # the missing part is named
