"""The offline main model's dialog about a request (agents.offline.dialog through the main rules): answers fill the
open question, a question is never asked twice in a row, and the generate_material arguments carry everything."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, TextPart, ToolCallPart, UserPromptPart

from agents.offline.main_rules import main_rules
from core.language.lexicon import seeded_lexicon

MAIN = main_rules(seeded_lexicon())


def converse(*turns: str) -> list[str | dict[str, Any]]:
    """Each turn's outcome: the reply text, or the generate_material arguments."""
    messages: list[ModelMessage] = []
    out: list[str | dict[str, Any]] = []
    for turn in turns:
        messages.append(ModelRequest(parts=[UserPromptPart(turn)]))
        response = MAIN(messages, None)  # type: ignore[arg-type]  # the main rules do not read the AgentInfo
        messages.append(response)
        calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
        if calls:
            assert calls[0].tool_name == "generate_material"
            out.append(calls[0].args_as_dict())
        else:
            out.append("".join(p.content for p in response.parts if isinstance(p, TextPart)))
    return out


def call(*turns: str) -> dict[str, Any]:
    last = converse(*turns)[-1]
    assert isinstance(last, dict), last
    return last


@pytest.mark.parametrize(("word", "material_type"), [
    ("Test", "klausur"), ("Lernkontrolle", "klausur"), ("Klassenarbeit", "klausur"), ("LEK", "klausur"),
    ("Kurzkontrolle", "klausur"), ("Klausur", "klausur"), ("Übungsblatt", "differenzierung"),
    ("Arbeitsblatt", "differenzierung"), ("Quiz", "h5p"), ("Lückentext", "h5p"), ("H5P-Übung", "h5p"),
])
def test_material_type_words(word: str, material_type: str) -> None:
    args = call(f"{word} Biologie Klasse 8 Fotosynthese 30 Minuten")
    assert args["material_type"] == material_type


@pytest.mark.parametrize(("text", "klasse"), [
    ("Deutsch Klasse 9 Erörterung 'Soziale Medien', 90 Minuten", 9),  # only an exam has a duration
    ("Klassenarbeit Mathe 7 Prozentrechnung mit Rabatt und Mehrwertsteuer, 45 min", 7),  # no „Für welche Klasse?“
])
def test_a_duration_means_an_exam_and_a_grade_after_the_subject_counts(text: str, klasse: int) -> None:
    args = call(text)
    assert args["material_type"] == "klausur" and args["klassenstufe"] == klasse and args["dauer_minuten"]


@pytest.mark.parametrize("turns", [
    ("H5P-Quiz Bio Klasse 7 Fotosynthese",),
    ("Ich brauche ein H5P-Quiz für Biologie, Klasse 7", "Fotosynthese"),
    ("Arbeitsblatt Mathe 6 Dezimalzahlen",),
    ("Quiz", "Bio, Klasse 5, Haustiere"),
])
def test_h5p_and_worksheets_are_never_asked_for_a_duration(turns: tuple[str, ...]) -> None:
    outcomes = converse(*turns)
    assert not any(isinstance(o, str) and "Wie lange" in o for o in outcomes)
    assert isinstance(outcomes[-1], dict) and "dauer_minuten" not in outcomes[-1]


@pytest.mark.parametrize("turns", [
    ("Klausur Physik Optik Reflexion 45 Minuten", "hm", "weiß ich nicht"),
    ("Klausur Physik Klasse 8, 45 Minuten", "keine Ahnung, such du was aus"),
    ("Klausur Chemie Klasse 9", "ok", "ok"),
    ("Mathe Arbeitsblatt", "ja", "ja"),
    ("Ich brauche eine Klausur", "hallo?", "hallo?"),
])
def test_the_same_question_is_never_asked_twice_in_a_row(turns: tuple[str, ...]) -> None:
    replies = [o for o in converse(*turns) if isinstance(o, str)]
    assert all(a != b for a, b in zip(replies, replies[1:], strict=False)), replies


def test_unplaceable_topic_answer_changes_the_question_to_concrete_options() -> None:
    first, second = converse("Klausur Physik Klasse 8, 45 Minuten", "keine Ahnung, such du was aus")
    assert isinstance(first, str) and "Schwerpunkt" in first
    assert isinstance(second, str) and "Zur Auswahl" in second and "\n- " in second


def test_left_to_the_assistant_twice_it_takes_the_first_offered_topic() -> None:
    outcomes = converse("Mathe Klausur Q1, 90 Minuten", "egal", "egal")
    assert isinstance(outcomes[1], str) and "Zur Auswahl" in outcomes[1]
    offered = outcomes[1].split("\n- ")[1].split("\n")[0]
    assert isinstance(outcomes[2], dict) and outcomes[2]["thema"] == offered


