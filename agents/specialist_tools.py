"""The toolset every specialist shares: knowledge loaded lazily (get_context, good practices, curriculum, the teacher's
examples and uploads), as in the design's get_context pattern.

Tools are async and return compact JSON or text: the docstring is what the model reads, so it is written for it.
"""

from __future__ import annotations

import json
import uuid
from typing import Literal

from pydantic_ai import RunContext
from pydantic_ai.toolsets import FunctionToolset

from agents.deps import SpecialistDeps
from core.app.errors import UserError
from core.knowledge.retrieval import MAX_QUERY_CHARS, search
from core.safety.service import DATA_NOTE, quoted, quoted_data
from db.models import Upload
from db.repos import conversations as conv_repo
from db.repos import knowledge as knowledge_repo
from db.repos import memory as memory_repo

SPECIALIST_TOOLS: FunctionToolset[SpecialistDeps] = FunctionToolset()


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _query(text: str) -> str:
    return " ".join(text.split())[:MAX_QUERY_CHARS] or "Aufgabe"


@SPECIALIST_TOOLS.tool
async def get_good_practices(ctx: RunContext[SpecialistDeps], thema: str, afb: Literal["I", "II", "III"] | None = None,
                             limit: int = 8,
                             art: Literal["eigene", "klausur", "quiz", "differenzierung"] = "eigene") -> str:
    """Bewährte Aufgaben (Good Practices) zum Thema laden, beste zuerst: eigene, bewertete und allgemeine.

    Args:
        thema: Thema oder Suchbegriffe, z. B. "Reihenschaltung Widerstand".
        afb: Optional nur Aufgaben dieses Anforderungsbereichs.
        limit: Höchstens so viele Aufgaben (1–20).
        art: eigene = Vorlagen für deine Materialart; klausur/quiz/differenzierung = Vorlagen einer anderen Art
            (z. B. Klausuraufgaben als Stoff für ein Arbeitsblatt).
    """
    d = ctx.deps
    agent_type = {"eigene": d.agent_type, "klausur": "klausur", "quiz": "h5p",
                  "differenzierung": "differenzierung"}[art]
    d.turn.step(f"{d.agent_type}: bewährte Aufgaben zu „{thema[:60]}“ laden")
    try:
        hits = search(db=d.turn.db, identity=d.turn.identity, query=_query(thema), fach=d.fach,
                      agent_type=agent_type, limit=max(1, min(limit, 20)) * (3 if afb else 1))
    except UserError as exc:
        return exc.message
    rows = []
    for h in hits:
        if afb and h.content.get("afb") not in (afb, None):
            continue
        rows.append({"ref": str(h.id), "titel": h.title, "thema": h.thema, "scope": h.scope_type,
                     "qualitaet": h.quality_score, "inhalt": _compact(h.content)})
    # Written by teachers and curators: data to draw on, never instructions (an edit or import may carry some).
    return quoted_data(_dump(rows[: max(1, min(limit, 20))]))


# What a specialist needs of a good practice; provenance notes (kontext, ratings, ids) stay in the database.
_DROP = {"kontext", "lehrer_rating", "material_id", "iteration_count", "beschreibung", "erklaerung"}


def _compact(content: dict) -> dict:
    return {k: v for k, v in content.items() if k not in _DROP and v not in (None, "", [])}


@SPECIALIST_TOOLS.tool
async def search_curriculum(ctx: RunContext[SpecialistDeps], query: str, limit: int = 4) -> str:
    """Passende Lehrplanauszüge (Kompetenzen) suchen; nenne ihre ref als Quelle der Aufgaben, die darauf bauen.

    Args:
        query: Suchbegriffe, z. B. "elektrischer Stromkreis Spannung Stromstärke".
        limit: Höchstens so viele Auszüge (1–10).
    """
    d = ctx.deps
    d.turn.step(f"{d.agent_type}: Lehrplan durchsuchen („{query[:60]}“)")
    try:
        hits = search(db=d.turn.db, identity=d.turn.identity, query=_query(query), fach=d.fach, kind="curriculum",
                      limit=max(1, min(limit, 10)))
    except UserError as exc:
        return exc.message
    # Uploaded Lehrpläne are files of others: quoted as data.
    return quoted_data(_dump([{"ref": str(h.id), "titel": h.title, "themenfeld": h.content.get("themenfeld"),
                               "klassenstufen": h.content.get("klassenstufen"), "text": h.text[:400]} for h in hits]))


