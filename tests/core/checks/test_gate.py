"""The content-quality gate: one test per fault class with the real outputs the tester reported (issue #10) as the
cases it must catch and good bank tasks as the cases it must let through; and its figures on the labelled set."""

from __future__ import annotations

import pytest

from core.checks.calibration import bank_tasks, evaluate, report, seed_index
from core.checks.gate import check_material
from core.checks.topicality import context, level_reason, off_topic_reason
from core.checks.views import TaskView
from core.materials.h5p import H5PSet, TrueFalseFrage
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from core.materials.request import MaterialRequest

REPORTED_FILLER = [
    ("Genetik und Vererbung", "Beschreibe, was man unter „Genetik und Vererbung“ versteht, und nenne ein Beispiel."),
    ("Säuren und Basen", "Nenne fünf wesentliche Merkmale zum Thema „Säuren und Basen“."),
    ("Weimarer Republik", "Erläutere „Weimarer Republik“ an einem selbst gewählten Beispiel."),
    ("Brüche", "Beurteile die Bedeutung von „Brüche“ für das Lösen von Sachproblemen."),
    ("simple past", "Comment on the importance of “simple past” for young people today."),
]
GENERIC_KEY = ["Beschreibt das Thema fachlich zutreffend (Kernaussage bzw. Definition).",
               "Nennt ein passendes, konkretes Beispiel.", "Verwendet die Fachsprache korrekt."]


def _teil(label: str, text: str, kriterien: list[str], afb: str = "II", operator: str = "Erläutern") -> Teilaufgabe:
    return Teilaufgabe(label=label, operator=operator, text=text, afb=afb, punkte=len(kriterien),
                       erwartung=[Kriterium(text=k, punkte=1) for k in kriterien])


def _exam(thema: str, *teile: Teilaufgabe, fach: str = "Physik", klassenstufe: int = 9) -> Klausur:
    return Klausur(titel=f"Klassenarbeit {fach}: {thema}", fach=fach, klassenstufe=klassenstufe, thema=thema,
                   dauer_minuten=45, niveau="Sek I" if klassenstufe <= 10 else "gA",
                   aufgaben=[Aufgabe(nummer=1, titel=thema, teilaufgaben=list(teile))])


@pytest.mark.parametrize("thema, text", REPORTED_FILLER)
def test_reported_template_filler_is_content_free(thema: str, text: str) -> None:
    k = _exam(thema, _teil("a", text, GENERIC_KEY))
    findings = check_material(k, request=MaterialRequest(fach="physik", thema=thema, material_type="klausur"))
    assert [f.kind for f in findings] == ["filler"], findings
    assert findings[0].ref == "1a"


def test_a_concrete_task_with_a_generic_key_is_still_content_free() -> None:
    k = _exam("Ohmsches Gesetz", _teil("a", "Erkläre den Zusammenhang zwischen „Spannung“ und „Stromstärke“ an einem "
                                       "Beispiel.", ["Gibt zutreffend an, was „Spannung“ bezeichnet.",
                                                     "Erklärt schlüssig, wie beide zusammenhängen.",
                                                     "Veranschaulicht den Zusammenhang an einem passenden Beispiel."]))
    assert [f.kind for f in check_material(k)] == ["filler"]


def test_a_task_pointing_to_a_missing_material_is_content_free() -> None:
    k = _exam("Lyrik", _teil("a", "Analysiere das Gedicht im Hinblick auf Form und Inhalt.",
                             ["Kreuzreim abab in allen Strophen", "Naturbilder als Ausdruck der Sehnsucht"]),
              fach="Deutsch")
    findings = check_material(k)
    assert findings and "Material" in findings[0].message


def test_good_bank_tasks_pass_the_filler_check() -> None:
    from core.checks.filler import filler_reason, topic_stems

    checked = flagged = 0
    for _, thema, task, exam in bank_tasks():
        checked += 1
        flagged += filler_reason(task, topic_stems(thema), check_criteria=exam) is not None
    assert checked > 500
    assert flagged / checked < 0.01, f"{flagged} of {checked} bank tasks flagged"


def test_reported_near_duplicates_are_found() -> None:
    k = _exam("Brüche",
              _teil("a", "Beurteile die Bedeutung von Brüchen für das Lösen von Sachproblemen mit Kuchenstücken.",
                    ["Anteile wie 3/8 beschreiben Teile eines Ganzen", "Urteil: unverzichtbar beim Teilen"], "III",
                    "Beurteilen"),
              _teil("b", "Bewerte die Bedeutung von Brüchen für das Lösen von Sachproblemen mit Kuchenstücken.",
                    ["Anteile wie 3/8 beschreiben Teile eines Ganzen", "Urteil: unverzichtbar beim Teilen"], "III",
                    "Bewerten"), fach="Mathematik")
    assert any(f.kind == "duplicate" and f.ref == "1b" for f in check_material(k))


def test_two_series_circuits_with_the_same_numbers_are_a_duplicate() -> None:
    a = Aufgabe(nummer=1, titel="Reihenschaltung", teilaufgaben=[_teil(
        "a", "Zwei Widerstände R₁ = 20 Ω und R₂ = 40 Ω sind in Reihe an 12 V angeschlossen. Berechne die Stromstärke.",
        ["R = 60 Ω", "I = 12 V / 60 Ω = 0,2 A"], "I", "Berechnen")])
    b = Aufgabe(nummer=2, titel="Stromkreis", teilaufgaben=[_teil(
        "a", "In einer Reihenschaltung liegen R₁ = 20 Ω und R₂ = 40 Ω an 12 V. Bestimme die Stromstärke im "
             "Stromkreis.", ["R = 60 Ω", "I = 12 V / 60 Ω = 0,2 A"], "II", "Bestimmen")])
    k = _exam("Stromkreise", *a.teilaufgaben)
    k.aufgaben = [a, b]
    assert [f.kind for f in check_material(k)] == ["duplicate"]


