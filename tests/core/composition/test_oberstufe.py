"""Oberstufe exams (issue #10) are 2–3 connected Aufgaben, as in the Abitur: each around one material with
Teilaufgaben rising over the AFB, together filling the time — not a patchwork of short unrelated tasks. And at every
level no single Aufgabe carries 40 % or more of the points when the exam has three or more Aufgaben (unless it is the
one large material task of an Oberstufe exam). Requests are read by the chat's own reader and composed from the real
seeded bank; the requests were written before any output was seen."""

from __future__ import annotations

import re

import pytest
from sqlalchemy.orm import Session

from core.composition import fill_up
from core.composition.klausur import budget
from tests.core.composition.exam_requests import exam_for

# (request, why it is not yet the 2–3 connected Aufgaben — None when it is); a gap is a strict xfail: the
# bank lacks reviewed material units for it, and the exam's note says so (see the lead's report, issue #10)
CASES = [
    ("Klausur Deutsch GK 11 Gedichtanalyse Expressionismus (Großstadtlyrik), 135 Minuten", None),
    ("Klausur Englisch LK 12 The American Dream, Textanalyse und Kommentar, 180 Minuten", None),
    ("Klausur Geschichte GK 12 Kalter Krieg (Kubakrise, Mauerbau), 90 Minuten",
     "bank: since decision 043 the Dekolonisation unit („Blockfreie und Dritte Welt“) no longer fills a Kalter-Krieg "
     "exam; the on-topic units leave 80 % of the time and one Stellvertreterkriege task completes it (noted)"),
    ("Klausur Geschichte GK 12 Machtergreifung und Gleichschaltung, 135 Minuten", None),
    ("Klausur Deutsch LK 12 Gedichtvergleich Romantik, 135 Minuten", None),
    ("Klausur Erdkunde GK 11 Stadtentwicklung und Verstädterung, 90 Minuten", None),
    ("Klausur Biologie LK 13 Neurobiologie: Aktionspotential, Synapse, Synapsengifte, 180 Minuten",
     "bank (m10d): Neurobiologie materials have one task each"),
    ("Klausur Mathematik LK Q2 Kurvendiskussion von e-Funktionen und Integralrechnung, 180 Minuten", None),
    ("Klausur Deutsch GK 12 Faust, 135 Minuten", None),
]
OBERSTUFE = [text for text, _ in CASES]
STRUCTURE = [pytest.param(text, marks=pytest.mark.xfail(reason=gap, strict=True)) if gap else text
             for text, gap in CASES]


def _exam(db: Session, text: str):
    """The composition and the requested minutes; the exam must exist. Under the stub line the options come first
    and the teacher takes the short version („1“, decision 057)."""
    comp = exam_for(db, text)
    if comp.material is None and comp.befund.stub:
        comp = exam_for(db, f"{text} {fill_up.SHORT_OK}.")
    assert comp.material is not None, comp.befund.hinweise()
    return comp, comp.befund.gewuenscht_minuten


def _shorter_said(k) -> bool:
    return any(h.startswith(("Kürzer als gewünscht", "Knapp bemessen")) for h in k.hinweise_lehrkraft)


def _few_aufgaben_said(k) -> bool:
    return any("Aufgaben" in h and "Oberstufe" in h for h in k.hinweise_lehrkraft)


@pytest.mark.parametrize("text", STRUCTURE)
def test_an_oberstufe_exam_has_few_connected_aufgaben_that_fill_the_time(db: Session, text: str) -> None:
    comp, dauer = _exam(db, text)
    k = comp.material
    # few Aufgaben — or the teacher is told why there are more
    assert len(k.aufgaben) <= 4 or _few_aufgaben_said(k), [a.titel for a in k.aufgaben]
    # every Aufgabe rises over at least two AFB: a one-liner is no Abitur-style Aufgabe
    for a in k.aufgaben:
        assert len({t.afb for t in a.teilaufgaben}) >= 2, (a.titel, [t.afb for t in a.teilaufgaben])
    # the time is filled, or the exam says honestly that it is shorter
    assert comp.selection.minuten >= 0.9 * budget(dauer) or _shorter_said(k), (comp.selection.minuten, dauer)


