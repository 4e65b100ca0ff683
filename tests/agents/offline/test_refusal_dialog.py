"""After the specialist refused (Absage), the offline main model keeps the request: the teacher adjusts it and is not
asked again for what was already said (teacher test r22, r32, r40). The refusal is the tool's real `FEHLER: …` text."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart

from agents.offline.dialog import SAME_AS_REFUSED
from agents.offline.main_rules import main_rules
from agents.offline.refusal import UPLOAD, offered
from core.generation.texts import absage_text
from core.language.lexicon import seeded_lexicon
from core.materials.replies import Absage

MAIN = main_rules(seeded_lexicon())
ABSAGE = ("FEHLER: Das kann ich nicht gut erstellen (Klausur): Zu „{thema}“ gibt es in der Wissensbasis keine "
          "geprüften Aufgaben in passender Klassenstufe. Gefunden: nichts Passendes.")


def converse(*turns: str, refuse: bool = True) -> list[str | dict[str, Any]]:
    """Each turn's outcome (reply text or generate_material arguments); every generate_material call is refused."""
    messages: list[ModelMessage] = []
    out: list[str | dict[str, Any]] = []
    for turn in turns:
        messages.append(ModelRequest(parts=[UserPromptPart(turn)]))
        response = MAIN(messages, None)  # type: ignore[arg-type]  # the main rules do not read the AgentInfo
        messages.append(response)
        calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
        if not calls:
            out.append("".join(p.content for p in response.parts if isinstance(p, TextPart)))
            continue
        args = calls[0].args_as_dict()
        out.append(args)
        if refuse and calls[0].tool_name == "generate_material":
            messages.append(ModelRequest(parts=[ToolReturnPart(
                tool_name="generate_material", content=ABSAGE.format(thema=args.get("thema")),
                tool_call_id=calls[0].tool_call_id)]))
            messages.append(MAIN(messages, None))  # type: ignore[arg-type]  # presents the refusal
    return out


def test_r40_a_new_topic_after_a_refusal_keeps_fach_klasse_duration_and_type() -> None:
    first, second = converse("test erdkunde klasse 10 permafrost und auftauende böden in sibirien, 30 min",
                             "Dann nimm das Thema Tundra und Permafrost allgemein.")
    assert isinstance(first, dict) and isinstance(second, dict), second
    assert (second["fach"], second["klassenstufe"], second["dauer_minuten"], second["material_type"]) == (
        "geographie", 10, 30, "klausur")
    assert second["thema"] == "Tundra und Permafrost"


def test_r32_without_the_task_kind_keeps_course_and_duration() -> None:
    *_, last = converse("Geschichte GK Q2 Klausur: Weimarer Republik, Krisenjahr 1923 und das Ende der Republik, "
                        "mit Quellenanalyse, 135 Minuten",
                        "Dann bitte ohne Quellenanalyse, einfach eine Klausur zur Weimarer Republik 1923 bis 1933.")
    assert isinstance(last, dict), last
    assert (last["fach"], last["klassenstufe"], last["dauer_minuten"], last.get("niveau")) == (
        "geschichte", 13, 135, "grundlegend")
    assert last["thema"].startswith("Weimarer Republik")


def test_r22_a_narrower_wish_after_a_refusal_keeps_the_lk_exam() -> None:
    *_, last = converse("Deutsch LK Q2 Klausur: Gedichtvergleich Expressionismus, 225 Minuten",
                        "Dann reicht auch eine Gedichtanalyse zu einem expressionistischen Gedicht.")
    assert isinstance(last, dict), last
    assert (last["fach"], last["klassenstufe"], last["dauer_minuten"], last["material_type"]) == (
        "deutsch", 13, 225, "klausur")
    assert last["thema"] == "Expressionistisches Gedicht"  # the nominative, not "expressionistische Gedicht"


def test_repeating_the_refused_request_asks_what_to_change() -> None:
    *_, last = converse("Physik LK Q2 Klausur zum Quantenradierer, 180 Minuten", "ok, dann so")
    assert last == SAME_AS_REFUSED


def test_another_fach_after_a_refusal_starts_a_new_request() -> None:
    *_, last = converse("Physik LK Q2 Klausur zum Quantenradierer, 180 Minuten", "Dann lieber Chemie zu Säuren")
    assert isinstance(last, str) and "Klasse" in last  # the Physik exam's Q2 does not carry over to Chemie