def test_sub_tasks_on_one_scenario_are_no_duplicates() -> None:
    k = _exam("Reihenschaltung",
              _teil("a", "Berechne die Stromstärke in der Reihenschaltung aus R₁ = 20 Ω und R₂ = 40 Ω an 12 V.",
                    ["R = 60 Ω", "I = 12 V / 60 Ω = 0,2 A"], "I", "Berechnen"),
              _teil("b", "Berechne die Spannung, die an R₂ anliegt.", ["U₂ = 40 Ω · 0,2 A = 8 V"], "I", "Berechnen"))
    assert not [f for f in check_material(k) if f.kind == "duplicate"]


@pytest.mark.parametrize("fach, thema, klassenstufe, text", [
    ("physik", "Optik: Linsen", 9, "Ein Präparat enthält 800 mg Iod-131 (Halbwertszeit 8 Tage). Berechne, wie viel "
                                   "nach 24 Tagen noch vorhanden ist, und beurteile die Lagerung im Krankenhaus."),
    ("chemie", "Säuren und Basen", 9, "Formuliere die Reaktionsgleichung der Veresterung von Ethanol mit Essigsäure "
                                      "und benenne den entstehenden Ester."),
    ("mathematik", "Lineare Funktionen", 8, "Bestimme den Scheitelpunkt der Parabel f(x) = (x − 2)² + 1 und "
                                            "beschreibe die Öffnung der Parabel."),
])
def test_reported_off_topic_tasks_are_found(fach: str, thema: str, klassenstufe: int, text: str) -> None:
    ctx = context(seed_index(fach), thema, (), klassenstufe)
    assert off_topic_reason(TaskView("1a", text), ctx) is not None


@pytest.mark.parametrize("fach, thema, klassenstufe, text", [
    ("physik", "Optik: Linsen", 9, "Ein Gegenstand steht 30 cm vor einer Sammellinse mit f = 10 cm. Bestimme die "
                                   "Bildweite und beschreibe das Bild."),
    ("chemie", "Säuren und Basen", 9, "Erkläre, warum eine verdünnte Salzsäure den elektrischen Strom leitet, reines "
                                      "Chlorwasserstoffgas aber nicht."),
    ("geschichte", "Weimarer Republik", 9, "Erläutere, wie die Hyperinflation von 1923 das Vertrauen der Mittelschicht "
                                           "in die Republik erschütterte."),
])
def test_on_topic_tasks_pass(fach: str, thema: str, klassenstufe: int, text: str) -> None:
    ctx = context(seed_index(fach), thema, (), klassenstufe)
    assert off_topic_reason(TaskView("1a", text), ctx) is None


def test_an_lk_request_answered_with_a_klasse_5_task_is_a_level_misfit() -> None:
    ctx = context(seed_index("mathematik"), "Analysis", (), 12)
    assert level_reason(TaskView("1a", "Berechne 3/4 + 1/8 und kürze das Ergebnis."), ctx) is not None


def test_a_short_quiz_must_say_why() -> None:
    fragen = [TrueFalseFrage(frage="Die Stromstärke ist in einer Reihenschaltung überall gleich.", wahr=True),
              TrueFalseFrage(frage="In einer Parallelschaltung liegt an allen Zweigen dieselbe Spannung an.",
                             wahr=True)]
    quiz = H5PSet(titel="Übung", fach="Physik", klassenstufe=8, thema="Stromkreise", fragen=fragen)
    request = MaterialRequest(fach="physik", thema="Stromkreise", material_type="h5p", anzahl=10)
    assert [f.kind for f in check_material(quiz, request=request)] == ["promise"]
    quiz.hinweise_lehrkraft = ["Nur 2 statt 10 Fragen: mehr geprüfte Fragen zu Stromkreisen gibt es nicht."]
    assert check_material(quiz, request=request) == []


def test_a_named_sub_topic_missing_without_a_word_is_a_broken_promise() -> None:
    text = ("Kreuzt man zwei mischerbige Erbsenpflanzen mit gelben Samen (Gg × Gg), treten in der F2 gelbe und grüne "
            "Samen auf. Bestimme das Zahlenverhältnis.")
    k = _exam("Mendelsche Regeln", _teil("a", text, ["Kreuzungsschema Gg × Gg", "Verhältnis 3 : 1 gelb zu grün"]),
              fach="Biologie")
    request = MaterialRequest(fach="biologie", thema="Genetik", material_type="klausur",
                              unterthemen=["Mendel", "Stammbaumanalyse"])
    assert [f.message for f in check_material(k, request=request) if f.kind == "promise"] == [
        "keine Aufgabe zu „Stammbaumanalyse“, obwohl gewünscht, und kein Hinweis dazu"]


def test_precision_and_recall_on_the_labelled_set_are_at_least_090() -> None:
    scores = evaluate()
    print("\n" + report(scores))
    for s in scores:
        assert s.precision >= 0.9 and s.recall >= 0.9, s.line()
