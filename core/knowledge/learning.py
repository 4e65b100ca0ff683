"""The learning loop: explicit ratings become the teacher's own good practices and preferences; chat wishes become
preferences.

Offline this is rule-based (core.language.feedback/preferences); what it writes is what the next Wissenskarte counts.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import NotFoundError, UserError
from core.checks.gate import task_findings
from core.checks.views import views
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text, quality_from_stars
from core.language.feedback import classify_feedback
from core.language.preferences import extract_preferences
from core.language.rating import explicit_stars, is_yes
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.stored import parse_material
from core.materials.wording import anzahl
from db.models import GeneratedMaterial, Teacher
from db.repos import knowledge as knowledge_repo
from db.repos import materials as material_repo
from db.repos import memory as memory_repo
from db.session import Identity

GOOD_STARS = 4
RATE_HINT = ("Wenn ich mir das Material als bewährt merken soll, bewerten Sie es mit den Sternen unter dem Ergebnis "
             "oder schreiben Sie z. B. „5 Sterne“ oder „bitte so merken“.")
NOT_RATED = "Danke! Gespeichert habe ich nichts – Lob allein ist noch keine Bewertung. " + RATE_HINT
CHANGE_HINT = "Was soll ich ändern? Sagen Sie z. B. „Mach Aufgabe 2 leichter“ oder „Aufgabe 3 streichen“."


def _today() -> str:
    return datetime.now(UTC).strftime("%d.%m.%Y")


def _load(db: Session, teacher: Teacher, material_id: uuid.UUID) -> GeneratedMaterial:
    row = material_repo.get_material(db=db, material_id=material_id)
    if row is None or row.teacher_id != teacher.id:
        raise NotFoundError("Dieses Material gibt es nicht (oder es gehört einer anderen Lehrkraft).")
    return row


def upsert_preferences(*, db: Session, teacher: Teacher, agent_type: str, fach: str, updates: dict[str, Any],
                       source: str) -> dict[str, Any]:
    """Merge `updates` into the teacher's preference row for (agent, Fach); remember where each value came from."""
    row = knowledge_repo.preference_row(db=db, teacher_id=teacher.id, agent_type=agent_type, fach=fach)
    content = dict(row.content) if row is not None else {}
    quellen = dict(content.get("quellen") or {})
    for key, value in updates.items():
        if key == "dinge_vermeiden":
            current = content.get(key) or []
            current = current if isinstance(current, list) else [current]
            value = list(dict.fromkeys([*current, *(value if isinstance(value, list) else [value])]))
        content[key] = value
        quellen[key] = source
    content["quellen"] = quellen
    if row is None:
        knowledge_repo.add_knowledge(
            db=db, agent_type=agent_type, scope_type="teacher", scope_id=teacher.id, owner_id=teacher.id, fach=fach,
            thema=None, knowledge_type="preference", content=content, description=f"Präferenzen {fach}",
            source="conversation", quality_score=0.5,
        )
    else:
        row.content = content
        row.revision += 1
    db.flush()
    return content


def _good_practice_rows(material: GeneratedMaterial, content: Klausur | DifferenziertesMaterial | H5PSet, stars: int,
                        task_ref: str | None) -> list[dict[str, Any]]:
    """Whole tasks (with their Erwartungshorizont) as good-practice rows, in the seed's content shape."""
    kontext = f"Aus „{material.titel}“ ({_today()}), mit {stars} Sternen bewertet"
    rows = []
    if isinstance(content, Klausur):
        for aufgabe in content.aufgaben:
            for teil in aufgabe.teilaufgaben:
                ref = f"{aufgabe.nummer}{teil.kennung}"
                if task_ref and task_ref.replace(" ", "").rstrip(")").lower() not in (ref.lower(), str(aufgabe.nummer)):
                    continue
                rows.append({
                    "external_id": f"material:{material.id}:{ref}", "thema": aufgabe.titel or content.thema,
                    "description": f"{aufgabe.titel}: {teil.text[:120]}",
                    "content": {"themenfeld": content.thema, "klassenstufe": content.klassenstufe, "aufgabe": teil.text,
                                "operator": teil.operator, "afb": teil.afb, "punkte": teil.punkte,
                                "erwartung": [{"kriterium": k.text, "punkte": k.punkte} for k in teil.erwartung],
                                "kontext": kontext, "material": aufgabe.material, "lehrer_rating": stars,
                                "material_id": str(material.id)},
                })
    else:
        data = content.model_dump(mode="json")
        data.update({"kontext": kontext, "lehrer_rating": stars, "material_id": str(material.id)})
        rows.append({"external_id": f"material:{material.id}", "thema": content.thema,
                     "description": content.titel, "content": data})
    return rows


