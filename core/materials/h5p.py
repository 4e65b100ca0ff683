"""Interactive H5P exercises: the question types (MultiChoice, TrueFalse, Blanks, DragText) and the H5P set.

Cloze texts follow H5P's own syntax (`*Antwort*`); `zerlege_lueckentext` reads it for exports and checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from core.materials.blocks import HINWEISE_LEHRKRAFT, Quelle

_GAP = re.compile(r"\*([^*]*)\*")


@dataclass(frozen=True)
class Luecke:
    """A gap of a cloze text: accepted answers (first one is the solution) and an optional tip."""

    antworten: tuple[str, ...]
    tipp: str | None


def zerlege_lueckentext(text: str, *, alternativen: bool) -> list[str | Luecke]:
    """Split an H5P cloze text into plain text and gaps, following H5P's syntax.

    `*Antwort*` marks a gap, `:` starts a tip (`*Oslo:Hauptstadt*`). With alternativen=True (Blanks) a `/`
    separates accepted answers (`*Tür/Türe*`); DragText has exactly one answer per gap, so there `/` is literal.
    """
    parts: list[str | Luecke] = []
    pos = 0
    for match in _GAP.finditer(text):
        if match.start() > pos:
            parts.append(text[pos : match.start()])
        inhalt, _, tipp = match.group(1).partition(":")
        antworten = inhalt.split("/") if alternativen else [inhalt]
        parts.append(Luecke(tuple(a.strip() for a in antworten), tipp.strip() or None))
        pos = match.end()
    if pos < len(text):
        parts.append(text[pos:])
    return parts


# Where a question comes from (decision 055): the ref of the bank question it shows unchanged. The checks trust the
# topic its authors filed it under only when that item exists and holds exactly this question.
BankRef = Annotated[
    str | None,
    Field(description="ref der geprüften Frage aus compose_draft, wenn sie unverändert daraus stammt; sonst leer."),
]


class Antwort(BaseModel):
    """An option of a multiple-choice question."""

    text: str = Field(description="Antworttext, kurz und eindeutig.")
    korrekt: bool = Field(description="true, wenn diese Antwort richtig ist.")
    feedback: str | None = Field(
        default=None, description="Optionale Rückmeldung, die erscheint, wenn diese Antwort gewählt wurde."
    )


class MultiChoiceFrage(BaseModel):
    typ: Literal["multichoice"] = Field(default="multichoice", description="Immer 'multichoice'.")
    frage: str = Field(description="Die Frage.")
    antworten: list[Antwort] = Field(
        description="2 bis 10 Antwortoptionen; genau eine richtig, außer 'mehrfach' ist true (dann mindestens eine)."
    )
    mehrfach: bool = Field(default=False, description="true, wenn mehrere Antworten richtig sein dürfen.")
    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )
    quelle: BankRef = None


class TrueFalseFrage(BaseModel):
    typ: Literal["truefalse"] = Field(default="truefalse", description="Immer 'truefalse'.")
    frage: str = Field(description="Eine Aussage, die entweder richtig oder falsch ist.")
    wahr: bool = Field(description="true, wenn die Aussage richtig ist.")
    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )
    quelle: BankRef = None


class BlanksFrage(BaseModel):
    typ: Literal["blanks"] = Field(default="blanks", description="Immer 'blanks'.")
    text: str = Field(
        description=(
            "Lückentext; jede Lücke steht zwischen Sternchen: 'Die Hauptstadt von Norwegen ist *Oslo*.' "
            "Alternative richtige Antworten mit '/' trennen (*Tür/Türe*), ein Tipp folgt nach ':' (*Oslo:Stadt am "
            "Fjord*). Sternchen, '/' und ':' nur so verwenden."
        )
    )

    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )
    quelle: BankRef = None

    def luecken(self) -> list[Luecke]:
        return [p for p in zerlege_lueckentext(self.text, alternativen=True) if isinstance(p, Luecke)]


class DragTextFrage(BaseModel):
    typ: Literal["dragtext"] = Field(default="dragtext", description="Immer 'dragtext'.")
    text: str = Field(
        description=(
            "Text mit Wörtern zum Hineinziehen zwischen Sternchen: '*Oslo* ist die Hauptstadt von Norwegen.' "
            "Pro Lücke genau ein Wort bzw. eine Wortgruppe; ein Tipp folgt nach ':'. Sternchen nur so verwenden."
        )
    )

    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )
    quelle: BankRef = None

    def luecken(self) -> list[Luecke]:
        return [p for p in zerlege_lueckentext(self.text, alternativen=False) if isinstance(p, Luecke)]


FRAGETYP_NAMEN: dict[str, str] = {
    "multichoice": "Multiple Choice",
    "truefalse": "Richtig/Falsch",
    "blanks": "Lückentext",
    "dragtext": "Drag-Text",
}

H5PFrage = Annotated[MultiChoiceFrage | TrueFalseFrage | BlanksFrage | DragTextFrage, Field(discriminator="typ")]


class H5PSet(BaseModel):
    """Interactive exercises exported as .h5p (QuestionSet or a single content type) and Moodle XML."""

    titel: str = Field(description="Titel der Übung.")
    fach: str = Field(description="Unterrichtsfach.")
    klassenstufe: int = Field(ge=5, le=13, description="Klassenstufe 5 bis 13.")
    thema: str = Field(description="Thema der Übung.")
    fragen: list[H5PFrage] = Field(description="Die Fragen in Reihenfolge; Typ über das Feld 'typ'.")
    quellen: list[Quelle] = Field(default_factory=list, description="Worauf die Fragen aufbauen.")
    hinweise_lehrkraft: list[str] = Field(default_factory=list, description=HINWEISE_LEHRKRAFT)

