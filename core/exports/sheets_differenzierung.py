"""The differentiated worksheet as sheets: the pupils' file (one page per Niveau: material, tasks, Hilfekarten;
no solutions, nothing in teacher voice) and the teacher's file (Lernziel, teacher notes, per Niveau the tasks with
their solutions and Hilfekarten, sources)."""

from __future__ import annotations

from core.exports.inner_list import task_parts
from core.exports.printable import pupil_lernziel
from core.exports.sheet import Box, Heading, NameFields, PageBreak, Para, Sheet, TaskLine
from core.exports.sheet_common import material_blocks, quelle_text
from core.materials.differenzierung import NIVEAU_NAMEN, DifferenziertesMaterial, Niveau
from core.materials.wording import anzahl

NIVEAU_SYMBOLE = {"grundlegend": "●", "mittel": "●●", "erweitert": "●●●"}
NIVEAU_TITEL = {"grundlegend": "Grundlegendes Niveau", "mittel": "Mittleres Niveau", "erweitert": "Erweitertes Niveau"}


def geordnet(m: DifferenziertesMaterial) -> list[Niveau]:
    """Niveaus in the order grundlegend, mittel, erweitert, whatever order the model used."""
    rang = {name: i for i, name in enumerate(NIVEAU_NAMEN)}
    return sorted(m.niveaus, key=lambda n: rang.get(n.name, len(rang)))


def niveau_titel(niveau: Niveau) -> str:
    return f"{NIVEAU_SYMBOLE.get(niveau.name, '')} {NIVEAU_TITEL.get(niveau.name, niveau.name)}".strip()


def _aufgabe(i: int, text: str) -> TaskLine:
    """'1.  text' with a hanging indent, the task's own list „a) … b) …“ set line by line when it has one."""
    parts = task_parts(text)
    return TaskLine(label=f"{i}.", text=parts.intro, items=parts.items, tail=parts.tail)


def _nummeriert(sheet: Sheet, texte: list[str]) -> None:
    for i, text in enumerate(texte, start=1):
        sheet.add(_aufgabe(i, text))


def schuelerfassung(m: DifferenziertesMaterial) -> Sheet:
    """One page per Niveau for the pupils. `m` is the printable copy."""
    sheet = Sheet(m.titel)
    ziel = pupil_lernziel(m.lernziel)
    for index, niveau in enumerate(geordnet(m)):
        if index:
            sheet.add(PageBreak())
        sheet.add(NameFields((("Name", ""), ("Datum", ""))), Heading(m.titel, 1), Heading(niveau_titel(niveau), 2),
                  Para.of(f"{m.fach} · Klassenstufe {m.klassenstufe} · Thema: {m.thema}"))
        if ziel:
            sheet.add(Para.labelled("Ziel: ", ziel))
        for block in m.materialien:
            sheet.add(*material_blocks(block, [*niveau.aufgaben, *niveau.hilfekarten]))
        sheet.add(Heading("Aufgaben", 3))
        _nummeriert(sheet, niveau.aufgaben)
        if niveau.hilfekarten:
            sheet.add(Heading("Hilfekarten", 3),
                      Para.of("Nutzen Sie eine Hilfekarte erst, wenn Sie allein nicht weiterkommen."
                              if m.klassenstufe >= 11 else  # Oberstufe: Sie-form, as the tasks (decision 024)
                              "Nutze eine Hilfekarte erst, wenn du allein nicht weiterkommst."))
            for i, karte in enumerate(niveau.hilfekarten, start=1):
                sheet.add(Box(f"Hilfekarte {i}", tuple(p.strip() for p in karte.strip().split("\n\n") if p.strip())))
    return sheet


def lehrerfassung(m: DifferenziertesMaterial) -> Sheet:
    """The teacher's file: Lernziel, notes, per Niveau tasks with solutions and the Hilfekarten, sources."""
    sheet = Sheet(f"Lösungen – {m.titel}")
    sheet.add(Heading(f"Lösungen und Hinweise: {m.titel}", 1),
              Para.of(f"{m.fach} · Klassenstufe {m.klassenstufe} · Thema: {m.thema}"),
              Para.labelled("Lernziel: ", m.lernziel.strip()))
    hinweise = tuple(h.strip() for h in m.hinweise_lehrkraft if h.strip())
    if hinweise:
        sheet.add(Box("Hinweise für die Lehrkraft", hinweise, fill="FFF4CE"))
    for niveau in geordnet(m):
        sheet.add(Heading(f"{niveau_titel(niveau)} ({anzahl(len(niveau.aufgaben), 'Aufgabe')}, "
                          f"{anzahl(len(niveau.hilfekarten), 'Hilfekarte')})", 2))
        for i, aufgabe in enumerate(niveau.aufgaben, start=1):
            sheet.add(_aufgabe(i, aufgabe))
            loesung = niveau.loesungen[i - 1].strip() if i <= len(niveau.loesungen) else ""
            sheet.add(Para.labelled("Lösung: ", loesung or "keine angegeben"))
        if niveau.hilfekarten:
            sheet.add(Para.of("Hilfekarten", bold=True))
            sheet.bullets(niveau.hilfekarten)
    if m.quellen:
        sheet.add(Heading("Quellen", 2))
        sheet.bullets([quelle_text(q) for q in m.quellen])
    return sheet
