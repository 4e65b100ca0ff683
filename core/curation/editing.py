"""Saving a curator's edit with an optimistic revision check: re-embedded, before/after of what changed in
the audit trail, and a conflict that names who changed the entry first."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import ConflictError, UserError
from core.curation.rows import require_entry, require_global, subject_operators, teacher_names
from core.curation.validation import validate_edit
from core.curation.views import EntryEdit, FieldConflict, Saved, edit_of
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.safety.service import personal_data_in_fields, personal_data_refusal
from db.models import AgentKnowledge, Teacher
from db.repos import curation as repo

FIELD_LABELS: dict[str, str] = {
    "thema": "Thema", "description": "Kurzbeschreibung", "aufgabe": "Aufgabe", "operator": "Operator", "afb": "AFB",
    "punkte": "Punkte", "erwartung": "Erwartung", "kontext": "Kontext", "material": "Material",
    "themenfeld": "Themenfeld", "klassenstufe": "Klassenstufe",
}
TASK_FIELDS = ("aufgabe", "operator", "afb", "punkte", "erwartung", "material", "themenfeld", "klassenstufe")


def _fields(edit: EntryEdit) -> dict[str, Any]:
    values = {"thema": edit.thema, "description": edit.description, "kontext": edit.kontext}
    if edit.is_task:
        values.update({name: getattr(edit, name) for name in TASK_FIELDS})
    return values


def _short(value: Any, limit: int = 300) -> str:
    if isinstance(value, list):
        return "; ".join(f"{k.get('kriterium', '')} ({k.get('punkte', '?')} P.)" for k in value if isinstance(k, dict))
    text = "" if value is None else str(value)
    return text if len(text) <= limit else text[:limit] + " …"


def _who(db: Session, row: AgentKnowledge, curator: Teacher) -> str:
    last = repo.last_change(db=db, knowledge_id=row.id)
    if last is not None and last.actor_id == curator.id:
        return "Ihnen (in einem anderen Fenster)"
    if last is not None and last.actor_id:
        return teacher_names(db, {last.actor_id}).get(last.actor_id, "einer anderen Person")
    return "einer anderen Person"


def merge_edits(base: EntryEdit, mine: EntryEdit, current: EntryEdit) -> tuple[EntryEdit, list[FieldConflict]]:
    """Three-way merge of an edit: the stored version now (`current`) plus the fields I changed against the version
    my form started from (`base`). A field both of us changed to different values is a conflict (mine is kept in
    the merged edit, so the form shows it; the curator decides before saving again)."""
    b, m, c = _fields(base), _fields(mine), _fields(current)
    merged = replace(current)
    conflicts = []
    for key in m:
        if m[key] == b.get(key):
            continue  # not changed by me: theirs stays
        setattr(merged, key, m[key])
        if c.get(key) != b.get(key) and c.get(key) != m[key]:
            conflicts.append(FieldConflict(feld=FIELD_LABELS[key], gespeichert=_short(b.get(key)),
                                           aktuell=_short(c.get(key)), ihre=_short(m[key])))
    return merged, conflicts


def _conflict(db: Session, row: AgentKnowledge, edit: EntryEdit, curator: Teacher,
              base: EntryEdit | None) -> ConflictError:
    """Which fields collide: against the version the form started from (`base`) only the fields I changed and they
    changed too; without a base, every field where my value differs from the stored one."""
    who, current = _who(db, row, curator), edit_of(row)
    if base is not None:
        _, clashes = merge_edits(base, edit, current)
        listed = "; ".join(f"{c.feld}: jetzt „{c.aktuell}“, Ihre Fassung „{c.ihre}“" for c in clashes)
        return ConflictError(f"Dieser Eintrag wurde inzwischen von {who} geändert (Version {row.revision}). "
                             f"Dieselben Felder haben Sie auch geändert — {listed}. Bitte „Mit der aktuellen "
                             f"Version zusammenführen“ wählen, die Felder prüfen und erneut speichern.")
    now = _fields(current)
    attempted, _ = validate_edit(edit, fach=row.fach, operators={})
    mine = {k: v for k, v in _fields(attempted).items() if v != now.get(k)}
    listed = "; ".join(f"{FIELD_LABELS[k]}: „{_short(v)}“" for k, v in mine.items()) or "keine abweichenden Werte"
    return ConflictError(f"Dieser Eintrag wurde inzwischen von {who} geändert. Bitte neu laden — Ihre Änderungen: "
                         f"{listed}")


def save(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, expected_revision: int, edit: EntryEdit,
         base: EntryEdit | None = None, action: str = "curate.edit") -> Saved:
    """Validate, then store with an optimistic revision check; re-embeds and records before/after of what changed.

    With `base` (the version the form was opened with) a stale save is merged when the other change touched other
    fields; only fields both changed differently are refused, listed with the stored value and mine."""
    row = require_entry(repo.get_entry(db=db, knowledge_id=knowledge_id))
    require_global(row, "hier bearbeiten")
    if row.status != "active":
        raise UserError("Dieser Eintrag ist ausgemustert. Bitte zuerst wieder aktivieren, dann bearbeiten.")
    merged_note = ""
    if row.revision != expected_revision:
        if base is None or merge_edits(base, edit, edit_of(row))[1]:
            raise _conflict(db, row, edit, curator, base)
        merged_note = f" Zusammengeführt mit der Änderung von {_who(db, row, curator)} (Version {row.revision})."
        edit, expected_revision = merge_edits(base, edit, edit_of(row))[0], row.revision
    if edit.is_task != edit_of(row).is_task:
        raise UserError("Die Art des Eintrags passt nicht zum Formular. Bitte neu laden.")
    clean, faults = validate_edit(edit, fach=row.fach, operators=subject_operators(db, row.fach))
    if faults:
        raise UserError("Nicht gespeichert – bitte korrigieren:\n" + "\n".join(f"- {f}" for f in faults))
    old, new = _fields(edit_of(row)), _fields(clean)
    changed = [k for k in new if new[k] != old.get(k)]
    if not changed:
        return Saved(revision=row.revision, message="Keine Änderungen – nichts gespeichert.", changed=False)
    personal = personal_data_in_fields({FIELD_LABELS[k]: new[k] for k in changed})  # only what this edit wrote
    if personal:
        raise UserError(personal_data_refusal(personal))
    content = dict(row.content or {})
    for key in changed:
        if key not in ("thema", "description"):
            if key == "material" and not new[key]:
                content[key] = None
            elif key == "klassenstufe" and new[key] is None:
                content.pop(key, None)
            else:
                content[key] = new[key]
    text = knowledge_text(content=content, thema=clean.thema, description=clean.description)
    revision = repo.update_if_revision(
        db=db, knowledge_id=row.id, expected_revision=expected_revision,
        values={"thema": clean.thema, "description": clean.description or None, "content": content,
                "search_text": text, "embedding": embed_documents([text])[0],
                "embedding_model": embedding_model_name()},
    )
    if revision is None:  # someone saved between our read and our write
        fresh = require_entry(repo.get_entry(db=db, knowledge_id=row.id))
        raise _conflict(db, fresh, edit, curator, base)
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action=action,
                    before={k: old.get(k) for k in changed}, after={k: new[k] for k in changed})
    names = ", ".join(FIELD_LABELS[k] for k in changed)
    return Saved(revision=revision, message=f"Gespeichert (Version {revision}): {names}.{merged_note}", changed=True)
