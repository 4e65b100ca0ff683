"""The du-imperative of German operators ('Erklären' -> 'Erkläre', 'Angeben' -> 'Gib … an'), as tasks are phrased."""

from __future__ import annotations

ENGLISCHE_OPERATOREN = frozenset({"name", "state", "describe", "outline", "explain", "compare", "contrast",
                                  "comment", "discuss", "evaluate", "assess", "analyse", "summarise"})

# German du-imperatives of the separable verbs among the operators ("Gib … an").
TRENNBAR = {
    "angeben": ("Gib", "an"), "auswerten": ("Werte", "aus"), "darstellen": ("Stelle", "dar"),
    "einordnen": ("Ordne", "ein"), "herleiten": ("Leite", "her"), "herausarbeiten": ("Arbeite", "heraus"),
    "nachweisen": ("Weise", "nach"), "wiedergeben": ("Gib", "wieder"), "zusammenfassen": ("Fasse", "zusammen"),
    "zuordnen": ("Ordne", "zu"), "ableiten": ("Leite", "ab"), "aufstellen": ("Stelle", "auf"),
}
UNREGELMAESSIG = {"geben": "Gib", "nehmen": "Nimm", "lesen": "Lies", "messen": "Miss", "sehen": "Sieh"}


def imperativ(operator: str) -> tuple[str, str]:
    """du-imperative of a German operator: 'Erklären' -> ('Erkläre', ''), 'Angeben' -> ('Gib', 'an');
    English operators stay as they are."""
    w = operator.strip().casefold()
    if w in ENGLISCHE_OPERATOREN or not w.endswith("n"):
        return operator.strip(), ""
    if w in TRENNBAR:
        return TRENNBAR[w]
    if w in UNREGELMAESSIG:
        return UNREGELMAESSIG[w], ""
    if w.endswith("eln"):
        stamm = w[:-3] + "le"
    elif w.endswith("ern"):
        stamm = w[:-1] + "e"
    elif w.endswith("en"):
        stamm = w[:-2] + "e"
    else:
        stamm = w[:-1]
    return stamm[:1].upper() + stamm[1:], ""
