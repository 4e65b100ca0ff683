"""One test of „this task is about that part“ (decision 045), and notes that agree with the paper.

The negative cases quote the contradictions of the held-out review (stop 22, causes C/D), reproduced on tasks and
requests written for this test: a note said a part was missing or unused beside a task on it, and a label naming
several things made every task filed under it count for each of them."""

from __future__ import annotations

from core.checks.promises import broken_promises
from core.checks.views import TaskView
from core.composition.candidates import TaskCandidate
from core.composition.parts_lexicon import is_filing_of, treats
from core.composition.report import Befund, agree_with_paper, note_as_printed
from core.composition.select import ExamSpec, carries
from core.materials.blocks import Quelle
from core.materials.h5p import H5PSet, TrueFalseFrage
from core.materials.request import MaterialRequest


def _tasks(*texts: str, titel: str = "") -> list[TaskView]:
    return [TaskView(ref=f"{i}a", text=t, titel=titel) for i, t in enumerate(texts, 1)]


def _cand(text: str, *, topic: str, unterthema: str) -> TaskCandidate:
    return TaskCandidate(key=text[:20], herkunft="bank", topic=topic, unterthema=unterthema, klassenstufe=8,
                         niveau="Sek I", operator="Berechne", afb="II", text=text, erwartung=(("Ergebnis", 2),),
                         minuten=4, quelle=Quelle(art="good_practice", ref="x", titel="x"))


def test_a_task_on_the_part_in_other_words_treats_it() -> None:
    # „Zu „Aufbau der Blüte“ … fehlt“ stood beside „Beschreibe den Bau einer Kirschblüte von außen nach innen“
    assert treats(_tasks("Beschreibe den Bau einer Apfelblüte von außen nach innen."), "Aufbau der Blüte", "Blüten")
    assert treats(_tasks("Beschreibe den Bau einer Apfelblüte von außen nach innen."), "Aufbau", "Blüte")
    # „Zu „Entwicklungsindikatoren“ … fehlt“ beside a task on the HDI
    assert treats(_tasks("Erkläre, warum der HDI mehr über Entwicklung aussagt als das BIP pro Kopf."),
                  "Entwicklungsindikatoren", "Entwicklungsländer")
    # „Zu „Deutsches Kaiserreich“ … fehlt“ in a quiz on 1871
    assert treats(_tasks("Wo fand im Januar 1871 die Kaiserproklamation statt?"), "Deutsches Kaiserreich", "1871")
    assert treats(_tasks("Am 1. Juli 1990 kam die Währungsunion."), "Wiedervereinigung", "Deutsche Frage")


def test_a_task_on_something_else_does_not_treat_the_part() -> None:
    assert not treats(_tasks("Beschreibe, wie Bienen eine Apfelblüte bestäuben."), "Aufbau", "Blüte")
    assert not treats(_tasks("Erkläre, wie eine Zelle sich bei der Mitose teilt."), "Teilung", "Zellbiologie")
    assert not treats(_tasks("Nenne die vier Besatzungszonen."), "Teilung", "Zellteilung")
    assert treats(_tasks("Nenne die vier Besatzungszonen."), "Teilung", "Die deutsche Frage 1945-1990")


def test_a_label_naming_several_things_is_no_filing_of_each() -> None:
    assert is_filing_of("Extremwertprobleme", "Extremwertprobleme")
    assert is_filing_of("Halbleiter", "Halbleiter")
    assert not is_filing_of("Kräfte, Hookesches Gesetz und Hebel", "Hebel")
    assert not is_filing_of("Vulkanismus und Erdbeben", "Erdbeben")


def test_selection_counts_a_task_by_its_content_not_by_its_topic_label() -> None:
    spec = ExamSpec(klassenstufe=8, budget_minuten=40, afb_ziel={}, thema="Kraft", unterthemen=("Hebel",),
                    topic_titles={"kraft": "Kräfte, Hookesches Gesetz und Hebel", "hebel": "Hebel"})
    weight = _cand("Berechne die Gewichtskraft einer Masse von 3 kg auf dem Mond.", topic="kraft",
                   unterthema="Kräfte, Hookesches Gesetz und Hebel")
    lever = _cand("Ein Brett liegt auf einem Drehpunkt. Berechne, wo das Kind sitzen muss.", topic="hebel",
                  unterthema="Gleichgewicht")
    said = _cand("Berechne die Kraft am langen Arm eines einseitigen Hebels.", topic="kraft",
                 unterthema="Kräfte, Hookesches Gesetz und Hebel")
    assert not carries(weight, "Hebel", spec)  # it was carried: its topic title names „Hebel“
    assert carries(lever, "Hebel", spec)  # filed under a topic that is the part
    assert carries(said, "Hebel", spec)