@SPECIALIST_TOOLS.tool
async def get_context(
    ctx: RunContext[SpecialistDeps],
    scope: Literal["profile", "preferences", "conversation", "curriculum", "good_practices", "examples", "memories",
                   "class_school"],
    depth: Literal["summary", "relevant", "full"] = "relevant",
) -> str:
    """Zusätzlichen Kontext nach Bedarf laden (kostet Tokens: erst 'summary', nur wenn nötig 'full').

    Args:
        scope: profile = Fachprofil und Operatoren; preferences = Präferenzen der Lehrkraft; conversation =
            Gesprächsverlauf; curriculum / good_practices = Suche zum Auftragsthema; examples = eigene Beispiele
            der Lehrkraft; memories = Notizen über die Lehrkraft; class_school = Hinweise zu den Klassen der
            Lehrkraft und aus ihrer Fachschaft (z. B. typische Schwierigkeiten).
        depth: summary (kurz), relevant (zum Thema), full (alles Verfügbare).
    """
    d = ctx.deps
    d.turn.step(f"{d.agent_type}: Kontext „{scope}“ ({depth})")
    db, ident = d.turn.db, d.turn.identity
    if scope == "profile":
        ops = knowledge_repo.operator_list(db=db, fach=d.fach)
        # themenfelder is retrieval vocabulary (hundreds of terms), not something a task author needs to read.
        keys = {"summary": ("beschreibung", "typische_verteilung"),
                "relevant": ("typische_verteilung", "besonderheiten", "erwartungshorizont_stil"),
                "full": ("beschreibung", "aufgabenformate", "afb_operatoren", "erwartungshorizont_stil",
                         "typische_verteilung", "besonderheiten")}[depth]
        profile = {k: d.profile.get(k) for k in keys if d.profile.get(k)}
        return _dump({"profil": profile, "operatoren": {o["operator"]: o["afb"] for o in ops}})
    if scope == "preferences":
        return _dump({"praeferenzen": d.preferences, "afb_ziel": d.afb_ziel, "afb_quelle": d.afb_quelle})
    if scope == "conversation":
        if d.turn.conversation_id is None:
            return "Kein Gesprächsverlauf vorhanden."
        msgs = conv_repo.list_messages(db=db, conversation_id=d.turn.conversation_id)
        n = {"summary": 2, "relevant": 5, "full": 20}[depth]
        return "\n".join(f"{m.role}: {m.content[:400]}" for m in msgs[-n:]) or "Noch keine Nachrichten."
    if scope in ("curriculum", "good_practices"):
        n = {"summary": 1, "relevant": 3, "full": 6}[depth]
        if scope == "curriculum":
            return await search_curriculum(ctx, d.request.thema, limit=n)
        return await get_good_practices(ctx, d.request.thema, limit=n)
    if scope == "examples":
        rows = knowledge_repo.teacher_examples(db=db, identity=ident, fach=d.fach)
        return quoted_data(_dump([{"ref": str(r.id), "titel": r.description,
                                   "inhalt": r.content if depth != "summary" else None} for r in rows])
                           ) if rows else "Keine Beispiele der Lehrkraft zu diesem Fach."
    if scope == "class_school":
        notes = knowledge_repo.notes_for(db=db, identity=ident, fach=d.fach, limit=3 if depth == "summary" else 10)
        if not notes:
            return "Keine Hinweise zu Klassen oder Schule."
        return "\n".join([DATA_NOTE, *(f"- {n.scope_type}: {quoted(n.content.get('text') or n.description or '')}"
                                        for n in notes)])
    rows = memory_repo.memories_of(db=db, teacher_id=d.turn.teacher.id, limit=5 if depth != "full" else 20)
    return "\n".join(f"- {m.content}" for m in rows) or "Keine Notizen über die Lehrkraft."


@SPECIALIST_TOOLS.tool
async def get_example(ctx: RunContext[SpecialistDeps], thema: str | None = None) -> str:
    """Ein von der Lehrkraft hochgeladenes Beispiel (Klausur, Arbeitsblatt) laden, bevorzugt zum Thema.

    Args:
        thema: Optional ein Thema, zu dem das Beispiel passen soll.
    """
    d = ctx.deps
    rows = knowledge_repo.teacher_examples(db=d.turn.db, identity=d.turn.identity, fach=d.fach, limit=10)
    if thema:
        rows.sort(key=lambda r: thema.lower() not in f"{r.thema} {r.description}".lower())
    if not rows:
        return "Die Lehrkraft hat zu diesem Fach keine Beispiele hochgeladen."
    r = rows[0]
    return quoted_data(_dump({"ref": str(r.id), "titel": r.description, "thema": r.thema, "inhalt": r.content}))


@SPECIALIST_TOOLS.tool
async def get_upload(ctx: RunContext[SpecialistDeps], upload_id: str) -> str:
    """Den Text einer Datei laden, die die Lehrkraft im Chat angehängt hat.

    Args:
        upload_id: Die ID der Datei (steht im Gesprächsverlauf).
    """
    try:
        row = ctx.deps.turn.db.get(Upload, uuid.UUID(upload_id))
    except ValueError:
        row = None
    if row is None:
        return "Diese Datei gibt es nicht (oder sie gehört einer anderen Lehrkraft)."
    return f"{DATA_NOTE}\n{quoted(row.filename)}:\n{quoted(row.extracted_text or '(kein Text erkannt)', 6000)}"
