"""The gate on what a teacher notices first: the same demand twice in other words, and a task far above or below the
class — with the reason she reads in German."""

from __future__ import annotations

import json

import pytest

from core.checks.calibration import bank_tasks, seed_index
from core.checks.duplicates import similar
from core.checks.gate import check_material
from core.checks.levels import LEVELS, too_easy, too_hard
from core.checks.topicality import context, level_reason
from core.checks.views import TaskView
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe


def _exam(fach: str, thema: str, klassenstufe: int, *texts: str) -> Klausur:
    aufgaben = [Aufgabe(nummer=i, titel=thema, teilaufgaben=[Teilaufgabe(
        label="a", operator="Erläutern", text=text, afb="II", punkte=2,
        erwartung=[Kriterium(text="Fachlich richtige Lösung mit Rechenweg bzw. Begründung", punkte=2)])])
        for i, text in enumerate(texts, 1)]
    return Klausur(titel=f"Klassenarbeit {fach}: {thema}", fach=fach.capitalize(), klassenstufe=klassenstufe,
                   thema=thema, dauer_minuten=45, niveau="Sek I" if klassenstufe <= 10 else "gA", aufgaben=aufgaben)


def test_an_exam_with_a_derivative_in_klasse_7_tells_the_teacher_why() -> None:
    k = _exam("mathematik", "Lineare Funktionen", 7,
              "Bestimme die Steigung der Geraden durch P(1|3) und Q(3|7).",
              "Bestimme die Ableitung von f(x) = 3x² + 2x und gib die Steigung an der Stelle x = 1 an.")
    ctx = context(seed_index("mathematik"), "Lineare Funktionen", (), 7)
    levels = [f for f in check_material(k, topic=ctx) if f.kind == "level"]
    assert [f.ref for f in levels] == ["2a"]
    assert levels[0].line() == ("2a – falsches Niveau: verlangt „Ableitung“ (üblich ab Klasse 11) – zu schwer für "
                                "Klasse 7; ersetzen Sie die Aufgabe durch eine zum Stoff der Klasse")


@pytest.mark.parametrize("fach, thema, klasse, text, concept", [
    ("chemie", "Stoffe und ihre Eigenschaften", 5,
     "Erkläre, warum Kochsalz aus Ionen aufgebaut ist, und beschreibe die Ionenbindung.", "Ionenbindung"),
    ("deutsch", "Wortarten", 5,
     "Bestimme in den Sätzen die Verbformen im Konjunktiv II und erkläre, was sie ausdrücken.", "Konjunktiv II"),
    ("englisch", "Simple present", 5,
     "Complete the text with the present perfect progressive of the verbs in brackets.",
     "present perfect progressive"),
    ("biologie", "Zelle", 5, "Erläutere die Aufgabe der tRNA bei der Translation.", "Translation"),
    ("geschichte", "Steinzeit", 5, "Erörtere, ob die Menschen der Jungsteinzeit besser lebten als die Jäger und "
                                   "Sammlerinnen.", "erörtere"),
])
def test_a_concept_taught_three_grades_later_is_too_hard(fach: str, thema: str, klasse: int, text: str,
                                                         concept: str) -> None:
    reason = level_reason(TaskView("1a", text), context(seed_index(fach), thema, (), klasse))
    assert reason is not None and f"„{concept}“" in reason and f"Klasse {klasse}" in reason


@pytest.mark.parametrize("fach, thema, klasse, text", [
    ("chemie", "Ionenbindung und Salze", 9, "Erkläre, warum Kochsalz aus Ionen aufgebaut ist, und beschreibe die "
                                            "Ionenbindung."),
    ("deutsch", "Konjunktiv und indirekte Rede", 8, "Bestimme in den Sätzen die Verbformen im Konjunktiv II und "
                                                     "erkläre, was sie ausdrücken."),
    ("englisch", "Tenses", 9, "Complete the text with the present perfect progressive of the verbs in brackets."),
    ("mathematik", "Lineare Funktionen", 7, "Zeichne den Graphen der Funktion f(x) = 2x − 1 und lies die Steigung "
                                            "ab."),
    ("physik", "Magnetismus", 5, "Beschreibe, wie du mit einem Magneten Eisen von Kupfer trennen kannst."),
])
def test_the_same_concepts_at_their_class_pass(fach: str, thema: str, klasse: int, text: str) -> None:
    assert level_reason(TaskView("1a", text), context(seed_index(fach), thema, (), klasse)) is None


def test_a_grundschul_activity_in_the_oberstufe_is_too_easy_unless_it_carries_oberstufe_content() -> None:
    index = seed_index("biologie")
    assert too_easy("Kreuze an, welche Tiere im Wald leben: Reh, Hai, Fuchs.", index) == "Kreuze"
    assert too_easy("Kreuze an, welche Aussagen zum Aktionspotenzial und zur Synapse zutreffen.", index) is None
    reason = level_reason(TaskView("1a", "Male ein Tier, das im Wald lebt."),
                          context(index, "Ökologie", (), 12))
    assert reason is not None and reason.startswith("ist eine Aufgabe auf Grundschulniveau („Male“)")