@pytest.mark.parametrize(("turns", "expected"), [
    (("Klausur Physik Optik Reflexion 45 Minuten", "8"), {"klassenstufe": 8}),
    (("Mathe Arbeitsblatt Bruchrechnung", "6b"), {"klassenstufe": 6, "klasse": "6b"}),
    (("Mathe Arbeitsblatt Bruchrechnung", "für die sechste"), {"klassenstufe": 6}),
    (("Geschichte Test 45 Minuten Kolonialismus", "die 9er"), {"klassenstufe": 9}),
    (("Deutsch Klausur 8b", "90", "Balladen"), {"dauer_minuten": 90, "thema": "Balladen"}),
    (("Deutsch Klausur", "8", "Balladen, 90 Minuten"), {"klassenstufe": 8, "dauer_minuten": 90}),
    (("Klausur Bio", "Klasse 9", "Immunsystem", "45"), {"dauer_minuten": 45, "thema": "Immunsystem"}),
    (("Deutsch Arbeitsblatt", "6, Wortarten"), {"klassenstufe": 6, "thema": "Wortarten"}),
    (("Bio Klausur Proteinbiosynthese, 180 Minuten", "Q1"), {"klassenstufe": 12}),
    (("Bio Klausur Proteinbiosynthese, 180 Minuten", "LK"), {"klassenstufe": 12, "niveau": "erhoeht"}),
])
def test_answers_fill_the_open_question(turns: tuple[str, ...], expected: dict[str, Any]) -> None:
    args = call(*turns)
    assert {k: args.get(k) for k in expected} == expected


@pytest.mark.parametrize(("turns", "thema"), [
    (("Klausur Chemie Klasse 9, 45 Minuten", "Atombau und Periodensystem"), "Atombau und Periodensystem"),
    (("Klausur Optik Klasse 9, 45 Minuten", "Optik"), "Optik"),
    (("Bio 9 Klausur Genetik 45 Minuten", "Genetik allgemein"), "Genetik"),
    (("Klausur Physik 9 Optik 45 min", "keine Ahnung, mach einfach was Passendes"), "Optik"),
    (("Chemie Quiz Klasse 8", "Chemie im Haushalt"), "Chemie im Haushalt"),
    (("Geschichte Klasse 8 Arbeitsblatt", "Leben der Arbeiterfamilien im 19. Jahrhundert"),
     "Leben der Arbeiterfamilien im 19. Jahrhundert"),
    (("Mathe Arbeitsblatt Klasse 7", "prozentrechnung"), "Prozentrechnung"),
])
def test_a_topic_answer_is_taken_as_the_teacher_wrote_it(turns: tuple[str, ...], thema: str) -> None:
    assert call(*turns)["thema"] == thema


def test_a_broad_area_alone_is_asked_about_once() -> None:
    first = converse("Klausur Optik Klasse 9, 45 Minuten")[0]
    assert isinstance(first, str) and "Schwerpunkt" in first and "Wie lange" not in first


def test_a_course_without_a_year_is_the_first_q_year_not_a_question() -> None:
    """Decision 068: „Bio LK“ fixes the Oberstufe; the first Q year is taken (and the reply says so)."""
    args = converse("Bio LK Klausur Proteinbiosynthese, 180 Minuten")[0]
    assert isinstance(args, dict) and (args["klassenstufe"], args["niveau"]) == (12, "erhoeht")


def test_arguments_carry_sub_topics_count_and_level() -> None:
    args = call("Physik LK Q2 Klausur Quantenphysik: Photoeffekt und Compton-Effekt, 180 Minuten, 4 Aufgaben")
    assert args["thema"] == "Quantenphysik"
    assert args["unterthemen"] == ["Photoeffekt", "Compton-Effekt"]
    assert (args["anzahl"], args["niveau"], args["klassenstufe"]) == (4, "erhoeht", 13)


def test_without_a_material_type_only_the_type_is_asked() -> None:
    reply = converse("Fotosynthese Klasse 7")[0]
    assert isinstance(reply, str) and "Was soll entstehen" in reply and "Wie lange" not in reply
    assert converse("Fotosynthese Klasse 7", "Klausur")[-1] == converse("Fotosynthese Klasse 7", "Klausur")[-1]
    assert "Wie lange" in str(converse("Fotosynthese Klasse 7", "Klausur")[-1])


def test_cancel_starts_a_new_request() -> None:
    args = call("Klausur Physik Klasse 8", "abbrechen, neue Anfrage: Quiz Erdkunde Klasse 5 zu Kontinenten")
    assert (args["fach"], args["material_type"], args["thema"]) == ("geographie", "h5p", "Kontinente")


@pytest.mark.parametrize(("message", "named", "question"), [
    ("test mathe EF expontialfunktionen und wachstum", "ein Test in Mathematik", "Wie lange soll er dauern – z. B. 20"),
    ("LEK Physik Klasse 7 Optik", "eine Lernkontrolle in Physik", "Wie lange soll sie dauern – z. B. 20"),
    ("Klassenarbeit Bio Wirbeltiere", "eine Klassenarbeit in Biologie", "Wie lange soll sie dauern – 45 Minuten"),
])
def test_the_exam_is_named_as_the_teacher_named_it(message: str, named: str, question: str) -> None:
    reply = converse(message)[0]  # r05: a "Test" is a short exam, not a "Klausur"
    assert isinstance(reply, str) and named in reply and question in reply, reply


