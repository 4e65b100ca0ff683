"""Domain models: computed totals and AFB shares, a Notenschlüssel no model can supply, round trips, descriptions."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from core.materials.blocks import Quelle
from core.materials.differenzierung import DifferenziertesMaterial, Niveau
from core.materials.h5p import (
    BlanksFrage,
    DragTextFrage,
    H5PSet,
    Luecke,
    MultiChoiceFrage,
    TrueFalseFrage,
    zerlege_lueckentext,
)
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from core.materials.notenschluessel import NotenSchema, compute_notenschluessel
from core.materials.replies import ClarificationRequest
from core.materials.request import AfbWunsch, MaterialRequest

OPERATOREN = {
    "Nennen": "I",
    "Angeben": "I",
    "Beschreiben": "I",
    "Berechnen": "II",
    "Erklären": "II",
    "Erläutern": "II",
    "Ermitteln": "II",
    "Beurteilen": "III",
    "Bewerten": "III",
}
AFB_ZIEL = {"I": 30, "II": 40, "III": 30}


def teil(label: str, operator: str, text: str, afb: str, *kriterien: int, quellen: list[Quelle] | None = None):
    return Teilaufgabe(
        label=label,
        operator=operator,
        text=text,
        afb=afb,
        punkte=sum(kriterien),
        erwartung=[Kriterium(text=f"Kriterium {label}{i}: {text[:20]}", punkte=p) for i, p in enumerate(kriterien, 1)],
        quellen=quellen or [],
    )


def make_klausur(**changes) -> Klausur:
    """A valid 45-minute physics exam for the 10a: 40 points, AFB 12/16/12 (30/40/30 %)."""
    lehrplan = Quelle(art="curriculum", ref="lp-physik-10-3", titel="Kompetenz: Ohmsches Gesetz anwenden")
    data = {
        "titel": "2. Klassenarbeit: Elektrische Stromkreise",
        "fach": "Physik",
        "klassenstufe": 10,
        "klasse": "10a",
        "thema": "E-Lehre: Stromkreise und Induktion",
        "dauer_minuten": 45,
        "niveau": "Sek I",
        "hilfsmittel": ["Taschenrechner", "Formelsammlung"],
        "hinweise": ["Gib bei Rechnungen immer den Rechenweg und die Einheiten an."],
        "aufgaben": [
            Aufgabe(
                nummer=1,
                titel="Ohmsches Gesetz",
                material="Messwerte: U = 6 V, I = 0,3 A",
                teilaufgaben=[
                    teil("a", "Nennen", "Nenne das Ohmsche Gesetz.", "I", 2, 2, quellen=[lehrplan]),
                    teil("b", "Berechnen", "Berechne den Widerstand aus den Messwerten.", "II", 3, 3,
                         quellen=[lehrplan]),
                ],
            ),
            Aufgabe(
                nummer=2,
                titel="Reihenschaltung",
                teilaufgaben=[
                    teil("a", "Beschreiben", "Beschreibe den Aufbau einer Reihenschaltung.", "I", 4, 4),
                    teil("b", "Erklären", "Erkläre, warum die Stromstärke überall gleich ist.", "II", 5, 5),
                ],
            ),
            Aufgabe(
                nummer=3,
                titel="Induktion",
                teilaufgaben=[
                    teil("a", "Beurteilen", "Beurteile, ob die Induktionsspannung für eine Fahrradlampe reicht.",
                         "III", 4, 4, 4, quellen=[Quelle(art="good_practice", ref="gp-17", titel="Fahrraddynamo")]),
                ],
            ),
        ],
    }
    data.update(changes)
    return Klausur(**data)


def test_totals_and_afb_points_are_computed_from_the_subtasks():
    k = make_klausur()
    assert k.gesamtpunkte == 40
    assert k.afb_punkte == {"I": 12, "II": 16, "III": 12}
    assert k.afb_anteile == {"I": 30.0, "II": 40.0, "III": 30.0}
    assert [a.punkte for a in k.aufgaben] == [10, 18, 12]


def test_afb_shares_are_rounded_to_one_decimal_and_add_up_to_exactly_100():
    k = make_klausur(aufgaben=[
        Aufgabe(nummer=1, titel="x", teilaufgaben=[
            teil("a", "Nennen", "Nenne A.", "I", 1),
            teil("b", "Erklären", "Erkläre B.", "II", 1),
            teil("c", "Beurteilen", "Beurteile C.", "III", 1),
        ])
    ])
    assert sorted(k.afb_anteile.values()) == [33.3, 33.3, 33.4]
    assert sum(k.afb_anteile.values()) == pytest.approx(100.0)


def test_exam_without_points_has_zero_shares_and_no_grading_key():
    k = make_klausur(aufgaben=[])
    assert k.gesamtpunkte == 0
    assert k.afb_anteile == {"I": 0.0, "II": 0.0, "III": 0.0}
    assert k.notenschluessel == []


def test_notenschluessel_is_computed_from_points_and_schema():
    k = make_klausur()
    assert k.notenschema.art == "sek1_6"
    assert k.notenschluessel == compute_notenschluessel(40, k.notenschema)
    assert k.notenschluessel[0].note == "1" and k.notenschluessel[0].max_punkte == 40


def test_a_model_cannot_supply_the_notenschluessel_or_the_totals():
    k = make_klausur()
    forged = k.model_dump()
    forged["notenschluessel"] = [{"note": "1", "label": "sehr gut", "min_punkte": 0, "max_punkte": 40, "ab_prozent": 0}]
    forged["gesamtpunkte"] = 999
    forged["afb_anteile"] = {"I": 100.0, "II": 0.0, "III": 0.0}
    parsed = Klausur.model_validate(forged)
    assert parsed.gesamtpunkte == 40
    assert parsed.notenschluessel == k.notenschluessel
    assert parsed.afb_anteile == {"I": 30.0, "II": 40.0, "III": 30.0}
    offered = Klausur.model_json_schema()["properties"]  # what an LLM sees for structured output
    assert not {"notenschluessel", "gesamtpunkte", "afb_punkte", "afb_anteile"} & set(offered)


def test_klausur_round_trips_through_json_with_computed_fields_in_the_dump():
    k = make_klausur()
    dumped = k.model_dump_json()
    assert '"notenschluessel"' in dumped and '"gesamtpunkte":40' in dumped
    assert Klausur.model_validate_json(dumped) == k


def test_default_notenschema_follows_klassenstufe_and_niveau():
    assert make_klausur(klassenstufe=12, niveau="eA").notenschema.art == "oberstufe_15"
    assert make_klausur(klassenstufe=11, niveau="Sek I").notenschema.art == "oberstufe_15"
    assert make_klausur(klassenstufe=8, niveau="Sek I").notenschema.art == "sek1_6"
    own = NotenSchema(art="sek1_6", schwellen_prozent=[95, 85, 70, 55, 35])
    assert make_klausur(notenschema=own).notenschluessel[0].min_punkte == 38  # 95 % of 40


@pytest.mark.parametrize(
    ("field", "value"),
    [("klassenstufe", 4), ("klassenstufe", 14), ("dauer_minuten", 0), ("niveau", "Oberstufe")],
)
def test_klausur_rejects_impossible_metadata(field, value):
    with pytest.raises(ValidationError):
        make_klausur(**{field: value})


def test_subtask_needs_criteria_and_positive_points():
    with pytest.raises(ValidationError):
        Teilaufgabe(label="a", operator="Nennen", text="Nenne.", afb="I", punkte=2, erwartung=[])
    with pytest.raises(ValidationError):
        Kriterium(text="x", punkte=0)
    with pytest.raises(ValidationError):
        Teilaufgabe(label="a", operator="Nennen", text="Nenne.", afb="IV", punkte=1,
                    erwartung=[Kriterium(text="x", punkte=1)])


def test_klausur_sources_are_deduplicated_with_the_subtasks_using_them():
    k = make_klausur()
    k.aufgaben[0].teilaufgaben[1].label = "b)"  # models sometimes write the bracket; references stay '1b'
    assert [(q.ref, refs) for q, refs in k.quellen()] == [("lp-physik-10-3", ["1a", "1b"]), ("gp-17", ["3a"])]


def _all_models() -> list[type[BaseModel]]:
    return [Quelle, Kriterium, Teilaufgabe, Aufgabe, Klausur, ClarificationRequest, Niveau, DifferenziertesMaterial,
            MultiChoiceFrage, TrueFalseFrage, BlanksFrage, DragTextFrage, H5PSet, AfbWunsch, MaterialRequest,
            NotenSchema]


@pytest.mark.parametrize("model", _all_models(), ids=lambda m: m.__name__)
def test_every_field_has_a_description_for_the_model(model):
    missing = [name for name, field in model.model_fields.items() if not field.description]
    assert missing == []


def test_h5p_questions_are_a_union_discriminated_by_typ():
    s = H5PSet.model_validate({
        "titel": "Quiz", "fach": "Erdkunde", "klassenstufe": 6, "thema": "Europa",
        "fragen": [
            {"typ": "multichoice", "frage": "Hauptstadt?", "antworten": [{"text": "Oslo", "korrekt": True},
                                                                        {"text": "Bergen", "korrekt": False}]},
            {"typ": "truefalse", "frage": "Oslo liegt in Norwegen.", "wahr": True},
            {"typ": "blanks", "text": "Die Hauptstadt ist *Oslo*."},
            {"typ": "dragtext", "text": "*Oslo* ist eine Stadt."},
        ],
    })
    assert [type(f) for f in s.fragen] == [MultiChoiceFrage, TrueFalseFrage, BlanksFrage, DragTextFrage]
    assert H5PSet.model_validate_json(s.model_dump_json()) == s
    with pytest.raises(ValidationError):
        H5PSet.model_validate({"titel": "Q", "fach": "E", "klassenstufe": 6, "thema": "x",
                               "fragen": [{"typ": "essay", "frage": "?"}]})


def test_cloze_syntax_follows_h5p_alternatives_and_tips():
    assert BlanksFrage(text="Die *Tür/Türe:Eingang* ist zu, *ja*.").luecken() == [
        Luecke(("Tür", "Türe"), "Eingang"),
        Luecke(("ja",), None),
    ]
    # DragText has one answer per gap, so '/' is part of the word there.
    assert DragTextFrage(text="*km/h* ist eine Einheit.").luecken() == [Luecke(("km/h",), None)]
    assert zerlege_lueckentext("a *b* c", alternativen=True) == ["a ", Luecke(("b",), None), " c"]


def test_differentiated_material_accepts_incomplete_niveaus_so_validation_can_report_them():
    m = DifferenziertesMaterial(titel="T", fach="Bio", klassenstufe=7, thema="Zelle", lernziel="Ich kann …",
                                niveaus=[Niveau(name="mittel", aufgaben=[], hilfekarten=[], loesungen=[])])
    assert len(m.niveaus) == 1


def test_material_request_checks_the_afb_target():
    request = MaterialRequest(fach="Physik", thema="Induktion", material_type="klausur", afb_ziel=AFB_ZIEL,
                              afb_wuensche=[AfbWunsch(thema="Induktion", afb="III")])
    assert request.klassenstufe is None and request.zusatz == ""
    with pytest.raises(ValidationError, match="100"):
        MaterialRequest(fach="Physik", thema="x", material_type="klausur", afb_ziel={"I": 50, "II": 40, "III": 30})
    with pytest.raises(ValidationError):
        MaterialRequest(fach="Physik", thema="x", material_type="arbeitsblatt")
