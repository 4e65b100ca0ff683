"""Grading keys (Notenschlüssel) computed from total points and a grading scheme.

The key is always derived in code from the points of an exam; no model ever supplies it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, Field, model_validator

NotenArt = Literal["oberstufe_15", "sek1_6"]

# Usual KMK-style thresholds of the gymnasiale Oberstufe, points 15 down to 1; below the last one: 0 points.
OBERSTUFE_SCHWELLEN: tuple[float, ...] = (95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40, 33, 27, 20)
# A common Sek-I default for the Noten 1 to 5; below the last one: 6. Schools set their own thresholds
# (Fachkonferenz decision), so this is only the default and every NotenSchema can carry custom values.
SEK1_SCHWELLEN: tuple[float, ...] = (92, 81, 67, 50, 30)

_NOTEN: dict[NotenArt, tuple[tuple[str, str], ...]] = {
    "oberstufe_15": (
        ("15", "sehr gut plus"),
        ("14", "sehr gut"),
        ("13", "sehr gut minus"),
        ("12", "gut plus"),
        ("11", "gut"),
        ("10", "gut minus"),
        ("9", "befriedigend plus"),
        ("8", "befriedigend"),
        ("7", "befriedigend minus"),
        ("6", "ausreichend plus"),
        ("5", "ausreichend"),
        ("4", "ausreichend minus"),
        ("3", "mangelhaft plus"),
        ("2", "mangelhaft"),
        ("1", "mangelhaft minus"),
        ("0", "ungenügend"),
    ),
    "sek1_6": (
        ("1", "sehr gut"),
        ("2", "gut"),
        ("3", "befriedigend"),
        ("4", "ausreichend"),
        ("5", "mangelhaft"),
        ("6", "ungenügend"),
    ),
}

_DEFAULT_SCHWELLEN: dict[NotenArt, tuple[float, ...]] = {
    "oberstufe_15": OBERSTUFE_SCHWELLEN,
    "sek1_6": SEK1_SCHWELLEN,
}


class NotenSchema(BaseModel):
    """Which grading scale applies and from which percentage each grade starts."""

    art: NotenArt = Field(
        description=(
            "Notensystem: 'oberstufe_15' = 15-Punkte-System der gymnasialen Oberstufe (15 bis 0 Punkte), "
            "'sek1_6' = Noten 1 bis 6 der Sekundarstufe I."
        )
    )
    schwellen_prozent: list[float] = Field(
        default_factory=lambda data: [float(v) for v in _DEFAULT_SCHWELLEN.get(data.get("art"), ())],
        description=(
            "Mindestprozentsatz je Note, von der besten Note abwärts, ohne die schlechteste Note "
            "(die gilt unterhalb der letzten Schwelle). 15 Werte für 'oberstufe_15', 5 Werte für 'sek1_6'; "
            "streng fallend, jeder Wert größer als 0 und höchstens 100. Fehlt das Feld, gelten die Standardwerte "
            "(Oberstufe nach KMK, Sek I 92/81/67/50/30) — Schulen legen eigene Werte fest."
        )
    )

    @model_validator(mode="after")
    def _check_schwellen(self) -> NotenSchema:
        expected = len(_NOTEN[self.art]) - 1
        if len(self.schwellen_prozent) != expected:
            raise ValueError(
                f"Für '{self.art}' werden {expected} Schwellen gebraucht, angegeben sind {len(self.schwellen_prozent)}."
            )
        for value in self.schwellen_prozent:
            if not 0 < value <= 100:
                raise ValueError(f"Schwelle {value} liegt nicht im Bereich über 0 bis 100 Prozent.")
        for higher, lower in zip(self.schwellen_prozent, self.schwellen_prozent[1:], strict=False):
            if not lower < higher:
                raise ValueError(f"Die Schwellen müssen streng fallen: {higher} ist nicht größer als {lower}.")
        return self

    @property
    def bezeichnung(self) -> str:
        """German name of the scale for headings."""
        return "15-Punkte-System" if self.art == "oberstufe_15" else "Noten 1–6"


class Notenstufe(BaseModel):
    """One row of a Notenschlüssel: a grade and the range of points that earns it."""

    note: str = Field(description="Note bzw. Notenpunkte, z. B. '2' oder '11'.")
    label: str = Field(description="Bezeichnung, z. B. 'gut' oder 'gut plus'.")
    min_punkte: float = Field(description="Kleinste Punktzahl für diese Note (halbe Punkte).")
    max_punkte: float = Field(description="Größte Punktzahl für diese Note (halbe Punkte).")
    ab_prozent: float = Field(description="Schwelle in Prozent der Gesamtpunktzahl (0 für die schlechteste Note).")


def default_schema(klassenstufe: int, niveau: str) -> NotenSchema:
    """The usual scheme for a class: 15-point scale in the Oberstufe (gA/eA or Klasse 11+), else Noten 1-6.

    Klasse 11 to 13 count as Oberstufe even with niveau "Sek I", because Einführungsphase courses grade on the
    15-point scale in most Länder; a school that differs sets the schema explicitly.
    """
    if niveau in ("gA", "eA") or klassenstufe >= 11:
        return NotenSchema(art="oberstufe_15")
    return NotenSchema(art="sek1_6")


def _ceil_half(value: Fraction) -> Fraction:
    return Fraction(math.ceil(value * 2), 2)


def compute_notenschluessel(gesamtpunkte: float, schema: NotenSchema) -> list[Notenstufe]:
    """Point ranges per grade, best grade first, contiguous in half-point steps from gesamtpunkte down to 0.

    The minimum for a grade is gesamtpunkte * threshold, rounded *up* to the next half point: exams award half
    points, and rounding down would hand out a grade to a student who stayed below its percentage. Arithmetic is
    exact (fractions), so 33 % of 60.5 is 19.965 -> 20, never a float artefact.

    With very small totals two thresholds can fall on the same half point; the lower grade is then unreachable
    and left out, so the rows stay non-overlapping. Returns [] for gesamtpunkte <= 0 (an exam without points).
    """
    total = Fraction(str(gesamtpunkte))
    if total <= 0:
        return []
    if total * 2 != int(total * 2):
        raise ValueError(f"Die Gesamtpunktzahl {gesamtpunkte} ist kein Vielfaches von 0,5.")

    noten = _NOTEN[schema.art]
    rows: list[Notenstufe] = []
    upper = total
    for (note, label), schwelle in zip(noten, schema.schwellen_prozent, strict=False):
        lower = _ceil_half(total * Fraction(str(schwelle)) / 100)
        if lower > upper:
            continue
        rows.append(
            Notenstufe(note=note, label=label, min_punkte=float(lower), max_punkte=float(upper), ab_prozent=schwelle)
        )
        upper = lower - Fraction(1, 2)
    if upper >= 0:
        note, label = noten[-1]
        rows.append(Notenstufe(note=note, label=label, min_punkte=0.0, max_punkte=float(upper), ab_prozent=0.0))
    return rows


def format_punkte(value: float) -> str:
    """'1 Punkt', '4 Punkte', '37,5 Punkte'."""
    return f"{format_zahl(value)} Punkt" if value == 1 else f"{format_zahl(value)} Punkte"


def format_zahl(value: float, nachkommastellen: int | None = None) -> str:
    """German number formatting: 37.5 -> '37,5', 45.0 -> '45'; with nachkommastellen a fixed precision."""
    if nachkommastellen is not None:
        return f"{value:.{nachkommastellen}f}".replace(".", ",")
    if float(value).is_integer():
        return str(int(value))
    return f"{value:g}".replace(".", ",")
