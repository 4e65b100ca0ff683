"""Reading requests (core.language.request): realistic teacher phrasings as tables (phrase -> expected fields)."""

from __future__ import annotations

import random

import pytest

from core.language.afb import parse_afb_answer
from core.language.feedback import classify_feedback
from core.language.preferences import extract_preferences
from core.language.request.extract import extract
from core.language.request.extraction import FACH_KEYS, AfbWish, Extraction, merge, missing_fields

# --- extraction: phrase -> the fields that must come out (fields not listed are not checked) ----------------------

WALKTHROUGH_1 = "Ich brauche ne Klausur E-Lehre für die 10a"
WALKTHROUGH_2 = "Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III"
WALKTHROUGH_3 = "30/40/30 bitte"

EXTRACT_CASES: list[tuple[str, dict[str, object]]] = [
    # the walkthrough from the architecture document
    (WALKTHROUGH_1, {"fach": "physik", "fach_hint": "Elektrizitätslehre", "klasse": "10a", "klassenstufe": 10,
                     "material_type": "klausur", "thema": None, "dauer_minuten": None, "afb_wishes": ()}),
    (WALKTHROUGH_2, {"fach": "physik", "thema": "Stromkreise", "dauer_minuten": 45,
                     "afb_wishes": (AfbWish("Induktion", "III"),), "klassenstufe": None, "material_type": None}),
    (WALKTHROUGH_3, {"afb_verteilung": (30, 40, 30), "thema": None, "fach": None, "problems": ()}),
    # Fach: names and abbreviations
    ("Mathe Klasse 7 Bruchrechnung", {"fach": "mathematik", "klassenstufe": 7, "thema": "Bruchrechnung"}),
    ("Ma Klausur 9b", {"fach": "mathematik", "klasse": "9b", "material_type": "klausur"}),
    ("Bio Klasse 6, Test zu Säugetieren", {"fach": "biologie", "klassenstufe": 6, "thema": "Säugetiere"}),
    ("Geo Klasse 8 Quiz Plattentektonik", {"fach": "geographie", "material_type": "h5p", "thema": "Plattentektonik"}),
    ("Erdkunde Klasse 6 Quiz Kontinente", {"fach": "geographie", "klassenstufe": 6, "thema": "Kontinente"}),
    ("EK 7, Klimadiagramme, eine Doppelstunde", {"fach": "geographie", "thema": "Klimadiagramme",
                                                "dauer_minuten": 90}),
    ("Chemie Klasse 9 Säuren und Basen", {"fach": "chemie", "thema": "Säuren und Basen"}),
    ("Ch Klasse 9 Redoxreaktionen, Einzelstunde", {"fach": "chemie", "dauer_minuten": 45}),
    ("Deutsch 8c Klassenarbeit Erörterung", {"fach": "deutsch", "klasse": "8c", "thema": "Erörterung",
                                              "material_type": "klausur"}),
    ("Deu Klausur Jg. 10 Dramenanalyse", {"fach": "deutsch", "klassenstufe": 10, "thema": "Dramenanalyse"}),
    ("Test Englisch 7c simple past", {"fach": "englisch", "klasse": "7c", "thema": "Simple Past"}),
    ("Engl. Vokabeltest für die 6a", {"fach": "englisch", "klasse": "6a", "material_type": "klausur"}),
    ("Klausur E 8b", {"fach": "englisch", "klassenstufe": 8}),
    ("Geschichte Klasse 9, Weimarer Republik", {"fach": "geschichte", "thema": "Weimarer Republik"}),
    ("Ge 8. Klasse Französische Revolution", {"fach": "geschichte", "klassenstufe": 8,
                                              "thema": "Französische Revolution"}),
    ("GE Kurzkontrolle Mittelalter Klasse 7", {"fach": "geschichte", "fach_hint": "Mittelalter", "thema": None,
                                               "material_type": "klausur"}),
    ("Ph Klausur 10c", {"fach": "physik", "klasse": "10c"}),
    ("Phy Test Kräfte Klasse 7", {"fach": "physik", "thema": "Kräfte", "material_type": "klausur"}),
    ("Physikklausur Klasse 9 zu Linsen", {"fach": "physik", "material_type": "klausur", "thema": "Linsen"}),
    ("Matheklausur 8. Klasse 45 Minuten", {"fach": "mathematik", "klassenstufe": 8, "dauer_minuten": 45}),
    # Fach from topic areas (thema stays open, fach_hint is set) and from topic words
    ("Optik-Klausur Klasse 9, 90 min", {"fach": "physik", "fach_hint": "Optik", "thema": None,
                                        "dauer_minuten": 90, "material_type": "klausur"}),
    ("Klausur Mechanik für die 7b", {"fach": "physik", "fach_hint": "Mechanik", "thema": None}),
    ("Test Elektrik Klasse 8", {"fach": "physik", "fach_hint": "Elektrizitätslehre", "thema": None}),
    ("E-Feld Klausur Oberstufe", {"fach": "physik", "thema": "E-Feld", "klassenstufe": 11}),
    ("Klausur Analysis Q1", {"fach": "mathematik", "fach_hint": "Analysis", "klassenstufe": 12, "thema": None}),
    ("Stochastik-Test Jg. 11, 90 min, Baumdiagramme", {"fach": "mathematik", "fach_hint": "Stochastik",
                                                        "thema": "Baumdiagramme", "dauer_minuten": 90}),
    ("Bio Genetik Klasse 10", {"fach": "biologie", "fach_hint": "Genetik", "klassenstufe": 10, "thema": None}),
    ("Gedichtanalyse 9b Doppelstunde", {"fach": "deutsch", "fach_hint": "Lyrik", "thema": "Gedichtanalyse",
                                        "dauer_minuten": 90, "klasse": "9b"}),
    ("Klausur zu Stromkreisen für die 8b", {"fach": "physik", "thema": "Stromkreise", "klasse": "8b",
                                            "fach_hint": "Elektrizitätslehre"}),
    ("Übungsblatt zu Brüchen für die 6b", {"fach": "mathematik", "thema": "Brüche",
                                           "material_type": "differenzierung"}),
    ("Eine Einzelstunde zum Satz des Pythagoras", {"fach": "mathematik", "thema": "Satz des Pythagoras",
                                                   "dauer_minuten": 45}),
    ("Multiple Choice Übung zur Photosynthese", {"fach": "biologie", "thema": "Photosynthese",
                                                 "material_type": "h5p"}),
    ("In der Q2 schreiben wir eine Klausur zur Integralrechnung", {"fach": "mathematik", "klassenstufe": 13,
                                                                   "thema": "Integralrechnung"}),
    ("Englisch-Quiz mit Anweisungen auf Deutsch, Klasse 6", {"fach": "englisch", "thema": None,
                                                             "material_type": "h5p"}),
    ("Informatik Klausur Klasse 10", {"fach": None, "klassenstufe": 10}),
    # Klasse / Klassenstufe
    ("Klausur für Klasse 8", {"klassenstufe": 8, "klasse": None}),
    ("Physik, 8. Klasse", {"klassenstufe": 8}),
    ("Klassenarbeit Jahrgang 9 Optik", {"klassenstufe": 9, "material_type": "klausur"}),
    ("Jahrgangsstufe 12, Klausur Kernphysik", {"klassenstufe": 12, "fach_hint": "Atom- und Kernphysik"}),
    ("Klausur Jg 11 Vektoren", {"klassenstufe": 11, "thema": "Vektoren", "fach": "mathematik"}),
    ("Analysis-Klausur Q2", {"klassenstufe": 13}),
    ("Klausur für die Oberstufe zum Kalten Krieg", {"klassenstufe": 11, "thema": "Kalter Krieg"}),
    ("Klausur für die achte Klasse über Hebel", {"klassenstufe": 8, "thema": "Hebel", "fach": "physik"}),
    ("Physik Achtklässler Kräfte", {"klassenstufe": 8, "thema": "Kräfte"}),
    ("Klasse 10a, Chemie", {"klasse": "10a", "klassenstufe": 10}),
    ("Doppelstunde Bio 10 Genetik, Schwerpunkt Mendelsche Regeln", {"klassenstufe": 10,
                                                                     "thema": "Mendelsche Regeln"}),
    ("Ich brauche für die 8b eine Klausur", {"klasse": "8b", "klassenstufe": 8, "material_type": "klausur"}),
    ("Nochmal eine E-Lehre-Klausur, diesmal für die 10b", {"fach": "physik", "klasse": "10b",
                                                          "fach_hint": "Elektrizitätslehre"}),
    # Dauer
    ("Klausur 45 Min", {"dauer_minuten": 45}),
    ("Klausur, 45 Minuten", {"dauer_minuten": 45}),
    ("Test 90min Optik", {"dauer_minuten": 90}),
    ("eine Doppelstunde Physik", {"dauer_minuten": 90}),
    ("Quiz für eine Stunde", {"dauer_minuten": 45}),
    ("Klausur 2 Stunden Chemie Q2", {"dauer_minuten": 90, "klassenstufe": 13}),  # school hours: 2 x 45
    ("Klausur Kl. 10 Quadratische Funktionen 2 Std.", {"dauer_minuten": 90, "klassenstufe": 10}),
    ("1,5 h Klausur Mechanik", {"dauer_minuten": 90}),  # clock hours
    ("Klausur, anderthalb Stunden", {"dauer_minuten": 90}),
    ("Test, eine halbe Stunde", {"dauer_minuten": 30}),
    ("zwanzig Minuten Quiz", {"dauer_minuten": 20}),
    ("eine 60-minütige Klausur", {"dauer_minuten": 60, "material_type": "klausur"}),
    # Material type
    ("Ich brauche eine Klassenarbeit", {"material_type": "klausur"}),
    ("Lernkontrolle Chemie 9", {"material_type": "klausur", "klassenstufe": 9}),
    ("Leistungskontrolle zur Zellatmung", {"material_type": "klausur", "thema": "Zellatmung"}),
    ("Kurzkontrolle Vokabeln 6a", {"material_type": "klausur"}),
    ("Die 8a schreibt nächste Woche eine Arbeit über Stromkreise", {"material_type": "klausur",
                                                                    "thema": "Stromkreise"}),
    ("differenziertes Material zu Brüchen", {"material_type": "differenzierung", "thema": "Brüche"}),
    ("differenziertes Arbeitsblatt auf drei Niveaus zu linearen Funktionen, Klasse 8",
     {"material_type": "differenzierung", "thema": "Lineare Funktionen", "klassenstufe": 8}),
    ("Material zur Förderung in Klasse 5, Dreisatz", {"material_type": "differenzierung", "thema": "Dreisatz"}),
    ("Aufgaben auf drei Niveaus zur Prozentrechnung", {"material_type": "differenzierung",
                                                       "thema": "Prozentrechnung"}),
    ("Arbeitsblatt zur Vorbereitung auf die Klassenarbeit, Klasse 7, Bruchrechnung",
     {"material_type": "differenzierung", "thema": "Bruchrechnung"}),
    ("H5P-Quiz zu Vulkanen, Klasse 5", {"material_type": "h5p", "thema": "Vulkane", "fach": "geographie"}),
    ("interaktive Übung zu Wortarten", {"material_type": "h5p", "fach": "deutsch", "thema": "Wortarten"}),
    ("Lückentext-Übung Zellatmung", {"material_type": "h5p", "thema": "Zellatmung"}),
    ("kein Quiz, sondern eine Klausur zu Optik", {"material_type": "klausur"}),
    # Thema: markers, prepositions, filler words
    ("Klausur zum Thema Optik", {"thema": "Optik", "fach": "physik", "fach_hint": "Optik"}),
    ("Klausur Optik 9. Klasse, AFB 30/40/30, Schwerpunkt Linsen", {"thema": "Linsen", "fach_hint": "Optik",
                                                                  "afb_verteilung": (30, 40, 30)}),
    ("Klausur für die 10a, es geht um das Ohmsche Gesetz", {"thema": "Ohmsches Gesetz", "klasse": "10a"}),
    ("Themen: Ohmsches Gesetz, Reihenschaltung und Parallelschaltung",
     {"thema": "Ohmsches Gesetz, Reihenschaltung und Parallelschaltung", "fach": "physik"}),
    ("Bitte eine Klassenarbeit Deutsch, Jahrgangsstufe 8, Thema Kurzgeschichten, 90 Minuten",
     {"thema": "Kurzgeschichten", "klassenstufe": 8, "dauer_minuten": 90, "fach": "deutsch"}),
    ("Kannst du mir mal ne Klausur zu Brüchen machen?", {"thema": "Brüche", "fach": "mathematik"}),
    ("Klausur zur Wiederholung der Bruchrechnung", {"thema": "Bruchrechnung"}),
    ("Klausur zu elektrischen Stromkreisen", {"thema": "Elektrische Stromkreise"}),
    ("Klausur zu Widerständen", {"thema": "Widerstände"}),
    ("Wir machen gerade Stromkreise und Widerstände, 8b, Physikklausur",
     {"thema": "Stromkreise und Widerstände", "fach": "physik", "klasse": "8b"}),
    ("Reihen- und Parallelschaltung", {"thema": "Reihen- und Parallelschaltung", "fach": "physik"}),
    ("Ich hätte gern ein Quiz für meine 7b über die Weimarer Republik",
     {"thema": "Weimarer Republik", "klasse": "7b", "material_type": "h5p"}),
    ("Kannst du mir eine Lernkontrolle zur Französischen Revolution für Jahrgang 9 machen?",
     {"thema": "Französische Revolution", "klassenstufe": 9, "fach": "geschichte"}),
    ("Klausur ohne Taschenrechner zu Potenzen", {"thema": "Potenzen", "fach": "mathematik"}),
    ("Hallo! Ich unterrichte Physik an einem Gymnasium in Bayern und brauche eine Klausur.",
     {"fach": "physik", "thema": None, "material_type": "klausur"}),
    ("Klausur mit 5 Aufgaben zu Optik", {"aufgaben_anzahl": 5, "thema": None, "fach_hint": "Optik"}),
    ("Thema: Photosynthese. Klasse 7. Quiz mit 10 Fragen.", {"thema": "Photosynthese", "aufgaben_anzahl": 10,
                                                            "klassenstufe": 7}),
    # AFB wishes and distributions
    ("eine AFB-III-Aufgabe zu Induktion", {"afb_wishes": (AfbWish("Induktion", "III"),)}),
    ("Klausur Stromkreise mit einer Aufgabe Induktion als AFB III",
     {"thema": "Stromkreise", "afb_wishes": (AfbWish("Induktion", "III"),)}),
    ("Optik Klasse 9, bitte eine Aufgabe zur Totalreflexion im AFB II",
     {"afb_wishes": (AfbWish("Totalreflexion", "II"),), "fach_hint": "Optik"}),
    ("Stromkreise, mindestens eine Aufgabe auf AFB III", {"thema": "Stromkreise",
                                                         "afb_wishes": (AfbWish("Stromkreise", "III"),)}),
    ("30 / 40 / 30 bitte", {"afb_verteilung": (30, 40, 30)}),
    ("AFB I 30%, AFB II 40%, AFB III 30%", {"afb_verteilung": (30, 40, 30), "afb_wishes": ()}),
    ("AFB I 20 %, II 50 %, III 30 %", {"afb_verteilung": (20, 50, 30)}),
    ("20-50-30", {"afb_verteilung": (20, 50, 30)}),
    ("Verteilung 25:50:25", {"afb_verteilung": (25, 50, 25)}),
    ("30% AFB I, 50% AFB II, 20% AFB III", {"afb_verteilung": (30, 50, 20)}),
    ("Anforderungsbereich I 40 %, Anforderungsbereich II 40 %", {"afb_verteilung": (40, 40, 20)}),
    ("Klassen 7/8/9", {"afb_verteilung": None, "problems": ()}),
    # Robustness: umlauts spelled out, case, HTML, emoji, colloquial "ma"
    ("Uebungsblatt zu Bruechen fuer die 6b", {"thema": "Brüche", "material_type": "differenzierung",
                                              "klasse": "6b"}),
    ("KLAUSUR ZUM THEMA LICHTBRECHUNG KLASSE 8", {"thema": "Lichtbrechung", "klassenstufe": 8, "fach": "physik"}),
    ("klausur zu stromkreisen klasse 8 45 minuten", {"thema": "Stromkreise", "klassenstufe": 8,
                                                    "dauer_minuten": 45, "fach": "physik"}),
    ("<p>Klausur <b>Optik</b> für die <i>9a</i></p> 😀", {"fach": "physik", "klasse": "9a",
                                                          "material_type": "klausur"}),
    ("🙂 Quiz zur Photosynthese 🌱 Klasse 7 🙏", {"thema": "Photosynthese", "material_type": "h5p",
                                                  "klassenstufe": 7}),
    ("ma schauen, eine klausur zu brüchen", {"fach": "mathematik", "thema": "Brüche"}),
    # longer, chatty requests
    ("Moin, ich bräuchte für meine 9c eine Klausur in Physik über Elektromagnetismus, 90 Minuten.",
     {"fach": "physik", "klasse": "9c", "thema": "Elektromagnetismus", "dauer_minuten": 90}),
    ("Könntest du bitte ein Arbeitsblatt für Klasse 5 zu den Grundrechenarten erstellen?",
     {"fach": "mathematik", "klassenstufe": 5, "thema": "Grundrechenarten", "material_type": "differenzierung"}),
    ("Erstelle ein H5P-Quiz mit 8 Fragen zum Thema Zellorganellen für die 7.",
     {"fach": "biologie", "thema": "Zellorganellen", "aufgaben_anzahl": 8, "material_type": "h5p"}),
    ("Für die Q1 brauche ich eine Analysis-Klausur, Schwerpunkt Ableitungen, 135 Minuten",
     {"klassenstufe": 12, "fach_hint": "Analysis", "thema": "Ableitungen", "dauer_minuten": 135}),
    ("Wir haben nächste Woche eine Doppelstunde Deutsch in der 6b, Thema Märchen, mach mir ein differenziertes "
     "Arbeitsblatt", {"fach": "deutsch", "klasse": "6b", "thema": "Märchen", "dauer_minuten": 90,
                      "material_type": "differenzierung"}),
    ("Klassenarbeit Mathe Klasse 8 – lineare Gleichungssysteme – 45 min – AFB 30/50/20",
     {"thema": "Lineare Gleichungssysteme", "dauer_minuten": 45, "afb_verteilung": (30, 50, 20)}),
    ("Bitte eine Klausur für den LK Physik Jahrgang 12 zu Interferenz am Doppelspalt",
     {"klassenstufe": 12, "thema": "Interferenz am Doppelspalt", "fach_hint": "Optik"}),
    ("Physik Klausur 10 Stromkreise", {"klassenstufe": 10, "thema": "Stromkreise"}),
    ("Klausur für die 10 a zu Induktion", {"klasse": "10a", "thema": "Induktion"}),
    ("Klausur Geschichte Jg. 10 Thema: Kalter Krieg – Kubakrise", {"thema": "Kalter Krieg",
                                                                   "unterthemen": ("Kubakrise",)}),
    ("Chemie Klausur Alkane und Alkene 10b 2-stündig", {"thema": "Alkane und Alkene", "dauer_minuten": 90,
                                                       "fach_hint": "Organische Chemie"}),
    ("Test über die Nahrungskette im Wald, Klasse 5", {"fach": "biologie", "thema": "Nahrungskette im Wald"}),
    ("Klausur zur Kurvendiskussion, 3 Zeitstunden", {"thema": "Kurvendiskussion", "dauer_minuten": 180}),
    ("Klausur Optik: Linsen und Bildentstehung am Auge, Kl. 8, 45 min, 5 Aufgaben",
     {"thema": "Optik", "unterthemen": ("Linsen", "Bildentstehung am Auge"), "klassenstufe": 8,
      "aufgaben_anzahl": 5}),
    ("eine Klausur, Physik, Klasse 9, Thema Radioaktivität, AFB I 20 %, II 50 %, III 30 %, 90 Minuten, mit 6 "
     "Aufgaben", {"thema": "Radioaktivität", "afb_verteilung": (20, 50, 30), "dauer_minuten": 90,
                  "aufgaben_anzahl": 6, "klassenstufe": 9}),
    ("Schwerpunkt soll auf Induktion liegen", {"thema": "Induktion", "fach": "physik"}),
]


