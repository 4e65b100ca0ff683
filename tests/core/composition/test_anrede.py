"""An Oberstufe exam addresses its pupils in the Sie-form, a Sek-I exam in the du-form — one form per material.
Seen in a „Mathe LK 12 Kurvendiskussion und Extremwertprobleme“ exam: „Berechnen Sie …“ from the bank next to
„Untersuche …“ and „Bestimme …“ from the generators."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from core.composition.anrede import siezen
from tests.core.composition.test_named_parts import compose

DU = re.compile(
    r"(^|[.!?:;]\s|\n|,\s|\bund\s)(Bestimme|Berechne|Untersuche|Gib|Ermittle|Zeige|Begründe|Erläutere|"
    r"Beschreibe|Erkläre|Nenne|Skizziere|Zeichne|Stelle|Löse|Runde|Beurteile|Analysiere|Vergleiche|"
    r"Interpretiere|Achte)\b|\b(du|dein\w*|dich|dir)\b",
    re.I,
)
SIE = re.compile(r"\b[A-ZÄÖÜ][a-zäöüß]+(en|ern|eln) Sie\b|\bIhre?[nmrs]?\b")
QUOTED = re.compile(r"„[^“]*“")


@pytest.mark.parametrize(
    ("du", "sie"),
    [
        (
            "Bestimme die Ableitung von f und gib die Steigung an. Runde auf zwei Stellen.",
            "Bestimmen Sie die Ableitung von f und geben Sie die Steigung an. Runden Sie auf zwei Stellen.",
        ),
        (
            "Analysiere M2: Beschreibe die Entwicklung und erläutere, warum sie so verläuft.",
            "Analysieren Sie M2: Beschreiben Sie die Entwicklung und erläutern Sie, warum sie so verläuft.",
        ),
        (
            "Beziehe dich auf mindestens zwei Werke, die du im Unterricht gelesen hast.",
            "Beziehen Sie sich auf mindestens zwei Werke, die Sie im Unterricht gelesen haben.",
        ),
        (
            "Stelle die Gleichung auf, ermittle x und wähle eine Lösung deiner Wahl.",
            "Stellen Sie die Gleichung auf, ermitteln Sie x und wählen Sie eine Lösung Ihrer Wahl.",
        ),
        (
            "Die Werte findest du im Material. Werte über 5 gelten als hoch.",
            "Die Werte finden Sie im Material. Werte über 5 gelten als hoch.",
        ),
        (
            "Deute die Formel „Verweile doch! du bist so schön!“ (M3).",
            "Deuten Sie die Formel „Verweile doch! du bist so schön!“ (M3).",
        ),
        # stop 22's held-out Sie exams (Bio LK 13, Geschichte LK 12, Geo GK 12): an operator right after a quote, an
        # operator the list did not know, a clause after a dash or a label
        (
            "Tim meint: „Im Sommer ist es warm, weil die Erde dann näher an der Sonne ist.“ Beurteile diese "
            "Aussage.",
            "Tim meint: „Im Sommer ist es warm, weil die Erde dann näher an der Sonne ist.“ Beurteilen Sie diese "
            "Aussage.",
        ),
        (
            "Überprüfe die Aussage: „Der HDI misst den Entwicklungsstand eines Landes umfassend.“ Beziehe M1 und "
            "M2 ein.",
            "Überprüfen Sie die Aussage: „Der HDI misst den Entwicklungsstand eines Landes umfassend.“ Beziehen Sie M1 "
            "und M2 ein.",
        ),
        (
            "Unterscheide langfristige Belastungen (z. B. Versailler Vertrag) von kurzfristigen Auslösern.",
            "Unterscheiden Sie langfristige Belastungen (z. B. Versailler Vertrag) von kurzfristigen Auslösern.",
        ),
        (
            "Paula sagt: „Mein Wollpullover wärmt mich.“ Beurteile diese Aussage und schlage einen Versuch vor, der "
            "dein Urteil stützt.",
            "Paula sagt: „Mein Wollpullover wärmt mich.“ Beurteilen Sie diese Aussage und schlagen Sie einen Versuch "
            "vor, der Ihr Urteil stützt.",
        ),
        (
            "Analysiere M1 – beziehe dabei M2 ein. (b) Nimm Stellung zur These.",
            "Analysieren Sie M1 – beziehen Sie dabei M2 ein. (b) Nehmen Sie Stellung zur These.",
        ),
        (
            "Der Begriff „Halde“ wende sich an Fachleute, sagt M2. Erkläre das.",
            "Der Begriff „Halde“ wende sich an Fachleute, sagt M2. Erklären Sie das.",
        ),
    ],
)
def test_du_form_task_texts_read_in_the_sie_form(du: str, sie: str) -> None:
    assert siezen(du) == sie


def _exam(db: Session, fach: str, thema: str, k: int, unterthemen: list[str], dauer: int, niveau: str | None = None):
    comp = compose(db, fach, thema, k, unterthemen, dauer, niveau)
    assert comp.material is not None
    return comp.material


def test_an_oberstufe_exam_with_generated_and_bank_tasks_uses_the_sie_form_throughout(db: Session) -> None:
    exam = _exam(
        db,
        "mathematik",
        "Integralrechnung",  # the bank's context tasks leave room for generated ones here
        12,
        [],
        135,
        "erhoeht",
    )
    assert any(t.quellen and t.quellen[0].art == "generator" for t in exam.teilaufgaben())
    assert any(not t.quellen or t.quellen[0].art != "generator" for t in exam.teilaufgaben())
    for text in [*(t.text for t in exam.teilaufgaben()), *exam.hinweise]:
        plain = QUOTED.sub("", text)
        assert not DU.search(plain), text[:200]
    assert all(SIE.search(t.text) for t in exam.teilaufgaben() if not t.text.startswith(("Wie", "Welche", "Was")))
    assert any("Achten Sie auf die Operatoren" in h for h in exam.hinweise)


def test_a_sek_one_exam_stays_in_the_du_form(db: Session) -> None:
    exam = _exam(db, "mathematik", "Satz des Pythagoras", 9, [], 45)
    for t in exam.teilaufgaben():
        assert not SIE.search(QUOTED.sub("", t.text)), t.text[:200]
    assert any("Achte auf die Operatoren" in h for h in exam.hinweise)


def test_every_bank_task_reads_without_du_in_the_sie_form() -> None:
    """Every task of the bank, as an Oberstufe exam would print it: no du-pronoun and no du-imperative opening a
    sentence, also after a quote, a dash or a label (the held-out Sie exams had „Beurteile diese Aussage“ after a
    quoted claim, „Unterscheide …“ and „Beziehe M1 und M2 ein“)."""
    bank = Path(__file__).parents[3] / "seeds/data/bank"
    opening = re.compile(r"(?:^|[.!?:;]\s+|\)\s+|–\s+)(Beurteile|Unterscheide|Beziehe|Überarbeite|Bereite|Beginne|"
                         r"Kürze|Bezeichne|Schlage|Nimm|Gib|Lies|Erkläre|Begründe|Berechne|Nenne|Beschreibe)\b")
    left = []
    for path in sorted(bank.glob("*/*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")).get("aufgaben", []):
            text = QUOTED.sub("", siezen(str(item.get("aufgabe") or "")))
            if opening.search(text) or re.search(r"\b(du|dein\w*|dich|dir)\b", text):
                left.append(f"{path.stem}: {text[:120]}")
    assert not left, "\n".join(left[:10])
