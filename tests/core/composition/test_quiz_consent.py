"""Quizzes follow decision 043 like exams: questions on a neighbour part fill a quiz only with the teacher's consent.
The shorter quiz says „Kürzer als gewünscht: N statt M Fragen“ and offers to fill it up; choosing the offer gives the
filled quiz with the neighbour's questions named by number; too few questions give the options first, no stub.
Requests written for these tests (in no eval suite), composed from the real seeded bank."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from agents.offline import refusal
from core.composition import fill_up
from core.composition import service as svc
from core.composition.h5p import QuizComposition
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.materials.request import MaterialRequest
from db.session import Identity

LEHEN = "H5P-Quiz Geschichte Klasse 7 Mittelalter: Lehnswesen und Grundherrschaft, 10 Fragen"


def _quiz(db: Session, text: str, zusatz: str | None = None) -> QuizComposition:
    e = extract(text, topic_terms=seeded_lexicon().terms)
    r = MaterialRequest(
        fach=e.fach,
        thema=e.thema,
        klassenstufe=e.klassenstufe,
        material_type="h5p",
        unterthemen=list(e.unterthemen),
        zusatz=zusatz or text,
        niveau=e.niveau,
    )
    return svc.compose_quiz(db=db, identity=Identity.system(), fach=r.fach, themenfelder={}, request=r)


def _texts(comp: QuizComposition) -> list[str]:
    assert comp.material is not None
    return [getattr(f, "frage", None) or getattr(f, "text", "") for f in comp.material.fragen]


def test_lehnswesen_quiz_is_shorter_all_on_its_topic_and_offers_to_fill_up(db: Session) -> None:
    """Lead review request 4: the quiz got two Hanse questions and „Ergänzt um Fragen zu …“ without being asked."""
    comp = _quiz(db, LEHEN)
    fragen = _texts(comp)
    assert 4 <= len(fragen) < 10
    assert not [f for f in fragen if "Hanse" in f or "Karl" in f], fragen  # another topic's questions
    notes = comp.material.hinweise_lehrkraft
    assert not [n for n in notes if n.startswith("Ergänzt um")], notes
    assert notes[0].startswith(f"Kürzer als gewünscht: {len(fragen)} statt 10 Fragen"), notes
    assert "aufgefüllt wird nicht" not in " ".join(notes)
    options = comp.befund.optionen()
    assert options[0] == "die kürzere Übung so verwenden"
    offer = options[1]
    assert (
        refusal.kind_of(offer) == "fill"
        and offer.startswith("mit Fragen zu „")
        and offer.endswith("auf 10 Fragen auffüllen")
    ), options


def test_choosing_the_offer_gives_the_filled_quiz_with_the_neighbour_questions_named(db: Session) -> None:
    short = _quiz(db, LEHEN)
    options = short.befund.optionen()
    chosen = refusal.carry_out(options, 2, {"zusatz": LEHEN})
    assert chosen.args is not None and fill_up.CONSENT in chosen.args["zusatz"]
    filled = _quiz(db, LEHEN, chosen.args["zusatz"])
    fragen = _texts(filled)
    assert len(fragen) == 10
    assert set(_texts(short)) <= set(fragen)  # the short quiz, filled around: the quiz the offer named
    note = next(n for n in filled.material.hinweise_lehrkraft if n.startswith("Ergänzt um Fragen zu"))
    named = [int(x) for x in re.findall(r"\d+", note.split(":", 1)[1].split("(von")[0])]
    assert named and len(named) == 10 - len(_texts(short)), note
    new = [f for f in fragen if f not in set(_texts(short))]
    assert [fragen[i - 1] for i in named] == new, (note, fragen)
    assert "wie gewünscht" in note and "sondern zu diesem Nachbarthema" in note


def test_too_few_questions_give_the_options_first_not_a_stub_quiz(db: Session) -> None:
    """Klasse 5 has one reviewed question on Nomen and none on Verben: no one-question quiz, the options first."""
    text = "H5P Deutsch Klasse 5 Nomen und Verben, 8 Fragen"
    comp = _quiz(db, text)
    assert comp.material is None
    assert "zu wenig" in comp.befund.grund and "statt 8" in comp.befund.grund
    options = comp.befund.optionen()
    assert options[0].startswith("die kurze Fassung mit 1 Frage") and refusal.kind_of(options[0]) == "short"
    assert refusal.kind_of(options[1]) == "fill" and options[1].endswith("auf 8 Fragen auffüllen")
    assert not [o for o in options if o.endswith("so verwenden")]
    kurz = refusal.carry_out(options, 1, {"zusatz": text})
    assert kurz.args is not None
    assert len(_texts(_quiz(db, text, kurz.args["zusatz"]))) == 1  # she chose the short one: she gets it


def test_too_few_questions_on_her_focus_give_the_options_first_not_a_two_question_quiz(db: Session) -> None:
    """Blind review s24: „Elektromagnet und Elektromotor, 10 Fragen“ in Klasse 9 was handed out with 2 questions and
    a note, while the rest of the topic could serve. Below the stub line the short quiz is one option among them."""
    text = "H5P-Quiz Physik Klasse 9 Elektromagnet und Elektromotor, 10 Fragen"
    comp = _quiz(db, text)
    assert comp.material is None and comp.befund.stub
    n = comp.befund.geschafft_anzahl
    assert 0 < n < 4
    options = comp.befund.optionen()
    assert options[0] == fill_up.short_option_count(n), options
    assert any(o.startswith("das ganze Thema") for o in options), options
    kurz = refusal.carry_out(options, 1, {"zusatz": text})
    assert kurz.args is not None
    assert len(_texts(_quiz(db, text, kurz.args["zusatz"]))) == n  # she chose the short one: she gets it


def test_a_quiz_naming_the_sections_of_its_topic_title_fills_from_the_whole_topic(db: Session) -> None:
    """„Deutschland: Bundesländer und Großlandschaften“ restates the bank topic „Deutschland: Großlandschaften,
    Bundesländer und Flüsse“ — no focus on a part (decision 057): its other parts fill the quiz, labelled."""
    comp = _quiz(db, "H5P-Quiz Erdkunde Klasse 6 Deutschland: Bundesländer und Großlandschaften, 10 Fragen")
    assert len(_texts(comp)) == 10
    assert not [o for o in comp.befund.optionen() if refusal.kind_of(o) == "fill"], comp.befund.optionen()


def test_a_quiz_on_a_part_its_title_does_not_list_is_not_filled_from_the_other_parts(db: Session) -> None:
    """„Ökologie: Konkurrenz und ökologische Nische“ is one part of „Ökologie: Umweltfaktoren und Populationen“:
    the other parts are offered by name, not filled with a label (decision 057)."""
    comp = _quiz(db, "H5P-Quiz Biologie Klasse 12: Ökologie: Konkurrenz und ökologische Nische, 10 Fragen")
    notes = comp.material.hinweise_lehrkraft if comp.material else []
    assert not [n for n in notes if n.startswith("Ergänzt um")], notes
    offer = next(o for o in comp.befund.optionen() if refusal.kind_of(o) == "fill")
    assert offer.endswith("auf 10 Fragen auffüllen") and "Nische" not in offer, offer