def test_notes_are_said_from_the_printed_tasks() -> None:
    printed = _tasks("Berechne 3/4 + 2/5 und kürze das Ergebnis.", "Runde 3,456 auf Zehntel.",
                     titel="Brüche addieren und Dezimalzahlen runden")
    befund = Befund(was="Klassenarbeit", thema="Dezimalzahlen", klassenstufe=6,
                    fehlende_unterthemen=["Rechnen mit Brüchen"],
                    notizen=["Nur „Dezimalzahlen“: Aufgaben zu „Rechnen mit Brüchen“, „Prozente“ wurden nicht "
                             "verwendet."])
    befund.as_printed(printed, ["Rechnen mit Brüchen", "Schriftliches Dividieren"])
    hinweise = befund.hinweise()
    # it said „Aufgaben zu „Rechnen mit Brüchen“ wurden nicht verwendet“ beside a fraction task
    assert "Nur „Dezimalzahlen“: Aufgaben zu „Prozente“ wurden nicht verwendet." in hinweise
    assert not any("„Rechnen mit Brüchen“" in h for h in hinweise), hinweise
    # a named part with no printed task is named, not left silent
    assert "Zu „Schriftliches Dividieren“ habe ich keine geprüfte Aufgabe für Klasse 6 – dieser Teil fehlt." \
        in hinweise


def test_an_edit_that_brings_in_the_part_takes_back_its_missing_note() -> None:
    note = "Zu „Hebel“ habe ich keine geprüfte Aufgabe für Klasse 8 – dieser Teil fehlt."
    assert note_as_printed(note, _tasks("Berechne die Gewichtskraft."), "Kraft") == note
    assert note_as_printed(note, _tasks("Berechne die Kraft am einseitigen Hebel."), "Kraft") is None


def test_a_note_that_merely_contains_the_word_explains_no_missing_part() -> None:
    request = MaterialRequest(fach="biologie", thema="Proteinbiosynthese und Genregulation", klassenstufe=13,
                              material_type="h5p", unterthemen=["Proteinbiosynthese"])
    quiz = H5PSet(titel="Übung", fach="Biologie", klassenstufe=13, thema="Genregulation",
                  fragen=[TrueFalseFrage(frage="Das lac-Operon wird durch Lactose reguliert.", wahr=True)])
    quiz.hinweise_lehrkraft = ["Zu „Proteinbiosynthese und Genregulation“ liegen nur 10 geprüfte Aufgaben vor."]
    tasks = [TaskView(ref="Frage 1", text=quiz.fragen[0].frage)]
    assert [r for r, _ in broken_promises(quiz, request, tasks)] == ["Unterthema"]
    quiz.hinweise_lehrkraft.append("Zu „Proteinbiosynthese“ habe ich keine geprüfte Aufgabe für Klasse 13 – dieser "
                                   "Teil fehlt.")
    assert broken_promises(quiz, request, tasks) == []


def test_a_quiz_without_a_question_on_a_named_part_says_so_and_is_not_titled_with_it() -> None:
    quiz = H5PSet(titel="Übung: Atmung und Blutkreislauf", fach="Biologie", klassenstufe=8,
                  thema="Atmung und Blutkreislauf",
                  fragen=[TrueFalseFrage(frage="Beim Einatmen senkt sich das Zwerchfell.", wahr=True)])
    befund = Befund(was="Übung", thema="Atmung und Blutkreislauf", klassenstufe=8, einheit="Fragen")
    agree_with_paper(quiz, befund, ["Atmung", "Blutkreislauf"])
    assert quiz.hinweise_lehrkraft == ["Zu „Blutkreislauf“ habe ich keine geprüfte Aufgabe für Klasse 8 – dieser "
                                       "Teil fehlt."]
    assert quiz.titel == "Übung: Atmung"
    assert befund.fehlende_unterthemen == ["Blutkreislauf"]  # the reply offers options for what it lacks