@pytest.mark.parametrize(("phrase", "expected"), EXTRACT_CASES, ids=[c[0][:60] for c in EXTRACT_CASES])
def test_extract_understands_teacher_phrasing(phrase: str, expected: dict[str, object]) -> None:
    result = extract(phrase)
    got = {name: getattr(result, name) for name in expected}
    assert got == expected


# --- impossible values: None plus a German problem message --------------------------------------------------------

PROBLEM_CASES: list[tuple[str, str, str]] = [
    ("Klausur Physik Klasse 99", "klassenstufe",
     "Klassenstufe 99 gibt es nicht — bitte eine Klassenstufe von 5 bis 13 angeben."),
    ("Klasse 0, Optik", "klassenstufe", "Klassenstufe 0 gibt es nicht"),
    ("Klausur für Klasse 14", "klassenstufe", "Klassenstufe 14 gibt es nicht"),
    ("eine Klausur für die 3a", "klassenstufe", "Grundschulklasse"),
    ("Klausur 0 Minuten", "dauer_minuten", "Eine Dauer von 0 Minuten ist nicht möglich"),
    ("eine 400-minütige Klausur", "dauer_minuten", "400 Minuten"),
    ("Klausur, 8 Stunden", "dauer_minuten", "360 Minuten"),
    ("30/40/40 AFB", "afb_verteilung", "ergibt zusammen 110 %"),
    ("AFB I 50 %, AFB II 40 %, AFB III 30 %", "afb_verteilung", "120 %"),
    ("Klausur mit 0 Aufgaben", "aufgaben_anzahl", "0 Aufgaben sind nicht möglich"),
    ("Informatik Klausur Klasse 10", "fach", "Das Fach Informatik wird noch nicht unterstützt"),
]


