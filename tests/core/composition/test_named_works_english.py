"""Named English works, and quizzes and worksheets on a named work (decision 070): the exam, quiz or sheet holds only
that work's items, or says plainly that the bank has none and which works it has. Requests written for these tests
(in no eval suite); the chat tests run the real offline chat on the real seeded bank."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy.orm import Session

from core.composition import works
from core.materials.blocks import MaterialBlock
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest
from db.repos.materials import get_material
from tests.core.chat.test_request_chat import chat
from tests.core.composition.exam_requests import exam_for, lgs_task

SHAKESPEARE = "William Shakespeare: "
# (art, title, source) as the bank prints them; the texts play no part in which work a material is
BLOCKS = {
    "a": (
        "drama",
        f"{SHAKESPEARE}As You Like It, Act 2, Scene 7 (Jaques: 'All the world's a stage')",
        f"{SHAKESPEARE}As You Like It (um 1599), II.7 (gemeinfrei); Annotations selbst verfasst",
    ),
    "s": ("gedicht", f"{SHAKESPEARE}Sonnet 18 (1609)", f"{SHAKESPEARE}Shake-speares Sonnets, 1609"),
    "m": (
        "drama",
        f"{SHAKESPEARE}Macbeth, Act 5, Scene 5 (Macbeth hears that the Queen is dead)",
        f"{SHAKESPEARE}Macbeth (um 1606), V.5 (gemeinfrei)",
    ),
    "f": (
        "prosa",
        "Mary Shelley: Frankenstein; or, The Modern Prometheus (1831 edition), Chapter 5 (extract)",
        "Mary Shelley (1797–1851): Frankenstein (1831)",
    ),
}
MATERIAL = {
    k: MaterialBlock(art=art, titel=titel, text="…", quelle=quelle) for k, (art, titel, quelle) in BLOCKS.items()
}
# which works a request names is read from the tasks' materials alone (their topic plays no part)
POOL = [lgs_task(k, "…", b) for k, b in MATERIAL.items()]

# what only the bank's other Shakespeare texts print
OTHER_SHAKESPEARE = ("Sonnet 18", "summer's day", "Romeo", "Juliet", "Macbeth", "Tomorrow, and tomorrow")


@pytest.mark.parametrize(
    ("text", "title"),
    [
        (
            "Englisch Klausur Kl. 11 GK: Shakespeare, ‚All the world's a stage‘ (As You Like It) – analysis",
            "As You Like It",
        ),
        ("Quiz zu ‘All the world’s a stage’", "As You Like It"),  # English quotes, the apostrophe is no quote
        ('Arbeitsblatt zu "All the world\'s a stage"', "As You Like It"),
        ("Klausur zu Shakespeare's Macbeth", "Macbeth"),
        ("Shakespeares Sonnet 18", "Sonnet 18"),
        ("Mary Shelley's Frankenstein", "Frankenstein"),  # the subtitle after „;“ is not part of the title
        ("the poem “The Road Not Taken” by Robert Frost", "The Road Not Taken"),  # not in the bank: still named
        ("Frost's ‘The Road Not Taken’ – analysis", "The Road Not Taken"),
        ("Shakespeare's sonnets", None),  # a genre of the author names no one work
        ("Shakespeare – analysis of a scene plus creative writing", None),
        ("Vergleich von ‚Macbeth‘ und ‚Sonnet 18‘", None),  # two works: a comparison
    ],
)
def test_an_english_request_names_a_work(text: str, title: str | None) -> None:
    found = works.named_work(MaterialRequest(fach="englisch", thema=text, material_type="klausur", zusatz=text), POOL)
    assert (found[0].title if found else None) == title


def test_a_real_work_with_own_annotations_keeps_its_author() -> None:
    """„Annotations selbst verfasst“ does not make Shakespeare's speech a text written for the bank."""
    work = works.work_of(MATERIAL["a"])
    assert work is not None and work.author == "William Shakespeare"
    assert work.aliases == ("All the world's a stage",)


def _printed(k: Klausur) -> str:
    return " ".join(
        [
            *(b.titel for a in k.aufgaben for b in a.materialien),
            *(b.text or "" for a in k.aufgaben for b in a.materialien),
            *(t.text for a in k.aufgaben for t in a.teilaufgaben),
        ]
    )


def test_the_speech_exam_is_all_on_the_speech(db, as_teacher) -> None:  # noqa: ANN001
    """The lead's case: the exam on Jaques' speech set Sonnet 18 and Romeo and Juliet under its title, no word."""
    results, _ = chat(
        db,
        as_teacher,
        "Englisch Klausur Kl. 11 GK: Shakespeare, ‚All the world's a stage‘ (As You Like It) – analysis",
        "90 Minuten",
        "30/40/30",
    )
    last = next(r for r in results if r.material_id)
    k = Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(str(last.material_id))).content)
    printed = _printed(k)
    assert "All the world's a stage" in k.titel and "seven ages" in printed
    assert not any(w in printed for w in OTHER_SHAKESPEARE), printed


