"""An exam or worksheet as parsed from a document: tasks, sub-tasks, points, AFB, operators, and the notes
for the teacher where the document's numbers disagree."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from core.uploads.annotations import strip_annotations
from core.uploads.operators import OperatorTable, find_operator


@dataclass
class ParsedTask:
    nummer: str
    lines: list[str] = field(default_factory=list)
    text: str = ""
    punkte: float | int | None = None
    afb: str | None = None
    afb_abgeleitet: bool = False
    operator: str | None = None
    teilaufgaben: list[ParsedTask] = field(default_factory=list)
    bonus: bool = False
    teil: str | None = None
    sub_style: str | None = None  # letter | number | dotted

    def finish(self, table: OperatorTable) -> None:
        texts = []
        for line in self.lines:
            text, points, afb = strip_annotations(line)
            if points is not None and self.punkte is None:
                self.punkte = points
            if afb is not None and self.afb is None:
                self.afb = afb
            if text:
                texts.append(text)
        self.text = "\n".join(texts)
        self.operator = find_operator(self.text, table)
        if self.afb is None and self.operator:
            self.afb, self.afb_abgeleitet = table.afb.get(self.operator), True
        for sub in self.teilaufgaben:
            sub.finish(table)

    @property
    def points_total(self) -> float | int | None:
        if self.punkte is not None:
            return self.punkte
        subs = [s.punkte for s in self.teilaufgaben]
        return sum(subs) if subs and all(p is not None for p in subs) else None

    def as_content(self) -> dict[str, Any]:
        out: dict[str, Any] = {"nummer": self.nummer, "text": self.text}
        if self.punkte is not None:
            out["punkte"] = self.punkte
        if self.afb:
            out["afb"] = self.afb
            if self.afb_abgeleitet:
                out["afb_abgeleitet"] = True
        if self.operator:
            out["operator"] = self.operator
        if self.bonus:
            out["bonus"] = True
        if self.teil:
            out["teil"] = self.teil
        if self.teilaufgaben:
            out["teilaufgaben"] = [s.as_content() for s in self.teilaufgaben]
        return out


@dataclass
class ParsedExam:
    titel: str | None
    fach: str | None
    fach_im_dokument: str | None
    klassenstufe: int | None
    dauer_minuten: int | None
    gesamtpunkte: float | int | None
    aufgaben: list[ParsedTask]
    vorspann: str
    nachspann: str
    hinweise: list[str]

    @property
    def punkte_summe(self) -> float | int | None:
        values = [t.points_total for t in self.aufgaben if not t.bonus]
        return sum(v for v in values if v is not None) if any(v is not None for v in values) else None

    @property
    def teilaufgaben_anzahl(self) -> int:
        return sum(len(t.teilaufgaben) for t in self.aufgaben)

    def all_tasks(self) -> list[ParsedTask]:
        return [x for t in self.aufgaben for x in (t, *t.teilaufgaben)]

    def content(self, *, quelle_datei: str, upload_id: uuid.UUID | str) -> dict[str, Any]:
        out: dict[str, Any] = {"titel": self.titel or PurePath(quelle_datei).stem}
        if self.klassenstufe is not None:
            out["klassenstufe"] = self.klassenstufe
        if self.dauer_minuten is not None:
            out["dauer_minuten"] = self.dauer_minuten
        if self.gesamtpunkte is not None:
            out["gesamtpunkte"] = self.gesamtpunkte
        if self.vorspann:
            out["vorspann"] = self.vorspann
        out["aufgaben"] = [t.as_content() for t in self.aufgaben]
        if self.nachspann:
            out["nachspann"] = self.nachspann
        out["quelle_datei"] = quelle_datei
        out["upload_id"] = str(upload_id)
        return out


def format_points(value: float | int | None) -> str:
    return "–" if value is None else str(value).replace(".", ",")


def exam_notes(exam: ParsedExam) -> list[str]:
    notes = []
    summe = exam.punkte_summe
    if exam.gesamtpunkte is not None and summe is not None and abs(summe - exam.gesamtpunkte) > 1e-9:
        notes.append(f"Die erkannten Punkte ergeben {format_points(summe)}, im Dokument steht als Gesamtpunktzahl "
                     f"{format_points(exam.gesamtpunkte)}. Bitte prüfen.")
    for t in exam.aufgaben:
        subs = [s.punkte for s in t.teilaufgaben]
        if t.punkte is not None and subs and all(p is not None for p in subs) and abs(sum(subs) - t.punkte) > 1e-9:
            notes.append(f"Aufgabe {t.nummer}: Die Teilaufgaben ergeben {format_points(sum(subs))} Punkte, "
                         f"angegeben sind {format_points(t.punkte)}.")
    missing = [t.nummer for t in exam.aufgaben if t.points_total is None]
    if missing and len(missing) < len(exam.aufgaben):
        notes.append("Ohne erkannte Punkte: Aufgabe " + ", ".join(missing) + ".")
    return notes