@pytest.mark.parametrize(("phrase", "field_name", "message"), PROBLEM_CASES, ids=[c[0] for c in PROBLEM_CASES])
def test_impossible_values_become_none_with_a_german_problem(phrase: str, field_name: str, message: str) -> None:
    result = extract(phrase)
    assert getattr(result, field_name) is None
    assert len(result.problems) == 1
    assert message in result.problems[0]


def test_problem_message_for_impossible_klassenstufe_is_exact() -> None:
    assert extract("Klasse 99").problems == (
        "Klassenstufe 99 gibt es nicht — bitte eine Klassenstufe von 5 bis 13 angeben.",
    )


def test_valid_values_produce_no_problems() -> None:
    for phrase, _ in EXTRACT_CASES:
        if phrase != "Informatik Klausur Klasse 10":
            assert extract(phrase).problems == (), phrase


# --- the Englisch "E" versus "E-Lehre" ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("phrase", "fach"),
    [
        ("Klausur E-Lehre Klasse 8", "physik"),
        ("E-Feld und Feldlinien, Q1", "physik"),
        ("Klausur für den E-Kurs Klasse 9", None),
        ("Vitamin E im Stoffwechsel", "biologie"),
        ("Test E 7a", "englisch"),
        ("Englischtest zum present perfect", "englisch"),
    ],
)
def test_letter_e_is_only_englisch_when_it_stands_alone(phrase: str, fach: str | None) -> None:
    assert extract(phrase).fach == fach