def test_a_shakespeare_play_exam_is_on_that_play_and_offers_the_others_by_name(db: Session) -> None:
    comp = exam_for(db, "Englisch Klausur Klasse 12: Shakespeare's Macbeth, 90 Minuten")
    k = comp.material
    assert k is not None, comp.befund.grund
    printed = _printed(k)
    assert "Macbeth" in k.titel and "Tomorrow, and tomorrow" in printed
    assert not any(w in printed for w in ("summer's day", "Juliet", "seven ages")), printed
    if k.dauer_minuten < 90:  # shorter: the note names the works she may fill it up with
        note = " ".join(k.hinweise_lehrkraft)
        assert "Kürzer als gewünscht" in note and "„Romeo and Juliet“" in note, note


def test_a_quiz_on_the_speech_holds_only_questions_on_it(db, as_teacher) -> None:  # noqa: ANN001
    """The quiz on Jaques' speech held questions on sonnets, Romeo and Juliet and the Globe under the speech's title."""
    results, _ = chat(db, as_teacher, "Englisch Klasse 11: H5P-Quiz zu ‚All the world's a stage‘")
    last = results[-1]
    if last.material_id is None:  # too few questions for a full quiz: she hears that, on the speech, and chooses
        assert "All the world's a stage" in last.reply and "Fragen" in last.reply, last.reply
        return
    quiz = H5PSet.model_validate(get_material(db=db, material_id=uuid.UUID(str(last.material_id))).content)
    shown = " ".join(f.model_dump_json() for f in quiz.fragen)
    assert quiz.fragen and "All the world's a stage" in quiz.titel
    assert "Jaques" in shown and not any(w in shown for w in ("sonnet", "Romeo", "Macbeth", "Globe")), shown
    if len(quiz.fragen) < 10:  # fewer than a full quiz: said, and nothing filled in from other works
        assert "Nur" in last.reply and "aufgefüllt wird nicht" in last.reply, last.reply


def _sheet(db: Session, material_id: object) -> DifferenziertesMaterial:
    return DifferenziertesMaterial.model_validate(get_material(db=db, material_id=uuid.UUID(str(material_id))).content)


def test_a_worksheet_on_the_speech_is_on_the_speech(db, as_teacher) -> None:  # noqa: ANN001
    """The Macbeth sheet came out under the speech's title."""
    results, _ = chat(db, as_teacher, "Englisch Klasse 11: differenziertes Arbeitsblatt zu ‚All the world's a stage‘")
    last = results[-1]
    assert last.material_id is not None, last.reply
    sheet = _sheet(db, last.material_id)
    assert [m.titel for m in sheet.materialien] == [MATERIAL["a"].titel]
    assert "All the world's a stage" in sheet.titel and "seven ages" in sheet.model_dump_json()
    assert not any(w in sheet.model_dump_json() for w in OTHER_SHAKESPEARE)


def test_a_worksheet_on_a_play_the_bank_has_no_sheet_on_says_so(db, as_teacher) -> None:  # noqa: ANN001
    """The bank has three-level tasks on Sonnet 18, Macbeth and Jaques' speech, none on Romeo and Juliet."""
    results, _ = chat(db, as_teacher, "Englisch Klasse 11: differenziertes Arbeitsblatt zu ‚Romeo and Juliet‘")
    last = results[-1]
    assert last.material_id is None, last.reply
    assert "„Romeo and Juliet“" in last.reply and "keine geprüften Aufgaben" in last.reply, last.reply
    assert "„Macbeth“" in last.reply and "„Sonnet 18“" in last.reply, last.reply  # the works it does have
    assert "Hochladen" in last.reply, last.reply


def test_a_worksheet_on_sonnet_18_is_on_the_sonnet(db, as_teacher) -> None:  # noqa: ANN001
    results, _ = chat(db, as_teacher, "Englisch Klasse 11: differenziertes Arbeitsblatt zu Shakespeares Sonnet 18")
    last = results[-1]
    assert last.material_id is not None, last.reply
    sheet = _sheet(db, last.material_id)
    assert [m.titel for m in sheet.materialien] == ["William Shakespeare: Sonnet 18 (1609)"]
    assert "Sonnet 18" in sheet.titel and "Macbeth" not in sheet.model_dump_json()


def test_a_quiz_on_a_german_work_the_bank_lacks_says_so(db, as_teacher) -> None:  # noqa: ANN001
    """Storm's „Der Schimmelreiter“ has no reviewed question: a quiz on Realism that mentions it is not one on it."""
    results, _ = chat(db, as_teacher, "Deutsch Klasse 11: Quiz zur Novelle ‚Der Schimmelreiter‘")
    last = results[-1]
    assert last.material_id is None, last.reply
    assert "„Der Schimmelreiter“" in last.reply and "keine geprüften Fragen" in last.reply, last.reply


def test_a_quiz_on_a_novel_leaves_out_the_rest_of_its_genre(db, as_teacher) -> None:  # noqa: ANN001
    """„Dystopian fiction“ prints only Orwell's novel, yet its questions on Huxley and More are not on Orwell."""
    results, _ = chat(db, as_teacher, "Englisch Klasse 12: Quiz zu Orwells Nineteen Eighty-Four")
    last = results[-1]
    if last.material_id is None:  # too few for a full quiz: she hears that, on the novel
        assert "Nineteen Eighty-Four" in last.reply, last.reply
        return
    quiz = H5PSet.model_validate(get_material(db=db, material_id=uuid.UUID(str(last.material_id))).content)
    shown = " ".join(f.model_dump_json() for f in quiz.fragen)
    assert "Nineteen Eighty-Four" in shown and not any(w in shown for w in ("Huxley", "Thomas More")), shown
