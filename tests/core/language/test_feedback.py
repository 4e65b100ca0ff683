"""Teachers' reactions to a material (core.language.feedback): phrase -> (kind, aspect) or None."""

from __future__ import annotations

import pytest

from core.language.feedback import classify_feedback

# --- feedback --------------------------------------------------------------------------------------------------------

FEEDBACK_CASES: list[tuple[str, tuple[str, str] | None]] = [
    ("Super, genau so!", ("positive", "gesamt")),
    ("perfekt", ("positive", "gesamt")),
    ("passt", ("positive", "gesamt")),
    ("Passt so, danke!", ("positive", "gesamt")),
    ("Sehr gut, übernehme ich so.", ("positive", "gesamt")),
    ("Klasse!", ("positive", "gesamt")),
    ("👍", ("positive", "gesamt")),
    ("nicht schlecht", ("positive", "gesamt")),
    ("war nicht zu schwer, super", ("positive", "gesamt")),
    ("nicht gut", ("negative", "gesamt")),
    ("gefällt mir nicht", ("negative", "gesamt")),
    ("Aufgabe 2b ist falsch", ("negative", "gesamt")),
    ("👎", ("negative", "gesamt")),
    ("zu schwer", ("negative", "schwierigkeit_zu_hoch")),
    ("Das ist viel zu anspruchsvoll für meine 7er", ("negative", "schwierigkeit_zu_hoch")),
    ("Kannst du Aufgabe 3 etwas leichter machen?", ("negative", "schwierigkeit_zu_hoch")),
    ("zu leicht", ("negative", "schwierigkeit_zu_niedrig")),
    ("Die Aufgaben sind viel zu einfach für eine 10. Klasse.", ("negative", "schwierigkeit_zu_niedrig")),
    ("Gut, aber bitte anspruchsvoller", ("negative", "schwierigkeit_zu_niedrig")),
    ("zu lang", ("negative", "laenge_zu_lang")),
    ("Das schaffen die nie in 45 Minuten, zu viele Aufgaben", ("negative", "laenge_zu_lang")),
    ("Geht das kürzer?", ("negative", "laenge_zu_lang")),
    ("Super, aber zu lang", ("negative", "laenge_zu_lang")),
    ("zu kurz", ("negative", "laenge_zu_kurz")),
    ("Bitte mehr Aufgaben", ("negative", "laenge_zu_kurz")),
    ("keine Multiple Choice", ("negative", "format")),
    ("immer 5 Aufgaben", ("negative", "format")),
    ("Bitte künftig mit Bonusaufgabe", ("negative", "format")),
    ("60:40 Rechnung zu Theorie", ("negative", "format")),
    ("Das Layout ist unübersichtlich", ("negative", "format")),
    ("Super, genau so! Und immer mit Bonusaufgabe.", ("positive", "format")),
    ("Super! Jetzt noch ein Arbeitsblatt dazu.", ("positive", "gesamt")),
    ("Genau so habe ich mir das vorgestellt!", ("positive", "gesamt")),
    ("Die Klausur ist echt gut geworden", ("positive", "gesamt")),
    ("Nee, so nicht.", ("negative", "gesamt")),
    ("Kannst du das nochmal neu machen?", ("negative", "gesamt")),
    ("Das Niveau ist zu hoch", ("negative", "schwierigkeit_zu_hoch")),
    ("Für Klasse 8 zu schwer, sonst super", ("negative", "schwierigkeit_zu_hoch")),
    ("Meine Schüler wären damit unterfordert", ("negative", "schwierigkeit_zu_niedrig")),
    ("Die Aufgaben sind nicht schwer genug", ("negative", "schwierigkeit_zu_niedrig")),
    ("Zu wenig Zeit für so viele Aufgaben", ("negative", "laenge_zu_lang")),
    ("Die Klausur dauert länger als 45 Minuten", ("negative", "laenge_zu_lang")),
    ("Da fehlt noch was, das ist zu wenig", ("negative", "laenge_zu_kurz")),
    ("Bitte keine Zuordnungsaufgaben", ("negative", "format")),
    ("Ich hätte gern immer einen Erwartungshorizont mit Punkten", ("negative", "format")),
    ("Die Formatierung passt nicht", ("negative", "format")),
    # not feedback: new requests, questions, answers to Rückfragen, politeness
    ("Ich brauche eine Klausur zu Optik für die 9a", None),
    ("Ich hätte gern ne Klausur, die nicht zu lang ist", None),
    ("Kannst du mir noch ein Quiz dazu machen?", None),
    ("Wie lang ist die Klausur?", None),
    ("Was bedeutet AFB?", None),
    ("30/40/30 bitte", None),
    ("Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III", None),
    ("Klausur Optik 9a mit 5 Aufgaben", None),
    ("Und jetzt bitte noch eine Klausur für die 10b", None),
    ("Kannst du Aufgabe 2 austauschen?", None),
    ("Danke", None),
    ("ok", None),
    ("", None),
    ("   ", None),
]


@pytest.mark.parametrize(("text", "expected"), FEEDBACK_CASES, ids=[c[0][:50] or "empty" for c in FEEDBACK_CASES])
def test_classify_feedback(text: str, expected: tuple[str, str] | None) -> None:
    feedback = classify_feedback(text)
    if expected is None:
        assert feedback is None
    else:
        assert feedback is not None
        assert (feedback.kind, feedback.aspect) == expected
        assert feedback.text == text.strip()