# --- topic_terms from the seeded subject profiles --------------------------------------------------------------------

PROFILE_TERMS = {
    "physik": {
        "Elektrizitätslehre": ["Stromkreis", "Spannung", "Widerstand", "Induktion", "Kirchhoffsche Regeln"],
        "Optik": ["Linse", "Brechung", "Totalreflexion"],
    },
    "mathematik": {"Zahlen und Operationen": ["Bruchrechnung", "Brüche", "Dezimalzahlen"]},
    "biologie": {"Ökologie": ["Nahrungskette", "Energiefluss", "Räuber-Beute-Beziehung"]},
    "chemie": {"Energetik": ["Energie", "Aktivierungsenergie", "Enthalpie"]},
}


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Klausur zu Stromkreisen für die 8b", {"fach": "physik", "fach_hint": "Elektrizitätslehre",
                                                "thema": "Stromkreise", "klassenstufe": 8}),
        ("Bruchrechnung", {"fach": "mathematik", "fach_hint": "Zahlen und Operationen", "thema": "Bruchrechnung"}),
        ("Quiz Energiefluss Klasse 9", {"fach": "biologie", "fach_hint": "Ökologie", "thema": "Energiefluss"}),
        ("Test zur Räuber-Beute-Beziehung", {"fach": "biologie", "thema": "Räuber-Beute-Beziehung"}),
        ("Klausur Energetik Q1", {"fach": "chemie", "fach_hint": "Energetik", "thema": "Energetik",
                                  "klassenstufe": 12}),
        ("Klausur zur Enthalpie", {"fach": "chemie", "thema": "Enthalpie"}),
        ("Klausur zu den Kirchhoffschen Regeln", {"fach": "physik", "thema": "Kirchhoffsche Regeln"}),
    ],
)
def test_topic_terms_detect_fach_and_thema(phrase: str, expected: dict[str, object]) -> None:
    result = extract(phrase, topic_terms=PROFILE_TERMS)
    assert {name: getattr(result, name) for name in expected} == expected


