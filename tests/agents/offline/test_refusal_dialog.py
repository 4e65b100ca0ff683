"""After the specialist refused (Absage), the offline main model keeps the request: the teacher adjusts it and is not
asked again for what was already said (teacher test r22, r32, r40). The refusal is the tool's real `FEHLER: …` text."""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import ModelMessage, ModelRequest, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart

from agents.offline.dialog import SAME_AS_REFUSED
from agents.offline.main_rules import main_rules
from core.language.lexicon import seeded_lexicon

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
