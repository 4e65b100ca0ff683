"""The one German answer of a material set: what was made (with AFB shares and tasks), what waits for an
answer, the notes and conflicts, and the files — plus the tool text with its markers and the turn's outcome."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Literal

from agents.deps import TurnContext
from agents.planner import TYPE_LABELS, Plan
from core.exports.files import safe_name
from core.generation.outcomes import SetMade, TurnError
from core.material_sets.archive import combined_zip
from core.material_sets.records import (
    HEADER_DONE,
    HEADER_QUESTIONS,
    SHORT,
    CollectedQuestion,
    CombinedOutcome,
    PartResult,
    count_text,
    part_name,
)
from core.materials.faecher import fach_name
from db.repos import materials as material_repo


def _material_line(r: PartResult, p: Plan | None) -> str:
    m = r.material
    assert m is not None
    c = m.content or {}
    if m.material_type == "klausur":
        shares = c.get("afb_anteile") or {}
        detail = (f"{c.get('dauer_minuten')} Min., {c.get('gesamtpunkte')} Punkte, AFB "
                  + "/".join(f"{float(shares.get(k, 0)):.0f}" for k in ("I", "II", "III")) + " %")
        ziel = (m.request or {}).get("afb_ziel_verwendet")
        if isinstance(ziel, dict):
            detail += " (Ziel " + "/".join(str(ziel.get(k, 0)) for k in ("I", "II", "III")) + ")"
        titles = [a.get("titel", "") for a in c.get("aufgaben", [])]
        if titles:
            detail += "; Aufgaben: " + "; ".join(titles)
    elif m.material_type == "differenzierung":
        detail = f"drei Niveaus, Lernziel: {c.get('lernziel', '')}".rstrip(": .")
    else:
        detail = count_text(len(c.get("fragen", [])), "Frage", "Fragen")
    follows = ""
    if p is not None and r.part.depends_on and not p.flat:
        src = p.part(r.part.depends_on[0])
        follows = f" — folgt der {SHORT[src.material_type]}" if r.part.topic_from else \
            f" — zur Vorbereitung auf die {SHORT[src.material_type]}"
    return f"**{TYPE_LABELS[m.material_type]}** „{m.titel}“: {detail}{follows}."


def _synthesise(p: Plan | None, results: Sequence[PartResult], conflicts: Sequence[str],
                questions: Sequence[CollectedQuestion], notes: Sequence[str], *, material_count: int,
                file_count: int, zip_name: str | None, intro: str | None = None) -> str:
    lines: list[str] = []
    if intro:
        lines.append(intro)
    elif p is not None:
        shared = {(x.fach, x.klasse or x.klassenstufe) for x in p.parts}
        ctx = ""
        if len(shared) == 1:
            fach, klasse = next(iter(shared))
            ctx = f" ({fach_name(fach or '')}, Klasse {klasse})" if fach and klasse else ""
        ordered = any(x.depends_on for x in p.parts) and not p.flat
        lines.append(f"Ich habe Ihre Anfrage in {len(p.parts)} Materialien aufgeteilt{ctx}"
                     + (" und sie nacheinander passend zueinander erstellt:" if ordered else ":"))
    for n, r in enumerate(results, 1):
        if r.material is not None:
            lines.append(f"{n}. {_material_line(r, p)}")
        elif r.outcome is not None and r.outcome.kind == "rueckfrage":
            lines.append(f"{n}. **{part_name(r.part)}**: wartet auf Ihre Antwort (siehe Rückfragen).")
        elif r.error:
            lines.append(f"{n}. **{part_name(r.part)}**: {r.error}")
    waiting_sources = {q.part_key for q in questions if q.session_id}
    followers = [r for r in results if r.material is not None and set(r.part.depends_on) & waiting_sources]
    if followers:
        lines.append("Hinweis: " + " und ".join(SHORT[r.part.material_type] for r in followers)
                     + " folgt dem geplanten Thema; die Aufgaben der Klausur stehen erst nach Ihrer Antwort fest.")
    if notes:
        lines.append("")
        lines += [f"Hinweis: {n}" for n in notes]
    if conflicts:
        lines.append("")
        lines.append("**Bitte prüfen — das passt nicht ganz zusammen:**")
        lines += [f"- {c}" for c in conflicts]
    if questions:
        lines.append("")
        if any(q.session_id for q in questions):
            lines.append("**Rückfragen** (bitte alle in einer Nachricht beantworten, z. B. „30/40/30, und beim Quiz "
                         "10 Fragen“):")
        else:
            lines.append("**Bevor ich loslege, fehlen noch Angaben:**")
        for n, q in enumerate(questions, 1):
            vorschlaege = f" Vorschläge: {' | '.join(q.vorschlaege)}." if q.vorschlaege else ""
            who = f"{q.label}: " if q.session_id else ""
            lines.append(f"{n}. {who}{q.frage}{vorschlaege}")
    if material_count:
        lines.append("")
        zip_text = f" — einzeln unten oder alle zusammen als ZIP „{zip_name}“" if zip_name else ""
        lines.append(f"**Dateien:** {count_text(file_count, 'Datei', 'Dateien')} zu "
                     f"{count_text(material_count, 'Material', 'Materialien')}{zip_text}.")
    return "\n".join(lines).strip()


def finish(turn: TurnContext, p: Plan | None, results: list[PartResult], conflicts: list[str],
            questions: list[CollectedQuestion], notes: list[str], *, extra_ids: Sequence[uuid.UUID] = (),
            intro: str | None = None) -> CombinedOutcome:
    ids = list(dict.fromkeys([*extra_ids, *(r.material.id for r in results if r.material is not None)]))
    rows = [m for m in (material_repo.get_material(db=turn.db, material_id=i) for i in ids) if m is not None]
    file_count = sum(len(material_repo.files_of(db=turn.db, material_id=m.id)) for m in rows)
    zip_name = f"Materialpaket_{safe_name(f'{fach_name(rows[0].fach)}_{rows[0].thema}', 50)}.zip" if rows else None
    answer = _synthesise(p, results, conflicts, questions, notes, material_count=len(rows), file_count=file_count,
                         zip_name=zip_name, intro=intro)
    zip_bytes = combined_zip(db=turn.db, material_ids=ids, overview=answer) if ids else None
    asked = [q for q in questions if q.session_id]
    kind: Literal["materials", "rueckfrage", "error"] = "rueckfrage" if questions else "materials" if ids else "error"
    turn.outcomes.append(SetMade(material_ids=list(ids), session_ids=[q.session_id for q in asked if q.session_id],
                                 conflicts=list(conflicts), zip_name=zip_name))
    if kind == "error":
        text = f"FEHLER: {answer}"
    else:
        counts = [count_text(len(ids), "Material", "Materialien")]
        if asked:
            counts.append(count_text(len(asked), "Rückfrage", "Rückfragen"))
        if len(asked) < len(questions):
            counts.append(count_text(len(questions) - len(asked), "fehlende Angabe", "fehlende Angaben"))
        if conflicts:
            counts.append(count_text(len(conflicts), "Konflikt", "Konflikte"))
        markers = " ".join([*(f"[material:{i}]" for i in ids), *(f"[session:{q.session_id}]" for q in asked)])
        header = HEADER_QUESTIONS if questions else HEADER_DONE
        text = f"{header} ({', '.join(counts)})\n{answer}" + (f"\n{markers}" if markers else "")
    return CombinedOutcome(kind=kind, text=text, answer=answer, plan=p, parts=results, material_ids=ids,
                           zip_bytes=zip_bytes, zip_name=zip_name, conflicts=list(conflicts),
                           questions=list(questions), notes=list(notes))


def refuse(turn: TurnContext, message: str, p: Plan | None = None) -> CombinedOutcome:
    turn.outcomes.append(TurnError(message))
    return CombinedOutcome(kind="error", text=f"FEHLER: {message}", answer=message, plan=p)