def test_topic_terms_win_over_the_built_in_vocabulary() -> None:
    # Built in, "Energie" is a Mechanik word; this profile puts it into Chemie only.
    assert extract("Klausur zu Energie").fach == "physik"
    assert extract("Klausur zu Energie", topic_terms=PROFILE_TERMS).fach == "chemie"
    # A term only the profile knows.
    assert extract("Quiz Enthalpie").fach is None
    assert extract("Quiz Enthalpie", topic_terms=PROFILE_TERMS).fach == "chemie"


def test_fach_hint_uses_the_profile_name_of_the_area() -> None:
    terms = {"physik": {"Elektrizitätslehre und Magnetismus": ["Stromkreis", "Magnetfeld"]}}
    assert extract("Klausur E-Lehre", topic_terms=terms).fach_hint == "Elektrizitätslehre und Magnetismus"
    assert extract("Klausur E-Lehre").fach_hint == "Elektrizitätslehre"


def test_named_fach_beats_topic_words() -> None:
    result = extract("Mathe: Aufgaben zur Geschwindigkeit", topic_terms=PROFILE_TERMS)
    assert result.fach == "mathematik"
    assert result.fach_source == "explicit"


def test_topic_terms_tolerate_unknown_subjects_and_plain_strings() -> None:
    terms = {"informatik": {"Algorithmen": ["Sortieren"]}, "physik": {"Optik": "Linse"}}
    assert extract("Klausur zu Linsen", topic_terms=terms).fach == "physik"
    assert extract("Sortieren", topic_terms=terms).fach is None


