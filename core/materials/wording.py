"""German counts that read right: "1 Aufgabe", "2 Aufgaben", "1 Hilfekarte" — one place for every text a teacher
or pupil reads."""

from __future__ import annotations

PLURALE = {
    "Aufgabe": "Aufgaben", "Teilaufgabe": "Teilaufgaben", "Hilfekarte": "Hilfekarten", "Frage": "Fragen",
    "Datei": "Dateien", "Punkt": "Punkte", "Stern": "Sterne", "Material": "Materialien", "Version": "Versionen",
    "Änderung": "Änderungen", "Rechenaufgabe": "Rechenaufgaben", "Prüfhinweis": "Prüfhinweise",
    "Hinweis": "Hinweise", "Kriterium": "Kriterien", "Lösung": "Lösungen", "Schritt": "Schritte",
    "Rückfrage": "Rückfragen", "Eintrag": "Einträge", "Paar": "Paare", "Minute": "Minuten", "Präferenz": "Präferenzen",
    "Thema": "Themen", "Unterthema": "Unterthemen", "Niveau": "Niveaus", "Kandidat": "Kandidaten",
}


SINGULARE = {many: one for one, many in PLURALE.items()}


def _plural(noun: str) -> str:
    """A plural for a noun PLURALE does not list: the usual feminine endings, else -e."""
    if noun.endswith(("e", "el", "er")):
        return noun + ("n" if noun.endswith("e") else "")
    return noun + ("en" if noun.endswith(("ung", "heit", "keit", "ion", "schaft", "tät")) else "e")


def anzahl(n: int, noun: str, plural: str | None = None) -> str:
    """'1 Aufgabe', '3 Aufgaben'; a phrase inflects its noun: '1 geprüfte Frage', '2 dreistufige Aufgaben', '1 Aufgabe
    je Niveau'. The noun may be given in either number (the plural from PLURALE unless given)."""
    if plural is not None:
        return f"{n} {noun if n == 1 else plural}"
    words = noun.split(" ")
    head = next((i for i, w in enumerate(words) if w in PLURALE or w in SINGULARE), None)
    if head is None:
        return f"{n} {noun if n == 1 else _plural(noun)}"
    one = SINGULARE.get(words[head], words[head])
    words[head] = one if n == 1 else PLURALE[one]
    return f"{n} {' '.join(words)}"


_MODEL_VOICE = ("; verschiebe Punkte oder Teilaufgaben zwischen den AFB",)


def for_teacher(fault: str) -> str:
    """A check's finding as the teacher reads it: the instruction meant for the model is left out."""
    for hint in _MODEL_VOICE:
        fault = fault.replace(hint, "")
    return fault