def passing_rows(rows: list[dict[str, Any]], content: Klausur | DifferenziertesMaterial | H5PSet
                 ) -> tuple[list[dict[str, Any]], list[str]]:
    """Only tasks that pass the content gate become good practices (a 5-star rating of filler teaches nothing)."""
    if not isinstance(content, Klausur):
        bad = {f.ref for f in task_findings(views(content), thema=content.thema, check_criteria=False)}
        return (rows, []) if not bad else ([], sorted(bad))
    by_ref = {v.ref: v for v in views(content)}
    keep, dropped = [], []
    for r in rows:
        ref = r["external_id"].rsplit(":", 1)[-1]
        view = by_ref.get(ref)
        if view is not None and task_findings([view], thema=content.thema):
            dropped.append(ref)
        else:
            keep.append(r)
    return keep, dropped


def learn_from_rating(*, db: Session, teacher: Teacher, material: GeneratedMaterial, stars: int,
                      task_ref: str | None = None) -> dict[str, Any]:
    """Good ratings add the tasks to the teacher's good practices and store preferences the material shows."""
    learned: dict[str, Any] = {"good_practices": 0, "preferences": {}}
    content = parse_material(material.material_type, material.content)
    if stars >= GOOD_STARS:
        rows = _good_practice_rows(material, content, stars, task_ref)
        rows, learned["not_learned"] = passing_rows(rows, content)
        texts = [knowledge_text(content=r["content"], thema=r["thema"], description=r["description"]) for r in rows]
        for r, text, vec in zip(rows, texts, embed_documents(texts), strict=True):
            existing = knowledge_repo.find_by_external_id(db=db, external_id=r["external_id"])
            quality = quality_from_stars(stars)
            if existing is not None:
                existing.quality_score = quality_from_stars(stars, previous=existing.quality_score,
                                                            count=existing.rating_count)
                existing.rating_count += 1
                continue
            knowledge_repo.add_knowledge(
                db=db, agent_type=material.material_type, scope_type="teacher", scope_id=teacher.id,
                owner_id=teacher.id, fach=material.fach, thema=(r["thema"] or "")[:200],
                knowledge_type="good_practice", content=r["content"], description=r["description"][:500],
                quality_score=quality, rating_count=1, source="generated", external_id=r["external_id"],
                search_text=text, embedding=vec, embedding_model=embedding_model_name(),
            )
            learned["good_practices"] += 1
        if isinstance(content, Klausur) and task_ref is None:
            prefs: dict[str, Any] = {"aufgaben_anzahl": len(content.aufgaben)}
            used = material.request or {}
            if used.get("afb_quelle") in ("answer", "request") and used.get("afb_ziel_verwendet"):
                prefs["afb_ziel"] = used["afb_ziel_verwendet"]
            learned["preferences"] = prefs
            upsert_preferences(db=db, teacher=teacher, agent_type="klausur", fach=material.fach, updates=prefs,
                               source=f"Bewertung {stars}★ von „{material.titel}“ am {_today()}")
    return learned


def rate_material(*, db: Session, identity: Identity, teacher: Teacher, material_id: uuid.UUID, stars: int,
                  task_ref: str | None = None, comment: str | None = None) -> dict[str, Any]:
    """Store a 1–5 star rating (of the material or one task) and learn from it."""
    if not isinstance(stars, int) or not 1 <= stars <= 5:
        raise UserError("Bitte 1 bis 5 Sterne vergeben.")
    material = _load(db, teacher, material_id)
    material_repo.add_rating(db=db, teacher_id=teacher.id, material_id=material.id, stars=stars, task_ref=task_ref,
                             comment=(comment or "")[:2000] or None)
    if task_ref is None:
        material.rating = stars
    learned = learn_from_rating(db=db, teacher=teacher, material=material, stars=stars, task_ref=task_ref)
    db.flush()
    return learned