# --- merge and missing_fields: the walkthrough over three turns -----------------------------------------------------

def test_walkthrough_merges_three_turns_into_a_complete_request() -> None:
    state = extract(WALKTHROUGH_1)
    assert missing_fields(state) == ["thema", "dauer_minuten"]
    state = merge(state, extract(WALKTHROUGH_2))
    assert missing_fields(state) == []
    state = merge(state, extract(WALKTHROUGH_3))
    assert state == Extraction(
        fach="physik", fach_hint="Elektrizitätslehre", klassenstufe=10, klasse="10a", thema="Stromkreise",
        dauer_minuten=45, material_type="klausur", afb_verteilung=(30, 40, 30),
        afb_wishes=(AfbWish("Induktion", "III"),), aufgaben_anzahl=None, problems=(),
    )


def test_parse_afb_answer_matches_the_walkthrough_answer() -> None:
    assert parse_afb_answer(WALKTHROUGH_3) == (30, 40, 30)


def test_missing_fields_in_asking_order() -> None:
    assert missing_fields(Extraction()) == ["fach", "klassenstufe", "thema", "dauer_minuten", "material_type"]
    assert missing_fields(extract("Quiz zur Photosynthese für die 7a")) == ["dauer_minuten"]
    assert missing_fields(extract("Klausur Analysis Q1, 90 Minuten")) == ["thema"]


