"""Follow-ups about a stored material: an earlier version restored as the newest one ("zurück zu Version 1"), its
files offered again in a format ("auch als PDF?"), and the line the main agent reads about the conversation's
current material and its versions."""

from __future__ import annotations

import difflib
import json
import uuid

from agents.deps import TurnContext
from core.editing.errors import PatchError
from core.editing.loading import own_row
from core.editing.patch import EditOutcome
from core.editing.versions import material_versions
from core.generation.outcomes import MaterialMade
from core.generation.store import NewVersion, store_material
from core.language.followups import FORMATS
from core.materials.klausur import Klausur
from core.materials.stored import parse_material
from core.materials.summaries import version_summary
from db.repos import conversations as conv_repo
from db.repos import materials as material_repo


def restore_version(*, turn: TurnContext, material_id: uuid.UUID | str, version: int) -> EditOutcome:
    """Version `version` of this material's line stored again as the newest version (nothing is overwritten)."""
    row = own_row(turn, material_id)
    versions = material_versions(db=turn.db, teacher=turn.teacher, material_id=row.id)
    wanted = next((v for v in versions if v.version == version), None)
    if wanted is None:
        known = ", ".join(str(v.version) for v in reversed(versions))
        raise PatchError(f"Version {version} gibt es von „{row.titel}“ nicht; vorhanden: {known}.")
    if wanted.id == row.id:
        raise PatchError(f"Version {version} ist bereits die aktuelle Fassung von „{row.titel}“.")
    old = material_repo.get_material(db=turn.db, material_id=wanted.id)
    material = parse_material(old.material_type, old.content)
    changes = [f"Version {version} wiederhergestellt (Stand {wanted.datum})"]
    bearbeitung = {"art": "restore", "von_version": row.version, "von_material": str(row.id),
                   "wiederhergestellt": version, "aenderungen": changes}
    request = {k: v for k, v in (old.request or {}).items() if k != "bearbeitung"}
    afb_ziel = request.get("afb_ziel_verwendet") if old.material_type == "klausur" else None
    new_row, files = store_material(turn, material, material_type=old.material_type, fach=old.fach, request=request,
                                    faults=list(old.validation or []), model_name=old.model_name, afb_ziel=afb_ziel,
                                    version_of=NewVersion(parent=row, bearbeitung=bearbeitung))
    labels = [f.label for f in files]
    faults = [str(f) for f in old.validation or []]
    text = version_summary(material, material_id=new_row.id, version=new_row.version, afb_ziel=afb_ziel, files=labels,
                           changes=changes, faults=faults, parent_version=row.version)
    turn.outcomes.append(MaterialMade(material_id=new_row.id, titel=material.titel, material_type=old.material_type,
                                      files=[f.filename for f in files], validation=faults, version=new_row.version,
                                      parent_id=row.id))
    turn.step(f"Version {version} von {material.titel} als Version {new_row.version} wiederhergestellt")
    return EditOutcome(material_id=new_row.id, parent_id=row.id, version=new_row.version, titel=material.titel,
                       changes=changes, faults=faults, files=labels, text=text)


def material_files(*, turn: TurnContext, material_id: uuid.UUID | str, fmt: str | None = None) -> str:
    """The files of a stored material (in one format when asked), offered again as downloads in the reply."""
    row = own_row(turn, material_id)
    files = material_repo.files_of(db=turn.db, material_id=row.id)
    name = FORMATS.get((fmt or "").casefold())
    if name == "ZIP":
        chosen = files
    else:
        suffix = {"PDF": ".pdf", "DOCX": ".docx", "H5P": ".h5p", "Moodle-XML": ".xml"}.get(name or "", "")
        chosen = [f for f in files if f.filename.casefold().endswith(suffix)] if suffix else files
    turn.outcomes.append(MaterialMade(material_id=row.id, titel=row.titel, material_type=row.material_type,
                                      files=[f.filename for f in files], repeat=True))
    if not chosen:
        have = ", ".join(sorted({f.filename.rsplit(".", 1)[-1].upper() for f in files}))
        return (f"DATEIEN [material:{row.id}]\nVon „{row.titel}“ (Version {row.version}) gibt es keine "
                f"{name or fmt}-Datei; vorhanden sind: {have}. Die Dateien stehen unten zum Herunterladen.")
    liste = ", ".join(f.filename for f in chosen)
    return (f"DATEIEN [material:{row.id}]\n„{row.titel}“ (Version {row.version}) als {name or 'Dateien'}: {liste} — "
            f"unten zum Herunterladen.")


