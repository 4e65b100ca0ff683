"""What a specialist answers instead of a material: a Rückfrage to the teacher, or an honest Absage.

Both are members of the specialists' output unions ("I need more information" is an output, not an exception).
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class Absage(BaseModel):
    """The specialist cannot make a good material from what it has: it says so plainly, never pads."""

    grund: str = Field(description="Warum kein gutes Material möglich ist, in einem Satz.")
    gefunden: str = Field(description="Was an geprüften Aufgaben gefunden wurde (auch: nichts).")
    optionen: list[str] = Field(description="2 bis 4 konkrete Möglichkeiten für die Lehrkraft.")


class ClarificationRequest(BaseModel):
    """A specialist's Rückfrage to the teacher instead of a material."""

    frage: str = Field(description="Eine konkrete Frage an die Lehrkraft, in einem Satz.")
    kontext: str = Field(description="Warum die Frage nötig ist: was unklar ist und wofür die Antwort gebraucht wird.")
    vorschlaege: list[str] = Field(
        default_factory=list,
        description="2 bis 4 kurze Antwortvorschläge, die die Lehrkraft direkt übernehmen kann.",
    )
