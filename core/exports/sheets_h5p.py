"""The teacher's sheet of an H5P exercise: notes (what is missing and why), then every question with its solution —
to print beside the .h5p and Moodle files, or to check the quiz before it goes to the class."""

from __future__ import annotations

import re

from core.exports.sheet import Box, Heading, Para, Sheet
from core.exports.sheet_common import quelle_text
from core.materials.blocks import Quelle
from core.materials.h5p import FRAGETYP_NAMEN, H5PSet, MultiChoiceFrage, TrueFalseFrage, zerlege_lueckentext
from core.materials.wording import anzahl


def _loesung(frage: object) -> tuple[str, list[str]]:
    if isinstance(frage, MultiChoiceFrage):
        return frage.frage, [f"{'✓' if a.korrekt else '✗'} {a.text}" for a in frage.antworten]
    if isinstance(frage, TrueFalseFrage):
        return frage.frage, [f"Lösung: {'richtig' if frage.wahr else 'falsch'}"]
    teile = zerlege_lueckentext(frage.text, alternativen=frage.typ == "blanks")  # type: ignore[attr-defined]
    text = "".join(t if isinstance(t, str) else "[" + " / ".join(t.antworten) + "]" for t in teile)
    return " ".join(text.split()), []


_GAP = re.compile(r"\*([^*\n]+)\*")


def _quelle(q: Quelle) -> str:
    """A source as listed: a gap text's title („… ist *neutral*.“) shows its gaps as the questions do („[neutral]“),
    not in the H5P markup."""
    return quelle_text(q.model_copy(update={"titel": _GAP.sub(lambda m: f"[{m.group(1)}]", q.titel)}))


def lehrerblatt(s: H5PSet) -> Sheet:
    sheet = Sheet(f"Lösungen – {s.titel}")
    sheet.add(Heading(f"Lösungen und Hinweise: {s.titel}", 1),
              Para.of(f"{s.fach} · Klassenstufe {s.klassenstufe} · Thema: {s.thema} · "
                      f"{anzahl(len(s.fragen), 'Frage')}"))
    hinweise = tuple(h.strip() for h in s.hinweise_lehrkraft if h.strip())
    if hinweise:
        sheet.add(Box("Hinweise für die Lehrkraft", hinweise, fill="FFF4CE"))
    for nummer, frage in enumerate(s.fragen, start=1):
        text, zeilen = _loesung(frage)
        sheet.add(Para.labelled(f"{nummer}. [{FRAGETYP_NAMEN[frage.typ]}] ", text))
        sheet.add(*(Para.of(z, small=True) for z in zeilen))
        if frage.erklaerung:
            sheet.add(Para.of(f"Erklärung: {frage.erklaerung.strip()}", italic=True, small=True))
    if s.quellen:
        sheet.add(Heading("Quellen", 2))
        sheet.bullets([_quelle(q) for q in s.quellen])
    return sheet