def test_the_fist_of_a_speech_is_no_faust_but_goethes_drama_stays_above_klasse_8() -> None:
    """„Faust“ is also the everyday noun („wir sind eine Faust“, „auf eigene Faust“): the map names the drama only by
    words that cannot mean a fist."""
    index = seed_index("deutsch")
    speech = "Bestimme das rhetorische Mittel in „Wir sind eine Faust.“ und erkläre seine Wirkung."
    assert too_hard(speech, index, 8) is None
    for text in ("Analysiere die Szene aus Goethes Faust.", "Charakterisiere Mephisto in der Studierzimmerszene.",
                 "Erläutere, warum die Gretchentragödie tragisch endet."):
        cue = too_hard(text, index, 8)
        assert cue is not None and cue.ab == 11, text


def test_no_bank_task_is_off_level_at_its_own_grades() -> None:
    """The reviewed bank is the negative set: a cue firing on it is a wrong entry in the level map."""
    indexes: dict[str, object] = {}
    flagged, checked = [], 0
    for fach, _, task, _ in bank_tasks():
        index = indexes.setdefault(fach, seed_index(fach))
        topic = index.topics.get(task.ref.split("/")[1])
        if topic is None or not topic.klassenstufen:
            continue
        checked += 1
        text = " ".join([task.text, *task.kriterien])
        for k in topic.klassenstufen:
            if cue := too_hard(text, index, k):
                flagged.append(f"{task.ref} in Klasse {k}: {cue.name} ab {cue.ab}")
        if min(topic.klassenstufen) >= 11 and (activity := too_easy(task.text, index)):
            flagged.append(f"{task.ref}: {activity}")
    assert checked > 4000
    assert flagged == []


def test_the_level_map_covers_every_fach_with_grades_5_to_13() -> None:
    data = json.loads(LEVELS.read_text(encoding="utf-8"))
    assert set(data["faecher"]) == {"mathematik", "physik", "chemie", "biologie", "deutsch", "englisch",
                                    "geschichte", "geographie"}
    grades = [ab for entries in [data["operatoren"], *data["faecher"].values()] for ab in entries.values()]
    assert all(5 <= ab <= 13 for ab in grades) and len(grades) > 300


@pytest.mark.parametrize("a, b", [
    ("Berechne den Umfang eines Kreises mit dem Radius 3 cm.", "Ermittle den Umfang eines Kreises mit r = 8 cm."),
    ("Löse die Gleichung 5x − 2 = 13.", "Bestimme die Lösung der Gleichung 2x + 9 = 21."),
    ("Ein Zug legt 300 km in 2,5 h zurück. Berechne seine Durchschnittsgeschwindigkeit.",
     "Bestimme die mittlere Geschwindigkeit eines Busses, der 90 km in 1,5 h fährt."),
    ("Nenne die Gründe für den Ausbruch des Ersten Weltkriegs.", "Gib die Ursachen des Ersten Weltkriegs an."),
    ("Beschreibe die Auswirkungen der Industrialisierung auf die Bevölkerung.",
     "Stelle die Folgen der Industrialisierung für die Menschen dar."),
    ("Warum schwimmt Eis auf Wasser? Erkläre.", "Erkläre, warum Eis auf dem Wasser schwimmt."),
    ("Translate the sentences into German.", "Put the following sentences into German."),
])
def test_paraphrases_of_one_demand_are_duplicates(a: str, b: str) -> None:
    assert similar(TaskView("1", a, gruppe="1"), TaskView("2", b, gruppe="2")) is not None


@pytest.mark.parametrize("a, b, same_aufgabe", [
    ("Beschreibe die Ursachen der Märzrevolution.", "Beschreibe die Folgen der Märzrevolution.", False),
    ("Erkläre die Entstehung von Tag und Nacht.", "Erkläre die Entstehung der Jahreszeiten.", False),
    ("Put the verbs into the past progressive.", "Put the verbs into the present progressive.", False),
    ("Ein Handy kostet 250 €; es wird um 10 % billiger. Berechne den neuen Preis.",
     "Ein Handy kostet nach 10 % Rabatt noch 225 €. Berechne den ursprünglichen Preis.", False),
    ("Berechne die Nullstellen von f(x) = x² − 6x + 8.", "Bestimme den Scheitelpunkt von f(x) = x² − 6x + 8.", True),
])
def test_look_alikes_with_another_demand_are_no_duplicates(a: str, b: str, same_aufgabe: bool) -> None:
    gruppen = ("1", "1") if same_aufgabe else ("1", "2")
    assert similar(TaskView("1", a, gruppe=gruppen[0]), TaskView("2", b, gruppe=gruppen[1])) is None