def test_an_expired_rueckfrage_is_no_refusal_the_restated_request_starts_afresh() -> None:
    ask = "Klausur Physik 10a Stromkreise, 45 Minuten"
    returns = iter([
        "RÜCKFRAGE_AN_LEHRER (Klausur-Assistent): Welche Verteilung auf die Anforderungsbereiche I/II/III?\n"
        "Kontext: –\nVorschläge: 1) 30/40/30 (Standard im Fachprofil)\n[session:11111111-2222-3333-4444-555555555555]",
        "FEHLER: Diese Rückfrage ist abgelaufen (sie gilt 5 Minuten). Bitte stellen Sie die Anfrage neu.",
    ])
    messages: list[ModelMessage] = []
    for turn in (ask, "30/40/30"):
        messages.append(ModelRequest(parts=[UserPromptPart(turn)]))
        response = MAIN(messages, None)  # type: ignore[arg-type]
        call = next(p for p in response.parts if isinstance(p, ToolCallPart))
        messages += [response, ModelRequest(parts=[ToolReturnPart(tool_name=call.tool_name, content=next(returns),
                                                                  tool_call_id=call.tool_call_id)])]
        messages.append(MAIN(messages, None))  # type: ignore[arg-type]
    messages.append(ModelRequest(parts=[UserPromptPart(ask)]))
    again = next(p for p in MAIN(messages, None).parts if isinstance(p, ToolCallPart))  # type: ignore[arg-type]
    assert again.tool_name == "generate_material"
    assert "afb_ziel" not in again.args_as_dict()  # the answer to the expired question is not carried over


# --- answering the options of a refusal -------------------------------------------------------------------------

OPTIONS = ["das ganze Thema „Alkane und Erdöl“ nehmen (13 weitere geprüfte Fragen)",
           "um verwandte Themen ergänzen: „Organische Reaktionsmechanismen“ (12), „Aromaten“ (12)",
           "eigene Aufgaben auf der Seite „Hochladen“ ergänzen – sie werden dann mitverwendet",
           "ein Sprachmodell konfigurieren (siehe README), das neue Aufgaben schreibt"]
QUIZ = "H5P Quiz Chemie Klasse 10 Nomenklatur der Alkane, 12 Fragen"


def answer_refusal(*turns: str, optionen: list[str] = OPTIONS) -> list[str | dict[str, Any]]:
    """Like converse, but the refusal is the real absage_text with numbered options; only the first call refused."""
    messages: list[ModelMessage] = []
    out: list[str | dict[str, Any]] = []
    refused = False
    for turn in turns:
        messages.append(ModelRequest(parts=[UserPromptPart(turn)]))
        response = MAIN(messages, None)  # type: ignore[arg-type]
        messages.append(response)
        calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
        if not calls:
            out.append("".join(p.content for p in response.parts if isinstance(p, TextPart)))
            continue
        out.append(calls[0].args_as_dict())
        text = "MATERIAL_FERTIG [material:11111111-2222-3333-4444-555555555555] Übung\n" if refused else \
            "FEHLER: " + absage_text("h5p", Absage(grund="Zum Schwerpunkt „Nomenklatur“ gibt es nichts.",
                                                  gefunden="nichts Passendes", optionen=optionen))
        refused = True
        messages.append(ModelRequest(parts=[ToolReturnPart(tool_name="generate_material", content=text,
                                                           tool_call_id=calls[0].tool_call_id)]))
        messages.append(MAIN(messages, None))  # type: ignore[arg-type]
    return out


def test_the_options_are_read_back_from_the_refusal_text() -> None:
    text = absage_text("h5p", Absage(grund="x", gefunden="nichts", optionen=OPTIONS))
    assert offered(text) == tuple(OPTIONS)  # "(12)" inside an option is no option number
    assert offered("FEHLER: Diese Rückfrage ist abgelaufen.") == ()


@pytest.mark.parametrize("answer", ["1", "(1)", "1.", "Option 1", "die erste", "Nummer 1 bitte", "das ganze Thema",
                                    "ja, nimm das ganze Thema", "Dann das gesamte Thema."])
