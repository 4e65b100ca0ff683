"""The exam model: Klausur, its Aufgaben, Teilaufgaben and Erwartungshorizont criteria.

Totals, AFB shares and the Notenschlüssel are computed from the structure, never supplied by a model.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field
from pydantic.json_schema import SkipJsonSchema

from core.materials.blocks import AFB, AFB_STUFEN, HINWEISE_LEHRKRAFT, MaterialBlock, Quelle
from core.materials.notenschluessel import NotenSchema, Notenstufe, compute_notenschluessel, default_schema


class Kriterium(BaseModel):
    """One line of the Erwartungshorizont."""

    text: str = Field(
        description=(
            "Erwartete Schülerleistung, konkret und prüfbar (z. B. 'nennt U = R · I mit Einheiten'), "
            "keine bloße Wiederholung der Aufgabe."
        )
    )
    punkte: int = Field(ge=1, description="Punkte für dieses Kriterium (ganze Zahl ≥ 1).")


class Teilaufgabe(BaseModel):
    """A sub-task (a, b, c …) with its operator, AFB, points and Erwartungshorizont."""

    label: str = Field(description="Kennbuchstabe der Teilaufgabe innerhalb der Aufgabe: 'a', 'b', 'c' … (eindeutig).")
    operator: str = Field(
        description=(
            "Der Operator, mit dem die Teilaufgabe beginnt, in der Grundform aus der Operatorenliste des Fachs "
            "(z. B. 'Nennen', 'Erklären', 'Beurteilen')."
        )
    )
    text: str = Field(
        description="Aufgabenstellung für die Schülerinnen und Schüler, mit dem Operator formuliert, ohne Punktangabe."
    )
    afb: AFB = Field(
        description=(
            "Anforderungsbereich: 'I' Reproduktion, 'II' Reorganisation und Transfer, 'III' Reflexion und "
            "Problemlösung. Muss zum Operator passen."
        )
    )
    punkte: int = Field(ge=1, description="Punkte der Teilaufgabe; muss genau der Summe der Kriterien entsprechen.")
    erwartung: list[Kriterium] = Field(
        min_length=1,
        description="Erwartungshorizont: Kriterien mit Punkten, deren Summe genau 'punkte' ergibt.",
    )
    quellen: list[Quelle] = Field(
        default_factory=list,
        description="Worauf die Teilaufgabe aufbaut (Lehrplan-Abschnitte, Good Practices, Uploads).",
    )

    @property
    def kennung(self) -> str:
        """The label as printed after the task number: 'b)' or ' b ' -> 'b' (so '2b', never '2b)')."""
        return self.label.strip().rstrip(")").strip()



class Aufgabe(BaseModel):
    """A numbered task of the exam, optionally with material, made of sub-tasks."""

    nummer: int = Field(ge=1, description="Laufende Nummer der Aufgabe in der Klausur: 1, 2, 3 … (eindeutig).")
    titel: str = Field(description="Kurzer Titel der Aufgabe, z. B. 'Reihenschaltung'.")
    material: str | None = Field(
        default=None,
        description=(
            "Optionales Material, das die Schüler für die Aufgabe brauchen (Text, Messwerttabelle als Text, Zitat, "
            "Fallbeschreibung). null, wenn die Aufgabe kein Material hat."
        ),
    )
    materialien: list[MaterialBlock] = Field(
        default_factory=list,
        description="Strukturiertes Material (Texte mit Zeilennummern, Tabellen); leer, wenn keins nötig ist.",
    )
    teilaufgaben: list[Teilaufgabe] = Field(min_length=1, description="Die Teilaufgaben a, b, c … dieser Aufgabe.")

    @property
    def punkte(self) -> int:
        return sum(t.punkte for t in self.teilaufgaben)


class Klausur(BaseModel):
    """An exam (Klassenarbeit/Klausur). Totals, AFB shares and the Notenschlüssel are computed, never supplied."""

    titel: str = Field(description="Titel der Klausur, z. B. '2. Klassenarbeit: Elektrische Stromkreise'.")
    fach: str = Field(description="Unterrichtsfach, z. B. 'Physik'.")
    klassenstufe: int = Field(ge=5, le=13, description="Klassenstufe 5 bis 13.")
    klasse: str | None = Field(default=None, description="Konkrete Klasse, z. B. '10a'; null, wenn nicht bekannt.")
    thema: str = Field(description="Thema bzw. Unterrichtsreihe, die die Klausur abprüft.")
    dauer_minuten: int = Field(gt=0, le=600, description="Bearbeitungszeit in Minuten, z. B. 45 oder 90.")
    niveau: Literal["Sek I", "gA", "eA"] = Field(
        description="'Sek I' für Klassen 5–10, in der Oberstufe 'gA' (grundlegendes) oder 'eA' (erhöhtes Niveau)."
    )
    hilfsmittel: list[str] = Field(
        default_factory=list,
        description="Zugelassene Hilfsmittel, z. B. ['Taschenrechner', 'Formelsammlung']. Leere Liste = keine.",
    )
    hinweise: list[str] = Field(
        default_factory=list,
        description="Hinweise für die Schüler auf dem Aufgabenblatt (z. B. 'Rechenwege angeben.'). Kann leer sein.",
    )
    aufgaben: list[Aufgabe] = Field(description="Die Aufgaben der Klausur in Reihenfolge.")
    # Gruppe B: the same exam with other numbers (parametric tasks re-drawn), made by the composer.
    gruppe_b: SkipJsonSchema[list[Aufgabe] | None] = Field(
        default=None, description="Aufgaben der Gruppe B (gleiche Struktur und Punkte, andere Zahlen)."
    )
    hinweise_lehrkraft: list[str] = Field(default_factory=list, description=HINWEISE_LEHRKRAFT)
    # Hidden from the model's output schema: the scale comes from the school's configuration (router).
    notenschema: SkipJsonSchema[NotenSchema] = Field(
        default_factory=lambda data: default_schema(data.get("klassenstufe", 5), data.get("niveau", "Sek I")),
        description=(
            "Notensystem und Schwellen. Weglassen, dann gilt der Standard passend zu Klassenstufe und Niveau "
            "(Oberstufe: 15-Punkte-System, sonst Noten 1–6). Der Notenschlüssel selbst wird berechnet."
        ),
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def gesamtpunkte(self) -> int:
        return sum(a.punkte for a in self.aufgaben)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def afb_punkte(self) -> dict[AFB, int]:
        punkte: dict[AFB, int] = dict.fromkeys(AFB_STUFEN, 0)
        for teilaufgabe in self.teilaufgaben():
            punkte[teilaufgabe.afb] += teilaufgabe.punkte
        return punkte

    @computed_field  # type: ignore[prop-decorator]
    @property
    def afb_anteile(self) -> dict[AFB, float]:
        """Percent per AFB with one decimal; largest-remainder rounding, so the shares add up to exactly 100."""
        total = self.gesamtpunkte
        if total == 0:
            return dict.fromkeys(AFB_STUFEN, 0.0)
        tenths = {afb: p * 1000 / total for afb, p in self.afb_punkte.items()}
        floored = {afb: int(v) for afb, v in tenths.items()}
        missing = 1000 - sum(floored.values())
        for afb in sorted(AFB_STUFEN, key=lambda a: tenths[a] - floored[a], reverse=True)[:missing]:
            floored[afb] += 1
        return {afb: floored[afb] / 10 for afb in AFB_STUFEN}

    @computed_field  # type: ignore[prop-decorator]
    @property
    def notenschluessel(self) -> list[Notenstufe]:
        return compute_notenschluessel(self.gesamtpunkte, self.notenschema)

    def teilaufgaben(self) -> list[Teilaufgabe]:
        """All sub-tasks in exam order."""
        return [t for a in self.aufgaben for t in a.teilaufgaben]

    def quellen(self) -> list[tuple[Quelle, list[str]]]:
        """Distinct sources with the sub-task references ('1a', '2b') that use them, in order of first use."""
        seen: dict[tuple[str, str], tuple[Quelle, list[str]]] = {}
        for aufgabe in self.aufgaben:
            for teil in aufgabe.teilaufgaben:
                for quelle in teil.quellen:
                    entry = seen.setdefault((quelle.art, quelle.ref), (quelle, []))
                    entry[1].append(f"{aufgabe.nummer}{teil.kennung}")
        return list(seen.values())

