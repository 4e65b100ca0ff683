"""The material request: what the main agent hands to the material generation (Fach, Thema, type, wishes).

Field descriptions are written for the model that fills the request as tool arguments.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from core.materials.blocks import AFB

MaterialType = Literal["klausur", "differenzierung", "h5p"]


class AfbWunsch(BaseModel):
    """A teacher's wish such as 'eine Aufgabe zu Induktion als AFB III'."""

    thema: str = Field(description="Inhalt, zu dem die Lehrkraft eine bestimmte Aufgabe wünscht, z. B. 'Induktion'.")
    afb: AFB = Field(description="Gewünschter Anforderungsbereich dieser Aufgabe.")


class MaterialRequest(BaseModel):
    """What the main agent hands to the material router."""

    fach: str = Field(description="Unterrichtsfach, z. B. 'Physik'.")
    klassenstufe: int | None = Field(default=None, ge=5, le=13, description="Klassenstufe 5 bis 13, falls bekannt.")
    klasse: str | None = Field(default=None, description="Konkrete Klasse, z. B. '10a', falls genannt.")
    thema: str = Field(description="Thema bzw. Unterrichtsreihe.")
    material_type: MaterialType = Field(
        description="'klausur' (Klassenarbeit/Klausur), 'differenzierung' (Arbeitsblatt auf drei Niveaus), 'h5p'."
    )
    dauer_minuten: int | None = Field(default=None, gt=0, le=600, description="Dauer in Minuten, falls genannt.")
    unterthemen: list[str] = Field(
        default_factory=list,
        description="Ausdrücklich genannte Unterthemen, z. B. ['Mendelsche Regeln', 'Stammbaumanalyse']; sonst leer.",
    )
    anzahl: int | None = Field(
        default=None, ge=1, le=40, description="Gewünschte Anzahl Fragen bzw. Aufgaben, falls genannt."
    )
    niveau: Literal["grundlegend", "erhoeht"] | None = Field(
        default=None,
        description="Oberstufe: 'grundlegend' (Grundkurs, gA) oder 'erhoeht' (Leistungskurs, eA), falls genannt.",
    )
    gruppen: bool = Field(
        default=False, description="true, wenn die Lehrkraft Gruppe A und B wünscht (gleiche Klausur, andere Zahlen)."
    )
    zusatz: str = Field(default="", description="Weitere Wünsche der Lehrkraft im Wortlaut bzw. knapp zusammengefasst.")
    afb_ziel: dict[AFB, int] | None = Field(
        default=None,
        description="Gewünschte AFB-Verteilung in Prozent, z. B. {'I': 30, 'II': 40, 'III': 30}; Summe 100.",
    )
    afb_wuensche: list[AfbWunsch] = Field(
        default_factory=list,
        description="Ausdrückliche Wünsche wie 'eine Aufgabe zu Induktion als AFB III'.",
    )

    @model_validator(mode="after")
    def _afb_ziel_sums_to_100(self) -> MaterialRequest:
        if self.afb_ziel is not None:
            if any(v < 0 for v in self.afb_ziel.values()):
                raise ValueError("afb_ziel darf keine negativen Prozentwerte enthalten.")
            if sum(self.afb_ziel.values()) != 100:
                raise ValueError(f"afb_ziel muss sich zu 100 Prozent addieren, ergibt {sum(self.afb_ziel.values())}.")
        return self