def conversation_materials(*, turn: TurnContext, limit: int = 3) -> str:
    """A line per material of this conversation (newest first) with its versions — what the main agent is told."""
    if turn.conversation_id is None:
        return ""
    rows = [r for mid in conv_repo.materials_in(db=turn.db, conversation_id=turn.conversation_id)
            if (r := material_repo.get_material(db=turn.db, material_id=mid)) is not None]
    edited = {r.parent_id for r in rows}  # a version that was edited is listed under its newest version
    lines = []
    for row in sorted((r for r in rows if r.id not in edited), key=lambda r: (r.created_at, r.version), reverse=True):
        versions = material_versions(db=turn.db, teacher=turn.teacher, material_id=row.id)
        earlier = "; ".join(f"Version {v.version} [material:{v.id}]" for v in versions[1:])
        lines.append(f"- [material:{row.id}] „{row.titel}“ ({row.material_type}), Version {row.version}"
                     + (f"; frühere Versionen: {earlier}" if earlier else ""))
        if len(lines) >= limit:
            break
    return ("Materialien in diesem Gespräch (neueste zuerst; Änderungen immer an der neuesten Version):\n"
            + "\n".join(lines)) if lines else ""


def _readable(row_type: str, content: dict) -> list[str]:
    """A material as the lines a teacher compares: tasks with operator, AFB, points, text and criteria."""
    material = parse_material(row_type, content)
    if isinstance(material, Klausur):
        lines = [f"{material.titel} · {material.dauer_minuten} Min. · {material.gesamtpunkte} Punkte"]
        for a in material.aufgaben:
            lines.append(f"Aufgabe {a.nummer}: {a.titel}")
            for t in a.teilaufgaben:
                lines.append(f"  {a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · {t.punkte} P. — {t.text}")
                lines += [f"      ✓ {k.text} ({k.punkte} P.)" for k in t.erwartung]
        return lines
    return [line for line in json.dumps(content, ensure_ascii=False, indent=1).splitlines() if line.strip()]


def version_lines(*, turn: TurnContext, material_id: uuid.UUID | str, left: int, right: int
                  ) -> list[tuple[str, str, str]]:
    """The two versions of this material's line side by side ('=' same, '-' only left, '+' only right, '~' changed)."""
    row = own_row(turn, material_id)
    ids = {v.version: v.id for v in material_versions(db=turn.db, teacher=turn.teacher, material_id=row.id)}
    missing = [v for v in (left, right) if v not in ids]
    if missing:
        raise PatchError(f"Version {missing[0]} gibt es von „{row.titel}“ nicht; vorhanden: "
                         f"{', '.join(map(str, sorted(ids)))}.")
    a, b = (material_repo.get_material(db=turn.db, material_id=ids[v]) for v in (left, right))
    la, lb = _readable(a.material_type, a.content), _readable(b.material_type, b.content)
    out: list[tuple[str, str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=la, b=lb, autojunk=False).get_opcodes():
        if tag == "equal":
            out += [("=", x, x) for x in la[i1:i2]]
        elif tag == "delete":
            out += [("-", x, "") for x in la[i1:i2]]
        elif tag == "insert":
            out += [("+", "", y) for y in lb[j1:j2]]
        else:
            left_part, right_part = la[i1:i2], lb[j1:j2]
            for k in range(max(len(left_part), len(right_part))):
                out.append(("~", left_part[k] if k < len(left_part) else "", right_part[k] if k < len(right_part)
                            else ""))
    return out