def test_merge_later_turn_overrides_and_fills() -> None:
    first = extract("Klausur Optik Klasse 9, 45 Minuten")
    second = extract("doch lieber 90 Minuten, Schwerpunkt Linsen")
    merged = merge(first, second)
    assert (merged.fach, merged.klassenstufe, merged.dauer_minuten, merged.thema) == ("physik", 9, 90, "Linsen")
    assert merged.fach_hint == "Optik"


def test_merge_keeps_a_named_fach_against_a_guessed_one() -> None:
    first = extract("Chemie Klausur Klasse 9")
    merged = merge(first, extract("Energie"))
    assert merged.fach == "chemie"
    assert merged.thema == "Energie"
    # A named Fach in the later turn does override.
    assert merge(first, extract("ach nee, doch Physik")).fach == "physik"


def test_merge_drops_a_class_name_that_no_longer_fits() -> None:
    first = extract("Klausur für die 10a")
    assert merge(first, extract("doch Klasse 9")).klasse is None
    assert merge(first, extract("doch Klasse 9")).klassenstufe == 9
    assert merge(first, extract("Klasse 10")).klasse == "10a"
    assert merge(first, extract("für die 9c")).klasse == "9c"


def test_merge_accumulates_afb_wishes_and_keeps_only_new_problems() -> None:
    first = extract("Stromkreise, eine Aufgabe Induktion als AFB III, Klasse 99")
    assert first.problems
    merged = merge(first, extract("und eine Aufgabe zur Lorentzkraft als AFB II"))
    assert merged.afb_wishes == (AfbWish("Induktion", "III"), AfbWish("Lorentzkraft", "II"))
    assert merged.problems == ()


