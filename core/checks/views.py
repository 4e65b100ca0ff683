"""One flat view of every task in a material (exam sub-task, worksheet task, quiz question) for the content checks.

The checks read what a pupil reads (text and material) and what the teacher grades by (criteria or solutions).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.materials.blocks import MaterialBlock
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import BlanksFrage, DragTextFrage, H5PSet, MultiChoiceFrage, TrueFalseFrage
from core.materials.klausur import Klausur

NIVEAU_BUCHSTABE = {"grundlegend": "A", "mittel": "B", "erweitert": "C"}


@dataclass(frozen=True)
class TaskView:
    """A task as the content checks see it."""

    ref: str  # "2b", "Frage 3", "Niveau B, Aufgabe 2"
    text: str
    kriterien: tuple[str, ...] = ()
    material: str = ""  # the text of the material the task works with (table cells joined)
    operator: str | None = None
    afb: str | None = None
    punkte: int | None = None
    gruppe: str = ""  # tasks of one Aufgabe / Niveau share a group: siblings may share a scenario
    titel: str = ""  # the Aufgabe's title
    refs: tuple[str, ...] = ()  # the good practices it cites or, for a quiz question, shows (their topic may vouch)


def material_text(blocks: list[MaterialBlock], plain: str | None = None) -> str:
    parts = [plain or ""]
    for b in blocks:
        parts.append(b.titel)
        if b.text:
            parts.append(b.text)
        if b.tabelle:
            parts.append(" ".join(b.tabelle.spalten))
            parts.extend(" ".join(z) for z in b.tabelle.zeilen)
    return "\n".join(p for p in parts if p)


_CITED = ("good_practice", "generator")  # what a task is made from: a bank task or a generator


def klausur_views(k: Klausur) -> list[TaskView]:
    out = []
    for a in k.aufgaben:
        mat = material_text(a.materialien, a.material)
        for t in a.teilaufgaben:
            out.append(TaskView(ref=f"{a.nummer}{t.kennung}", text=t.text, kriterien=tuple(c.text for c in t.erwartung),
                                material=mat, operator=t.operator, afb=t.afb, punkte=t.punkte, gruppe=str(a.nummer),
                                titel=a.titel, refs=tuple(q.ref for q in t.quellen if q.art in _CITED)))
    return out


def differenzierung_views(m: DifferenziertesMaterial) -> list[TaskView]:
    out = []
    mat = material_text(m.materialien)
    refs = tuple(q.ref for q in m.quellen if q.art == "good_practice")
    for n in m.niveaus:
        letter = NIVEAU_BUCHSTABE.get(n.name, n.name)
        for i, text in enumerate(n.aufgaben, 1):
            loesung = n.loesungen[i - 1] if i <= len(n.loesungen) else ""
            out.append(TaskView(ref=f"Niveau {letter}, Aufgabe {i}", text=text, kriterien=(loesung,) if loesung else (),
                                gruppe=n.name, material=mat, titel=m.lernziel, refs=refs))
    return out


def _frage_text(f: object) -> tuple[str, tuple[str, ...]]:
    if isinstance(f, MultiChoiceFrage):  # the options are part of what the pupil reads
        richtig = tuple(a.text for a in f.antworten if a.korrekt)
        return " ".join([f.frage, *(a.text for a in f.antworten)]), richtig + ((f.erklaerung,) if f.erklaerung else ())
    if isinstance(f, TrueFalseFrage):
        return f.frage, ((f.erklaerung,) if f.erklaerung else ())
    if isinstance(f, BlanksFrage | DragTextFrage):
        return f.text, ((f.erklaerung,) if f.erklaerung else ())
    return str(f), ()


def h5p_views(s: H5PSet) -> list[TaskView]:
    out = []
    for i, f in enumerate(s.fragen, 1):
        text, kriterien = _frage_text(f)
        refs = (f.quelle,) if f.quelle else ()  # the bank question it shows, if any (decision 055)
        out.append(TaskView(ref=f"Frage {i}", text=text, kriterien=kriterien, gruppe="quiz", refs=refs))
    return out


def views(material: Klausur | DifferenziertesMaterial | H5PSet) -> list[TaskView]:
    if isinstance(material, Klausur):
        return klausur_views(material)
    if isinstance(material, DifferenziertesMaterial):
        return differenzierung_views(material)
    return h5p_views(material)
