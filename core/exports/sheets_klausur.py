"""The exam as sheets: the Schülerfassung (tasks, material, points per sub-task; per group A/B when made) and the
Lehrerfassung (teacher notes, Erwartungshorizont per sub-task with totals, AFB overview, Notenschlüssel, sources).

Both are built from the same printable copy, so line numbers and citations agree; the Schülerfassung never shows
anything of the Erwartungshorizont or the teacher notes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.exports.inner_list import task_parts
from core.exports.sheet import Box, Heading, NameFields, Para, Run, Sheet, Table, TaskLine
from core.exports.sheet_common import material_blocks, quelle_text
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Aufgabe, Klausur, Teilaufgabe
from core.materials.notenschluessel import format_punkte, format_zahl


def eckdaten(k: Klausur) -> str:
    hilfsmittel = ", ".join(h.strip() for h in k.hilfsmittel if h.strip()) or "keine"
    return (f"Fach: {k.fach} · Klassenstufe {k.klassenstufe} · Dauer: {k.dauer_minuten} Minuten · "
            f"Hilfsmittel: {hilfsmittel}")


_DAUER = re.compile(r"(Bearbeitungszeit|Dauer|Arbeitszeit):?\s*\d+\s*(Minuten|Min\.)")
_PUNKTE = re.compile(r"(insgesamt (?:sind|können)\s*)\d+(?:,\d+)?(\s*Punkte)")


def agreeing(hinweis: str, k: Klausur) -> str:
    """A pupils' hint that states the time or the total says the header's: an edited or model-written exam may carry
    „Bearbeitungszeit: 90 Minuten“ over a 45-minute header."""
    hinweis = _DAUER.sub(lambda m: f"{m.group(1)}: {k.dauer_minuten} {m.group(2)}", hinweis)
    return _PUNKTE.sub(lambda m: f"{m.group(1)}{format_zahl(k.gesamtpunkte)}{m.group(2)}", hinweis)


def _titel(aufgabe: Aufgabe) -> str:
    return f"Aufgabe {aufgabe.nummer}" + (f": {aufgabe.titel.strip()}" if aufgabe.titel.strip() else "")


def _aufgaben(sheet: Sheet, aufgaben: list[Aufgabe]) -> None:
    for aufgabe in aufgaben:
        einzeln = len(aufgabe.teilaufgaben) == 1
        sheet.add(Heading(_titel(aufgabe), 2))
        if aufgabe.material and aufgabe.material.strip():
            sheet.add(Box("Material", tuple(p.strip() for p in aufgabe.material.split("\n\n") if p.strip())))
        tasks = [t.text for t in aufgabe.teilaufgaben]
        for block in aufgabe.materialien:
            sheet.add(*material_blocks(block, tasks))
        for teil in aufgabe.teilaufgaben:
            parts = task_parts(teil.text)
            # A task of one part needs no 'a)'; its own a), b) … list then cannot clash with ours (inside a
            # Teilaufgabe the printable copy has made it (1), (2) …).
            sheet.add(TaskLine(label="" if einzeln else f"{teil.kennung})", text=parts.intro,
                               points=f"({format_zahl(teil.punkte)} P.)", items=parts.items, tail=parts.tail))


def schuelerfassung(k: Klausur, gruppe: str | None = None) -> Sheet:
    """The pupils' exam sheet (of group `gruppe` when A/B were made). `k` is the printable copy."""
    aufgaben = k.gruppe_b if gruppe == "B" and k.gruppe_b else k.aufgaben
    titel = k.titel + (f" – Gruppe {gruppe}" if gruppe else "")
    sheet = Sheet(titel)
    sheet.add(NameFields((("Name", ""), ("Datum", ""), ("Klasse", k.klasse or ""))), Heading(titel, 1),
              Para.of(eckdaten(k)))
    if k.thema.strip():
        sheet.add(Para.of(f"Thema: {k.thema.strip()}"))
    hinweise = [agreeing(h.strip(), k) for h in k.hinweise if h.strip()]
    if hinweise:
        sheet.add(Para.of("Hinweise", bold=True))
        sheet.bullets(hinweise)
    _aufgaben(sheet, aufgaben)
    sheet.add(Para.of(f"Gesamtpunktzahl: {format_punkte(k.gesamtpunkte)}", bold=True),
              Para.of(f"Erreichte Punktzahl: ________ von {format_zahl(k.gesamtpunkte)}        Note: ________"))
    return sheet


def _ref(aufgabe: Aufgabe, teil: Teilaufgabe) -> str:
    """'2b' — or '2' for an Aufgabe of one part, which the pupils' sheet prints without a letter."""
    return f"{aufgabe.nummer}" if len(aufgabe.teilaufgaben) == 1 else f"{aufgabe.nummer}{teil.kennung}"