def apply_chat_feedback(*, db: Session, identity: Identity, teacher: Teacher, material_id: uuid.UUID, text: str,
                        stars: int | None = None) -> str:
    """Chat words about a material; a German summary of what was stored.

    Only an explicit rating is stored and learned from: stars named in the words („5 Sterne“, „Bewertung: 4/5“,
    „bitte so merken“) or `stars` with a plain yes to the question whether to remember the material. Praise, thanks
    or „Standard passt“ rate nothing (decision 071). Standing wishes („immer 5 Aufgaben“) and complaints („zu
    schwer“) are kept as preferences, as before.
    """
    material = _load(db, teacher, material_id)
    feedback = classify_feedback(text)
    prefs = extract_preferences(text)
    if isinstance(prefs.get("afb_verteilung"), list | tuple) and len(prefs["afb_verteilung"]) == 3:
        # the router and the builders read `afb_ziel` ({"I": …, "II": …, "III": …})
        prefs["afb_ziel"] = dict(zip(("I", "II", "III"), (int(v) for v in prefs.pop("afb_verteilung")), strict=True))
    named = explicit_stars(text)
    if named is not None:
        stars = named
    elif is_yes(text):  # the yes to „Soll ich mir das Material merken?“
        stars = stars or 5
    else:
        stars = None  # praise is no rating, whatever stars a model read into it
    parts = []
    if stars is not None:
        learned = rate_material(db=db, identity=identity, teacher=teacher, material_id=material.id, stars=stars,
                                comment=text[:500])
        parts.append(f"Bewertung gespeichert ({anzahl(stars, 'Stern')})")
        if learned["good_practices"]:
            parts.append(f"{anzahl(learned['good_practices'], 'Aufgabe')} unter Ihren bewährten Aufgaben gespeichert")
        if learned.get("not_learned"):
            parts.append(f"nicht übernommen (ohne Inhalt, doppelt oder nicht zum Thema): "
                         f"{', '.join(learned['not_learned'])}")
        if learned["preferences"]:
            parts.append("Präferenzen übernommen (" + ", ".join(
                f"{k}: {'/'.join(map(str, v.values())) if isinstance(v, dict) else v}"
                for k, v in learned["preferences"].items()) + ")")
    if feedback is not None and feedback.aspect not in ("gesamt", "format"):
        hint = {"schwierigkeit_zu_hoch": "zu schwer", "schwierigkeit_zu_niedrig": "zu leicht",
                "laenge_zu_lang": "zu lang", "laenge_zu_kurz": "zu kurz"}.get(feedback.aspect, feedback.aspect)
        prefs.setdefault("frei", [f"Letzte Rückmeldung: {hint} („{material.titel[:60]}“)"])
    if prefs:
        upsert_preferences(db=db, teacher=teacher, agent_type=material.material_type, fach=material.fach,
                           updates=prefs, source=f"Chat am {_today()}")
        if "frei" not in prefs or len(prefs) > 1:
            parts.append("Wunsch gespeichert: " + ", ".join(k for k in prefs if k != "frei"))
    if parts:
        return "Danke! " + "; ".join(parts) + ". Das fließt in die nächsten Materialien ein."
    if prefs:
        return "Danke für die Rückmeldung! Ich habe sie notiert. " + CHANGE_HINT
    if feedback is not None and feedback.kind == "negative":
        return "Schade. Gespeichert habe ich nichts. " + CHANGE_HINT
    return NOT_RATED


def remember_fact(*, db: Session, teacher: Teacher, fact: str) -> str:
    fact = " ".join((fact or "").split())
    if not fact:
        return "Was soll ich mir merken?"
    memory_repo.add_memory(db=db, teacher_id=teacher.id, content=fact[:500])
    return f"Notiert: {fact[:200]}"
