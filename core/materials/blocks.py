"""The building blocks every material shares: AFB levels, sources (Quelle) and structured material (texts, tables).

Field descriptions are written for the model that fills these as structured output.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

AFB = Literal["I", "II", "III"]
AFB_STUFEN: tuple[AFB, ...] = ("I", "II", "III")

HINWEISE_LEHRKRAFT = (
    "Hinweise nur für die Lehrkraft (nie im Schülerblatt): was vom Auftrag abweicht oder fehlt und warum, "
    "z. B. 'Nur 6 statt 10 Fragen: zu Stammbaumanalyse liegen keine geprüften Fragen vor.' Sonst leer."
)


class Quelle(BaseModel):
    """What a task builds on, so that a teacher (and the grounding check) can trace it."""

    art: Literal["curriculum", "good_practice", "upload", "generator", "notiz", "eigene"] = Field(
        description=(
            "curriculum (aus search_curriculum), good_practice (aus get_good_practices bzw. compose_draft), "
            "generator (Rechenaufgabe aus compose_draft), notiz (Klassen-/Schulnotiz), upload, eigene."
        )
    )
    ref: str = Field(description="Die ref genau wie vom Werkzeug geliefert; bei 'eigene' ein kurzer Hinweis.")
    titel: str = Field(
        default="",
        description="Lesbarer Titel; darf leer bleiben, das System ergänzt ihn aus der Quelle.",
    )



class Tabelle(BaseModel):
    """A real table (Klimadaten, Messreihe): column heads and rows of cells."""

    spalten: list[str] = Field(description="Spaltenköpfe, mit Einheiten, z. B. ['Monat', 'Temperatur in °C'].")
    zeilen: list[list[str]] = Field(description="Zeilen; jede Zeile hat so viele Zellen wie es Spalten gibt.")


class MaterialBlock(BaseModel):
    """Structured material of a task: a text with line numbers (poem, source, excerpt) or a table."""

    titel: str = Field(description="Überschrift des Materials, z. B. 'M1 Klimadaten Kairo' oder den Gedichttitel.")
    art: Literal["gedicht", "prosa", "sachtext", "drama", "quelle", "darstellung", "tabelle", "text", "fall"] = Field(
        default="text", description="Art des Materials."
    )
    text: str | None = Field(default=None, description="Der Text, Zeilen mit \\n getrennt; null bei Tabellen.")
    tabelle: Tabelle | None = Field(default=None, description="Die Tabelle; null bei Texten.")
    zeilennummern: bool = Field(default=False, description="true, wenn der Text mit Zeilennummern gedruckt wird.")
    quelle: str = Field(default="", description="Quellenangabe bzw. 'selbst verfasst'.")

