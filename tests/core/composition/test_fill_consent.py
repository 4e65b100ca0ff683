"""Fill-up serves the named topic (decision 043): when the tasks on what the teacher asked for do not fill the time,
the exam is shorter, says for how many minutes its tasks are, and offers to fill up with the named neighbour; choosing
that offer gives the filled exam, whose note names the neighbour's tasks. A request for the whole topic keeps all its
parts. Requests written for these tests (in no eval suite), composed from the real seeded bank."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from agents.offline import refusal, shortfall
from core.composition import fill_up
from core.composition import service as svc
from core.composition.klausur import Composition
from core.materials.request import MaterialRequest
from db.session import Identity
from tests.core.composition.exam_requests import exam_for

DEZIMAL = "Klassenarbeit Mathematik Klasse 6: Dezimalzahlen (Runden und Rechnen mit Dezimalzahlen), 45 Minuten"
FRACTION_PARTS = re.compile(r"Br(ü|ue)che|Bruch")


def _compose(db: Session, args: dict) -> Composition:
    request = MaterialRequest(**args)
    return svc.compose_exam(db=db, identity=Identity.system(), teacher_id=None, fach=request.fach, themenfelder={},
                            request=request, afb_ziel={"I": 30, "II": 40, "III": 30}, operators=[])


def _args(text: str) -> dict:
    from core.language.lexicon import seeded_lexicon
    from core.language.request.extract import extract

    e = extract(text, topic_terms=seeded_lexicon().terms)
    return {"fach": e.fach, "thema": e.thema, "klassenstufe": e.klassenstufe, "material_type": "klausur",
            "dauer_minuten": e.dauer_minuten, "unterthemen": list(e.unterthemen), "zusatz": text}


def test_decimals_are_not_filled_with_fractions_the_exam_is_shorter_and_offers_to_fill_up(db: Session) -> None:
    comp = exam_for(db, DEZIMAL)
    k = comp.material
    assert k is not None
    # all on the named topic: no task filed under a fraction part of „Brüche und Dezimalzahlen“
    assert not [c.unterthema for c in comp.selection.chosen if FRACTION_PARTS.search(c.unterthema)]
    # the time planned is the tasks' time, and the note says so in plain numbers
    assert k.dauer_minuten < 45
    time_notes = [h for h in k.hinweise_lehrkraft if "statt 45 Minuten" in h]  # one note on the time, not two
    assert len(time_notes) == 1 and time_notes[0].startswith(
        f"Kürzer als gewünscht: ausgelegt auf {k.dauer_minuten} statt 45 Minuten")
    assert "aufgefüllt wird nicht" not in " ".join(k.hinweise_lehrkraft)  # beside the offer to fill it up
    assert f"Bearbeitungszeit: {k.dauer_minuten} Minuten" in k.hinweise[0]
    options = comp.befund.optionen()
    offer = next(o for o in options if refusal.kind_of(o) == "fill")
    assert offer.endswith("auf 45 Minuten auffüllen") and FRACTION_PARTS.search(offer), offer
    assert not [c.unterthema for c in comp.selection.chosen if f"„{c.unterthema}“" in offer]  # no part it has
    assert options[0] == "die kürzere Klassenarbeit so verwenden"


def test_choosing_the_offer_gives_the_filled_exam_with_the_neighbours_tasks_named(db: Session) -> None:
    args = _args(DEZIMAL)
    short = _compose(db, args)
    options = tuple(short.befund.optionen())
    number = next(i for i, o in enumerate(options, 1) if refusal.kind_of(o) == "fill")
    named = re.findall(r"„([^“]+)“", options[number - 1])
    # the teacher answers „2“ under the finished exam: the same request, with her consent
    call = shortfall.answer(str(number), options, args).parts[0]
    assert call.tool_name == "generate_material"
    chosen = call.args_as_dict()
    assert fill_up.consents(chosen["zusatz"])
    filled = _compose(db, chosen)
    k = filled.material
    assert k is not None and k.dauer_minuten == 45
    # what came in is exactly the neighbour the offer named; every other task is still on the named topic
    added = [c for c in filled.selection.chosen if c.unterthema in named]
    assert added and {c.unterthema for c in added} == set(named)
    assert not [c.unterthema for c in filled.selection.chosen if c not in added and FRACTION_PARTS.search(c.unterthema)]
    note = next(h for h in k.hinweise_lehrkraft if h.startswith("Ergänzt um Aufgaben zu"))
    assert all(f"„{n}“" in note for n in named) and "wie gewünscht" in note
    assert f"({sum(c.punkte for c in added)} von {k.gesamtpunkte} Punkten)" in note
    assert not filled.befund.optionen()  # filled: nothing left to offer


def test_a_whole_topic_request_uses_all_its_parts_without_an_offer(db: Session) -> None:
    comp = exam_for(db, "Klassenarbeit Mathematik Klasse 6: Brüche und Dezimalzahlen, 45 Minuten")
    k = comp.material
    assert k is not None and k.dauer_minuten == 45
    parts = {c.unterthema for c in comp.selection.chosen}
    assert "Dezimalzahlen" in parts and any(FRACTION_PARTS.search(p) or "Kürzen" in p for p in parts), parts
    assert not any(refusal.kind_of(o) == "fill" for o in comp.befund.optionen())


def test_too_little_on_topic_gives_the_options_first_and_the_short_exam_on_request(db: Session) -> None:
    args = {**_args(DEZIMAL.replace("45 Minuten", "90 Minuten"))}
    comp = _compose(db, args)
    assert comp.material is None  # not a 30-minute stub for a 90-minute Klassenarbeit
    assert re.search(r"nur geprüfte Aufgaben für ca\. \d+ der 90 Minuten", comp.befund.grund)
    options = tuple(comp.befund.optionen())
    assert refusal.kind_of(options[0]) == "short" and refusal.kind_of(options[1]) == "fill", options
    assert not any(o.endswith("so verwenden") for o in options)
    # „1“ after the refusal: the short exam after all, all on topic
    short = refusal.carry_out(options, 1, args)
    assert short.args is not None and fill_up.short_ok(short.args["zusatz"])
    k = _compose(db, short.args).material
    assert k is not None and k.dauer_minuten < 45
    assert refusal.chosen("auffüllen bitte", options) == 2


def test_consent_is_read_from_the_teachers_words() -> None:
    assert fill_up.consents("Klassenarbeit Dezimalzahlen, gern mit anderen Themen auffüllen")
    assert fill_up.consents(f"Dezimalzahlen 45 Minuten {fill_up.CONSENT}.")
    assert not fill_up.consents("bitte nicht mit anderen Themen auffüllen")
    assert not fill_up.consents("Klassenarbeit Dezimalzahlen, 45 Minuten")
    # the choice changes the pool, never the tie-break: the exam she chose is the one the offer named
    assert fill_up.without_choice(f"Dezimalzahlen (Runden) {fill_up.CONSENT}.") == "Dezimalzahlen (Runden)"
