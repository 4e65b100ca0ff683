"""Validation in code: a good material passes, and every fault fires on a crafted bad one with a repairable message."""

from __future__ import annotations

import pytest

from core.checks.operators import afb_passt
from core.checks.structure import validate_differenzierung, validate_h5p, validate_klausur
from core.materials.differenzierung import DifferenziertesMaterial, Niveau
from core.materials.h5p import Antwort, BlanksFrage, DragTextFrage, H5PSet, MultiChoiceFrage, TrueFalseFrage
from core.materials.klausur import Kriterium
from core.materials.request import AfbWunsch
from tests.core.materials.test_models import AFB_ZIEL, OPERATOREN, make_klausur


def check(k, **kwargs) -> list[str]:
    options = {"afb_ziel": AFB_ZIEL, "operatoren": OPERATOREN} | kwargs
    return validate_klausur(k, **options)


def with_subtask(k, aufgabe: int, index: int, **changes):
    """A copy of `k` with one sub-task changed (pydantic copies, so the original stays valid)."""
    aufgaben = [a.model_copy(deep=True) for a in k.aufgaben]
    teile = aufgaben[aufgabe - 1].teilaufgaben
    teile[index] = teile[index].model_copy(update=changes)
    return k.model_copy(update={"aufgaben": aufgaben})


# --- Klausur -------------------------------------------------------------------------------------------------------


def test_good_klausur_passes_all_checks():
    assert check(make_klausur(), afb_wuensche=[AfbWunsch(thema="Induktion", afb="III")]) == []


def test_criteria_points_must_add_up_to_the_subtask_points():
    k = with_subtask(make_klausur(), 2, 1, erwartung=[Kriterium(text="A", punkte=2), Kriterium(text="B", punkte=3)],
                     punkte=6)
    k = with_subtask(k, 1, 0, punkte=6)  # keep the totals and shares unchanged elsewhere: 1a now 6 vs criteria 4
    faults = check(k, afb_ziel={})
    assert "Aufgabe 2b: Die Kriterien ergeben 5 Punkte, die Teilaufgabe hat 6 Punkte." in faults
    assert "Aufgabe 1a: Die Kriterien ergeben 4 Punkte, die Teilaufgabe hat 6 Punkte." in faults


def test_afb_share_outside_the_tolerance_names_share_target_and_points():
    k = with_subtask(make_klausur(), 3, 0, afb="II", operator="Erläutern")  # 12 points move from III to II
    faults = check(k)
    assert any(f.startswith("AFB III: Anteil 0,0 % (0 Punkte von 40), Ziel 30 %") and "etwa 12 Punkte" in f
               for f in faults), faults
    assert any(f.startswith("AFB II: Anteil 70,0 %") for f in faults)
    assert not any(f.startswith("AFB I:") for f in faults)


def test_afb_share_within_tolerance_passes_and_tolerance_is_adjustable():
    k = make_klausur()
    assert check(k, afb_ziel={"I": 25, "II": 45, "III": 30}) == []  # 5 points off, tolerance 10
    assert any(f.startswith("AFB I:") for f in check(k, afb_ziel={"I": 25, "II": 45, "III": 30}, toleranz=2))


def test_unknown_afb_target_key_is_a_programming_error():
    with pytest.raises(ValueError):
        check(make_klausur(), afb_ziel={"IV": 100})


def test_unknown_operator_is_named_with_the_allowed_list():
    k = with_subtask(make_klausur(), 1, 0, operator="Zaubern")
    faults = check(k)
    assert len(faults) == 1
    assert faults[0].startswith("Aufgabe 1a: Der Operator „Zaubern“ ist für Physik nicht bekannt.")
    assert "Beurteilen" in faults[0] and "Nennen" in faults[0]


@pytest.mark.parametrize("operator", ["nennen", "NENNEN", " Nennen ", "Nenne", "Nennen Sie"])
def test_operator_match_is_case_and_form_tolerant(operator):
    assert check(with_subtask(make_klausur(), 1, 0, operator=operator)) == []


@pytest.mark.parametrize("operator", ["Erkläre", "Erläutere", "Ermittle", "Erläutern Sie"])
def test_du_imperatives_of_sek_i_tasks_match_the_infinitive(operator):
    assert check(with_subtask(make_klausur(), 2, 1, operator=operator)) == []


