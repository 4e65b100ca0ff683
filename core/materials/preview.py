"""The preview of a stored material on Meine Materialien: tasks with headers and Erwartungshorizont, AFB shares
against the target, the Notenschlüssel table, the three Niveaus, or the H5P questions as lines."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from core.exports.h5p import summary as h5p_summary
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.downloads import StoredFile
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.notenschluessel import format_punkte, format_zahl
from core.materials.quiz import QuizItem, quiz_items


@dataclass(frozen=True)
class TeilaufgabePreview:
    kopf: str  # "1a) Nennen · AFB I · 3 P." — plain text
    text: str
    erwartung: list[str]


@dataclass(frozen=True)
class AufgabePreview:
    kopf: str
    material: str | None
    teile: list[TeilaufgabePreview]


@dataclass
class MaterialDetail:
    id: uuid.UUID
    titel: str
    material_type: str
    files: list[StoredFile]
    faults: list[str]
    info: str = ""
    aufgaben: list[AufgabePreview] = field(default_factory=list)
    afb: dict[str, dict[str, float]] = field(default_factory=dict)  # {"Ist (%)": {"AFB I": 30.0, …}, "Ziel (%)": …}
    notenschluessel: list[dict[str, str]] = field(default_factory=list)
    niveaus: list[tuple[str, list[tuple[str, list[str]]]]] = field(default_factory=list)  # (Niveau, sections)
    h5p_lines: list[str] = field(default_factory=list)
    quiz: list[QuizItem] = field(default_factory=list)  # the H5P set to play as a pupil
    hinweise: list[str] = field(default_factory=list)  # notes for the teacher: a shortfall, a changed duration …


def _klausur_preview(detail: MaterialDetail, content: dict[str, Any], request: dict[str, Any]) -> None:
    k = Klausur.model_validate(content)
    detail.info = (f"{k.dauer_minuten} Minuten · {k.gesamtpunkte} Punkte · Niveau {k.niveau}"
                   + (f" · Hilfsmittel: {', '.join(k.hilfsmittel)}" if k.hilfsmittel else ""))
    for a in k.aufgaben:
        teile = [TeilaufgabePreview(
            kopf=f"{a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · {format_punkte(t.punkte)}", text=t.text,
            erwartung=[f"{e.text} ({format_punkte(e.punkte)})" for e in t.erwartung]) for t in a.teilaufgaben]
        detail.aufgaben.append(AufgabePreview(kopf=f"Aufgabe {a.nummer}: {a.titel} ({format_punkte(a.punkte)})",
                                              material=a.material, teile=teile))
    ziel = request.get("afb_ziel_verwendet") or request.get("afb_ziel") or {}
    detail.afb = {"Ist (%)": {f"AFB {s}": float(v) for s, v in k.afb_anteile.items()}}
    if ziel:
        detail.afb["Ziel (%)"] = {f"AFB {s}": float(ziel.get(s, 0)) for s in k.afb_anteile}
    detail.notenschluessel = [
        {"Note": s.note, "Bezeichnung": s.label,
         "Punkte": f"{format_zahl(s.min_punkte)} – {format_zahl(s.max_punkte)}", "ab %": format_zahl(s.ab_prozent)}
        for s in k.notenschluessel]


def fill_preview(detail: MaterialDetail, content: dict[str, Any], request: dict[str, Any]) -> None:
    """Add the preview of the stored content to `detail`; raises ValidationError for an outdated format."""
    detail.hinweise = [str(h) for h in content.get("hinweise_lehrkraft") or [] if str(h).strip()]
    if detail.material_type == "klausur":
        _klausur_preview(detail, content, request)
    elif detail.material_type == "differenzierung":
        d = DifferenziertesMaterial.model_validate(content)
        detail.info = f"Lernziel: {d.lernziel}"
        detail.niveaus = [(n.name.capitalize(), [("Aufgaben", n.aufgaben), ("Hilfekarten", n.hilfekarten),
                                                 ("Lösungen", n.loesungen)]) for n in d.niveaus]
    elif detail.material_type == "h5p":
        quiz = H5PSet.model_validate(content)
        detail.h5p_lines = h5p_summary(quiz)
        detail.quiz = quiz_items(quiz)

