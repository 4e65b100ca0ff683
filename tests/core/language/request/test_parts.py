"""Thema and Unterthemen of requests that name parts: a restriction („nur Kubakrise“), adjectives sharing one noun
(„zum Ersten und Zweiten Weltkrieg“), a shortened compound („Ein- und Ausfuhr“), a topic word that is also a word
about the material („Wasser und Lösungen“). Read with the seeded subject lexicon, as the offline model reads them."""

from __future__ import annotations

import pytest

from core.language.followups import wants_added_part
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract

CASES: list[tuple[str, str, tuple[str, ...]]] = [
    # a restriction after the topic: the named part is the sub-topic, the topic stays
    ("Klausur Geschichte GK 12 zum Kalten Krieg, nur Kubakrise, 90 Minuten", "Kalter Krieg", ("Kubakrise",)),
    ("Klausur Geschichte GK 12 zum Kalten Krieg (nur Kubakrise), 90 Minuten", "Kalter Krieg", ("Kubakrise",)),
    ("Arbeitsblatt Erdkunde 8 Plattentektonik – ausschließlich Vulkanismus", "Plattentektonik", ("Vulkanismus",)),
    ("Klausur Erdkunde Klasse 7 Klimazonen, nur die Tropen, 45 Minuten", "Klimazonen", ("Tropen",)),
    ("Bio Klasse 10 Klausur Genetik, lediglich Stammbaumanalyse, 45 Minuten", "Genetik", ("Stammbaumanalyse",)),
    # „nur“ before something that is no topic limits nothing here
    ("Mathe 7 Test Prozentrechnung, nur 30 Minuten", "Prozentrechnung", ()),
    ("Mathe 7 Quiz Prozentrechnung, nur Lückentexte", "Prozentrechnung", ()),
    ("Deutsch 8 Klassenarbeit Gedichtanalyse, nur AFB II und III, 45 min", "Gedichtanalyse", ()),
    # adjectives sharing one noun, in lower case or as capitalised names, in the dative after „zum/zur/zu“
    ("Klausur Physik Klasse 11 zum waagerechten und schiefen Wurf, 45 Minuten", "Waagerechter und schiefer Wurf",
     ("Waagerechter Wurf", "Schiefer Wurf")),
    ("Mathe 9 Klassenarbeit zu linearen und quadratischen Funktionen, 90 Minuten",
     "Lineare und quadratische Funktionen", ("Lineare Funktionen", "Quadratische Funktionen")),
    ("Geschichte 10 Arbeitsblatt zum Ersten und Zweiten Weltkrieg", "Erster und Zweiter Weltkrieg",
     ("Erster Weltkrieg", "Zweiter Weltkrieg")),
    ("Geschichte 9 Klausur zur Französischen und Russischen Revolution, 90 min",
     "Französische und Russische Revolution", ("Französische Revolution", "Russische Revolution")),
    ("Geschichte 8 Test zur Zweiten Industriellen Revolution, 30 min", "Zweite Industrielle Revolution", ()),
    # shortened compounds
    ("Physik Klasse 8 Klassenarbeit Reihen- und Parallelschaltung, 45 Minuten", "Reihen- und Parallelschaltung",
     ("Reihenschaltung", "Parallelschaltung")),
    ("Erdkunde 9 Arbeitsblatt Ein- und Ausfuhr", "Ein- und Ausfuhr", ("Einfuhr", "Ausfuhr")),
    ("Bio 9 Test Auf- und Abbau von Stärke, 30 min", "Auf- und Abbau von Stärke",
     ("Aufbau von Stärke", "Abbau von Stärke")),
    ("Bio 9 Klausur Mendelsche Regeln und Erbgänge, 45 Minuten", "Mendelsche Regeln und Erbgänge",
     ("Mendelsche Regeln", "Erbgänge")),
    ("Chemie 8 Test endo- und exotherme Reaktionen, 30 min", "Endo- und exotherme Reaktionen",
     ("Endotherme Reaktionen", "Exotherme Reaktionen")),
    # a parenthesis inside a header list names further parts
    ("Klassenarbeit Bio 10 Genetik: Mendelsche Regeln und Erbgänge (Stammbaumanalyse), 45 min", "Genetik",
     ("Mendelsche Regeln", "Erbgänge", "Stammbaumanalyse")),
    ("Klausur Bio Q1 GK Ökologie: Populationsdynamik (Räuber-Beute-Beziehung, Lotka-Volterra-Regeln), intra- und "
     "interspezifische Konkurrenz, 90 min", "Ökologie", ("Populationsdynamik", "Räuber-Beute-Beziehung",
                                                          "Lotka-Volterra-Regeln", "Intraspezifische Konkurrenz",
                                                          "Interspezifische Konkurrenz")),
    # the dative undone only where the teacher's form is not the nominative already
    ("H5P Quiz Geschichte 6. Klasse zum alten Ägypten", "Altes Ägypten", ()),
    ("H5P-Quiz Englisch Klasse 5 zu Uhrzeiten und Wochentagen, 10 Fragen", "Uhrzeiten und Wochentage",
     ("Uhrzeiten", "Wochentage")),
    ("Physik 8 Test zu Stromkreisen, 30 min", "Stromkreise", ()),
    # a known term written without the end of its last word
    ("differenziertes Arbeitsblatt Englisch Kl 6 will-future vs. going to, 3 Niveaus bitte", "Will-future vs. Going to",
     ("Will-future", "Going to")),
    # a topic list before a parenthesis; a typo with the s left out is corrected, the linking-s variant stays
    ("Klassenarbeit Chemie 8 Atombau und Periodensytem, Ionenbindung (Kochsalz), 45 Minuten",
     "Atombau und Periodensystem, Ionenbindung", ("Atombau und Periodensystem", "Ionenbindung", "Kochsalz")),
    ("Klassenarbeit Physik Klasse 10 Radioaktivitat und Halbwertzeit, 45 min", "Radioaktivität und Halbwertzeit",
     ("Radioaktivität", "Halbwertzeit")),
    # a verb pair sharing its object stays one part
    ("Klassenarbeit Mathe Kl. 6 Bruchrechnung: Kürzen/Erweitern, Brüche addieren und subtrahieren, Brüche "
     "multiplizieren, 45 min mit Erwartungshorizont", "Bruchrechnung",
     ("Kürzen/Erweitern", "Brüche addieren und subtrahieren", "Brüche multiplizieren")),
    # a comma list after a pair: a known term after the comma goes on, a known pair stays whole
    ("H5P Erdkunde Klasse 5: Kontinente und Ozeane, Gradnetz der Erde, 10 Fragen",
     "Kontinente, Ozeane und Gradnetz der Erde", ("Kontinente", "Ozeane", "Gradnetz der Erde")),
    ("Klassenarbeit Chemie Klasse 9 Säuren und Basen, Neutralisation, pH-Wert, 45 min",
     "Säuren und Basen, Neutralisation und pH-Wert", ("Säuren und Basen", "Neutralisation", "pH-Wert")),
    # a topic word of the request's Fach that is also a word about the material
    ("Chemie H5P Klasse 7 Wasser und Lösungen, 8 Fragen", "Wasser und Lösungen", ("Wasser", "Lösungen")),
    ("Mathe 8 Arbeitsblatt Gleichungen mit Lösungen", "Gleichungen", ()),
    ("Mathe 8 Arbeitsblatt Gleichungen und Lösungen", "Gleichungen", ()),
    ("Mathe 8 Klausur Gleichungen, Erwartungshorizont und Lösungen, 45 min", "Gleichungen", ()),
]


