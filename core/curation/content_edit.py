"""Editing what an H5P question or a three-level task is made of: the question and its answers (every quiz type),
the learning goal and per level the tasks, help cards and solutions. Validated like an exam task, saved with a
revision check, re-embedded and recorded field by field in the audit trail."""

from __future__ import annotations

import re
import uuid
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import ConflictError, UserError
from core.curation.rows import require_entry, require_global
from core.curation.views import Saved
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.materials.wording import anzahl
from core.safety.service import personal_data_in_fields, personal_data_refusal
from db.models import Teacher
from db.repos import curation as repo

QUIZ_TYPES = ("multichoice", "truefalse", "blanks", "dragtext")
LEVELS = {"grundlegend": "grundlegend", "mittel": "mittel", "erweitert": "erweitert"}
LEVEL_PARTS = {"aufgaben": "Aufgaben", "hilfekarten": "Hilfekarten", "loesungen": "Lösungen"}
CONTENT_LABELS = {"frage": "Frage", "antworten": "Antworten", "wahr": "Richtig/Falsch", "erklaerung": "Erklärung",
                  "lernziel": "Lernziel", **{f"{lvl}": f"Niveau {lvl}" for lvl in LEVELS}}
_GAP = re.compile(r"\*[^*\n]+\*")


def _s(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else str(value).strip()


def validate_quiz(content: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    typ, faults = content.get("typ"), []
    clean = {"frage": _s(content.get("frage")), "erklaerung": _s(content.get("erklaerung"))}
    if typ not in QUIZ_TYPES:
        return clean, [f"Unbekannter Fragetyp „{typ}“."]
    if not clean["frage"]:
        faults.append("Die Frage ist leer – bitte den Fragetext eintragen.")
    elif len(clean["frage"]) > 1000:
        faults.append(f"Die Frage ist zu lang ({len(clean['frage'])} Zeichen, höchstens 1000). Bitte kürzen.")
    if typ == "multichoice":
        answers = [{"text": _s(a.get("text")), "korrekt": bool(a.get("korrekt")), "feedback": _s(a.get("feedback"))}
                   for a in content.get("antworten") or [] if _s(a.get("text")) or _s(a.get("feedback"))]
        if len(answers) < 2:
            faults.append("Eine Auswahlfrage braucht mindestens zwei Antworten.")
        if any(not a["text"] for a in answers):
            faults.append("Eine Antwort hat keinen Text.")
        if not any(a["korrekt"] for a in answers):
            faults.append("Mindestens eine Antwort muss als richtig markiert sein.")
        if len({a["text"].casefold() for a in answers}) < len(answers):
            faults.append("Zwei Antworten sind gleich – bitte eine ändern oder löschen.")
        clean["antworten"] = answers
    elif typ == "truefalse":
        clean["wahr"] = bool(content.get("wahr"))
    elif not _GAP.search(clean["frage"]):
        faults.append("Der Lückentext braucht mindestens eine Lücke: das gesuchte Wort in Sternchen, z. B. *Masse*.")
    return clean, faults


def validate_levels(content: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    clean: dict[str, Any] = {"lernziel": _s(content.get("lernziel"))}
    faults = [] if clean["lernziel"] else ["Das Lernziel ist leer – bitte eintragen."]
    for level in LEVELS:
        parts = content.get(level) or {}
        items = {p: [_s(x) for x in parts.get(p) or [] if _s(x)] for p in LEVEL_PARTS}
        if not items["aufgaben"]:
            faults.append(f"Niveau {level}: mindestens eine Aufgabe eintragen.")
        if items["loesungen"] and len(items["loesungen"]) != len(items["aufgaben"]):
            faults.append(f"Niveau {level}: {anzahl(len(items['aufgaben']), 'Aufgabe')}, aber "
                          f"{anzahl(len(items['loesungen']), 'Lösung')} – zu jeder Aufgabe gehört eine Lösung.")
        if any(len(x) > 1500 for xs in items.values() for x in xs):
            faults.append(f"Niveau {level}: ein Eintrag ist länger als 1500 Zeichen. Bitte kürzen.")
        clean[level] = items
    return clean, faults


def save_content(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, expected_revision: int,
                 content: dict[str, Any], action: str = "curate.edit") -> Saved:
    """Store the edited content of a quiz question or a three-level task (other keys of the content stay)."""
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id))
    require_global(row, "hier bearbeiten")
    if row.status != "active":
        raise UserError("Dieser Eintrag ist ausgemustert. Bitte zuerst wieder aktivieren, dann bearbeiten.")
    if row.revision != expected_revision:
        raise ConflictError("Dieser Eintrag wurde inzwischen geändert. Bitte „Verwerfen und neu laden“ wählen und "
                            "die Änderung erneut eintragen.")
    old = dict(row.content or {})
    if row.agent_type == "h5p":
        clean, faults = validate_quiz({**content, "typ": old.get("typ")})
    elif row.agent_type == "differenzierung":
        clean, faults = validate_levels(content)
    else:
        raise UserError("Klausuraufgaben werden im Formular darüber bearbeitet.")
    if faults:
        raise UserError("Nicht gespeichert – bitte korrigieren:\n" + "\n".join(f"- {f}" for f in faults))
    changed = [k for k, v in clean.items() if old.get(k) != v and not (v in ("", None) and k not in old)]
    if not changed:
        return Saved(revision=row.revision, message="Keine Änderungen – nichts gespeichert.", changed=False)
    personal = personal_data_in_fields({CONTENT_LABELS.get(k, k): clean[k] for k in changed})
    if personal:
        raise UserError(personal_data_refusal(personal))
    new = {**old, **{k: clean[k] for k in changed}}
    text = knowledge_text(content=new, thema=row.thema, description=row.description)
    revision = repo.update_if_revision(db=db, knowledge_id=row.id, expected_revision=expected_revision, values={
        "content": new, "search_text": text, "embedding": embed_documents([text])[0],
        "embedding_model": embedding_model_name()})
    if revision is None:
        raise ConflictError("Dieser Eintrag wurde gerade von jemand anderem gespeichert. Bitte neu laden.")
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action=action,
                    before={k: old.get(k) for k in changed}, after={k: clean[k] for k in changed})
    names = ", ".join(CONTENT_LABELS.get(k, k) for k in changed)
    return Saved(revision=revision, message=f"Gespeichert (Version {revision}): {names}.", changed=True)