@pytest.mark.parametrize("text", OBERSTUFE)
def test_no_aufgabe_dominates_an_oberstufe_exam_of_three_or_more(db: Session, text: str) -> None:
    k = _exam(db, text)[0].material
    if len(k.aufgaben) < 3:
        return  # two large Aufgaben may well be 60/40
    heavy = [a for a in k.aufgaben if a.punkte >= 0.4 * k.gesamtpunkte]
    # at most the one large material task may carry that much
    assert len(heavy) <= 1, [(a.titel, a.punkte) for a in heavy]
    assert all(a.materialien for a in heavy), [(a.titel, a.punkte, k.gesamtpunkte) for a in heavy]


def test_an_analysis_request_gets_the_large_material_task(db: Session) -> None:
    """„Gedichtvergleich Romantik“: the bank's comparison of Eichendorff's „Sehnsucht“ and „Mondnacht“ (or another
    poem comparison) is an Aufgabe of its own with both poems printed — not only short single-poem tasks."""
    k = _exam(db, "Klausur Deutsch LK 12 Gedichtvergleich Romantik, 135 Minuten")[0].material
    comparisons = [a for a in k.aufgaben if len([m for m in a.materialien if m.art == "gedicht"]) >= 2
                   and any(re.match(r"(?i)vergleiche", t.text) or "vergleich" in t.text.casefold()
                           for t in a.teilaufgaben)]
    assert comparisons, [(a.titel, [m.titel for m in a.materialien]) for a in k.aufgaben]
    assert max(a.punkte for a in comparisons) >= 20


@pytest.mark.parametrize("text", [
    "Klassenarbeit Physik für die 10a zu Stromkreisen, 45 Minuten",
    "Klassenarbeit Mathematik Klasse 8 Lineare Funktionen, 45 Minuten",
    "Klassenarbeit Chemie Klasse 8 Atombau, 45 Minuten",
    "Klassenarbeit Geschichte Klasse 9 Weimarer Republik, 45 Minuten",
    "Klassenarbeit Deutsch Klasse 7 Balladen, 90 Minuten",
])
def test_no_aufgabe_carries_forty_percent_in_a_sek_i_exam_of_three_or_more(db: Session, text: str) -> None:
    k = _exam(db, text)[0].material
    if len(k.aufgaben) < 3:
        return
    heavy = [(a.titel, a.punkte) for a in k.aufgaben if a.punkte >= 0.4 * k.gesamtpunkte]
    assert not heavy, (heavy, k.gesamtpunkte)


@pytest.mark.parametrize("text", [
    "Klausur Englisch LK 12 The American Dream, Textanalyse und Kommentar, 180 Minuten",
    "Englisch Klausur GK Q1 Globalisation: comprehension, analysis and comment, 135 Minuten",
    "Klausur Englisch LK Q2 Shakespeare, 180 Minuten",
    "Klausur Deutsch LK Q2 Expressionismus, Gedichtinterpretation, 180 Minuten",
])
def test_a_language_exam_has_one_aufgabe_per_text_unless_a_comparison_is_asked(db: Session, text: str) -> None:
    """Abitur shape (#10): comprehension, analysis and evaluation on one text are the Teilaufgaben of its Aufgabe; a
    second text is a second Aufgabe — not one Aufgabe of five parts over two texts. Only a comparison that is asked
    for joins two texts in one Aufgabe."""
    k = _exam(db, text)[0].material
    texts = [a for a in k.aufgaben if a.materialien]
    assert texts, [a.titel for a in k.aufgaben]
    for a in texts:
        assert len(a.materialien) == 1 or "vergleich" in text.casefold(), (a.titel, [m.titel for m in a.materialien])
        assert len(a.teilaufgaben) <= 4, (a.titel, [t.text[:40] for t in a.teilaufgaben])
        assert len({t.afb for t in a.teilaufgaben}) >= 2, (a.titel, [t.afb for t in a.teilaufgaben])