def test_operator_with_qualifier_in_the_list_matches_its_plain_form():
    operatoren = {**OPERATOREN, "Berechnen (Einsetzen)": "I", "Berechnen (Herleitung)": "II"}
    del operatoren["Berechnen"]
    assert check(make_klausur(), operatoren=operatoren) == []


@pytest.mark.parametrize(
    ("usual", "used", "ok"),
    [("I", "I", True), ("I", "II", True), ("I", "III", False), ("II", "III", True), ("II", "I", False),
     ("III", "II", False), ("III", "I", False), ("III", "III", True)],
)
def test_afb_plausibility_rule_allows_one_level_up_only(usual, used, ok):
    assert afb_passt(usual, used) is ok


def test_operator_of_afb_i_used_as_afb_iii_is_a_fault_with_suggestions():
    k = with_subtask(make_klausur(), 3, 0, operator="Nennen")  # 'Nennen' (I) as AFB III
    faults = check(k)
    assert len(faults) == 1
    assert "„Nennen“ gehört üblicherweise zu AFB I" in faults[0] and "als AFB III eingestuft" in faults[0]
    assert "Beurteilen" in faults[0]  # a suggestion for AFB III


def test_operator_one_level_up_is_accepted_but_down_is_not():
    k = make_klausur()
    assert check(with_subtask(k, 3, 0, operator="Erklären"), afb_ziel={}) == []  # II used as III
    faults = check(with_subtask(k, 1, 0, operator="Beurteilen"), afb_ziel={})  # III used as I
    assert len(faults) == 1 and "gehört üblicherweise zu AFB III" in faults[0]


def test_empty_operator_list_skips_the_operator_check():
    k = with_subtask(make_klausur(), 1, 0, operator="Zaubern")
    assert check(k, operatoren={}) == []


def test_points_must_fit_the_time_budget():
    too_long = check(make_klausur(dauer_minuten=90))  # 40 points in 90 minutes = 0.44 per minute
    assert len(too_long) == 1
    assert too_long[0].startswith("Zeitrahmen: 40 Punkte bei 90 Minuten sind 0,44 Punkte pro Minute")
    assert "54 bis 144 Punkte" in too_long[0] and "Ergänze" in too_long[0]
    too_short = check(make_klausur(dauer_minuten=20))
    assert "Kürze" in too_short[0]
    assert check(make_klausur(dauer_minuten=90), punkte_pro_minute=(0.4, 1.6)) == []


def test_empty_texts_are_faults():
    k = with_subtask(make_klausur(), 2, 0, text="   ",
                     erwartung=[Kriterium(text="", punkte=4), Kriterium(text="ok", punkte=4)])
    k = k.model_copy(update={"titel": " ", "hinweise": ["Rechenweg angeben.", ""]})
    k.aufgaben[0].material = "  "
    faults = check(k)
    assert "Klausur: Das Feld Titel ist leer." in faults
    assert "Klausur: Hinweis 2 ist leer – ausformulieren oder entfernen." in faults
    assert "Aufgabe 2a: Der Aufgabentext ist leer." in faults
    assert "Aufgabe 2a: Kriterium 1 des Erwartungshorizonts ist leer." in faults
    assert "Aufgabe 1: Das Material ist leer – Material angeben oder null setzen." in faults


def test_labels_and_task_numbers_must_be_unique():
    k = with_subtask(make_klausur(), 1, 1, label="a)")
    k.aufgaben[2].nummer = 2
    faults = check(k)
    assert any(f.startswith("Aufgabe 1: Das Label „a“ kommt 2-mal vor") for f in faults)
    assert any(f.startswith("Die Aufgabennummer 2 kommt 2-mal vor") for f in faults)


def test_klausur_without_tasks_is_one_clear_fault():
    assert check(make_klausur(aufgaben=[])) == ["Die Klausur enthält keine Aufgaben."]