def test_merge_of_empty_extractions_is_empty() -> None:
    assert merge(Extraction(), Extraction()) == Extraction()


# --- robustness ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", " ", "\n\t  \n", "🙏🙏", "<br/><p></p>", "???", "-----", "%%%", "&nbsp;"])
def test_empty_and_meaningless_input_gives_an_empty_extraction(text: str) -> None:
    assert extract(text) == Extraction()
    assert classify_feedback(text) is None
    assert extract_preferences(text) == {}
    assert parse_afb_answer(text) is None


def _assert_sane(result: Extraction) -> None:
    assert result.fach is None or result.fach in FACH_KEYS
    assert result.klassenstufe is None or 5 <= result.klassenstufe <= 13
    assert result.dauer_minuten is None or 1 <= result.dauer_minuten <= 300
    assert result.aufgaben_anzahl is None or 1 <= result.aufgaben_anzahl <= 30
    assert result.afb_verteilung is None or sum(result.afb_verteilung) == 100
    assert result.thema is None or 0 < len(result.thema) <= 80
    assert len(result.problems) <= 5


def test_fifty_thousand_characters_of_teacher_text_stay_sane() -> None:
    text = ((WALKTHROUGH_1 + ". " + WALKTHROUGH_2 + ". " + WALKTHROUGH_3 + ". ") * 400)[:50_000]
    result = extract(text)
    _assert_sane(result)
    assert (result.fach, result.klasse, result.thema, result.dauer_minuten) == ("physik", "10a", "Stromkreise", 45)
    assert result.afb_verteilung == (30, 40, 30)


PATHOLOGICAL = {
    "letters": "a" * 50_000,
    "slashes": "1/" * 25_000,
    "afb": "AFB III " * 6_250,
    "angle-brackets": "<" * 50_000,
    "unclosed-tags": ("<" + "a" * 400) * 120,
    "hyphens": "-".join(["ab"] * 16_000),
    "numbers": " ".join(str(i % 100) for i in range(12_000)),
    "zu": "zu " * 16_000,
    "emoji": "😀" * 50_000,
    "random": "".join(random.Random(7).choice("aäöüßAB 1234567890/-:%.,;!?\n<>ÄÖÜé😀") for _ in range(50_000)),
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_fifty_thousand_pathological_characters_stay_sane(name: str) -> None:
    text = PATHOLOGICAL[name]
    _assert_sane(extract(text))
    classify_feedback(text)
    extract_preferences(text)
    parse_afb_answer(text)


def test_extraction_is_deterministic() -> None:
    for phrase, _ in EXTRACT_CASES[:20]:
        assert extract(phrase) == extract(phrase)
