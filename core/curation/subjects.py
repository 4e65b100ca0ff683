"""A Fach's operator list edited at the curation desk: validated like every curated entry (names, AFB, no
duplicates, every AFB covered), saved with a revision check and recorded in the audit trail. Exam checks,
the curators' own validation and the specialists read the new list from the next request on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import ConflictError, NotFoundError, UserError
from core.curation.views import AFB_STUFEN
from core.materials.faecher import fach_name, normalize_fach
from core.safety.service import personal_data_in_fields, personal_data_refusal
from db.models import Teacher
from db.repos import curation as repo

MAX_OPERATORS = 60


@dataclass(frozen=True)
class OperatorList:
    fach: str
    revision: int
    rows: list[dict[str, str]]  # operator, afb, beschreibung


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else " ".join(str(value).split())


def validate_operators(rows: list[dict[str, Any]]) -> tuple[list[dict[str, str]], list[str]]:
    """Clean rows (empty lines dropped, spelling trimmed) and the faults in German."""
    clean, faults, seen = [], [], set()
    for i, r in enumerate(rows, start=1):
        name, afb, text = _text(r.get("operator")), _text(r.get("afb")).upper(), _text(r.get("beschreibung"))
        if not (name or afb or text):
            continue
        if not name:
            faults.append(f"Zeile {i}: Der Operator fehlt.")
        elif len(name) > 40 or not name[0].isalpha():
            faults.append(f"Zeile {i}: „{name[:40]}“ ist kein Operator (ein Verb, höchstens 40 Zeichen).")
        elif name.casefold() in seen:
            faults.append(f"Zeile {i}: „{name}“ steht doppelt in der Liste.")
        seen.add(name.casefold())
        if afb not in AFB_STUFEN:
            faults.append(f"Zeile {i}: Bitte den Anforderungsbereich als I, II oder III angeben (eingetragen: "
                          f"„{afb or 'nichts'}“).")
        if len(text) > 300:
            faults.append(f"Zeile {i}: Die Beschreibung ist zu lang (höchstens 300 Zeichen).")
        clean.append({"operator": name, "afb": afb, "beschreibung": text})
    missing = [a for a in AFB_STUFEN if a not in {r["afb"] for r in clean}]
    if missing and not faults:
        faults.append(f"Für AFB {', '.join(missing)} steht kein Operator in der Liste – Klausuren brauchen alle drei.")
    if len(clean) > MAX_OPERATORS:
        faults.append(f"Höchstens {MAX_OPERATORS} Operatoren (eingetragen: {len(clean)}).")
    return clean, faults


def operator_list(*, db: Session, fach: str) -> OperatorList:
    key = normalize_fach(fach)
    row = repo.subject_row(db=db, fach=key, knowledge_type="operator_list")
    if row is None:
        raise NotFoundError(f"Für {fach_name(key)} ist keine Operatorenliste angelegt. Bitte `python -m core seed` "
                            f"ausführen.")
    rows = [{"operator": _text(o.get("operator")), "afb": _text(o.get("afb")), "beschreibung": _text(
        o.get("beschreibung"))} for o in (row.content or {}).get("operatoren", []) if isinstance(o, dict)]
    return OperatorList(fach=key, revision=row.revision, rows=rows)


def save_operators(*, db: Session, curator: Teacher, fach: str, rows: list[dict[str, Any]],
                   expected_revision: int) -> str:
    key = normalize_fach(fach)
    row = repo.subject_row(db=db, fach=key, knowledge_type="operator_list", lock=True)
    if row is None:
        raise NotFoundError(f"Für {fach_name(key)} ist keine Operatorenliste angelegt.")
    if row.revision != expected_revision:
        raise ConflictError("Die Operatorenliste wurde inzwischen geändert. Bitte neu laden und die Änderung "
                            "erneut eintragen.")
    clean, faults = validate_operators(rows)
    if faults:
        raise UserError("Nicht gespeichert – bitte korrigieren:\n" + "\n".join(f"- {f}" for f in faults))
    personal = personal_data_in_fields({f"Zeile {i}": [r["operator"], r["beschreibung"]]
                                        for i, r in enumerate(clean, start=1)})
    if personal:  # an operator list reaches every exam of the Fach: no pupil's data in it, nothing written
        raise UserError(personal_data_refusal(personal))
    old = list((row.content or {}).get("operatoren", []))
    if [(o.get("operator"), o.get("afb"), o.get("beschreibung") or "") for o in old] == \
            [(o["operator"], o["afb"], o["beschreibung"]) for o in clean]:
        return "Keine Änderungen – nichts gespeichert."
    row.content = {**(row.content or {}), "operatoren": clean}
    row.revision += 1
    before, after = {o.get("operator") for o in old}, {o["operator"] for o in clean}
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.operators",
                    before={"operatoren": old}, after={"operatoren": clean})
    added, removed = sorted(after - before), sorted(before - after)
    detail = "; ".join(x for x in (f"neu: {', '.join(added)}" if added else "",
                                   f"entfernt: {', '.join(removed)}" if removed else "") if x)
    return (f"Operatorenliste {fach_name(key)} gespeichert (Version {row.revision}, {len(clean)} Operatoren"
            f"{'; ' + detail if detail else ''}). Sie gilt ab der nächsten Anfrage.")
