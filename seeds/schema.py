"""Shape of the seed content files in `seeds/data/<fach>.json`.

Every subject file is validated against `SubjectSeed` before anything is written to the database,
so a typo in the content fails loudly (with the JSON path) instead of seeding half a subject.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

AFB = Literal["I", "II", "III"]
FACH_KEYS = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SubjectProfile(_Strict):
    """The generic profile of a subject: what a good exam in this subject looks like."""

    beschreibung: str = Field(min_length=40)
    aufgabenformate: list[str] = Field(min_length=4)
    afb_operatoren: dict[AFB, list[str]]
    erwartungshorizont_stil: str = Field(description="e.g. 'Rechenschritte mit Einheiten' or 'Inhaltliche Kriterien'")
    typische_verteilung: dict[AFB, int] = Field(description="usual AFB shares in percent, summing to 100")
    formatverteilung: dict[str, int] = Field(description="e.g. {'rechnung': 60, 'theorie': 30, 'experiment': 10}")
    besonderheiten: list[str] = Field(min_length=3)
    themenfelder: dict[str, list[str]] = Field(
        min_length=8, description="topic area -> 6..15 characteristic German terms a teacher or a task would use"
    )

    @model_validator(mode="after")
    def _shares_add_up(self) -> SubjectProfile:
        if sum(self.typische_verteilung.values()) != 100:
            raise ValueError("typische_verteilung must sum to 100")
        if set(self.afb_operatoren) != {"I", "II", "III"}:
            raise ValueError("afb_operatoren needs I, II and III")
        return self


class Operator(_Strict):
    operator: str
    afb: AFB
    beschreibung: str = Field(min_length=10)


class Criterion(_Strict):
    kriterium: str = Field(min_length=5)
    punkte: int = Field(ge=1)


class GoodPractice(_Strict):
    """One complete, curated exam task (a Teilaufgabe) with its Erwartungshorizont."""

    thema: str
    themenfeld: str = Field(description="one key of the profile's themenfelder")
    klassenstufe: int = Field(ge=5, le=13)
    description: str = Field(min_length=10, description="one-line summary for lists and the Wissenskarte")
    aufgabe: str = Field(min_length=30)
    operator: str
    afb: AFB
    punkte: int = Field(ge=1, le=30)
    erwartung: list[Criterion] = Field(min_length=2)
    kontext: str
    material: str | None = Field(default=None, description="optional Material text (table, quote, data) the task uses")

    @model_validator(mode="after")
    def _criteria_add_up(self) -> GoodPractice:
        total = sum(c.punkte for c in self.erwartung)
        if total != self.punkte:
            raise ValueError(f"Erwartung points {total} != punkte {self.punkte}")
        return self


class CurriculumChunk(_Strict):
    """A Lehrplan excerpt, written in our own words and labelled as an example."""

    bundesland: str
    schulform: str
    klassenstufen: list[int] = Field(min_length=1)
    themenfeld: str
    thema: str
    kompetenz: str = Field(min_length=120)
    quelle: str = Field(description="must say it is an example in our own words")
    abschnitt: str


class AnswerOption(_Strict):
    text: str
    korrekt: bool
    feedback: str | None = None


class QuizQuestion(_Strict):
    """Material for the H5P specialist."""

    thema: str
    themenfeld: str
    klassenstufe: int = Field(ge=5, le=13)
    typ: Literal["multichoice", "truefalse", "blanks"]
    frage: str = Field(min_length=10, description="question, statement (truefalse) or cloze text with *gaps* (blanks)")
    antworten: list[AnswerOption] = Field(default_factory=list, description="multichoice only: 3-5 options")
    wahr: bool | None = Field(default=None, description="truefalse only")
    erklaerung: str = Field(min_length=10)

    @model_validator(mode="after")
    def _shape(self) -> QuizQuestion:
        if self.typ == "multichoice":
            if not 3 <= len(self.antworten) <= 5 or sum(a.korrekt for a in self.antworten) != 1:
                raise ValueError("multichoice needs 3-5 options with exactly one correct")
        elif self.typ == "truefalse":
            if self.wahr is None or self.antworten:
                raise ValueError("truefalse needs wahr and no antworten")
        elif "*" not in self.frage or self.frage.count("*") % 2:
            raise ValueError("blanks needs *gaps* in frage")
        return self


class NiveauBlock(_Strict):
    aufgaben: list[str] = Field(min_length=2)
    hilfekarten: list[str] = Field(min_length=1)
    loesungen: list[str] = Field(min_length=2)


class DifferentiatedTask(_Strict):
    """Material for the Differenzierung specialist: one Lernziel on three Niveaus."""

    thema: str
    themenfeld: str
    klassenstufe: int = Field(ge=5, le=13)
    lernziel: str = Field(min_length=20)
    grundlegend: NiveauBlock
    mittel: NiveauBlock
    erweitert: NiveauBlock


class SubjectSeed(_Strict):
    fach: Literal["physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie"]
    name: str
    profile: SubjectProfile
    operatoren: list[Operator] = Field(min_length=12)
    good_practices: list[GoodPractice] = Field(min_length=6)
    curriculum: list[CurriculumChunk] = Field(min_length=10)
    quiz: list[QuizQuestion] = Field(min_length=9)
    differenzierung: list[DifferentiatedTask] = Field(min_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> SubjectSeed:
        ops = {o.operator for o in self.operatoren}
        fields = set(self.profile.themenfelder)
        for i, gp in enumerate(self.good_practices):
            if gp.operator not in ops:
                raise ValueError(f"good_practices[{i}]: operator {gp.operator!r} not in operatoren")
            if gp.themenfeld not in fields:
                raise ValueError(f"good_practices[{i}]: themenfeld {gp.themenfeld!r} not in profile.themenfelder")
        for name, items in (("curriculum", self.curriculum), ("quiz", self.quiz), ("differenzierung",
                                                                                  self.differenzierung)):
            for i, item in enumerate(items):
                if item.themenfeld not in fields:
                    raise ValueError(f"{name}[{i}]: themenfeld {item.themenfeld!r} not in profile.themenfelder")
        for afb, names in self.profile.afb_operatoren.items():
            for n in names:
                if n not in ops:
                    raise ValueError(f"profile.afb_operatoren[{afb}]: {n!r} not in operatoren")
        return self