def test_teacher_wish_needs_a_subtask_on_the_topic_at_that_afb():
    k = make_klausur()
    assert check(k, afb_wuensche=[AfbWunsch(thema="Induktion", afb="III")]) == []
    assert check(k, afb_wuensche=[AfbWunsch(thema="Induktionsspannung", afb="III")]) == []
    faults = check(k, afb_wuensche=[AfbWunsch(thema="Reihenschaltung", afb="III")])
    assert len(faults) == 1
    assert "Es fehlt eine Teilaufgabe zu „Reihenschaltung“ auf AFB III" in faults[0]
    assert "Bisher behandeln „Reihenschaltung“: 2a (AFB I), 2b (AFB II)." in faults[0]
    assert "fehlt eine Teilaufgabe zu „Kirchhoff“" in check(k, afb_wuensche=[AfbWunsch(thema="Kirchhoff", afb="II")])[0]


# --- Differenzierung -----------------------------------------------------------------------------------------------


def make_differenzierung(**changes) -> DifferenziertesMaterial:
    data = {
        "titel": "Fotosynthese verstehen",
        "fach": "Biologie",
        "klassenstufe": 7,
        "thema": "Stoffwechsel der Pflanzen",
        "lernziel": "Ich kann erklären, wie Pflanzen mit Licht Traubenzucker herstellen.",
        "niveaus": [
            Niveau(name="grundlegend", aufgaben=["Nenne die Ausgangsstoffe."], hilfekarten=["Denk an Luft und Wasser."],
                   loesungen=["Wasser und Kohlenstoffdioxid."]),
            Niveau(name="mittel", aufgaben=["Beschreibe die Fotosynthese.", "Stelle die Wortgleichung auf."],
                   hilfekarten=["Nutze die Begriffe Licht und Chlorophyll."],
                   loesungen=["In den Chloroplasten …", "Wasser + Kohlenstoffdioxid → Traubenzucker + Sauerstoff"]),
            Niveau(name="erweitert", aufgaben=["Erkläre den Versuch mit der Wasserpest."],
                   hilfekarten=["Was steigt als Bläschen auf?"], loesungen=["Sauerstoff entsteht …"]),
        ],
    }
    data.update(changes)
    return DifferenziertesMaterial(**data)


def test_good_differentiated_material_passes():
    assert validate_differenzierung(make_differenzierung()) == []


def test_missing_and_duplicate_niveaus_are_faults():
    m = make_differenzierung()
    missing = make_differenzierung(niveaus=m.niveaus[:2])
    assert validate_differenzierung(missing) == [
        "Es fehlen Niveaus: erweitert. Nötig sind genau drei Niveaus: grundlegend, mittel, erweitert."
    ]
    doubled = make_differenzierung(niveaus=[*m.niveaus, m.niveaus[1]])
    assert validate_differenzierung(doubled) == ["Das Niveau „mittel“ kommt 2-mal vor; jedes Niveau genau einmal."]


def test_each_niveau_needs_tasks_hilfekarten_and_one_solution_per_task():
    m = make_differenzierung()
    m.niveaus[0].aufgaben = []
    m.niveaus[0].loesungen = []
    m.niveaus[1].hilfekarten = []
    m.niveaus[2].loesungen = []
    m.niveaus[2].aufgaben.append(" ")
    faults = validate_differenzierung(m)
    assert "Niveau „grundlegend“: Es gibt keine Aufgabe; mindestens eine Aufgabe ergänzen." in faults
    assert "Niveau „mittel“: Es gibt keine Hilfekarte; mindestens eine Hilfekarte ergänzen." in faults
    assert any(f.startswith("Niveau „erweitert“: 2 Aufgaben, aber 0 Lösungen") for f in faults)
    assert "Niveau „erweitert“: Aufgabe 2 ist leer." in faults


def test_empty_lernziel_is_a_fault():
    assert validate_differenzierung(make_differenzierung(lernziel="")) == ["Arbeitsblatt: Das Feld Lernziel ist leer."]


# --- H5P -----------------------------------------------------------------------------------------------------------


def make_h5p(*fragen) -> H5PSet:
    fragen = fragen or (
        MultiChoiceFrage(frage="Welche Einheit hat die Spannung?",
                         antworten=[Antwort(text="Volt", korrekt=True, feedback="Genau."),
                                    Antwort(text="Ampere", korrekt=False), Antwort(text="Ohm", korrekt=False)]),
        MultiChoiceFrage(frage="Welche sind Metalle?", mehrfach=True,
                         antworten=[Antwort(text="Kupfer", korrekt=True), Antwort(text="Eisen", korrekt=True),
                                    Antwort(text="Glas", korrekt=False)]),
        TrueFalseFrage(frage="Strom fließt nur im geschlossenen Stromkreis.", wahr=True),
        BlanksFrage(text="Die Einheit der Stromstärke ist *Ampere/A*."),
        DragTextFrage(text="*Elektronen* fließen vom *Minuspol* zum Pluspol."),
    )
    return H5PSet(titel="Stromkreise üben", fach="Physik", klassenstufe=8, thema="Elektrizität", fragen=list(fragen))


