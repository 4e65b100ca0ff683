"""Decision 068 through the real chat (offline engine, demo teacher in Sachsen): a topic only Mathematik teaches is
not asked about its Fach; a Deutsch LK without a year is the first year of the Q-phase, the reply says so, and another
year named afterwards is taken; „Bewegung im Sport“ is no heat worksheet because „Transport“ ends in „sport“;
a topic for Klasse 9 with checked items only for the Oberstufe is refused with that said — no Oberstufe tasks for a
ninth grade. (Decision 068 showed it with „Revolution in Russland“; the bank has Klasse-9/10 items on the Russian
Revolution since s8, so „Dekolonisation“, still Oberstufe only, carries the test.)"""

from __future__ import annotations

import json
import re
import uuid

from sqlalchemy.orm import Session

from db.repos.materials import get_material
from tests.core.chat.test_request_chat import chat


def test_teilbarkeitsregeln_are_mathematik_without_asking_the_fach(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Arbeitsblatt Klasse 6 Teilbarkeitsregeln")
    made = results[-1]
    assert "welches Fach" not in made.reply, made.reply
    assert args is not None and args["fach"] == "mathematik" and args["klassenstufe"] == 6, args
    assert made.material_id, made.reply
    row = get_material(db=db, material_id=uuid.UUID(made.material_id))
    assert row.fach == "mathematik" and "Teilbarkeit" in row.titel, row.titel


def test_a_deutsch_lk_without_a_year_is_the_first_q_year_and_the_reply_says_so(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klausur Deutsch LK Expressionismus, 180 Minuten")
    reply = results[-1].reply
    assert "Jahrgangsstufe –" not in reply and "welche Klasse" not in reply, reply
    # Sachsen counts its Oberstufe as Jahrgangsstufen 11 and 12: the LK is taken for 11, and she reads it
    assert args is not None and (args["klassenstufe"], args["niveau"]) == (11, "erhoeht"), args
    assert "Jahrgangsstufe 11 angenommen" in reply and "Jahrgangsstufe 12" in reply, reply


def test_naming_the_other_year_after_the_assumed_one_makes_it_for_that_year(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Quiz für den Bio-LK zur Proteinbiosynthese, 10 Fragen", "Jahrgangsstufe 12")
    first, second = results
    assert "Jahrgangsstufe 11 angenommen" in first.reply and first.material_id, first.reply
    # the reply promised „Für Jahrgangsstufe 12 sagen Sie einfach Bescheid“: she says it, and gets it
    assert args is not None and (args["klassenstufe"], args["thema"]) == (12, "Proteinbiosynthese"), args
    assert second.material_id and second.material_id != first.material_id, second.reply
    assert get_material(db=db, material_id=uuid.UUID(second.material_id)).klassenstufe == 12


def test_bewegung_im_sport_is_no_heat_worksheet(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Arbeitsblatt Physik Klasse 8 Bewegung im Sport")
    made = results[-1]
    assert args is not None and args["thema"] == "Bewegung im Sport", args
    said = made.reply
    if made.material_id:
        said += json.dumps(get_material(db=db, material_id=uuid.UUID(made.material_id)).content, ensure_ascii=False)
    # before decision 068 the sheet was on Aggregatzustände: „Wärmetransport“ holds the letters of „Sport“
    assert not re.search(r"Aggregatzust|Teilchenmodell|Wärmetransport|Schmelzen|Verdampfen", said), said[:600]


def test_dekolonisation_for_klasse_9_says_only_the_oberstufe_has_items(db: Session, as_teacher) -> None:  # noqa: ANN001
    results, args = chat(db, as_teacher, "Klausur Geschichte Klasse 9 Dekolonisation, 45 Minuten")
    made = results[-1]
    assert args is not None and args["klassenstufe"] == 9, args
    assert not made.material_id, "an exam of Oberstufe tasks was handed to a ninth grade"
    assert "nur für die Oberstufe" in made.reply and "keine für Klasse 9" in made.reply, made.reply
    assert "Kalter Krieg und Dekolonisation" in made.reply, made.reply  # the topic the bank holds, by its name
    assert "(1)" in made.reply, made.reply  # with options, as every refusal (decisions 041/043)