def _erwartungen(sheet: Sheet, aufgaben: list[Aufgabe]) -> None:
    for aufgabe in aufgaben:
        sheet.add(Heading(_titel(aufgabe), 2))
        einzeln = len(aufgabe.teilaufgaben) == 1
        for teil in aufgabe.teilaufgaben:
            ref = ("Aufgabe " if einzeln else "Teilaufgabe ") + _ref(aufgabe, teil)
            sheet.add(Para((Run(ref, bold=True),
                            Run(f" – {teil.operator.strip()}, AFB {teil.afb}, {format_punkte(teil.punkte)}"))))
            parts = task_parts(teil.text)
            sheet.add(*(Para.of(x) for x in (parts.intro, *parts.items, parts.tail) if x))
            summe_kriterien = sum(c.punkte for c in teil.erwartung)
            summe = format_zahl(teil.punkte)
            if summe_kriterien != teil.punkte:
                summe = f"{format_zahl(summe_kriterien)} (Teilaufgabe: {format_zahl(teil.punkte)})"
            rows = tuple((c.text.strip(), format_zahl(c.punkte)) for c in teil.erwartung)
            sheet.add(Table(("Kriterium", "Punkte"), (*rows, (f"Summe {ref}", summe)), (0.85, 0.15),
                            sum_row=True, right=(1,)))
        if not einzeln:
            sheet.add(Para.of(f"Summe Aufgabe {aufgabe.nummer}: {format_punkte(aufgabe.punkte)}", bold=True))


def lehrerfassung(k: Klausur, *, afb_ziel: Mapping[str, int] | None = None) -> Sheet:
    """The teacher's version; afb_ziel (percent per AFB) fills the target column of the AFB overview."""
    sheet = Sheet(f"Erwartungshorizont – {k.titel}")
    sheet.add(Heading("Erwartungshorizont", 1), Para.of(k.titel + (f" · Klasse {k.klasse}" if k.klasse else "")),
              Para.of(eckdaten(k)))
    hinweise = tuple(h.strip() for h in k.hinweise_lehrkraft if h.strip())
    if hinweise:
        sheet.add(Box("Hinweise für die Lehrkraft", hinweise, fill="FFF4CE"))
    gruppen = [("A", k.aufgaben), ("B", k.gruppe_b)] if k.gruppe_b else [(None, k.aufgaben)]
    for gruppe, aufgaben in gruppen:
        if gruppe:
            sheet.add(Heading(f"Gruppe {gruppe}", 1))
        _erwartungen(sheet, aufgaben)
    sheet.add(Para.of(f"Gesamtpunktzahl: {format_punkte(k.gesamtpunkte)}", bold=True))
    _afb_und_noten(sheet, k, afb_ziel or {})
    sheet.add(Heading("Quellen", 2))
    quellen = k.quellen()
    if not quellen:
        sheet.add(Para.of("Keine Quellen angegeben."))
    printed = {f"{a.nummer}{t.kennung}": _ref(a, t) for a in k.aufgaben for t in a.teilaufgaben}
    sheet.bullets([f"{quelle_text(q)} – verwendet in {', '.join(printed.get(r, r) for r in refs)}"
                   for q, refs in quellen])
    return sheet


def _afb_und_noten(sheet: Sheet, k: Klausur, ziel: Mapping[str, int]) -> None:
    rows = [(f"AFB {afb}", format_zahl(k.afb_punkte[afb]), f"{format_zahl(k.afb_anteile[afb], 1)} %",
             f"{ziel[afb]} %" if afb in ziel else "–") for afb in AFB_STUFEN]
    rows.append(("Summe", format_zahl(k.gesamtpunkte), "100 %" if k.gesamtpunkte else "–", ""))
    sheet.add(Heading("Anforderungsbereiche", 2),
              Table(("AFB", "Punkte", "Anteil", "Ziel"), tuple(rows), (4, 3, 3, 3), sum_row=True, right=(1, 2, 3)))
    noten = []
    vorige = 100.0
    for stufe in k.notenschluessel:
        spanne = format_zahl(stufe.min_punkte)
        if stufe.max_punkte != stufe.min_punkte:
            spanne += f" – {format_zahl(stufe.max_punkte)}"
        schwelle = f"ab {format_zahl(stufe.ab_prozent)} %" if stufe.ab_prozent else f"unter {format_zahl(vorige)} %"
        noten.append((stufe.note, stufe.label, spanne, schwelle))
        vorige = stufe.ab_prozent
    sheet.add(Heading(f"Notenschlüssel ({k.notenschema.bezeichnung})", 2),
              Table(("Note", "Bezeichnung", "Punkte", "Schwelle"), tuple(noten), (2, 5, 4, 3), right=(2, 3)),
              Para.of(f"Berechnet für eine Gesamtpunktzahl von {format_zahl(k.gesamtpunkte)}; die Mindestpunktzahl "
                      f"jeder Note ist auf halbe Punkte aufgerundet."))
