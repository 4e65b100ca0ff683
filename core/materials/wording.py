"""German counts that read right: "1 Aufgabe", "2 Aufgaben", "1 Hilfekarte" — one place for every text a teacher
or pupil reads."""

from __future__ import annotations

PLURALE = {
    "Aufgabe": "Aufgaben", "Teilaufgabe": "Teilaufgaben", "Hilfekarte": "Hilfekarten", "Frage": "Fragen",
    "Datei": "Dateien", "Punkt": "Punkte", "Stern": "Sterne", "Material": "Materialien", "Version": "Versionen",
    "Änderung": "Änderungen", "Rechenaufgabe": "Rechenaufgaben", "Prüfhinweis": "Prüfhinweise",
    "Hinweis": "Hinweise", "Kriterium": "Kriterien", "Lösung": "Lösungen", "Schritt": "Schritte",
}


def anzahl(n: int, singular: str, plural: str | None = None) -> str:
    """'1 Aufgabe', '3 Aufgaben' (the plural from PLURALE unless given)."""
    return f"{n} {singular if n == 1 else (plural or PLURALE.get(singular, singular + 'en'))}"


_MODEL_VOICE = ("; verschiebe Punkte oder Teilaufgaben zwischen den AFB",)


def for_teacher(fault: str) -> str:
    """A check's finding as the teacher reads it: the instruction meant for the model is left out."""
    for hint in _MODEL_VOICE:
        fault = fault.replace(hint, "")
    return fault