def test_good_h5p_set_passes():
    assert validate_h5p(make_h5p()) == []


def test_single_answer_mc_needs_exactly_one_correct_option():
    two = MultiChoiceFrage(frage="?", antworten=[Antwort(text="A", korrekt=True), Antwort(text="B", korrekt=True)])
    none = MultiChoiceFrage(frage="?", antworten=[Antwort(text="A", korrekt=False), Antwort(text="B", korrekt=False)])
    faults = validate_h5p(make_h5p(two, none))
    assert faults[0].startswith("Frage 1 (Multiple Choice): Genau eine Antwort muss richtig sein, markiert sind 2.")
    assert faults[1].startswith("Frage 2 (Multiple Choice): Genau eine Antwort muss richtig sein, markiert sind 0.")


def test_multiple_answer_mc_needs_at_least_one_correct_and_enough_options():
    none = MultiChoiceFrage(frage="?", mehrfach=True,
                            antworten=[Antwort(text="A", korrekt=False), Antwort(text="B", korrekt=False)])
    single = MultiChoiceFrage(frage="?", antworten=[Antwort(text="A", korrekt=True)])
    many = MultiChoiceFrage(frage="?", antworten=[Antwort(text=str(i), korrekt=i == 0) for i in range(11)])
    faults = validate_h5p(make_h5p(none, single, many))
    assert "Frage 1 (Multiple Choice): Keine Antwort ist als richtig markiert; mindestens eine muss richtig sein." in (
        faults
    )
    assert "Frage 2 (Multiple Choice): Es braucht mindestens 2 Antwortoptionen, es sind 1." in faults
    assert "Frage 3 (Multiple Choice): Höchstens 10 Antwortoptionen, es sind 11." in faults


def test_empty_questions_and_answers_and_duplicates_are_faults():
    antworten = [Antwort(text="Volt", korrekt=True), Antwort(text="volt ", korrekt=False),
                 Antwort(text="", korrekt=False)]
    mc = MultiChoiceFrage(frage=" ", antworten=antworten)
    faults = validate_h5p(make_h5p(mc, TrueFalseFrage(frage="", wahr=False)))
    assert "Frage 1 (Multiple Choice): Der Fragetext ist leer." in faults
    assert "Frage 1 (Multiple Choice): Antwort 3 ist leer." in faults
    assert "Frage 1 (Multiple Choice): Die Antwort „volt“ kommt 2-mal vor." in faults
    assert "Frage 2 (Richtig/Falsch): Die Aussage ist leer." in faults


@pytest.mark.parametrize("cls", [BlanksFrage, DragTextFrage])
def test_cloze_texts_need_well_formed_gaps(cls):
    faults = validate_h5p(make_h5p(cls(text="Kein Stern."), cls(text="Ein *halber Stern."), cls(text="Leer ** da."),
                                   cls(text="")))
    assert faults[0].endswith("Der Text enthält keine Lücke. Markiere mindestens ein Wort mit Sternchen: *Wort*.")
    assert "Die Sternchen sind nicht paarig" in faults[1]
    assert "Lücke 1 hat keine (oder eine leere) Antwort" in faults[2]
    assert faults[3].endswith("Der Text ist leer.")


def test_set_without_questions_is_a_fault():
    assert validate_h5p(H5PSet(titel="T", fach="F", klassenstufe=5, thema="x", fragen=[])) == [
        "Das Set enthält keine Fragen."
    ]


def test_faults_in_several_tasks_are_all_reported_in_one_pass():
    # the model gets every fault in one retry instead of one per round trip
    k = with_subtask(make_klausur(), 1, 0, operator="Zaubern")
    k = with_subtask(k, 2, 0, text="")
    faults = check(k)
    assert any(f.startswith("Aufgabe 1a:") for f in faults) and any(f.startswith("Aufgabe 2a:") for f in faults)