def test_choosing_the_whole_topic_makes_the_material_on_it_with_what_was_said(answer: str) -> None:
    first, chosen_args = answer_refusal(QUIZ, answer)
    assert isinstance(first, dict) and isinstance(chosen_args, dict), chosen_args
    assert chosen_args["thema"] == "Alkane und Erdöl" and "unterthemen" not in chosen_args
    assert {k: chosen_args[k] for k in ("fach", "klassenstufe", "material_type", "anzahl")} == {
        "fach": "chemie", "klassenstufe": 10, "material_type": "h5p", "anzahl": 12}


@pytest.mark.parametrize("answer", ["2", "ergänzen", "ja, um verwandte Themen ergänzen", "Hm, dann 2 – aber bitte so",
                                    "nimm die nächstliegenden Themen dazu"])
def test_choosing_related_topics_adds_them_as_sub_topics_of_the_whole_topic(answer: str) -> None:
    _, chosen_args = answer_refusal(QUIZ, answer)
    assert isinstance(chosen_args, dict), chosen_args
    assert chosen_args["thema"] == "Alkane und Erdöl"
    assert chosen_args["unterthemen"] == ["Organische Reaktionsmechanismen", "Aromaten"]


def test_ergaenzen_without_related_topics_means_uploading_own_tasks_and_a_retry_follows() -> None:
    _, reply, again = answer_refusal(QUIZ, "ergänzen", "nochmal versuchen", optionen=OPTIONS[2:])
    assert reply == UPLOAD and "Hochladen" in reply
    assert isinstance(again, dict) and again["thema"] == "Nomenklatur der Alkane"  # the same request once more


def test_a_bare_yes_asks_which_option_and_the_number_then_counts() -> None:
    _, question, chosen_args = answer_refusal(QUIZ, "ja", "1")
    assert isinstance(question, str) and question.startswith("Welche Möglichkeit soll ich nehmen?")
    assert "\n- (1) das ganze Thema „Alkane und Erdöl“ nehmen" in question
    assert isinstance(chosen_args, dict) and chosen_args["thema"] == "Alkane und Erdöl"


def test_the_model_option_explains_how_to_configure_one() -> None:
    _, reply = answer_refusal(QUIZ, "4")
    assert isinstance(reply, str) and "Anthropic oder OpenAI" in reply and "README" in reply


def test_a_number_beyond_the_options_asks_again_and_a_new_request_is_no_choice() -> None:
    _, reply = answer_refusal(QUIZ, "7")
    assert isinstance(reply, str) and reply.startswith("Welche Möglichkeit soll ich nehmen?")
    _, new = answer_refusal(QUIZ, "Dann lieber ein Quiz zu Alkenen")
    assert isinstance(new, dict) and new["thema"] == "Alkene"


def test_a_choice_with_a_change_keeps_the_change() -> None:
    _, chosen_args = answer_refusal(QUIZ, "Option 1 bitte, aber nur 8 Fragen")
    assert isinstance(chosen_args, dict) and (chosen_args["thema"], chosen_args["anzahl"]) == ("Alkane und Erdöl", 8)


def test_the_refusal_lists_its_options_one_per_line() -> None:
    messages: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart(QUIZ)])]
    response = MAIN(messages, None)  # type: ignore[arg-type]
    call = next(p for p in response.parts if isinstance(p, ToolCallPart))
    messages += [response, ModelRequest(parts=[ToolReturnPart(
        tool_name="generate_material", tool_call_id=call.tool_call_id,
        content="FEHLER: " + absage_text("h5p", Absage(grund="Nichts.", gefunden="nichts", optionen=OPTIONS)))])]
    shown = "".join(p.content for p in MAIN(messages, None).parts if isinstance(p, TextPart))  # type: ignore[arg-type]
    assert shown.startswith("Das kann ich nicht gut erstellen (eine H5P-Übung): Nichts.")
    assert "\nMöglichkeiten:\n- (1) das ganze Thema „Alkane und Erdöl“ nehmen (13 weitere geprüfte Fragen)\n" \
           "- (2) um verwandte Themen" in shown
    assert shown.endswith("Antworten Sie einfach mit der Nummer, z. B. „1“.")


def test_a_misspelt_topic_as_the_answer_to_the_schwerpunkt_question_is_read_in_the_fach() -> None:
    question, args = converse("Test Mathe Klasse 9, 30 Minuten", "Satz des Pythagros", refuse=False)
    assert isinstance(question, str) and "Schwerpunkt" in question
    assert isinstance(args, dict) and args["thema"] == "Satz des Pythagoras"
