"""The differentiated worksheet: one Lernziel on three Niveaus (grundlegend, mittel, erweitert).

Field descriptions are written for the model that fills these as structured output.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from core.materials.blocks import HINWEISE_LEHRKRAFT, MaterialBlock, Quelle

NiveauName = Literal["grundlegend", "mittel", "erweitert"]
NIVEAU_NAMEN: tuple[NiveauName, ...] = ("grundlegend", "mittel", "erweitert")


class Niveau(BaseModel):
    """One level of a differentiated worksheet."""

    name: NiveauName = Field(description="'grundlegend', 'mittel' oder 'erweitert'; jedes Niveau genau einmal.")
    aufgaben: list[str] = Field(description="Aufgaben dieses Niveaus, jede als vollständige Aufgabenstellung.")
    hilfekarten: list[str] = Field(
        description="Hilfekarten (gestufte Tipps), die die Schüler bei Bedarf nutzen; mindestens eine."
    )
    loesungen: list[str] = Field(
        description="Genau eine Lösung pro Aufgabe, in derselben Reihenfolge wie 'aufgaben'."
    )


class DifferenziertesMaterial(BaseModel):
    """A worksheet on one Lernziel on three levels (grundlegend, mittel, erweitert)."""

    titel: str = Field(description="Titel des Arbeitsblatts.")
    fach: str = Field(description="Unterrichtsfach, z. B. 'Biologie'.")
    klassenstufe: int = Field(ge=5, le=13, description="Klassenstufe 5 bis 13.")
    thema: str = Field(description="Thema der Stunde bzw. Reihe.")
    lernziel: str = Field(description="Das gemeinsame Lernziel aller drei Niveaus, als Kompetenz formuliert.")
    niveaus: list[Niveau] = Field(
        description="Genau drei Niveaus: 'grundlegend', 'mittel' und 'erweitert', jedes genau einmal."
    )
    materialien: list[MaterialBlock] = Field(
        default_factory=list, description="Material für alle Niveaus (Text, Tabelle); leer, wenn keins nötig ist."
    )
    quellen: list[Quelle] = Field(default_factory=list, description="Worauf das Material aufbaut.")
    hinweise_lehrkraft: list[str] = Field(default_factory=list, description=HINWEISE_LEHRKRAFT)

