"""Patch operations on a stored Klausur, as the models a real model fills as tool arguments (and the rules build).

Addresses ("2b" = Aufgabe 2, Teilaufgabe b) always refer to the numbering before the patch; `RegenerateInstruction`
carries a change too large for patch operations.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from core.materials.blocks import MaterialBlock, Quelle

_ZIEL = ("Adresse wie in der Klausur: '2b' = Aufgabe 2, Teilaufgabe b; '2' = ganze Aufgabe 2. Gilt immer für die "
         "Nummerierung VOR dieser Änderung, auch für spätere Operationen derselben Änderung.")


class KriteriumNeu(BaseModel):
    """One line of a new Erwartungshorizont."""

    text: str = Field(description="Erwartete Schülerleistung, konkret und prüfbar.")
    punkte: int = Field(description="Punkte für dieses Kriterium (ganze Zahl ≥ 1).")


class TeilaufgabeNeu(BaseModel):
    """A new sub-task; its label is given automatically, its points are the sum of its criteria."""

    operator: str = Field(description="Operator aus der Operatorenliste des Fachs, z. B. 'Erklären'.")
    text: str = Field(description="Aufgabenstellung, mit dem Operator formuliert, ohne Punktangabe.")
    afb: str = Field(description="Anforderungsbereich 'I', 'II' oder 'III'; muss zum Operator passen.")
    erwartung: list[KriteriumNeu] = Field(description="Erwartungshorizont; die Summe ergibt die Punkte.")
    quellen: list[Quelle] = Field(default_factory=list, description="Quellen (ref wie von den Werkzeugen geliefert).")


class AufgabeNeu(BaseModel):
    """A new task with at least one sub-task."""

    titel: str = Field(description="Kurzer Titel der Aufgabe.")
    material: str | None = Field(default=None, description="Optionales Material (Text, Tabelle als Text).")
    materialien: list[MaterialBlock] = Field(
        default_factory=list, description="Strukturiertes Material (Titel 'M3 …', fortlaufend nach dem Material der "
                                          "Klausur); leer, wenn keins nötig ist.")
    teilaufgaben: list[TeilaufgabeNeu] = Field(description="Die Teilaufgaben in Reihenfolge (mindestens eine).")


def _op_required(schema: dict[str, Any]) -> None:
    """The discriminator has a default (handy in Python) but a model must always send it."""
    schema["required"] = ["op", *[r for r in schema.get("required", []) if r != "op"]]


class _Op(BaseModel):
    model_config = ConfigDict(json_schema_extra=_op_required)


class ReplaceText(_Op):
    """Replace the text of a sub-task, or the title/material of a task (whole field, or one passage of it)."""

    op: Literal["replace_text"] = "replace_text"
    ziel: str = Field(description=_ZIEL)
    feld: Literal["text", "titel", "material"] = Field(
        default="text", description="text = Aufgabentext einer Teilaufgabe; titel/material = einer ganzen Aufgabe.")
    text: str = Field(description="Der neue Wortlaut (mit 'alt': der Ersatz für genau diese Stelle).")
    alt: str | None = Field(default=None, description="Optional: nur diese Textstelle ersetzen statt des Feldes.")


class SetPoints(_Op):
    """Give a sub-task new points; its criteria are scaled proportionally."""

    op: Literal["set_points"] = "set_points"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe nur, wenn sie genau eine Teilaufgabe hat.")
    punkte: int = Field(description="Neue Punktzahl (ganze Zahl ≥ 1).")


class SetAfb(_Op):
    """Move a sub-task (or every sub-task of a task) to another AFB: it is rewritten for the new level (operator,
    demand, Erwartungshorizont, points) and the exam is kept within its AFB target."""

    op: Literal["set_afb"] = "set_afb"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe ändert alle ihre Teilaufgaben.")
    afb: str = Field(description="Neuer Anforderungsbereich: 'I', 'II' oder 'III'.")
    operator: str | None = Field(
        default=None, description="Optional der neue Operator; ohne Angabe wird ein passender gewählt, falls nötig.")
    neu_fassen: bool = Field(
        default=True, description="true: Aufgabentext, Operator und Erwartungshorizont werden für den neuen AFB neu "
                                  "gefasst; false nur, wenn die Lehrkraft Text und Erwartungshorizont selbst vorgibt "
                                  "(dann ändert sich nur die Einstufung).")
    ausgleichen: bool = Field(
        default=True, description="true: die Teilaufgabe wird für den neuen AFB neu gefasst (Aufgabe aus der "
                                  "Aufgabensammlung oder erweiterte Anforderung) und die Klausur danach ins AFB-Ziel "
                                  "gebracht (andere Teilaufgaben oder Punkte); false nur, wenn die Lehrkraft die "
                                  "Abweichung vom AFB-Ziel ausdrücklich in Kauf nimmt.")


class SetOperator(_Op):
    """Give a sub-task another operator (the leading verb of its text follows)."""

    op: Literal["set_operator"] = "set_operator"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe nur, wenn sie genau eine Teilaufgabe hat.")
    operator: str = Field(description="Operator aus der Operatorenliste des Fachs, in der Grundform.")


class AddSubtask(_Op):
    """Add a sub-task to a task."""

    op: Literal["add_subtask"] = "add_subtask"
    ziel: str = Field(description="Die Aufgabe, z. B. '2'. " + _ZIEL)
    teilaufgabe: TeilaufgabeNeu
    position: int | None = Field(default=None, description="Stelle in der Aufgabe (1 = zuerst); ohne Angabe: ans Ende.")


class RemoveSubtask(_Op):
    """Remove a sub-task (a task keeps at least one)."""

    op: Literal["remove_subtask"] = "remove_subtask"
    ziel: str = Field(description=_ZIEL)


class MoveSubtask(_Op):
    """Move a sub-task to another place within its task."""

    op: Literal["move_subtask"] = "move_subtask"
    ziel: str = Field(description=_ZIEL)
    position: int = Field(description="Neue Stelle in der Aufgabe: 1 = zuerst, -1 = ans Ende.")


class AddTask(_Op):
    """Add a whole task."""

    op: Literal["add_task"] = "add_task"
    aufgabe: AufgabeNeu
    position: int | None = Field(default=None, description="Stelle in der Klausur (1 = zuerst); ohne Angabe: ans Ende.")


class RemoveTask(_Op):
    """Remove a whole task (the exam keeps at least one)."""

    op: Literal["remove_task"] = "remove_task"
    ziel: str = Field(description="Die Aufgabe, z. B. '4'. " + _ZIEL)


class MoveTask(_Op):
    """Move a whole task to another place."""

    op: Literal["move_task"] = "move_task"
    ziel: str = Field(description="Die Aufgabe, z. B. '2'. " + _ZIEL)
    position: int = Field(description="Neue Stelle in der Klausur: 1 = zuerst, -1 = ans Ende.")


class RewriteErwartung(_Op):
    """Replace the Erwartungshorizont of a sub-task; its points become the sum of the new criteria."""

    op: Literal["rewrite_erwartung"] = "rewrite_erwartung"
    ziel: str = Field(description=_ZIEL + " Eine ganze Aufgabe nur, wenn sie genau eine Teilaufgabe hat.")
    erwartung: list[KriteriumNeu] = Field(description="Die neuen Kriterien mit Punkten (mindestens eines).")


PatchOp = Annotated[
    ReplaceText | SetPoints | SetAfb | SetOperator | AddSubtask | RemoveSubtask | MoveSubtask | AddTask | RemoveTask
    | MoveTask | RewriteErwartung,
    Field(discriminator="op"),
]
PATCH_OPS: TypeAdapter[list[PatchOp]] = TypeAdapter(list[PatchOp])


class RegenerateInstruction(BaseModel):
    """A change too large for patch operations, with the parameters the offline rules can act on."""

    anweisung: str = Field(description="Die Anweisung der Lehrkraft im Wortlaut.")
    aufgabe: int | None = Field(default=None, description="Nur diese Aufgabe überarbeiten (z. B. 'leichter').")
    teil: str | None = Field(default=None, description="Nur diese Teilaufgabe der Aufgabe (z. B. 'b').")
    richtung: Literal["leichter", "schwerer"] | None = None
    dauer_minuten: int | None = None
    laenge: Literal["kuerzer", "laenger"] | None = None
    rechnen: Literal["mehr", "weniger"] | None = None
