"""The Klausur specialist's compact output (decision 015): a plan to the composed draft, expanded on the server into
the exam a teacher gets — kept tasks with their sources and material, changed text, new sub-tasks, and a German
message naming every reference that does not resolve."""

from __future__ import annotations

import json

import pytest
from pydantic_ai import ModelRetry

from agents.klausur_plan import KlausurPlan, expand_plan
from core.language.tokens import estimate_tokens
from core.materials.klausur import Klausur

GP = {"art": "good_practice", "ref": "48b60e99-e24f-47bd-8531-f3dd92b4a0aa", "titel": "Widerstand berechnen"}
TABELLE = {"titel": "M1 Messreihe", "art": "tabelle", "tabelle": {"spalten": ["U in V", "I in A"],
                                                                   "zeilen": [["2", "0,1"], ["6", "0,3"]]}}


def _teil(label: str, afb: str, punkte: int, text: str, operator: str = "Berechnen") -> dict:
    return {"label": label, "operator": operator, "afb": afb, "punkte": punkte, "text": text, "quellen": [GP],
            "erwartung": [{"text": f"Erwartung zu {text}", "punkte": punkte}]}


ENTWURF = {
    "titel": "Klassenarbeit Physik: Stromkreise", "fach": "Physik", "klassenstufe": 10, "klasse": "10a",
    "thema": "Stromkreise", "dauer_minuten": 45, "niveau": "Sek I", "hilfsmittel": ["Taschenrechner"],
    "hinweise": ["Bearbeitungszeit: 45 Minuten; insgesamt sind 14 Punkte erreichbar."],
    "aufgaben": [
        {"nummer": 1, "titel": "Messreihe", "materialien": [TABELLE],
         "teilaufgaben": [_teil("a", "I", 4, "Berechne R aus der Messreihe."),
                          _teil("b", "II", 3, "Erkläre den Verlauf.", "Erklären")]},
        {"nummer": 2, "titel": "Reihenschaltung", "teilaufgaben": [_teil("a", "III", 7, "Beurteile Laras Aussage.",
                                                                         "Beurteilen")]},
    ],
    "gruppe_b": [{"nummer": 1, "titel": "Messreihe B", "teilaufgaben": [_teil("a", "I", 14, "Andere Zahlen.")]}],
}
HINWEISE = ["Notiz zur 10a berücksichtigt in 1a."]


def test_an_empty_plan_is_the_draft_as_the_offline_model_sent_it_before() -> None:
    k = expand_plan(KlausurPlan(), ENTWURF, HINWEISE)
    assert k == Klausur.model_validate({**ENTWURF, "hinweise_lehrkraft": HINWEISE})
    assert k.gruppe_b and k.gesamtpunkte == 14


def test_kept_tasks_keep_sources_and_material_and_changed_fields_replace_the_drafts() -> None:
    plan = KlausurPlan.model_validate({"aufgaben": [
        {"aus": 2},
        {"aus": 1, "titel": "Kennlinien", "teile": [
            {"aus": "1b", "text": "Erkläre den Verlauf der Kennlinie mit der Temperatur."},
            {"operator": "Nennen", "afb": "I", "text": "Nenne zwei ohmsche Leiter.",
             "erwartung": [{"text": "Konstantandraht", "punkte": 1}, {"text": "Kohleschichtwiderstand", "punkte": 1}],
             "quellen": [{"art": "curriculum", "ref": "c-1"}]},
        ]},
    ], "hinweise_lehrkraft": ["1a gestrichen: zu nah an 2a."]})
    k = expand_plan(plan, ENTWURF, HINWEISE)
    assert [(a.nummer, a.titel) for a in k.aufgaben] == [(1, "Reihenschaltung"), (2, "Kennlinien")]
    erste, zweite = k.aufgaben[1].teilaufgaben
    assert (erste.label, erste.text, erste.punkte, erste.quellen[0].ref) == (
        "a", "Erkläre den Verlauf der Kennlinie mit der Temperatur.", 3, GP["ref"])
    assert (zweite.label, zweite.punkte, zweite.quellen[0].art) == ("b", 2, "curriculum")
    assert k.aufgaben[1].materialien[0].tabelle is not None  # the table travels with its task
    assert k.gesamtpunkte == 12 and k.hinweise == ["Bearbeitungszeit: 45 Minuten; insgesamt sind 12 Punkte erreichbar."]
    assert k.hinweise_lehrkraft[0] == "1a gestrichen: zu nah an 2a."
    assert k.gruppe_b is None and "Gruppe B entfällt" in k.hinweise_lehrkraft[-1]  # B no longer matches A


def test_new_criteria_set_the_points_of_a_kept_sub_task() -> None:
    plan = KlausurPlan.model_validate({"aufgaben": [
        {"aus": 1, "teile": [{"aus": "1a", "erwartung": [{"text": "R = 20 Ω", "punkte": 2}]}, {"aus": "1b"}]},
        {"aus": 2}]})
    k = expand_plan(plan, ENTWURF, HINWEISE)
    assert k.aufgaben[0].teilaufgaben[0].punkte == 2 and k.gesamtpunkte == 12


def test_every_reference_that_does_not_resolve_is_named_in_one_german_message() -> None:
    plan = KlausurPlan.model_validate({"aufgaben": [
        {"aus": 7}, {"aus": 1, "teile": [{"aus": "1c"}, {"text": "Nenne zwei Leiter."}]}, {"titel": "Neu"}]})
    with pytest.raises(ModelRetry) as err:
        expand_plan(plan, ENTWURF, HINWEISE)
    assert str(err.value) == (
        "Der Plan passt nicht zum Entwurf. Behebe genau das und gib den ganzen Plan erneut aus:\n"
        "- Aufgabe 7 gibt es im Entwurf nicht (er hat 2 Aufgaben).\n"
        "- Aufgabe 2: Teilaufgabe „1c“ gibt es im Entwurf nicht.\n"
        "- Aufgabe 2: neue Teilaufgabe ohne operator, afb, erwartung.\n"
        "- Aufgabe 3: ohne 'aus' braucht sie 'teile'.")


def test_without_a_draft_an_empty_plan_is_sent_back() -> None:
    shell = {**ENTWURF, "aufgaben": [], "gruppe_b": None}
    with pytest.raises(ModelRetry, match="keinen Entwurf mit Aufgaben"):
        expand_plan(KlausurPlan(), shell, [])
    with pytest.raises(ModelRetry, match="'aufgaben' ist leer"):
        expand_plan(KlausurPlan(aufgaben=[]), ENTWURF, [])


def test_the_plan_schema_a_model_is_sent_stays_small() -> None:
    """The output schema is in every request of the specialist: optional fields without null branches or titles."""
    schema = json.dumps(KlausurPlan.model_json_schema(), ensure_ascii=False)
    assert '"null"' not in schema and '"title"' not in schema.replace('"titel"', "")
    assert estimate_tokens(schema) < 700