def test_the_question_names_the_teachers_topic_not_only_its_area() -> None:
    reply = converse("test mathe EF expontialfunktionen und wachstum")[0]  # r05: the misspelt topic was understood
    assert isinstance(reply, str) and "zu „Exponentialfunktionen und Wachstum“" in reply, reply
    assert "Schwerpunkt" not in reply


# The teacher test's own words (issue #10): the call a colleague would make — misspelt topics, sub-topic lists,
# kinds of task that are no topics, and the Thema as a clean capitalised noun phrase in the nominative.
@pytest.mark.parametrize(("message", "expected"), [
    ("test mathe EF expontialfunktionen und wachstum, 30 min bitte",  # r05
     {"thema": "Exponentialfunktionen und Wachstum", "klassenstufe": 11, "dauer_minuten": 30,
      "material_type": "klausur"}),
    ("Klassenarbeit Englisch Klasse 8 zu if-clauses (Typ 1 und 2), 45 Minuten, Gruppe A und B",  # r30
     {"thema": "If-clauses", "unterthemen": ["Typ 1", "Typ 2"]}),
    ("Englisch Klasse 6, differenziertes Arbeitsblatt: simple past vs. present perfect",  # r27
     {"thema": "Simple past vs. present perfect", "unterthemen": ["Simple past", "Present perfect"]}),
    ("Differenziertes Arbeitsblatt Deutsch Klasse 6 zur Kommasetzung (Aufzählungen, Haupt-/Nebensätze)",  # r23
     {"thema": "Kommasetzung", "unterthemen": ["Aufzählungen", "Haupt-/Nebensätze"]}),
    ("Geschichte GK Q2 Klausur: Weimarer Republik, Krisenjahr 1923 und das Ende der Republik, mit Quellenanalyse, "
     "135 Minuten",  # r32: "mit Quellenanalyse" is the kind of task
     {"thema": "Weimarer Republik", "unterthemen": ["Krisenjahr 1923", "Ende der Republik"]}),
    ("Deutsch LK Q2 Klausur: Gedichtvergleich Expressionismus, 225 Minuten",  # r22: "Gedichtvergleich" likewise
     {"thema": "Expressionismus", "unterthemen": []}),
    ("Klassenarbeit Geschichte Klasse 7 über die Hanse und den Fernhandel im Mittelalter, 45 min",  # r35
     {"thema": "Hanse und Fernhandel im Mittelalter"}),
    ("test erdkunde klasse 10 permafrost und auftauende böden in sibirien, 30 min",  # r40
     {"thema": "Permafrost und auftauende Böden in Sibirien", "material_type": "klausur"}),
])
def test_teacher_test_requests_are_read_as_meant(message: str, expected: dict[str, Any]) -> None:
    args = call(message)
    assert {k: args.get(k, []) for k in expected} == expected


def _call_as_teacher_in(bundesland: str, *turns: str) -> dict[str, Any] | str:
    """The last outcome when the main agent's instructions name the teacher's Bundesland (as agents.main does)."""
    instructions = f"Lehrkraft: Test Lehrkraft, {bundesland}; Fächer: deutsch, physik; Klassen: keine hinterlegt."
    messages: list[ModelMessage] = []
    for turn in turns:
        messages.append(ModelRequest(parts=[UserPromptPart(turn)], instructions=instructions))
        messages.append(MAIN(messages, None))  # type: ignore[arg-type]
    parts = messages[-1].parts
    calls = [p for p in parts if isinstance(p, ToolCallPart)]
    return calls[0].args_as_dict() if calls else "".join(p.content for p in parts if isinstance(p, TextPart))


@pytest.mark.parametrize(("bundesland", "stufe"), [("Nordrhein-Westfalen", 13), ("Sachsen", 12), ("Hessen", 12)])
def test_q2_is_read_in_the_teachers_bundesland(bundesland: str, stufe: int) -> None:
    args = _call_as_teacher_in(bundesland, "Deutsch LK Q2 Klausur: Gedichtvergleich Expressionismus, 225 Minuten")
    assert isinstance(args, dict) and args["klassenstufe"] == stufe


def test_a_course_without_a_year_is_the_first_q_year_of_the_bundesland() -> None:
    args = _call_as_teacher_in("Sachsen", "Physik LK Klausur Quantenobjekte 180 Minuten")
    assert isinstance(args, dict) and args["klassenstufe"] == 11  # Sachsen: Jahrgangsstufen 11 and 12
    args = _call_as_teacher_in("Sachsen", "Physik LK Q2 Klausur Quantenobjekte 180 Minuten")
    assert isinstance(args, dict) and args["klassenstufe"] == 12
