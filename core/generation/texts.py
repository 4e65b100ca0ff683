"""The texts a generation step returns to the main agent: a Rückfrage with its session marker, an honest Absage.

The main agent reads `RÜCKFRAGE_AN_LEHRER … [session:<id>]` and asks the teacher in its own words.
"""

from __future__ import annotations

import uuid

from core.materials.replies import Absage, ClarificationRequest

NAMES = {"klausur": "Klausur-Assistent", "differenzierung": "Differenzierungs-Assistent", "h5p": "H5P-Assistent"}


def rueckfrage_text(agent_type: str, q: ClarificationRequest, session_id: uuid.UUID) -> str:
    vorschlaege = " | ".join(f"{i}) {v}" for i, v in enumerate(q.vorschlaege, 1)) or "keine"
    return (f"RÜCKFRAGE_AN_LEHRER ({NAMES[agent_type]}): {q.frage}\nKontext: {q.kontext}\n"
            f"Vorschläge: {vorschlaege}\n[session:{session_id}]")


def absage_text(agent_type: str, a: Absage) -> str:
    """What the teacher reads when a specialist cannot make a good material: reason, what exists, options."""
    was = {"klausur": "Klausur", "differenzierung": "ein differenziertes Arbeitsblatt", "h5p": "eine H5P-Übung"}
    text = f"Das kann ich nicht gut erstellen ({was.get(agent_type, 'Material')}): {a.grund}"
    if a.gefunden:
        text += f" Gefunden: {a.gefunden}."
    if a.optionen:
        text += " Möglichkeiten: " + "; ".join(f"({i}) {o}" for i, o in enumerate(a.optionen, 1)) + "."
    return text