@pytest.mark.parametrize(("phrase", "thema", "material"), [
    ("KA Deutsch Klasse 10: dialektische Erörterung zum Thema Handyverbot an Schulen, 90 min",
     "Dialektische Erörterung: Handyverbot an Schulen", "klausur"),
    ("Klausur Deutsch 9 Erörterung zum Thema Schuluniformen, 90 Minuten", "Erörterung: Schuluniformen", "klausur"),
    ("Deutsch 8 Klassenarbeit zum Thema Kurzgeschichte, 45 min", "Kurzgeschichte", "klausur"),
    ("KA Mathe 8 lineare Funktionen, 45 min", "Lineare Funktionen", "klausur"),
    ("ka, Mathe 8 Arbeitsblatt lineare Funktionen", "Lineare Funktionen", "differenzierung"),  # „keine Ahnung“
])
def test_a_text_type_before_zum_thema_names_the_task(phrase: str, thema: str, material: str) -> None:
    result = extract(phrase, topic_terms=seeded_lexicon().terms)
    assert (result.thema, result.material_type) == (thema, material)


@pytest.mark.parametrize(("phrase", "thema", "parts"), CASES, ids=[c[0][:60] for c in CASES])
def test_thema_and_named_parts(phrase: str, thema: str, parts: tuple[str, ...]) -> None:
    result = extract(phrase, topic_terms=seeded_lexicon().terms)
    assert (result.thema, result.unterthemen) == (thema, parts)


@pytest.mark.parametrize(("message", "part"), [
    ("Bitte noch eine reading comprehension zu Australia ergänzen, die fehlt.", "Australia"),
    ("Bitte auch das going-to-future aufnehmen, das fehlt.", "going-to-future"),
    ("Bitte die Fragen zum Gradnetz dazunehmen, damit es 10 werden.", "Gradnetz"),
    ("Bitte den Erwartungshorizont ergänzen", None),  # a part of the material, not of its topic
    ("Bitte noch die Lösungen dazu", None),
    ("Bitte noch ein Arbeitsblatt zu Brüchen ergänzen", None),  # a new material
    ("Aufgabe 3 bitte leichter", None),
])
def test_a_follow_up_naming_a_part_to_add_is_read_as_one(message: str, part: str | None) -> None:
    assert wants_added_part(message) == part
